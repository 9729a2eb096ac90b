/**
 * Who came to the demo's past sessions (docs/bookings.md "Attendance"): each confirmed booking that has ended
 * gets an attendance: most ATTENDED (all its participants came), some NOT_ATTENDED (a no-show), a few NOT_SET
 * (marked and then cleared). Deterministic for a given seed: its own random sequence, over the bookings in the
 * order of their start. The attendance family's seed step.
 */
import { attendanceIdOf, attendanceOf } from '../attendance/model.js';
import { BOOKINGS, type BookingDoc } from '../bookings/model.js';
import type { SeedStep } from '../family.js';
import { Prng } from './random.js';

const ATTENDANCE_PRNG_SEED = 20251127;

/** Marks the attendance of the ended, confirmed bookings of `step.site`. */
export function seedAttendance(step: SeedStep): void {
  const bookings = step.store.collection(BOOKINGS).at(step.site);
  const ended = ([...bookings.all()] as BookingDoc[]).filter((b) => b.status === 'CONFIRMED' && Date.parse(b.endDate) < step.base);
  if (ended.length === 0) return;
  const rnd = new Prng(ATTENDANCE_PRNG_SEED);
  const attendance = attendanceOf({ db: (def) => step.store.collection(def).at(step.site) });
  for (const b of ended.sort((x, y) => Date.parse(x.startDate) - Date.parse(y.startDate) || x.id.localeCompare(y.id))) {
    const draw = rnd.next();
    const status = draw < 0.8 ? 'ATTENDED' : draw < 0.95 ? 'NOT_ATTENDED' : 'NOT_SET';
    const eventId = b.bookedEntity?.slot?.eventId ?? undefined;
    attendance.insert({
      id: attendanceIdOf(b.id, eventId),
      bookingId: b.id,
      ...(eventId ? { eventId } : {}),
      status,
      numberOfAttendees: status === 'ATTENDED' ? b.totalParticipants : 0,
      createdDate: b.endDate,
      updatedDate: b.endDate,
      statusUpdatedDate: b.endDate,
    });
  }
}
