/**
 * Booking policies as the one verb engine sees them: the view (over the services family's policies query, each
 * item's `bookingPolicy`) and the entry of the writes table (commands/shared/writes.ts): created, patched at the
 * planned revision and deleted one at a time; a deleted policy is re-created from its before-image (its name,
 * text and rule blocks; never as the default), and the services that used it keep the default policy they were
 * given.
 */
import { bookingPoliciesFamily } from '../../../api/service-furniture.js';
import { BookingPolicy } from '../../../api/schemas/service.js';
import { serviceOps } from '../../../api/services.js';
import { eachSender } from '../../../bulk/actions.js';
import type { EntityView } from '../../shared/entity-view.js';
import { createCall, patchSender, type WriteSpec } from '../../shared/writes.js';

const ops = bookingPoliciesFamily.operations;

/** A booking policy on the command line (`services booking-policies ...`). */
export const POLICY_VIEW: EntityView<BookingPolicy> = {
  noun: { one: 'booking policy', many: 'booking policies' },
  schema: BookingPolicy,
  columns: [{ key: 'id', id: true, noTruncate: true }, { key: 'name' }, { key: 'default' }, { key: 'createdDate', header: 'CREATED', priority: 1 }],
  rows: (p) => Object.entries(p).filter(([, v]) => v !== undefined && v !== null),
  readOnly: ['id', 'revision', 'default', 'createdDate', 'updatedDate'],
  query: serviceOps.queryPolicies,
  label: (p) => p.name ?? undefined,
  fromItem: (item) => (item as { bookingPolicy: BookingPolicy }).bookingPolicy,
};

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
