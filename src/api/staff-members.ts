/**
 * Staff members of the site: the bookings Staff Members v1 API, as the official SDK module
 * `@wix/auto_sdk_bookings_staff-members` sends it (method names, proto paths and bodies from its `meta.js`;
 * gateway prefix `/bookings/v1/staff-members`). A staff member is `{id, name, email, phone, description,
 * mainMedia, resourceId, resource?, associatedWixIdentity?, revision, createdDate, updatedDate}`; `resource`
 * (its working-hours schedule, events schedule and whether it works the business's default hours) comes back
 * only when `fields: ['RESOURCE_DETAILS']` is asked, the user connection status with `ASSOCIATED_IDENTITY_STATUS`.
 *
 * Working hours themselves are calendar events (calendar-events.ts): `assignCustomSchedule` gives a staff member
 * its own working-hours schedule (its events schedule), `assignWorkingHoursSchedule` puts it back on a shared one
 * (the business's default hours).
 *
 * Also the count (`POST /v1/staff-members/count`: service providers only, as the module documents; the V2 count,
 * `POST /v2/staff-members/count`, counts every staff member), the search (`POST /v1/staff-members/search`,
 * `{search: {filter, sort, cursorPaging, search: {expression, fields, fuzzy, mode}}, fields}`) and the trash bin
 * a deleted staff member goes to (V2 paths, sent to `/bookings/staff/v2/staff-members/...` as the module's URL
 * mapping resolves them: list, get, remove for good, and restore; docs/wire.md §14 "Staff search, count and the
 * trash bin").
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { bounded, CountReply, CursorPaging, EmptyReply, PagingMetadata, requestShapes } from './schemas/common.js';
import { MAX_STAFF_DESCRIPTION, MAX_STAFF_EMAIL, MAX_STAFF_NAME, MAX_STAFF_PHONE, StaffMemberRecord } from './schemas/staff.js';

/** Largest page of the staff query. */
export const MAX_STAFF_PAGE = 100;

/** The conditional fields a staff call may ask for (`fields`). */
export const StaffRequestedFieldValues = ['RESOURCE_DETAILS', 'ASSOCIATED_IDENTITY_STATUS'] as const;

const fields = () => z.optional(z.array(z.enum(StaffRequestedFieldValues)).check(z.maxLength(3)));

/** The writable fields of a staff member in a request but its name, bounded as the SDK typings bound them. */
function staffFields() {
  return {
    email: z.optional(z.nullable(bounded(MAX_STAFF_EMAIL))),
    phone: z.optional(z.nullable(bounded(MAX_STAFF_PHONE))),
    description: z.optional(z.nullable(bounded(MAX_STAFF_DESCRIPTION))),
    mainMedia: z.optional(z.looseObject({ image: z.optional(z.unknown()) })),
  };
}

const staffName = () => bounded(MAX_STAFF_NAME).check(z.minLength(1));

const staffReply = () => z.looseObject({ staffMember: StaffMemberRecord });
const staffPage = () => z.looseObject({ staffMembers: z.array(StaffMemberRecord), pagingMetadata: z.optional(PagingMetadata) });
const countRequest = () => z.looseObject({ filter: z.optional(z.nullable(requestShapes().FilterInput)) });

/** Longest search expression of the staff search (SDK typings: `SearchDetails.expression` `@maxLength 100`). */
export const MAX_STAFF_SEARCH_EXPRESSION = 100;
const byId = () => ({ staffMemberId: requestShapes().Id, fields: fields() });
const scheduleRequest = () => z.looseObject({ ...byId(), scheduleId: requestShapes().Id });

/** The staff members family table. */
export const staffMembersFamily = defineFamily({
  name: 'staff-members',
  prefixes: [
    { proto: '/v1/staff-members', urls: ['/bookings/v1/staff-members'] },
    // The module's mapping for www.wixapis.com: `/bookings/staff` -> '' is the first to prefix a V2 path; `/bookings/v2` also routes.
    { proto: '/v2/staff-members', urls: ['/bookings/staff/v2/staff-members', '/bookings/v2/staff-members'] },
  ],
  operations: {
    createStaffMember: {
      method: 'POST',
      path: '/v1/staff-members',
      summary: 'Create a staff member (it works the business default hours until given its own)',
      request: () => z.looseObject({ staffMember: z.looseObject({ name: staffName(), ...staffFields() }), fields: fields(), serviceProvider: z.optional(z.nullable(z.boolean())) }),
      reply: staffReply,
    },
    getStaffMember: {
      method: 'GET',
      path: '/v1/staff-members/{staffMemberId}',
      summary: 'One staff member',
      request: () => z.looseObject(byId()),
      reply: staffReply,
    },
    updateStaffMember: {
      method: 'PATCH',
      path: '/v1/staff-members/{staffMember.id}',
      summary: "Change a staff member's name, e-mail, phone, description or image (revision-checked)",
      request: () =>
        z.looseObject({
          staffMember: z.looseObject({ id: requestShapes().Id, revision: requestShapes().RevisionInput, name: z.optional(staffName()), ...staffFields() }),
          fields: fields(),
        }),
      reply: staffReply,
      revisioned: true,
    },
    deleteStaffMember: {
      method: 'DELETE',
      path: '/v1/staff-members/{staffMemberId}',
      summary: 'Delete a staff member (it leaves every service; its bookings stay)',
      request: () => z.looseObject({ staffMemberId: requestShapes().Id }),
      reply: () => EmptyReply,
    },
    queryStaffMembers: {
      method: 'POST',
      path: '/v1/staff-members/query',
      summary: "The site's staff members matching a filter",
      request: () =>
        z.looseObject({
          query: z.optional(z.looseObject({ filter: z.optional(z.record(z.string(), z.unknown())), cursorPaging: z.optional(CursorPaging) })),
          fields: fields(),
        }),
      reply: staffPage,
      paging: { kind: 'cursor', items: 'staffMembers', wrapper: 'query', maxLimit: MAX_STAFF_PAGE, filter: true },
      idempotent: true,
    },
    countStaffMembers: {
      method: 'POST',
      path: '/v1/staff-members/count',
      summary: 'How many staff members who provide services match a filter',
      request: countRequest,
      reply: () => CountReply,
      idempotent: true,
    },
    countStaffMembersV2: {
      method: 'POST',
      path: '/v2/staff-members/count',
      summary: 'How many staff members match a filter (service providers or not)',
      request: countRequest,
      reply: () => CountReply,
      idempotent: true,
    },
    searchStaffMembers: {
      method: 'POST',
      path: '/v1/staff-members/search',
      summary: 'Staff members whose name matches a search expression, with a filter, sort and cursor paging',
      request: () =>
        z.looseObject({
          search: z.optional(
            z.looseObject({
              filter: z.optional(z.nullable(requestShapes().FilterInput)),
              sort: z.optional(requestShapes().SortInput),
              cursorPaging: z.optional(requestShapes().CursorPagingInput),
              search: z.optional(
                z.looseObject({
                  expression: z.optional(z.nullable(bounded(MAX_STAFF_SEARCH_EXPRESSION))),
                  fields: z.optional(z.array(bounded(200)).check(z.maxLength(20))),
                  fuzzy: z.optional(z.boolean()),
                  mode: z.optional(z.enum(['OR', 'AND'])),
                }),
              ),
            }),
          ),
          fields: fields(),
        }),
      reply: staffPage,
      paging: { kind: 'cursor', items: 'staffMembers', wrapper: 'search', maxLimit: MAX_STAFF_PAGE, filter: true },
      idempotent: true,
    },
    listDeletedStaffMembers: {
      method: 'GET',
      path: '/v2/staff-members/trash-bin',
      summary: 'Deleted staff members in the trash bin (restorable), cursor-paged (default 100)',
      request: () =>
        z.looseObject({
          staffMemberIds: z.optional(z.array(requestShapes().Id).check(z.maxLength(MAX_STAFF_PAGE))),
          paging: z.optional(requestShapes().CursorPagingInput),
          fields: fields(),
        }),
      reply: staffPage,
      paging: { kind: 'cursor', items: 'staffMembers', cursorIn: 'paging', unsorted: true, maxLimit: MAX_STAFF_PAGE, filter: false },
    },
    getDeletedStaffMember: {
      method: 'GET',
      path: '/v2/staff-members/trash-bin/{staffMemberId}',
      summary: 'One deleted staff member in the trash bin',
      request: () => z.looseObject(byId()),
      reply: staffReply,
    },
    removeStaffMemberFromTrashBin: {
      method: 'DELETE',
      path: '/v2/staff-members/trash-bin/{staffMemberId}',
      summary: 'Delete a staff member in the trash bin for good (it can no longer be restored)',
      request: () => z.looseObject({ staffMemberId: requestShapes().Id }),
      reply: () => EmptyReply,
    },
    restoreStaffMemberFromTrashBin: {
      method: 'POST',
      path: '/v2/staff-members/trash-bin/{staffMemberId}/restore',
      summary: 'Restore a deleted staff member from the trash bin (same id, its resource and hours)',
      request: () => z.looseObject(byId()),
      reply: staffReply,
    },
    connectStaffMemberToUser: {
      method: 'POST',
      path: '/v1/staff-members/{staffMemberId}/connect-staff-member-to-user',
      summary: "Connect a staff member to the site user with an e-mail (default: the staff member's own)",
      request: () => z.looseObject({ ...byId(), email: z.optional(z.nullable(bounded(MAX_STAFF_EMAIL))) }),
      reply: staffReply,
    },
    disconnectStaffMemberFromUser: {
      method: 'POST',
      path: '/v1/staff-members/{staffMemberId}/disconnect-staff-member-from-user',
      summary: 'Disconnect a staff member from its site user',
      request: () => z.looseObject(byId()),
      reply: staffReply,
    },
    assignWorkingHoursSchedule: {
      method: 'POST',
      path: '/v1/staff-members/{staffMemberId}/assign-working-hours-schedule',
      summary: "Make a staff member work a shared schedule's hours (the business's default hours) or its own",
      request: scheduleRequest,
      reply: staffReply,
    },
    assignCustomSchedule: {
      method: 'POST',
      path: '/v1/staff-members/{staffMemberId}/assign-custom-schedule',
      summary: 'Give a staff member working hours of its own (its events schedule), no longer the default hours',
      request: scheduleRequest,
      reply: staffReply,
    },
  },
});

/** Typed calls of the staff members family. */
export const staffMembers = callsOf(staffMembersFamily);
