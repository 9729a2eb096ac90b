/**
 * The staff members family's entry of the writes table (commands/shared/writes.ts): created, patched (at the
 * planned revision) and deleted one at a time (a deleted staff member goes to the trash bin: `sitectl undo`
 * restores it, staff/shared/undo.ts; the re-create from a before-image is left for a journal whose staff member
 * was removed from the trash bin since: a new id, the default hours, and the services that listed the old one,
 * and its bookings, still name the old id).
 */
import { staffMembersFamily } from '../../../api/staff-members.js';
import { eachSender } from '../../../bulk/actions.js';
import type { DeleteSpec } from '../../shared/delete.js';
import type { EntityView } from '../../shared/entity-view.js';
import { createCall, patchSender, type WriteSpec } from '../../shared/writes.js';
import { STAFF_VIEW } from './view.js';

const ops = staffMembersFamily.operations;
const FIELDS = ['RESOURCE_DETAILS', 'ASSOCIATED_IDENTITY_STATUS'];

export const STAFF_WRITES: WriteSpec & Required<Pick<WriteSpec, 'remove'>> = {
  view: STAFF_VIEW as WriteSpec['view'],
  list: 'staff list',
  patch: (api, changeOf, seen) =>
    patchSender(api, ops.updateStaffMember, (body) => ({ staffMember: { ...body, revision: body.revision ?? '0' }, fields: FIELDS }), (reply) => reply.staffMember, { changeOf, seen }),
  create: createCall(ops.createStaffMember, (body) => ({ staffMember: body, fields: ['RESOURCE_DETAILS'] }), (reply) => reply.staffMember),
  remove: { send: (api) => eachSender(api, ops.deleteStaffMember, (item) => ({ staffMemberId: item.id })), chunkSize: 1 },
  recreate: {
    body: (before) => Object.fromEntries(['name', 'email', 'phone', 'description'].filter((k) => before[k] !== undefined && before[k] !== null && before[k] !== '').map((k) => [k, before[k]])),
    note: "re-created staff members get new ids and the business's default hours; the services that listed the deleted ones, and their bookings, are not restored",
  },
};

/** The shared delete over staff members, one call each (the single form's; undone by a restore from the trash bin). */
export const STAFF_DELETE: DeleteSpec<unknown> = {
  view: STAFF_VIEW as EntityView<unknown>,
  command: 'staff delete',
  examples: [],
  send: (api) => STAFF_WRITES.remove.send(api),
  chunkSize: 1,
};
