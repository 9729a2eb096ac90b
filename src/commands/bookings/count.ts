/**
 * `sitectl bookings count`: how many bookings match `--status`, `--service`, `--from/--to`, `--contact` and/or
 * `--filter`/`--where` (the extended bookings count, docs/bookings.md "The CLI").
 */
import { countVerb } from '../shared/verbs.js';
import { BOOKING_READS } from './shared/reads.js';

export const { register, run } = countVerb(BOOKING_READS);
