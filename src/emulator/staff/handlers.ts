/**
 * The staff members family served from its table (`@wix/auto_sdk_bookings_staff-members`, Staff Members v1 at
 * `/bookings/v1/staff-members`): create, get, update (revision-checked), delete, query (cursor-paged, default
 * 50, at most 100, ordered by name unless the query sorts), connect to and disconnect from a site user, and the
 * choice of working-hours schedule (the business's default hours, or the staff member's own).
 *
 * A deleted staff member goes to the trash bin (Staff Members v2) with the ids of the services it left: listed
 * and read there, restored (same id, fields, hours and resource; back on the services it left that still exist;
 * `staff.created` recorded, as the platform's restore triggers Staff Member Created) or removed for good. The
 * count (v1) counts service providers only, the V2 count every staff member; the search (service providers only,
 * as the module documents) matches its expression in
 * `name` (the module's only searchable field) unless it names fields.
 *
 * Every write records the seed's staff events (docs/wire.md §24), dotted like the others, with the staff
 * member as the API shows it: `staff.created` then `staff.fully_created` for a create, `staff.updated`,
 * `staff.deleted`, `staff.connected`, `staff.disconnected`.
 *
 * A staff member's working hours are kept on its document (`workingHours: [{day, startTime, endTime}]`, local
 * times in the site's zone; bookings/sessions.ts reads them). Without them it works the business's default
 * hours (`resource.usesDefaultWorkingHours`). The schedule ids the API shows are derived from the staff member's
 * and the site's ids, so they are stable without being stored.
 */
import { staffMembersFamily } from '../../api/staff-members.js';
import { type StaffResource } from '../../api/schemas/staff.js';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import { stableId } from '../ids.js';
import { runCount, runSearch } from '../query/index.js';
import { serve, type RequestContext } from '../serve.js';
import { catalogOf, type Catalog, type ServiceDoc } from '../services/model.js';
import { DELETED_STAFF_MEMBERS, type StaffMemberDoc } from './model.js';


/** The id of a staff member's own (events) schedule: where its custom working hours live. */
export function staffScheduleId(staffId: string): string {
  return stableId('staff-events-schedule', staffId);
}

/** The id of the business's working-hours schedule (the default hours every staff member starts with). */
export function businessScheduleId(site: string): string {
  return stableId('business-schedule', site);
}

/** Whether a staff member works the business's default hours (it has no hours of its own). */
export function usesDefaultHours(staff: StaffMemberDoc): boolean {
  return !Array.isArray((staff as { workingHours?: unknown }).workingHours);
}

/** The `resource` of a staff member (RESOURCE_DETAILS). */
export function resourceOf(site: string, staff: StaffMemberDoc): StaffResource {
  const byDefault = usesDefaultHours(staff);
  return {
    id: (staff.resourceId as string | undefined) ?? staff.id,
    workingHoursSchedules: [byDefault ? { id: businessScheduleId(site), shared: true } : { id: staffScheduleId(staff.id) }],
    eventsSchedule: { id: staffScheduleId(staff.id) },
    usesDefaultWorkingHours: byDefault,
  };
}

type Field = 'RESOURCE_DETAILS' | 'ASSOCIATED_IDENTITY_STATUS';

/**
 * A staff member as the API shows it: without the emulator's scheduling fields, `resource` only when
 * RESOURCE_DETAILS is asked, the connection status only with ASSOCIATED_IDENTITY_STATUS.
 */
export function publicStaff(site: string, staff: StaffMemberDoc, fields: readonly Field[] = []): Record<string, unknown> {
  const { workingHours: _hours, timeOff: _off, leftServiceIds: _left, deletedAt: _at, ...member } = staff as StaffMemberDoc & { workingHours?: unknown; timeOff?: unknown; leftServiceIds?: unknown; deletedAt?: unknown };
  const out: Record<string, unknown> = { ...member };
  const identity = member.associatedWixIdentity as { identificationData?: unknown; connection?: unknown } | undefined;
  if (identity && !fields.includes('ASSOCIATED_IDENTITY_STATUS')) out.associatedWixIdentity = { identificationData: identity.identificationData };
  if (fields.includes('RESOURCE_DETAILS')) out.resource = resourceOf(site, staff);
  return out;
}

/** Records a staff event with the staff member as the API shows it (with its resource). */
function record(ctx: RequestContext<unknown>, type: string, staff: StaffMemberDoc): void {
  ctx.store.appendEvent(ctx.site, type, staff.id, JSON.stringify(publicStaff(ctx.site, staff, ['RESOURCE_DETAILS', 'ASSOCIATED_IDENTITY_STATUS'])));
}

const reply = (ctx: RequestContext<{ fields?: Field[] }>, staff: StaffMemberDoc) => ({ staffMember: publicStaff(ctx.site, staff, ctx.body.fields ?? []) as never });

/** Stores `next` over the staff member (no collection event), records `type` and answers it as the call asked. */
function saved(ctx: RequestContext<{ fields?: Field[] }>, cat: Catalog, next: StaffMemberDoc, type: string, expectedRevision?: string) {
  const updated = cat.staff.update(next, { event: false, ...(expectedRevision !== undefined ? { expectedRevision } : {}) });
  record(ctx, type, updated);
  return reply(ctx, updated);
}

/** Writable fields of a request's staff member that were given (null clears a field). */
function writable(input: Record<string, unknown>): Partial<StaffMemberDoc> {
  const out: Record<string, unknown> = {};
  for (const key of ['name', 'email', 'phone', 'description', 'mainMedia']) if (key in input) out[key] = input[key] ?? undefined;
  return out as Partial<StaffMemberDoc>;
}

/** Refuses an e-mail without `@`, as the SDK's `@format EMAIL` does. */
function checkEmail(field: string, email: unknown): void {
  if (typeof email === 'string' && email !== '' && !/^[^@\s]+@[^@\s]+$/.test(email)) throw ValidationFailure.field(field, 'must be an e-mail address', 'FORMAT');
}

/**
 * Deletes a staff member: it leaves every service it gives (each service updated, `service.updated`), so
 * availability stops offering its slots and a class it taught goes to the next staff member listed; its
 * bookings stay as they are (the CLI lists the future ones before it deletes).
 */
function deleteStaff(ctx: RequestContext<unknown>, cat: Catalog, id: string): StaffMemberDoc {
  const staff = cat.staff.require(id);
  const left: string[] = [];
  const given: ServiceDoc[] = [];
  for (const service of cat.services.all()) if (service.staffMemberIds?.includes(id)) given.push(service);
  for (const service of given) {
    if (!service.staffMemberIds) continue;
    left.push(service.id);
    cat.services.update({ ...service, staffMemberIds: service.staffMemberIds.filter((s) => s !== id) });
  }
  cat.staff.delete(id, { event: false });
  const trash = ctx.db(DELETED_STAFF_MEMBERS);
  if (trash.get(id)) trash.delete(id, { event: false });
  trash.insert({ ...staff, leftServiceIds: left, deletedAt: cat.now }, { event: false });
  record(ctx, 'staff.deleted', staff);
  return staff;
}

/**
 * Restores a staff member from the trash bin: stored again with its own id and fields (a new revision line: the
 * collection starts it at 1), back on the services it left that still exist (each `service.updated`).
 * @throws ApplicationFailure 404 STAFF_MEMBER_NOT_FOUND when it is not in the trash bin
 */
function restoreStaff(ctx: RequestContext<unknown>, cat: Catalog, id: string): StaffMemberDoc {
  const trash = ctx.db(DELETED_STAFF_MEMBERS);
  const { leftServiceIds, deletedAt: _at, revision: _r, ...staff } = trash.require(id);
  trash.delete(id, { event: false });
  const restored = cat.staff.insert(staff as StaffMemberDoc, { event: false });
  for (const serviceId of leftServiceIds ?? []) {
    const service = cat.services.get(serviceId);
    if (!service || service.staffMemberIds?.includes(id)) continue;
    cat.services.update({ ...service, staffMemberIds: [...(service.staffMemberIds ?? []), id] });
  }
  record(ctx, 'staff.created', restored);
  return restored;
}

/** The staff members as the API shows them, by name (then id), for the query and the search. */
function listed(ctx: RequestContext<{ fields?: Field[] }>, docs: Iterable<StaffMemberDoc>): StaffMemberDoc[] {
  return [...docs].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.id.localeCompare(b.id)).map((member) => publicStaff(ctx.site, member, ctx.body.fields ?? []) as StaffMemberDoc);
}

/** Whether a staff member provides services (the SDK's `serviceProvider`, default true). */
const providesServices = (s: StaffMemberDoc) => (s as { serviceProvider?: boolean }).serviceProvider !== false;

/** Every staff members operation, served. */
export const staffMembersServed = serve(staffMembersFamily, {
  createStaffMember(ctx) {
    const cat = catalogOf(ctx);
    const { staffMember } = ctx.body;
    checkEmail('staffMember.email', staffMember.email);
    const id = cat.newId();
    const created = cat.staff.insert(
      { ...writable(staffMember), id, name: staffMember.name, resourceId: stableId('resource', id), ...(ctx.body.serviceProvider === false ? { serviceProvider: false } : {}) } as StaffMemberDoc,
      { event: false },
    );
    record(ctx, 'staff.created', created);
    record(ctx, 'staff.fully_created', created);
    return reply(ctx, created);
  },
  getStaffMember(ctx) {
    return reply(ctx, catalogOf(ctx).staff.require(ctx.body.staffMemberId));
  },
  updateStaffMember(ctx) {
    const cat = catalogOf(ctx);
    const { staffMember } = ctx.body;
    checkEmail('staffMember.email', staffMember.email);
    const current = cat.staff.require(staffMember.id);
    return saved(ctx, cat, { ...current, ...writable(staffMember) } as StaffMemberDoc, 'staff.updated', String(staffMember.revision));
  },
  deleteStaffMember(ctx) {
    deleteStaff(ctx, catalogOf(ctx), ctx.body.staffMemberId);
    return {};
  },
  queryStaffMembers(ctx) {
    const all = listed(ctx, catalogOf(ctx).staff.all());
    const query = ctx.body.query ?? {};
    const page = runSearch(all, { ...query, cursorPaging: { limit: 50, ...query.cursorPaging } }, 'query');
    return { staffMembers: page.items as never, pagingMetadata: page.pagingMetadata };
  },
  countStaffMembers(ctx) {
    const all = [...catalogOf(ctx).staff.all()].filter(providesServices).map((s) => publicStaff(ctx.site, s));
    return { count: runCount(all, ctx.body.filter ?? undefined) };
  },
  countStaffMembersV2(ctx) {
    return { count: runCount([...catalogOf(ctx).staff.all()].map((s) => publicStaff(ctx.site, s)), ctx.body.filter ?? undefined) };
  },
  searchStaffMembers(ctx) {
    // Service providers only, as the module documents for the v1 search (the V2 search is not served).
    const all = listed(ctx, [...catalogOf(ctx).staff.all()].filter(providesServices));
    const search = ctx.body.search ?? {};
    const text = search.search ? { ...search.search, fields: search.search.fields?.length ? search.search.fields : ['name'] } : undefined;
    const page = runSearch(all, { ...search, ...(text ? { search: text } : {}), cursorPaging: { limit: 50, ...search.cursorPaging } }, 'search');
    return { staffMembers: page.items as never, pagingMetadata: page.pagingMetadata };
  },
  listDeletedStaffMembers(ctx) {
    const ids = ctx.body.staffMemberIds;
    const trash = [...ctx.db(DELETED_STAFF_MEMBERS).all()].filter((s) => !ids?.length || ids.includes(s.id));
    // Most recently deleted first (the trash bin's own order; it takes no sort).
    trash.sort((a, b) => String(b.deletedAt ?? '').localeCompare(String(a.deletedAt ?? '')) || a.id.localeCompare(b.id));
    const shown = trash.map((s) => publicStaff(ctx.site, s, ctx.body.fields ?? []));
    const page = runSearch(shown, { cursorPaging: { limit: 100, ...ctx.body.paging } }, 'paging');
    return { staffMembers: page.items as never, pagingMetadata: page.pagingMetadata };
  },
  getDeletedStaffMember(ctx) {
    return reply(ctx, ctx.db(DELETED_STAFF_MEMBERS).require(ctx.body.staffMemberId));
  },
  removeStaffMemberFromTrashBin(ctx) {
    ctx.db(DELETED_STAFF_MEMBERS).delete(ctx.body.staffMemberId, { event: false });
    return {};
  },
  restoreStaffMemberFromTrashBin(ctx) {
    return reply(ctx, restoreStaff(ctx, catalogOf(ctx), ctx.body.staffMemberId));
  },
  connectStaffMemberToUser(ctx) {
    const cat = catalogOf(ctx);
    const staff = cat.staff.require(ctx.body.staffMemberId);
    const email = ctx.body.email ?? (staff.email as string | undefined);
    if (!email) throw ValidationFailure.field('email', 'is required: the staff member has no e-mail of its own', 'REQUIRED_FIELD');
    checkEmail('email', email);
    const connected = (staff.associatedWixIdentity as { connection?: { status?: string } } | undefined)?.connection?.status === 'CONNECTED';
    if (connected) throw new ApplicationFailure(409, 'STAFF_MEMBER_ALREADY_CONNECTED', `staff member ${staff.id} is already connected to a user`, { staffMemberId: staff.id });
    const identity = { identificationData: { identityType: 'WIX_USER', wixUserId: stableId('wix-user', email.toLowerCase()) }, connection: { status: 'CONNECTED' } };
    return saved(ctx, cat, { ...staff, associatedWixIdentity: identity } as StaffMemberDoc, 'staff.connected');
  },
  disconnectStaffMemberFromUser(ctx) {
    const cat = catalogOf(ctx);
    const staff = cat.staff.require(ctx.body.staffMemberId);
    if (!staff.associatedWixIdentity) throw new ApplicationFailure(428, 'STAFF_MEMBER_NOT_CONNECTED', `staff member ${staff.id} is not connected to a user`, { staffMemberId: staff.id });
    const { associatedWixIdentity: _gone, ...rest } = staff;
    return saved(ctx, cat, rest as StaffMemberDoc, 'staff.disconnected');
  },
  assignWorkingHoursSchedule(ctx) {
    const cat = catalogOf(ctx);
    const staff = cat.staff.require(ctx.body.staffMemberId);
    const { scheduleId } = ctx.body;
    if (scheduleId === staffScheduleId(staff.id)) return assignOwn(ctx, cat, staff);
    if (scheduleId !== businessScheduleId(ctx.site)) throw ValidationFailure.field('scheduleId', "must be the staff member's events schedule or the business's working-hours schedule");
    if (usesDefaultHours(staff)) return reply(ctx, staff);
    // The emulator keeps a staff member's own hours only while it works them: back on the default hours, they go.
    const { workingHours: _own, ...rest } = staff as StaffMemberDoc & { workingHours?: unknown };
    return saved(ctx, cat, rest as StaffMemberDoc, 'staff.updated');
  },
  assignCustomSchedule(ctx) {
    const cat = catalogOf(ctx);
    const staff = cat.staff.require(ctx.body.staffMemberId);
    if (ctx.body.scheduleId !== staffScheduleId(staff.id)) throw ValidationFailure.field('scheduleId', "must be the staff member's events schedule (resource.eventsSchedule.id)");
    return assignOwn(ctx, cat, staff);
  },
});

/** Gives a staff member hours of its own: none yet, until working-hours events are added to its schedule. */
function assignOwn(ctx: RequestContext<{ fields?: Field[] }>, cat: Catalog, staff: StaffMemberDoc) {
  if (!usesDefaultHours(staff)) return reply(ctx, staff);
  return saved(ctx, cat, { ...staff, workingHours: [] } as StaffMemberDoc, 'staff.updated');
}
