/**
 * `sitectl bookings export --ndjson|--csv [fields]|--json [fields]`: every booking matching the list's flags,
 * by start time, streamed (commands/shared/verbs.ts exportVerb).
 */
import { exportVerb } from '../shared/verbs.js';
import { BOOKING_READS } from './shared/reads.js';

export const { register, run } = exportVerb(BOOKING_READS);
