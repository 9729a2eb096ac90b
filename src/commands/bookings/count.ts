/**
 * `sitectl bookings count`: how many bookings match `--status`, `--service`, `--from/--to`, `--contact` and/or
 * `--filter`/`--where` (the extended bookings count, docs/bookings.md "The CLI").
 */
import { extendedBookingOps } from '../../api/extended-bookings.js';
import { countVerb } from '../shared/verbs.js';
import { addCriteriaFlags, criteriaFilter, type CriteriaFlags } from './shared/criteria.js';
import { BOOKING_VIEW } from './shared/view.js';

export const { register, run } = countVerb({
  view: BOOKING_VIEW,
  op: extendedBookingOps.countExtendedBookings,
  request: (filter) => ({ filter: filter ?? {} }),
  read: (reply) => reply.count,
  flags: addCriteriaFlags,
  extra: async (opts, ctx) => ({ filter: await criteriaFilter(opts as CriteriaFlags, ctx) }),
});
