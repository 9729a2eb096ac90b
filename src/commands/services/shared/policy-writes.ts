/**
 * Booking policies as the one verb engine sees them: the view (over the Booking Policies v1 query,
 * `queryBookingPolicies`) and the entry of the writes table (commands/shared/writes.ts): created, patched at the
 * planned revision and deleted one at a time; a deleted policy is re-created from its before-image (its name,
 * text and rule blocks; never as the default), and the services that used it keep the default policy they were
 * given.
 */
import { bookingPoliciesFamily } from '../../../api/service-furniture.js';
import { BookingPolicy } from '../../../api/schemas/service.js';
import { eachSender } from '../../../bulk/actions.js';
import type { EntityView } from '../../shared/entity-view.js';
import { createCall, patchSender, type WriteSpec } from '../../shared/writes.js';

const ops = bookingPoliciesFamily.operations;

/** A booking policy on the command line (`services booking-policies ...`). */
export const POLICY_VIEW: EntityView<BookingPolicy> = {
  noun: { one: 'booking policy', many: 'booking policies' },
  schema: BookingPolicy,
  columns: [
    { key: 'id', id: true, noTruncate: true },
    { key: 'name' },
    { key: 'default' },
    { key: 'maxParticipants', header: 'MAX/BOOKING', align: 'right', get: (p) => rule(p, 'participantsPolicy').maxParticipantsPerBooking, priority: 2 },
    { key: 'cancelUntil', header: 'CANCEL UNTIL', align: 'right', get: (p) => windowOf(rule(p, 'cancellationPolicy'), 'limitLatestCancellation', 'latestCancellationInMinutes'), priority: 3 },
    { key: 'waitlist', align: 'right', get: (p) => (rule(p, 'waitlistPolicy').enabled ? rule(p, 'waitlistPolicy').capacity : 'off'), priority: 4 },
    { key: 'createdDate', header: 'CREATED', priority: 1 },
  ],
  rows: (p) => Object.entries(p).filter(([, v]) => v !== undefined && v !== null),
  readOnly: ['id', 'revision', 'default', 'createdDate', 'updatedDate'],
  query: ops.queryBookingPolicies,
  label: (p) => p.name ?? undefined,
  filterExample: '{"participantsPolicy.maxParticipantsPerBooking":{"$gt":1}}',
};

/** A rule block of a policy (empty when absent). */
function rule(p: BookingPolicy, name: string): Record<string, unknown> {
  return ((p as Record<string, unknown>)[name] as Record<string, unknown> | undefined) ?? {};
}

/** A cancellation or reschedule window for the table: `off` (not allowed), `any time`, or `N min`. */
function windowOf(block: Record<string, unknown>, limit: string, minutes: string): string {
  if (block.enabled !== true) return 'off';
  return block[limit] === true ? `${String(block[minutes])} min` : 'any time';
}

/** A policy's create body from its before-image: its name, text and rules, without what the platform sets. */
function recreateBody(before: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, revision: _r, default: _d, createdDate: _c, updatedDate: _u, ...rest } = before;
  return rest;
}

export const POLICY_WRITES: WriteSpec & Required<Pick<WriteSpec, 'remove'>> = {
  view: POLICY_VIEW as EntityView<unknown>,
  list: 'services booking-policies list',
  patch: (api, changeOf, seen) =>
    patchSender(api, ops.updateBookingPolicy, (body) => ({ bookingPolicy: { ...body, revision: body.revision ?? '0' } }), (reply) => reply.bookingPolicy as { id: string }, { changeOf, seen }),
  create: createCall(ops.createBookingPolicy, (body) => ({ bookingPolicy: body }), (reply) => reply.bookingPolicy as { id: string }),
  remove: { send: (api) => eachSender(api, ops.deleteBookingPolicy, (item) => ({ bookingPolicyId: item.id })), chunkSize: 1 },
  recreate: { body: recreateBody, note: 're-created booking policies get new ids; the services that used the deleted ones keep the default policy' },
};
