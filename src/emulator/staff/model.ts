/**
 * What the staff members family stores, in wire form (docs/wire.md §13): each staff member as the Staff Members v1
 * API answers it, with its working hours and time off kept beside it (served as calendar events, calendar.ts).
 */
import type * as z from 'zod/mini';
import type { StaffMemberRecord } from '../../api/schemas/staff.js';
import { defineCollection } from '../store/collection.js';

/** A staff member (a bookable resource with working hours). Fields beyond the schema's are kept as sent. */
export type StaffMemberDoc = Omit<z.input<typeof StaffMemberRecord>, 'id' | 'name' | 'revision'> & { id: string; name: string; revision?: string };

export const STAFF_MEMBERS = defineCollection<StaffMemberDoc>({
  kind: 'staffMembers',
  entity: 'staff',
  notFound: 'STAFF_MEMBER_NOT_FOUND',
});

/**
 * The trash bin (Staff Members v2): a deleted staff member as it was, kept as stored (revision and dates too)
 * with the ids of the services it left (`leftServiceIds`) and when (`deletedAt`), neither shown, until restored or removed for good.
 */
export const DELETED_STAFF_MEMBERS = defineCollection<StaffMemberDoc & { leftServiceIds?: string[]; deletedAt?: string }>({
  kind: 'deletedStaffMembers',
  entity: 'staff',
  notFound: 'STAFF_MEMBER_NOT_FOUND',
  revisioned: false,
});

/** Every collection of the staff members family. */
export const STAFF_COLLECTIONS = [STAFF_MEMBERS, DELETED_STAFF_MEMBERS];
