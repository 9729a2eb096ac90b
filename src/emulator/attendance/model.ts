/**
 * What the attendance family stores (docs/bookings.md "Attendance"): one attendance per booking and session, in wire
 * form. Its id is derived from the booking's id and the session's event id, so the extended bookings
 * (`withBookingAttendanceInfo`) find a booking's attendance by id, and setting it again replaces it.
 */
import { stableId } from '../ids.js';
import type { RequestContext } from '../serve.js';
import { defineCollection, type SiteCollection } from '../store/collection.js';

/** One attendance: whether anyone came to the booking's session, and how many. */
// A type alias, not an interface: a reply holding it must fit the schema's loose (index-signature) types.
export type AttendanceDoc = {
  id: string;
  revision?: string;
  bookingId: string;
  /** The session's calendar event (classes and courses); absent for an appointment's one session. */
  eventId?: string;
  status: 'NOT_SET' | 'ATTENDED' | 'NOT_ATTENDED';
  numberOfAttendees: number;
  createdDate?: string;
  updatedDate?: string;
  /** When `status` last changed. */
  statusUpdatedDate?: string;
};

export const ATTENDANCE = defineCollection<AttendanceDoc>({ kind: 'attendance', entity: 'attendance', notFound: 'ATTENDANCE_NOT_FOUND' });

/** Every collection of the attendance family. */
export const ATTENDANCE_COLLECTIONS = [ATTENDANCE];

/** The id of the attendance of `bookingId` (and of the session `eventId`): a GUID-shaped hash of both. */
export function attendanceIdOf(bookingId: string, eventId?: string): string {
  return stableId('attendance', bookingId, eventId ?? '');
}

/** The attendance collection of a request's (or seed step's) site. */
export function attendanceOf(ctx: Pick<RequestContext<unknown>, 'db'>): SiteCollection<AttendanceDoc> {
  return ctx.db(ATTENDANCE);
}

/** An attendance as the platform answers it (the stored document without what only the emulator keeps). */
export function publicAttendance(a: AttendanceDoc): Record<string, unknown> {
  const { revision: _revision, createdDate: _created, ...wire } = a;
  return wire;
}
