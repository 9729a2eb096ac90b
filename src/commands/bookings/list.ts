/**
 * `sitectl bookings list`: bookings through the extended bookings query (cursor pages of up to 100), filtered by
 * `--status`, `--service`, `--from/--to`, `--contact` and/or `--filter`/`--where`, with the extras asked for by
 * `--with` (docs/bookings.md "The CLI"). Times on a terminal are on the booking's own clock, or `--tz`'s.
 */
import { listVerb } from '../shared/verbs.js';
import { BOOKING_READS } from './shared/reads.js';

export const { register, run } = listVerb({
  ...BOOKING_READS,
  keys: async () => (await import('./shared/transitions.js')).bookingKeys(),
  description: 'List bookings (by status, service, dates, contact or any filter), by start time',
  examples: [
    'sitectl bookings list --status PENDING,CREATED --from today --to tomorrow',
    "sitectl bookings list --service 'Swedish Massage' --with actions --json id,status,allowedActions",
    'sitectl bookings list --where bookedEntity.slot.resource.id=<staff id> --sort startDate --all --ndjson',
  ],
});
