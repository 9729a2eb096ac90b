/** The attendance family as the emulator serves it (family.ts): who came to a booking's session, and how many. */
import type { EmulatedFamily } from '../family.js';
import { attendanceServed } from './handlers.js';
import { ATTENDANCE_COLLECTIONS } from './model.js';
import { seedAttendance } from '../seed/attendance.js';

export const ATTENDANCE_FAMILY: EmulatedFamily = {
  name: 'attendance',
  served: attendanceServed,
  collections: ATTENDANCE_COLLECTIONS,
  seed: seedAttendance,
};
