/**
 * Demo bookings (docs/bookings.md "Bookings"): `count` bookings over the 30 days before and after the seed hour (a wider
 * window for counts a month cannot hold: up to a year either side), in
 * every status, some of them multi-service (seed/attendance.ts marks who came to the past ones). Deterministic for a given
 * catalog and count (seeded PRNG), and consistent by construction: appointments only where their staff member
 * is free (no overlap with another booking), class sessions and courses never over capacity (a full session
 * puts the booking on the waiting list), so the scheduling engine agrees with every seeded booking. The times and
 * places of `KEPT_FREE` (catalog.ts) are never taken, so the examples that book them work on any seed.
 *
 * The engine itself is not asked per booking (that would rebuild its occupancy index after every insert):
 * the seed keeps its own running tally, which is what makes 10,000 bookings take about a second.
 */
import { type BookingDoc, type Calendar, calendarOf, type StaffDoc } from '../bookings/model.js';
import type { SeedStep } from '../family.js';
import { BOOKING_STEP, type Candidate, candidates, capacityOf, courseSessions, durationOf, eventIdOf, locationOf, scheduleIdOf } from '../bookings/sessions.js';
import { atLocalTime, DAY, HOUR, iso, localDays, MINUTE, weekdayOf } from '../bookings/time.js';
import { KEPT_FREE, KEPT_PLACES } from './catalog.js';
import type { ServiceDoc } from '../services/model.js';
import type { Prng } from './random.js';

/** Bookings in the demo seed unless told otherwise. */
export const DEFAULT_SEED_BOOKINGS = 500;
/** Days before and after the seed hour the bookings cover (more for large counts, see {@link seedBookings}). */
const WINDOW_DAYS = 30;
/** Bookings per window day a demo calendar holds comfortably; beyond it the window widens (to a year). */
const PER_DAY = 35;

const FIRST = ['Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Mateo', 'Sophia', 'Ethan', 'Mia', 'Lucas', 'Isabella', 'Mason', 'Amara', 'Kenji', 'Zoe', 'Ravi', 'Chloe', 'Diego', 'Hana', 'Omar'];
const LAST = ['Garcia', 'Smith', 'Nguyen', 'Johnson', 'Kim', 'Patel', 'Brown', 'Lopez', 'Wilson', 'Cohen', 'Silva', 'Murphy', 'Ali', 'Rossi', 'Jensen'];

interface Contact {
  contactId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
}

function contacts(rnd: Prng, n: number): Contact[] {
  return Array.from({ length: n }, (_, i) => {
    const firstName = FIRST[i % FIRST.length]!;
    const lastName = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
    return {
      contactId: rnd.uuid(),
      firstName,
      lastName,
      email: `${firstName}.${lastName}${i >= FIRST.length * LAST.length ? i : ''}@example.com`.toLowerCase(),
      phone: `+1 415 555 ${String(2000 + i).slice(-4)}`,
    };
  });
}

/** Status of a seeded booking from its position in time (past ones mostly confirmed, future ones mixed). */
function statusFor(rnd: Prng, past: boolean, approval: boolean): BookingDoc['status'] {
  const r = rnd.next();
  if (past) return r < 0.72 ? 'CONFIRMED' : r < 0.87 ? 'CANCELED' : r < 0.93 ? 'DECLINED' : 'CREATED';
  if (r < 0.5) return 'CONFIRMED';
  if (r < 0.7) return approval ? 'PENDING' : 'CREATED';
  if (r < 0.8) return 'CREATED';
  if (r < 0.9) return 'CANCELED';
  return 'DECLINED';
}

const ACTIVE = new Set(['CREATED', 'CONFIRMED', 'PENDING']);

/**
 * Seeds the bookings of one site. The services, staff and policies must be seeded already.
 * @param base the seed hour (epoch ms): the window is 30 days either side of it
 */
export function seedBookings(cal: Calendar, rnd: Prng, base: number, count: number): void {
  if (count <= 0) return;
  const days = Math.min(365, Math.max(WINDOW_DAYS, Math.ceil(count / (2 * PER_DAY))));
  const from = base - days * DAY;
  const to = base + days * DAY;
  const people = contacts(rnd, Math.max(20, Math.min(2000, Math.ceil(count / 3))));
  const services = [...cal.catalog.services.all()];
  const appointments = services.filter((s) => s.type === 'APPOINTMENT' && (s.staffMemberIds?.length ?? 0) > 0);
  const classes = services.filter((s) => s.type === 'CLASS');
  const courses = services.filter((s) => s.type === 'COURSE' && courseSessions(s, cal.timeZone).length > 0);

  // Slots and sessions of the window, computed on the empty calendar (a service's on its first use); the
  // tallies below keep them honest.
  const slotCache = new Map<ServiceDoc, Candidate[]>();
  const slotsOf = (s: ServiceDoc): Candidate[] => {
    let list = slotCache.get(s);
    if (!list) slotCache.set(s, (list = candidates(cal, s, from, to, { ignoreBookings: true })));
    return list;
  };
  const sessions = classes.map((s) => candidates(cal, s, from, to)).flat();
  // staff id -> day (start / DAY) -> booked intervals (buffer included) starting that day; none is a day long
  const taken = new Map<string, Map<number, Array<[number, number]>>>();
  const seats = new Map<string, number>(); // session or course schedule -> participants
  const waiting = new Map<string, number>();

  const free = (staffId: string, start: number, end: number): boolean => {
    const days = taken.get(staffId);
    if (!days) return true;
    for (let d = Math.floor(start / DAY) - 1; d <= Math.floor(end / DAY); d++) {
      if (days.get(d)?.some(([s, e]) => s < end && e > start)) return false;
    }
    return true;
  };
  const hold = (staffId: string, start: number, end: number) => {
    let days = taken.get(staffId);
    if (!days) taken.set(staffId, (days = new Map()));
    const d = Math.floor(start / DAY);
    let list = days.get(d);
    if (!list) days.set(d, (list = []));
    list.push([start, end]);
  };
  // The kept-free times (catalog.ts) are held from the start, so no active booking is placed on them.
  const keptPlaces = new Set<string>();
  for (const kept of KEPT_FREE) {
    const service = services.find((s) => s.name === kept.service);
    if (!service) continue;
    if (!kept.day || !kept.at) {
      keptPlaces.add(service.id);
      continue;
    }
    const length = (durationOf(service) + (service.schedule?.availabilityConstraints?.timeBetweenSessions ?? 0)) * MINUTE;
    for (const midnight of localDays(from, to, cal.timeZone)) {
      if (weekdayOf(midnight + 12 * HOUR, cal.timeZone) !== kept.day) continue;
      const start = atLocalTime(midnight + 12 * HOUR, kept.at, cal.timeZone);
      for (const staffId of service.staffMemberIds ?? []) hold(staffId, start, start + length);
    }
  }
  const roomOf = (service: ServiceDoc, capacity: number) => capacity - (keptPlaces.has(service.id) ? KEPT_PLACES : 0);

  const createdBefore = (start: number) => Math.min(base - HOUR, start - rnd.int(1, 21) * DAY - rnd.int(0, 23) * HOUR);

  const insert = (doc: Record<string, unknown> & { startDate: string }, created: number): BookingDoc => {
    const stored = cal.bookings.insert({ id: rnd.uuid(), ...doc, createdDate: iso(created), updatedDate: iso(Math.max(created, Math.min(base, Date.parse(doc.startDate)))) } as BookingDoc);
    return stored;
  };

  const base0 = (service: ServiceDoc, who: Contact, status: BookingDoc['status'], participants: number) => ({
    contactDetails: { ...who },
    status,
    paymentStatus: status === 'CONFIRMED' && rnd.next() < 0.6 ? 'PAID' : 'NOT_PAID',
    selectedPaymentOption: service.payment?.options?.online && rnd.next() < 0.5 ? 'ONLINE' : 'OFFLINE',
    totalParticipants: participants,
    createdBy: { ...cal.actor },
    ...(service.form?.id ? { formId: service.form.id } : {}),
  });

  const slotOf = (c: Candidate, status: BookingDoc['status']) => ({
    serviceId: c.service.id,
    scheduleId: c.scheduleId,
    ...(c.eventId || status === 'CONFIRMED' ? { eventId: c.eventId ?? eventIdOf(c.scheduleId, c.start, c.staff?.id ?? '') } : {}),
    startDate: iso(c.start),
    endDate: iso(c.end),
    timezone: cal.timeZone,
    ...(c.staff ? { resource: { id: c.staff.id, name: c.staff.name } } : {}),
    location: c.location,
  });

  /** Books one appointment slot of `service` (a random free one), or returns undefined when none is left. */
  const appointment = (service: ServiceDoc, who: Contact, opts: { at?: number; status?: BookingDoc['status']; msb?: { id: string; type: 'SEQUENTIAL_BOOKINGS' } } = {}): BookingDoc | undefined => {
    const list = slotsOf(service);
    const buffer = (service.schedule?.availabilityConstraints?.timeBetweenSessions ?? 0) * MINUTE;
    let pick: Candidate | undefined;
    if (opts.at !== undefined) {
      // Back to back: any start on the booking grid, not just the listed slots.
      const at = opts.at;
      pick = candidates(cal, service, at, at + durationOf(service) * MINUTE, { step: BOOKING_STEP, ignoreBookings: true }).find((c) => c.start === at && free(c.staff!.id, c.start, c.end + buffer));
    }
    else {
      for (let tries = 0; tries < 12 && !pick; tries++) {
        const c = list[rnd.int(0, list.length - 1)];
        if (c && free(c.staff!.id, c.start, c.end + buffer)) pick = c;
      }
    }
    let status = opts.status;
    if (!pick) {
      // The calendar is full here: a cancelled or declined booking still fits (it holds no place).
      if (opts.at !== undefined || opts.status !== undefined || list.length === 0) return undefined;
      pick = list[rnd.int(0, list.length - 1)]!;
      status = rnd.next() < 0.7 ? 'CANCELED' : 'DECLINED';
    }
    const past = pick.start < base;
    status ??= statusFor(rnd, past, Boolean(service.onlineBooking?.requireManualApproval));
    if (ACTIVE.has(status)) hold(pick.staff!.id, pick.start, pick.end + buffer);
    return insert(
      {
        ...base0(service, who, status, 1),
        bookedEntity: { slot: slotOf(pick, status), title: service.name, tags: ['INDIVIDUAL'] },
        startDate: iso(pick.start),
        endDate: iso(pick.end),
        ...(status === 'CANCELED' ? { canceledDate: iso(Math.min(base, pick.start - HOUR)) } : {}),
        ...(opts.msb ? { multiServiceBookingInfo: opts.msb } : {}),
      },
      createdBefore(pick.start),
    );
  };

  const classSession = (who: Contact): BookingDoc | undefined => {
    const c = sessions[rnd.int(0, sessions.length - 1)];
    if (!c) return undefined;
    const participants = rnd.next() < 0.85 ? 1 : 2;
    const used = seats.get(c.eventId!) ?? 0;
    let status = statusFor(rnd, c.start < base, false);
    if (ACTIVE.has(status) && used + participants > roomOf(c.service, c.capacity)) {
      // A session with places kept open is not full: no waiting list there.
      if (c.start >= base && !keptPlaces.has(c.service.id) && (waiting.get(c.eventId!) ?? 0) + participants <= 5) {
        status = 'WAITING_LIST';
        waiting.set(c.eventId!, (waiting.get(c.eventId!) ?? 0) + participants);
      } else status = rnd.next() < 0.7 ? 'CANCELED' : 'DECLINED';
    } else if (ACTIVE.has(status)) seats.set(c.eventId!, used + participants);
    return insert(
      {
        ...base0(c.service, who, status, participants),
        bookedEntity: { slot: slotOf(c, status), title: c.service.name, tags: ['GROUP'] },
        startDate: iso(c.start),
        endDate: iso(c.end),
        ...(status === 'CANCELED' ? { canceledDate: iso(Math.min(base, c.start - HOUR)) } : {}),
      },
      createdBefore(c.start),
    );
  };

  const course = (who: Contact): BookingDoc | undefined => {
    const service = courses[rnd.int(0, courses.length - 1)];
    if (!service) return undefined;
    const all = courseSessions(service, cal.timeZone);
    const start = all[0]!;
    const end = all[all.length - 1]! + durationOf(service) * MINUTE;
    if (end < from || start > to) return undefined;
    const scheduleId = scheduleIdOf(service);
    const used = seats.get(scheduleId) ?? 0;
    let status = statusFor(rnd, start < base, false);
    if (ACTIVE.has(status) && used + 1 > roomOf(service, capacityOf(service))) status = 'CANCELED';
    else if (ACTIVE.has(status)) seats.set(scheduleId, used + 1);
    return insert(
      {
        ...base0(service, who, status, 1),
        bookedEntity: {
          schedule: { scheduleId, serviceId: service.id, location: locationOf(service), timezone: cal.timeZone, firstSessionStart: iso(start), lastSessionEnd: iso(end) },
          title: service.name,
          tags: ['COURSE'],
        },
        startDate: iso(start),
        endDate: iso(end),
        ...(status === 'CANCELED' ? { canceledDate: iso(Math.min(base, start - HOUR)) } : {}),
      },
      createdBefore(start),
    );
  };

  /** Two back-to-back appointments with the same contact, as one multi-service booking. */
  const group = (who: Contact): number => {
    const [a, b] = rnd.sample(appointments, 2);
    if (!a || !b) return 0;
    const id = rnd.uuid();
    const msb = { id, type: 'SEQUENTIAL_BOOKINGS' as const };
    const status = rnd.next() < 0.8 ? 'CONFIRMED' : 'CREATED';
    const first = appointment(a, who, { status, msb });
    if (!first) return 0;
    const second = appointment(b, who, { at: Date.parse(first.endDate), status, msb });
    if (!second) {
      // No partner slot: the first one stays, as a single booking.
      const { multiServiceBookingInfo: _none, ...single } = first;
      cal.bookings.update(single as BookingDoc, { event: false });
      return 1;
    }
    cal.multiServiceBookings.insert({ id, type: 'SEQUENTIAL_BOOKINGS', bookingIds: [first.id, second.id], createdDate: first.createdDate, updatedDate: first.createdDate });
    return 2;
  };

  let made = 0;
  let misses = 0;
  while (made < count && misses < count * 4) {
    const who = people[rnd.int(0, people.length - 1)]!;
    const r = rnd.next();
    let n = 0;
    if (r < 0.05 && count - made >= 2 && appointments.length >= 2) n = group(who);
    else if (r < 0.55 && appointments.length) n = appointment(appointments[rnd.int(0, appointments.length - 1)]!, who) ? 1 : 0;
    else if (r < 0.93 && sessions.length) n = classSession(who) ? 1 : 0;
    else if (courses.length) n = course(who) ? 1 : 0;
    if (n === 0) misses++;
    made += n;
  }
}

/** Weekly working hours for the n-th staff member of the seed (local times). */
export function seedWorkingHours(n: number): StaffDoc['workingHours'] {
  const shapes: Array<{ days: string[]; start: string; end: string }> = [
    { days: ['MON', 'TUE', 'WED', 'THU', 'FRI'], start: '09:00', end: '17:00' },
    { days: ['TUE', 'WED', 'THU', 'FRI', 'SAT'], start: '10:00', end: '18:00' },
    { days: ['MON', 'WED', 'FRI'], start: '08:00', end: '16:00' },
    { days: ['MON', 'TUE', 'WED', 'THU'], start: '12:00', end: '20:00' },
  ];
  const shape = shapes[n % shapes.length]!;
  return shape.days.map((day) => ({ day: day as never, startTime: shape.start, endTime: shape.end }));
}

/** The bookings family's seed step: `counts.bookings` bookings of the site's services (none on another site). */
export function seedBookingsStep(step: SeedStep): void {
  if (step.counts.bookings <= 0) return;
  const cal = calendarOf({ db: (def) => step.store.collection(def).at(step.site), now: iso(step.base), principal: { accountId: step.actor } }, () => step.rnd.uuid());
  seedBookings(cal, step.rnd, step.base, step.counts.bookings);
}
