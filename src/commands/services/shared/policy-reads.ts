/**
 * What `services booking-policies list` and `count` select (commands/shared/verbs.ts ReadSpec): any
 * `--filter`/`--where` over the policy's fields, listed by the Booking Policies v1 query and counted by its count
 * call (docs/wire.md §14 "Booking policies": `POST /v1/booking-policies/query`, `POST /v1/booking-policies/count`).
 */
import { bookingPoliciesFamily } from '../../../api/service-furniture.js';
import type { BookingPolicy } from '../../../api/schemas/service.js';
import { countCall, type ReadSpec } from '../../shared/verbs.js';
import { POLICY_VIEW } from './policy-writes.js';

export const POLICY_READS: ReadSpec<BookingPolicy> = {
  view: POLICY_VIEW,
  count: countCall(bookingPoliciesFamily.operations.countBookingPolicies, (filter) => (filter ? { filter } : {}), (reply) => reply.count),
};
