/** `sitectl bookings count`: how many bookings match `--filter`/`--where` (the extended bookings count). */
import { extendedBookingOps } from '../../api/extended-bookings.js';
import { countVerb } from '../shared/verbs.js';
import { BOOKING_VIEW } from './shared/view.js';

export const { register, run } = countVerb({
  view: BOOKING_VIEW,
  op: extendedBookingOps.countExtendedBookings,
  request: (filter) => ({ filter: filter ?? {} }),
  read: (reply) => reply.count,
});
