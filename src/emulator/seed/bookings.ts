/**
 * Demo bookings (docs/bookings.md "Bookings"): `count` bookings over the `windowDays` days before and after the seed
 * hour (default 30, wider for counts a month cannot hold: 35 a day, up to a year either side), in every status, some of them multi-service (seed/attendance.ts marks who came to the past ones). Deterministic for a given
 * catalog and count (seeded PRNG), and consistent by construction: appointments only where their staff member
 * is free (no overlap with another booking), class sessions and courses never over capacity (a full session
 * puts the booking on the waiting list), so the scheduling engine agrees with every seeded booking. The times and
 * places of `KEPT_FREE` (catalog.ts) are never taken, so the examples that book them work on any seed.
 *
 * With `busyWeek`, the 7 days from the seed hour are then filled as a busy business's are: every staff member's
 * appointment time to {@link BUSY_FILL} (walked start by start on the 15-minute booking grid, a booking placed
 * wherever the time booked so far is under the target), every class session to its capacity, some with a
 * waiting list. 200 staff members make about 6,000 appointments there.
 *
 * The engine is asked for the slots once per service (ignoring bookings), not per booking: the seed keeps its
 * own running tally, which is what makes 10,000 bookings take about a second.
 */
import { type BookingDoc, type Calendar, calendarOf, type StaffDoc } from '../bookings/model.js';
import type { SeedStep } from '../family.js';
import { BOOKING_STEP, bufferOf, type Candidate, candidates, capacityOf, courseSessions, durationOf, eventIdOf, locationOf, scheduleIdOf } from '../bookings/sessions.js';
import { atLocalTime, DAY, HOUR, iso, localDays, MINUTE, weekdayOf } from '../bookings/time.js';
import { KEPT_FREE, KEPT_PLACES } from './catalog.js';
import type { ServiceDoc } from '../services/model.js';
import type { Prng } from './random.js';

/** Bookings in the demo seed unless told otherwise. */
export const DEFAULT_SEED_BOOKINGS = 500;
/** Days before and after the seed hour the bookings cover (more for large counts, see {@link seedBookings}). */
export const WINDOW_DAYS = 30;
/** Longest window a seed may be given (days either side of the seed hour). */
export const MAX_WINDOW_DAYS = 365;
/** Bookings per window day a demo calendar holds comfortably; beyond it the default window widens (to a year). */
const PER_DAY = 35;
/** Share of each staff member's appointment time the busy week books (buffers included). */
export const BUSY_FILL = 0.9;
/** Days from the seed hour the busy week fills. */
export const BUSY_DAYS = 7;

/** Options of {@link seedBookings}. */
export interface BookingSeedOptions {
  /**
   * Days before and after the seed hour the `count` bookings cover (1-365). Default: {@link WINDOW_DAYS}, widened to
   * hold 35 bookings a day, up to {@link MAX_WINDOW_DAYS}.
   */
  windowDays?: number;
  /** Then fill the next {@link BUSY_DAYS} days as a busy business's (see the module comment). */
  busyWeek?: boolean;
  /** Told how the seed goes (a line of text every tenth of a large count, and the busy week's summary). */
  progress?: (line: string) => void;
}

/** What the busy week placed in the {@link BUSY_DAYS} days from the seed hour. */
export interface BusyWeekSummary {
  /** Active appointments starting then (the busy week's and the ones `count` already put there). */
  appointments: number;
  /** Share of the staff's bookable appointment time they take (15-minute steps, buffers included). */
  fill: number;
  /** Class sessions then, and bookings placed in them (waiting list included). */
  sessions: number;
  classBookings: number;
}

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

/** The days either side of the seed hour `count` bookings cover when no window is given. */
export function defaultWindowDays(count: number): number {
  return Math.min(MAX_WINDOW_DAYS, Math.max(WINDOW_DAYS, Math.ceil(count / (2 * PER_DAY))));
}

/**
 * Seeds the bookings of one site. The services, staff and policies must be seeded already.
 * @param base the seed hour (epoch ms): the window is `opts.windowDays` either side of it
 * @returns what the busy week placed, when asked for one
 * @throws RangeError when `opts.windowDays` is not an integer from 1 to 365
 */
export function seedBookings(cal: Calendar, rnd: Prng, base: number, count: number, opts: BookingSeedOptions = {}): BusyWeekSummary | undefined {
  if (count <= 0 && !opts.busyWeek) return undefined;
  const days = opts.windowDays ?? defaultWindowDays(count);
  if (!Number.isInteger(days) || days < 1 || days > MAX_WINDOW_DAYS) throw new RangeError(`the bookings window must be 1 to ${MAX_WINDOW_DAYS} days, got ${days}`);
  const from = base - days * DAY;
  const to = base + days * DAY;
  const busyEnd = base + BUSY_DAYS * DAY;
  // A busy week books thousands of people: the most contacts the seed makes (the same ones without it).
  const people = contacts(rnd, opts.busyWeek ? 2000 : Math.max(20, Math.min(2000, Math.ceil(count / 3))));
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
    for (const midnight of localDays(from, opts.busyWeek ? Math.max(to, busyEnd) : to, cal.timeZone)) {
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
  // Progress every tenth of a count large enough to take a while (a few seconds per 10,000 on a slow machine).
  const tenth = count >= 20_000 ? Math.ceil(count / 10) : Number.POSITIVE_INFINITY;
  let told = 0;
  while (made < count && misses < count * 4) {
    if (made - told >= tenth) {
      told = made;
      opts.progress?.(`bookings ${made.toLocaleString('en-US')} of ${count.toLocaleString('en-US')}`);
    }
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
  if (!opts.busyWeek) return undefined;

  // The busy week. Appointments: each staff member's starts on the booking grid (where a service of theirs fits
  // their hours, teaching and time off), walked in order; a start already inside a booking counts as booked time,
  // and a free one gets a booking (a random service of theirs that fits there) while the booked share is under
  // BUSY_FILL, else stays free.
  const step = BOOKING_STEP * MINUTE;
  const byStaff = new Map<string, Map<number, Candidate[]>>();
  for (const service of appointments) {
    for (const c of candidates(cal, service, base, busyEnd, { step: BOOKING_STEP, ignoreBookings: true })) {
      if (c.start < base || c.end > busyEnd) continue;
      let starts = byStaff.get(c.staff!.id);
      if (!starts) byStaff.set(c.staff!.id, (starts = new Map()));
      const at = starts.get(c.start);
      if (at) at.push(c);
      else starts.set(c.start, [c]);
    }
  }
  let points = 0;
  let booked = 0;
  let placed = 0;
  for (const starts of byStaff.values()) {
    let mine = 0;
    let mineBooked = 0;
    for (const [start, options] of [...starts.entries()].sort((a, b) => a[0] - b[0])) {
      mine++;
      const staffId = options[0]!.staff!.id;
      if (!free(staffId, start, start + step)) {
        mineBooked++;
        continue;
      }
      if (mineBooked >= BUSY_FILL * mine) continue;
      const fits = options.filter((c) => free(staffId, c.start, c.end + bufferOf(c.service) * MINUTE));
      if (fits.length === 0) continue;
      const pick = fits[rnd.int(0, fits.length - 1)]!;
      const status: BookingDoc['status'] = rnd.next() < 0.75 ? 'CONFIRMED' : pick.service.onlineBooking?.requireManualApproval ? 'PENDING' : 'CREATED';
      hold(staffId, pick.start, pick.end + bufferOf(pick.service) * MINUTE);
      insert(
        {
          ...base0(pick.service, people[rnd.int(0, people.length - 1)]!, status, 1),
          bookedEntity: { slot: slotOf(pick, status), title: pick.service.name, tags: ['INDIVIDUAL'] },
          startDate: iso(pick.start),
          endDate: iso(pick.end),
        },
        createdBefore(pick.start),
      );
      placed++;
      mineBooked++;
    }
    points += mine;
    booked += mineBooked;
  }
  // Classes: every session of the week to its room (places kept open stay open), then a waiting list on some.
  let sessionCount = 0;
  let classBookings = 0;
  for (const c of classes.flatMap((s) => candidates(cal, s, base, busyEnd)).sort((a, b) => a.start - b.start)) {
    if (c.start < base) continue;
    sessionCount++;
    const room = roomOf(c.service, c.capacity);
    for (let used = seats.get(c.eventId!) ?? 0; used < room; ) {
      const participants = Math.min(room - used, rnd.next() < 0.85 ? 1 : 2);
      const status: BookingDoc['status'] = rnd.next() < 0.8 ? 'CONFIRMED' : 'CREATED';
      insert(
        { ...base0(c.service, people[rnd.int(0, people.length - 1)]!, status, participants), bookedEntity: { slot: slotOf(c, status), title: c.service.name, tags: ['GROUP'] }, startDate: iso(c.start), endDate: iso(c.end) },
        createdBefore(c.start),
      );
      used += participants;
      seats.set(c.eventId!, used);
      classBookings++;
    }
    if (!keptPlaces.has(c.service.id) && (waiting.get(c.eventId!) ?? 0) === 0 && rnd.next() < 0.5) {
      insert(
        { ...base0(c.service, people[rnd.int(0, people.length - 1)]!, 'WAITING_LIST', 1), bookedEntity: { slot: slotOf(c, 'WAITING_LIST'), title: c.service.name, tags: ['GROUP'] }, startDate: iso(c.start), endDate: iso(c.end) },
        createdBefore(c.start),
      );
      waiting.set(c.eventId!, 1);
      classBookings++;
    }
  }
  let appointmentsThen = 0;
  for (const b of cal.bookings.all()) {
    const start = Date.parse(b.startDate);
    if (start >= base && start < busyEnd && ACTIVE.has(b.status) && b.bookedEntity?.tags?.[0] === 'INDIVIDUAL') appointmentsThen++;
  }
  const summary: BusyWeekSummary = { appointments: appointmentsThen, fill: points ? booked / points : 0, sessions: sessionCount, classBookings };
  opts.progress?.(
    `busy week: ${placed.toLocaleString('en-US')} appointments placed (${appointmentsThen.toLocaleString('en-US')} in the next ${BUSY_DAYS} days, ${Math.round(summary.fill * 100)} % of the staff's appointment time), ${classBookings.toLocaleString('en-US')} class bookings filling ${sessionCount} sessions`,
  );
  return summary;
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

/** The bookings family's seed step: `counts.bookings` bookings of the site's services, and the busy week if asked (none on another site). */
export function seedBookingsStep(step: SeedStep): void {
  const busyWeek = step.main && Boolean(step.bookings?.busyWeek);
  if (step.counts.bookings <= 0 && !busyWeek) return;
  const cal = calendarOf({ db: (def) => step.store.collection(def).at(step.site), now: iso(step.base), principal: { accountId: step.actor } }, () => step.rnd.uuid());
  seedBookings(cal, step.rnd, step.base, step.counts.bookings, { windowDays: step.bookings?.windowDays, busyWeek, progress: step.progress });
}
