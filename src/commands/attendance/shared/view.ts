/**
 * How an attendance looks on the command line (docs/bookings.md "Attendance"): whether anyone came to a booking's
 * session, how many, and when that was said; on a terminal, the booking by its label (contact · service · time).
 */
import { attendanceFamily } from '../../../api/attendance.js';
import { AttendanceRecord } from '../../../api/schemas/attendance.js';
import { type Column, zoned } from '../../../core/output.js';
import { contactOf, zoneOf } from '../../bookings/shared/view.js';
import type { EntityView } from '../../shared/entity-view.js';
import { bookingLabel, knownBooking } from './booking-labels.js';

/** The status as a person reads it: `came`, `no-show`, `not set`. */
export function statusWord(status: string | undefined): string {
  return status === 'ATTENDED' ? 'came' : status === 'NOT_ATTENDED' ? 'no-show' : 'not set';
}

/**
 * Columns of `attendance list`: who booked (the booking's id until its bookings are read, on a terminal), the
 * service, when the session starts (never cut), status, how many came, when it was marked.
 */
export const ATTENDANCE_COLUMNS: Column<AttendanceRecord>[] = [
  { key: 'id', id: true, noTruncate: true },
  { key: 'booking', header: 'WHO', get: (a) => { const b = knownBooking(a.bookingId); return b ? contactOf(b) : a.bookingId; }, min: 12 },
  { key: 'service', get: (a) => knownBooking(a.bookingId)?.bookedEntity?.title ?? '', min: 10, priority: 2, forPeople: true },
  { key: 'start', get: (a) => { const b = knownBooking(a.bookingId); return b ? zoned(b.startDate, zoneOf(b)) : ''; }, fit: 'whole', forPeople: true },
  { key: 'status', get: (a) => a.status ?? 'NOT_SET' },
  { key: 'attendees', header: 'CAME', get: (a) => a.numberOfAttendees ?? 0, align: 'right' },
  { key: 'statusUpdatedDate', header: 'MARKED', priority: 3 },
];

/** Rows of the readable `attendance get` view. */
function attendanceRows(a: AttendanceRecord): Array<[string, unknown]> {
  const rows: Array<[string, unknown]> = [
    ['id', a.id],
    ['booking', a.bookingId],
    ['booked', bookingLabel(a.bookingId)],
    ['session', a.eventId],
    ['status', `${a.status ?? 'NOT_SET'} (${statusWord(a.status)})`],
    ['came', a.numberOfAttendees],
    ['marked', a.statusUpdatedDate],
    ['updated', a.updatedDate],
  ];
  return rows.filter(([, v]) => v !== undefined && v !== null && v !== '');
}

/** The attendance entity for the shared read verbs. */
export const ATTENDANCE_VIEW: EntityView<AttendanceRecord> = {
  noun: { one: 'attendance', many: 'attendances' },
  schema: AttendanceRecord,
  columns: ATTENDANCE_COLUMNS,
  sortFields: { status: 'status', attendees: 'numberOfAttendees', statusUpdatedDate: 'statusUpdatedDate' },
  rows: attendanceRows,
  readOnly: ['id', 'updatedDate', 'statusUpdatedDate'],
  query: attendanceFamily.operations.queryAttendance,
  label: (a) => bookingLabel(a.bookingId) ?? a.bookingId ?? undefined,
  filterExample: '{"status":"NOT_ATTENDED"}',
  prepare: async (api, list, signal) => (await import('./booking-labels.js')).rememberBookings(api, list, signal),
};
