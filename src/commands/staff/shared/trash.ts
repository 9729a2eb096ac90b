/**
 * The staff trash bin (Staff Members v2; docs/wire.md §14 "Staff search, count and the trash bin"): a deleted
 * staff member stays there, restorable, until removed for good. The view `staff deleted list|get` reads (the
 * trash-bin list selects by id only: `--where id=...`), and the restore as a bulk-engine action: `staff restore`
 * runs it as a one-item plan, `sitectl undo` runs it to take back a `staff delete`, and the undo of a restore is
 * the delete again.
 */
import type { ApiClient } from '../../../api/client.js';
import { staffMembers, staffMembersFamily } from '../../../api/staff-members.js';
import { StaffMemberRecord } from '../../../api/schemas/staff.js';
import { eachSender, type EntityAction, transitionAction } from '../../../bulk/actions.js';
import type { JournalArgs } from '../../../bulk/journal.js';
import type { EntityPort } from '../../../bulk/port.js';
import type { EntityView } from '../../shared/entity-view.js';
import { viewPort } from '../../shared/view-port.js';
import { STAFF_COLUMNS, staffRows } from './view.js';

const ops = staffMembersFamily.operations;
const FIELDS = ['RESOURCE_DETAILS', 'ASSOCIATED_IDENTITY_STATUS'] as const;

/**
 * Deleted staff members in the trash bin. Named as the live ones are (`staff members`), so a restore is journaled
 * under the staff members' entity and `sitectl undo` finds its declaration there.
 */
export const DELETED_STAFF_VIEW: EntityView<StaffMemberRecord> = {
  noun: { one: 'staff member', many: 'staff members' },
  schema: StaffMemberRecord,
  columns: STAFF_COLUMNS,
  rows: staffRows,
  readOnly: ['id', 'revision', 'createdDate', 'updatedDate', 'resourceId', 'resource', 'associatedWixIdentity'],
  query: ops.listDeletedStaffMembers,
  label: (s) => s.name ?? undefined,
  listParams: { id: { param: 'staffMemberIds', list: true } },
  params: { fields: [...FIELDS] },
  async getOne(api, id, signal) {
    return (await staffMembers.getDeletedStaffMember(api, { staffMemberId: id, fields: [...FIELDS] }, { signal })).staffMember;
  },
};

/**
 * The port and action of a restore of `args.ids` from the trash bin: each staff member comes back with its id,
 * fields, working hours and the services it left (the platform's restore; the emulator's rule). One no longer in
 * the trash bin (restored or removed since) is missing from the plan and named so.
 */
export function restoreRun(api: ApiClient, args: JournalArgs): { port: EntityPort; action: EntityAction } {
  const action = transitionAction<StaffMemberRecord>({
    name: 'restore',
    done: 'restored',
    title: 'Restoring',
    reached: () => false,
    send: eachSender(api, ops.restoreStaffMemberFromTrashBin, (item) => ({ staffMemberId: item.id, fields: [...FIELDS] }), (reply) => ({ revision: reply.staffMember.revision ?? undefined })),
    chunkSize: 1,
    args,
    beforeImage: (s) => ({ name: s.name }),
  });
  return { port: viewPort(api, DELETED_STAFF_VIEW as EntityView<unknown>), action };
}
