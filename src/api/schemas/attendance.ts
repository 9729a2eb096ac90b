/**
 * A booked session's attendance (Bookings Attendance v2, `@wix/auto_sdk_bookings_attendance`; api/attendance.ts is
 * its family table): whether anyone came (`status`: NOT_SET, ATTENDED, NOT_ATTENDED) and how many
 * (`numberOfAttendees`), for one booking (`bookingId`) and, for a class or course, one session (`eventId`).
 * The platform keeps no revision for it; `statusUpdatedDate` says when its status last changed.
 */
import * as z from 'zod/mini';
import { isoDate, lazySchema, openEnum } from './common.js';

export const AttendanceStatusValues = ['NOT_SET', 'ATTENDED', 'NOT_ATTENDED'] as const;

/** Most attendees one attendance may count (a walk-in group still fits; the SDK typings give no bound). */
export const MAX_ATTENDEES = 1000;

/** One attendance as the platform answers it (more fields pass through). */
export const AttendanceRecord = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.nullable(z.string())),
    bookingId: z.optional(z.nullable(z.string())),
    /** Deprecated by the platform for `eventId` (kept: older attendances carry it only). */
    sessionId: z.optional(z.nullable(z.string())),
    eventId: z.optional(z.nullable(z.string())),
    status: z.optional(openEnum(AttendanceStatusValues)),
    numberOfAttendees: z.optional(z.int()),
    updatedDate: z.optional(z.nullable(isoDate)),
    statusUpdatedDate: z.optional(z.nullable(isoDate)),
  }),
);
export type AttendanceRecord = z.infer<typeof AttendanceRecord>;
