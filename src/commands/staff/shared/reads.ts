/**
 * What the staff read verbs (`list`, `count`, `export`) select (commands/shared/verbs.ts ReadSpec): any
 * `--filter`/`--where`. `count` is the platform's V2 count (`countStaffMembersV2`: every staff member, as
 * `staff list` lists them; the v1 count leaves out those who provide no services; docs/wire.md §13 "Staff
 * search, count and the trash bin").
 */
import { staffMembersFamily } from '../../../api/staff-members.js';
import type { StaffMemberRecord } from '../../../api/schemas/staff.js';
import { countCall, type ReadSpec } from '../../shared/verbs.js';
import { STAFF_VIEW } from './view.js';

export const STAFF_READS: ReadSpec<StaffMemberRecord> = {
  view: STAFF_VIEW,
  count: countCall(staffMembersFamily.operations.countStaffMembersV2, (filter) => (filter ? { filter } : {}), (reply) => reply.count),
};
