/**
 * Attendance of booked sessions: the Bookings Attendance v2 API, as the official SDK module
 * `@wix/auto_sdk_bookings_attendance` sends it (method names, proto paths and bodies from its request builders;
 * gateway prefixes `/bookings/bookings-attendance` and `/bookings/v2/bulk/attendance`). An attendance
 * (schemas/attendance.ts) says whether anyone came to a booking's session and how many; setting one creates it
 * or replaces the booking's (and session's) existing one. The platform checks little: a status that disagrees
 * with the number of attendees, or more attendees than the booking's participants, is the caller's to refuse.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { bounded, bulkResult, EmptyReply, PagingMetadata, requestShapes } from './schemas/common.js';
import { AttendanceRecord, AttendanceStatusValues, MAX_ATTENDEES } from './schemas/attendance.js';

/** Largest page of the attendance query (SDK typings: `cursorPaging.limit` at most 1000). */
export const MAX_ATTENDANCE_PAGE = 1000;
/** Most attendances one bulk set takes (SDK typings: `attendanceDetails` `@maxSize 8`). */
export const MAX_ATTENDANCE_BULK = 8;

/** The attendance a set call sends: the booking (and session), the status and how many came. */
const attendanceInput = () =>
  z.looseObject({
    bookingId: requestShapes().Id,
    eventId: z.optional(z.nullable(bounded(250))),
    sessionId: z.optional(z.nullable(bounded(250))),
    status: z.optional(z.enum(AttendanceStatusValues)),
    numberOfAttendees: z.optional(z.int().check(z.gte(0), z.lte(MAX_ATTENDEES))),
  });
/** Whether to tell the customer (default false), and what. */
const participantNotification = () => z.optional(z.looseObject({ notifyParticipants: z.optional(z.nullable(z.boolean())), message: z.optional(z.nullable(bounded(5000))) }));
const attendanceReply = () => z.looseObject({ attendance: z.optional(AttendanceRecord) });

/** The attendance family table. */
export const attendanceFamily = defineFamily({
  name: 'attendance',
  prefixes: [
    { proto: '/v2/attendance', urls: ['/bookings/bookings-attendance', '/bookings/v2/attendance', '/_api/bookings-attendance'] },
    { proto: '/v2/bulk/attendance', urls: ['/bookings/v2/bulk/attendance', '/_api/bookings-attendance/v2/bulk/attendance'] },
  ],
  operations: {
    getAttendance: {
      method: 'GET',
      path: '/v2/attendance/{attendanceId}',
      summary: 'One attendance',
      request: () => z.looseObject({ attendanceId: requestShapes().Id }),
      reply: attendanceReply,
      idempotent: true,
    },
    setAttendance: {
      method: 'POST',
      path: '/v2/attendance/set',
      summary: "Set a booking's attendance: who came (ATTENDED, NOT_ATTENDED, NOT_SET) and how many; creates it or replaces it",
      request: () => z.looseObject({ attendance: attendanceInput(), participantNotification: participantNotification() }),
      reply: attendanceReply,
    },
    bulkSetAttendance: {
      method: 'POST',
      path: '/v2/bulk/attendance/set',
      summary: 'Set the attendance of up to 8 bookings in one call',
      request: () =>
        z.looseObject({
          returnFullEntity: z.optional(z.boolean()),
          attendanceDetails: z.array(z.looseObject({ attendance: attendanceInput(), participantNotification: participantNotification() })).check(z.minLength(1), z.maxLength(MAX_ATTENDANCE_BULK)),
        }),
      reply: () => bulkResult(AttendanceRecord),
      bulkLimit: MAX_ATTENDANCE_BULK,
    },
    queryAttendance: {
      method: 'POST',
      path: '/v2/attendance/query',
      summary: 'Attendances matching a filter (bookingId, eventId, status, numberOfAttendees), cursor-paged',
      request: () =>
        z.looseObject({
          query: z.looseObject({
            filter: z.optional(requestShapes().FilterInput),
            sort: z.optional(requestShapes().SortInput),
            cursorPaging: z.optional(z.looseObject({ limit: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(MAX_ATTENDANCE_PAGE)))), cursor: z.optional(z.nullable(bounded(16_000))) })),
          }),
        }),
      reply: () => z.looseObject({ attendances: z.array(AttendanceRecord), pagingMetadata: z.optional(PagingMetadata) }),
      paging: { kind: 'cursor', items: 'attendances', wrapper: 'query', maxLimit: MAX_ATTENDANCE_PAGE, filter: true },
      idempotent: true,
    },
    countAttendances: {
      method: 'POST',
      path: '/v2/attendance/count',
      summary: 'How many attendances match a filter',
      request: () => z.looseObject({ filter: z.optional(requestShapes().FilterInput) }),
      reply: () => z.looseObject({ count: z.int() }),
      idempotent: true,
    },
    deleteAttendance: {
      method: 'DELETE',
      path: '/v2/attendance/{attendanceId}',
      summary: 'Delete an attendance (the booking is as if none had been set)',
      request: () => z.looseObject({ attendanceId: requestShapes().Id }),
      reply: () => EmptyReply,
    },
    bulkDeleteAttendances: {
      method: 'POST',
      path: '/v2/bulk/attendance/delete',
      summary: 'Delete several attendances',
      request: () => z.looseObject({ attendanceIds: z.array(requestShapes().Id).check(z.minLength(1), z.maxLength(MAX_ATTENDANCE_BULK)) }),
      reply: () => bulkResult(AttendanceRecord),
      bulkLimit: MAX_ATTENDANCE_BULK,
    },
  },
});

/** One typed call per attendance operation. */
export const attendance = callsOf(attendanceFamily);
