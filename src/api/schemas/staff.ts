/**
 * A staff member of the bookings Staff Members v1 API (api/staff-members.ts is its family table): the entity, its
 * resource (schedules, default hours) and its connected user, with the bounds the SDK typings give its fields.
 */
import * as z from 'zod/mini';
import { isoDate, MediaItem } from './common.js';

/** Longest staff member name (SDK typings: `@maxLength 40`). */
export const MAX_STAFF_NAME = 40;
/** Longest e-mail, phone and description (SDK typings). */
export const MAX_STAFF_EMAIL = 320;
export const MAX_STAFF_PHONE = 20;
export const MAX_STAFF_DESCRIPTION = 500;

/** The connection status of a staff member's user (docs/wire.md §13 "Staff connection status"). */
export const StaffConnectionStatusValues = ['CONNECTED', 'PENDING', 'EXPIRED', 'DISCONNECTED'] as const;

/** A staff member's resource: its schedules, and whether it works the business's default hours. */
export const StaffResource = z.looseObject({
  id: z.optional(z.nullable(z.string())),
  workingHoursSchedules: z.optional(z.array(z.looseObject({ id: z.optional(z.nullable(z.string())), shared: z.optional(z.boolean()) }))),
  eventsSchedule: z.optional(z.looseObject({ id: z.optional(z.nullable(z.string())) })),
  usesDefaultWorkingHours: z.optional(z.boolean()),
});
export type StaffResource = z.infer<typeof StaffResource>;

/** The Wix user a staff member is connected to (`identificationData.wixUserId`) and the connection status. */
export const AssociatedWixIdentity = z.looseObject({
  identificationData: z.optional(z.looseObject({ wixUserId: z.optional(z.nullable(z.string())), identityType: z.optional(z.string()) })),
  connection: z.optional(z.looseObject({ status: z.optional(z.string()) })),
});

/** A staff member as the Staff Members v1 API answers it (more fields pass through). */
export const StaffMemberRecord = z.looseObject({
  id: z.string(),
  name: z.optional(z.nullable(z.string())),
  email: z.optional(z.nullable(z.string())),
  phone: z.optional(z.nullable(z.string())),
  description: z.optional(z.nullable(z.string())),
  mainMedia: z.optional(z.nullable(MediaItem)),
  resourceId: z.optional(z.nullable(z.string())),
  resource: z.optional(StaffResource),
  associatedWixIdentity: z.optional(AssociatedWixIdentity),
  serviceProvider: z.optional(z.nullable(z.boolean())),
  revision: z.optional(z.nullable(z.string())),
  createdDate: z.optional(z.nullable(isoDate)),
  updatedDate: z.optional(z.nullable(isoDate)),
});
export type StaffMemberRecord = z.infer<typeof StaffMemberRecord>;
