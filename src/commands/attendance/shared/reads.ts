/**
 * What the attendance read verbs (`list`, `count`, `export`) select (commands/shared/verbs.ts ReadSpec): any
 * `--filter`/`--where` over `bookingId`, `eventId`, `status` and `numberOfAttendees`; `count` is the platform's
 * count call.
 */
import type { AttendanceRecord } from '../../../api/schemas/attendance.js';
import { countCall, type ReadSpec } from '../../shared/verbs.js';
import { attendanceFamily } from '../../../api/attendance.js';
import { ATTENDANCE_VIEW } from './view.js';

export const ATTENDANCE_READS: ReadSpec<AttendanceRecord> = {
  view: ATTENDANCE_VIEW,
  // The latest marks first: what the front desk just did.
  defaultSort: 'statusUpdatedDate:desc',
  // The export's CSV is the attendance as stored (the bookings' names are read for a terminal only).
  exportColumns: [{ key: 'id' }, { key: 'bookingId' }, { key: 'eventId' }, { key: 'status' }, { key: 'numberOfAttendees' }, { key: 'statusUpdatedDate' }],
  count: countCall(attendanceFamily.operations.countAttendances, (filter) => ({ filter: filter ?? {} }), (reply) => reply.count),
};
