/**
 * Staff members of the site (the bookings Staff Members v1 API: `POST /bookings/v1/staff-members/query` with
 * `{query: {filter?, cursorPaging?}}`, answered `{staffMembers: [{id, name, email, phone, description,
 * mainMedia, resourceId, ...}], pagingMetadata}`). The catalogue export names a service's staff by name and
 * `services apply` maps the names to the target site's staff with it; staff are never created by this tool.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { CursorPaging, isoDate, MediaItem, PagingMetadata } from './schemas/common.js';

/** Largest page of the staff query. */
export const MAX_STAFF_PAGE = 100;

/** A staff member as the Staff Members v1 query answers it (more fields pass through). */
export const StaffMemberRecord = z.looseObject({
  id: z.string(),
  name: z.optional(z.nullable(z.string())),
  email: z.optional(z.nullable(z.string())),
  phone: z.optional(z.nullable(z.string())),
  description: z.optional(z.nullable(z.string())),
  mainMedia: z.optional(z.nullable(MediaItem)),
  resourceId: z.optional(z.nullable(z.string())),
  createdDate: z.optional(z.nullable(isoDate)),
  updatedDate: z.optional(z.nullable(isoDate)),
});
export type StaffMemberRecord = z.infer<typeof StaffMemberRecord>;

/** The staff members family table (the query only). */
export const staffMembersFamily = defineFamily({
  name: 'staff-members',
  prefixes: [{ proto: '/v1/staff-members', urls: ['/bookings/v1/staff-members'] }],
  operations: {
    queryStaffMembers: {
      method: 'POST',
      path: '/v1/staff-members/query',
      summary: "The site's staff members matching a filter",
      request: () =>
        z.looseObject({
          query: z.optional(z.looseObject({ filter: z.optional(z.record(z.string(), z.unknown())), cursorPaging: z.optional(CursorPaging) })),
        }),
      reply: () => z.looseObject({ staffMembers: z.array(StaffMemberRecord), pagingMetadata: z.optional(PagingMetadata) }),
      paging: { kind: 'cursor', items: 'staffMembers', wrapper: 'query', maxLimit: MAX_STAFF_PAGE, filter: true },
      idempotent: true,
    },
  },
});

/** Typed calls of the staff members family. */
export const staffMembers = callsOf(staffMembersFamily);
