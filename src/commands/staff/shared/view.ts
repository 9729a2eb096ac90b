/**
 * How a staff member looks on the command line, and how one is named: by id, a unique id prefix (4+
 * characters) or its exact name (case-insensitive), read through the staff query (Staff Members v1).
 */
import type { ApiClient } from '../../../api/client.js';
import { collect, items, listPages } from '../../../api/paging.js';
import { staffMembers, staffMembersFamily } from '../../../api/staff-members.js';
import { StaffMemberRecord } from '../../../api/schemas/staff.js';
import type { Context } from '../../../context.js';
import { ExitCode, UserError } from '../../../core/errors.js';
import type { Column } from '../../../core/output.js';
import { isIdPrefix } from '../../shared/ids.js';
import type { EntityView } from '../../shared/entity-view.js';

/** `connected` / `pending` / ... of a staff member's user, or `` when it has none. */
export function connectionOf(s: StaffMemberRecord): string {
  const identity = s.associatedWixIdentity;
  if (!identity) return '';
  return (identity.connection?.status ?? 'connected').toLowerCase();
}

/** `default` when a staff member works the business's default hours, `own` when it has its own, `` when unknown. */
export function hoursKindOf(s: StaffMemberRecord): string {
  const uses = s.resource?.usesDefaultWorkingHours;
  return uses === undefined ? '' : uses ? 'default' : 'own';
}

/** Columns of `staff list`: id, name, e-mail, phone, user connection, created. */
export const STAFF_COLUMNS: Column<StaffMemberRecord>[] = [
  { key: 'id', id: true, noTruncate: true },
  { key: 'name', min: 12 },
  { key: 'email', min: 16, priority: 2 },
  { key: 'phone', priority: 3 },
  { key: 'user', get: connectionOf, priority: 2 },
  { key: 'hours', get: hoursKindOf, priority: 3 },
];

/** Rows of the readable `staff get` view. */
export function staffRows(s: StaffMemberRecord): Array<[string, unknown]> {
  const rows: Array<[string, unknown]> = [
    ['id', s.id],
    ['name', s.name],
    ['email', s.email],
    ['phone', s.phone],
    ['description', s.description],
    ['user', s.associatedWixIdentity ? `${connectionOf(s)} (${s.associatedWixIdentity.identificationData?.wixUserId ?? ''})` : undefined],
    ['working hours', s.resource ? (s.resource.usesDefaultWorkingHours ? "the business's default hours" : `its own ('sitectl staff hours show ${s.id}')`) : undefined],
    ['resource', s.resourceId],
    ['revision', s.revision],
    ['created', s.createdDate],
    ['updated', s.updatedDate],
  ];
  return rows.filter(([, v]) => v !== undefined && v !== null && v !== '');
}

/** The staff entity for the shared verbs. */
export const STAFF_VIEW: EntityView<StaffMemberRecord> = {
  noun: { one: 'staff member', many: 'staff members' },
  schema: StaffMemberRecord,
  columns: STAFF_COLUMNS,
  rows: staffRows,
  readOnly: ['id', 'revision', 'createdDate', 'updatedDate', 'resourceId', 'resource', 'associatedWixIdentity'],
  query: staffMembersFamily.operations.queryStaffMembers,
  label: (s) => s.name ?? undefined,
  filterExample: '{"name":{"$startsWith":"Ana"}}',
  params: { fields: ['RESOURCE_DETAILS', 'ASSOCIATED_IDENTITY_STATUS'] },
};

/**
 * The id of the staff member `given` names: its id, a unique id prefix, or its exact name (case-insensitive).
 * @throws UserError exit 2 for an empty name, no match (naming `staff list`) or an ambiguous one (with the matches)
 */
export async function staffIdOf(ctx: Context, api: ApiClient, given: string): Promise<string> {
  const text = given.trim();
  if (text === '') throw new UserError('the staff member id is empty', `'${ctx.bin} staff list' shows the ids`);
  const all = await collect(items(listPages(api, staffMembersFamily.operations.queryStaffMembers, { pageSize: 100, signal: ctx.signal })));
  if (all.some((s) => s.id === text)) return text;
  const lower = text.toLowerCase();
  const byPrefix = isIdPrefix(text) ? all.filter((s) => s.id.toLowerCase().startsWith(lower)) : [];
  const found = byPrefix.length ? byPrefix : all.filter((s) => (s.name ?? '').toLowerCase() === lower);
  if (found.length === 1) return found[0]!.id;
  if (found.length > 1) throw new UserError(`staff member '${given}' is ambiguous: ${found.map((s) => `${s.id} (${s.name ?? ''})`).join(', ')}`, 'give the full id');
  throw new UserError(`no staff member '${given}' on this site`, `'${ctx.bin} staff list' shows them`, ExitCode.Usage);
}

/** The staff member `given` names, read with its resource and user connection. @throws as {@link staffIdOf}, ApiError */
export async function staffOf(ctx: Context, api: ApiClient, given: string): Promise<StaffMemberRecord> {
  const id = await staffIdOf(ctx, api, given);
  const { staffMember } = await staffMembers.getStaffMember(api, { staffMemberId: id, fields: ['RESOURCE_DETAILS', 'ASSOCIATED_IDENTITY_STATUS'] }, { signal: ctx.signal });
  return staffMember;
}
