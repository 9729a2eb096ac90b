/** The staff family as the emulator serves it (family.ts): staff members and their working hours (calendar events). */
import type { EmulatedFamily } from '../family.js';
import { calendarEventsServed } from './calendar.js';
import { staffMembersServed } from './handlers.js';
import { STAFF_COLLECTIONS } from './model.js';
import { seedStaff } from '../seed/staff.js';

export const STAFF_FAMILY: EmulatedFamily = {
  name: 'staff',
  served: [...staffMembersServed, ...calendarEventsServed],
  collections: STAFF_COLLECTIONS,
  seed: seedStaff,
};
