/**
 * The scheduling engine (docs/bookings.md "Bookings"): when a service can be booked, and how much room is left.
 *
 * - Appointments: slots of the service's duration inside each of its staff members' working hours (local times
 *   in the site's zone, Monday to Friday 09:00-17:00 when a staff member has none), listed stepping by duration
 *   plus the service's `timeBetweenSessions` (a booking may also start on a 15-minute grid between them, so
 *   services can follow each other back to back), minus every interval the staff member is already taken: a booking of
 *   any service (CREATED, CONFIRMED or PENDING) with its buffer, a class or course session they teach, time
 *   off. One slot per staff member and start; its spots are the service's `defaultCapacity` (1).
 * - Classes: a session every week at the wall-clock time of `schedule.firstSessionStart` (until
 *   `schedule.lastSessionEnd` when set), with `defaultCapacity` spots, taught by the first staff member.
 * - Courses: the same weekly series from `firstSessionStart` to `lastSessionEnd`, booked as a whole; its spots
 *   are the schedule's.
 *
 * Open spots are capacity minus the participants of active bookings; WAITING_LIST bookings fill the waiting
 * list instead (its size is the policy's `waitlistPolicy.capacity`). Occupancy is an index built once from the
 * bookings and then updated booking by booking as they are created, changed or cancelled (collection `index`),
 * so a 30-day query over 20 staff members does not scan every booking per slot, and a write on a site of
 * 100,000 bookings costs what it costs on the demo site. Session ids (`eventId`) are derived from the schedule and the start, so they are stable without being
 * stored.
 */
import { stableId } from '../ids.js';
import type { ServiceLocation } from '../services/model.js';
import type { IndexDef } from '../store/collection.js';
import { ACTIVE_STATUSES, type BookingDoc, type Calendar, type ServiceDoc, type StaffDoc, type WorkingHours } from './model.js';
import { addLocalWeeks, atLocalTime, DAY, localDays, MINUTE, weekdayOf, type Weekday } from './time.js';

/** The business's default hours: what a staff member without hours of its own works (MON-FRI 09:00-17:00). */
export const DEFAULT_HOURS: readonly WorkingHours[] = (['MON', 'TUE', 'WED', 'THU', 'FRI'] as Weekday[]).map((day) => ({ day, startTime: '09:00', endTime: '17:00' }));
/** Longest series of weekly sessions a course or class is expanded to. */
const MAX_WEEKS = 520;

/** Where a slot takes place, as slots and booked entities carry it. */
export type SlotLocation = {
  id?: string | null;
  name?: string | null;
  formattedAddress?: string | null;
  locationType: 'OWNER_BUSINESS' | 'OWNER_CUSTOM' | 'CUSTOM' | 'UNDEFINED';
};

/**
 * Whether a slot at `actual` is at the place a request asked for (`wanted`: a business location id, or a
 * custom address); true when nothing was asked. Multi-service chains use it to keep every part at one place.
 */
export function atLocation(actual: SlotLocation, wanted: { id?: string | null; formattedAddress?: string | null } | null | undefined): boolean {
  if (!wanted) return true;
  if (wanted.id) return actual.id === wanted.id;
  if (wanted.formattedAddress) return actual.formattedAddress === wanted.formattedAddress;
  return true;
}

/** One bookable unit: an appointment slot with a staff member, or a class or course session. */
export interface Candidate {
  service: ServiceDoc;
  start: number;
  end: number;
  scheduleId: string;
  /** Session id (classes and courses); appointments get one when confirmed. */
  eventId?: string;
  staff?: StaffDoc;
  /** Spots of the session or appointment. */
  capacity: number;
  location: SlotLocation;
}

/** Session length of a service, in minutes (default 60). */
export function durationOf(service: ServiceDoc): number {
  const c = service.schedule?.availabilityConstraints;
  const minutes = c?.sessionDurations?.[0] ?? c?.durations?.[0]?.minutes;
  return typeof minutes === 'number' && minutes > 0 ? minutes : 60;
}

/** Minutes kept free after each appointment. */
export function bufferOf(service: ServiceDoc): number {
  const t = service.schedule?.availabilityConstraints?.timeBetweenSessions;
  return typeof t === 'number' && t > 0 ? t : 0;
}

/** Spots of one session or appointment of the service. */
export function capacityOf(service: ServiceDoc): number {
  return typeof service.defaultCapacity === 'number' && service.defaultCapacity > 0 ? service.defaultCapacity : 1;
}

/** The schedule id of a service (every service has one). */
export function scheduleIdOf(service: ServiceDoc): string {
  return service.schedule?.id ?? service.id;
}

/** A stable, UUID-shaped session id for the session of `scheduleId` starting at `start`. */
export function eventIdOf(scheduleId: string, start: number, staffId = ''): string {
  return stableId(scheduleId, String(start), staffId);
}

/** The slot location of a service: its first location. */
export function locationOf(service: ServiceDoc): SlotLocation {
  const l = service.locations?.[0] as ServiceLocation | undefined;
  if (!l) return { locationType: 'UNDEFINED' };
  const formatted = l.calculatedAddress?.formatted ?? l.business?.address?.formatted ?? l.custom?.address?.formatted ?? null;
  if (l.type === 'BUSINESS') return { id: l.business?.id ?? l.id ?? null, name: l.business?.name ?? null, formattedAddress: formatted, locationType: 'OWNER_BUSINESS' };
  if (l.type === 'CUSTOM') return { id: l.id ?? null, formattedAddress: formatted, locationType: 'OWNER_CUSTOM' };
  return { locationType: 'CUSTOM' };
}

/** The staff members who give a service (those still on the site). */
export function staffOf(cal: Calendar, service: ServiceDoc): StaffDoc[] {
  const out: StaffDoc[] = [];
  for (const id of service.staffMemberIds ?? []) {
    const s = cal.catalog.staff.get(id) as StaffDoc | undefined;
    if (s) out.push(s);
  }
  return out;
}

/**
 * Start times of a class's or course's weekly sessions that overlap [from, to): every week at the local
 * wall-clock time of `firstSessionStart`, until `lastSessionEnd` when set. Appointments have none.
 */
export function sessionStarts(service: ServiceDoc, from: number, to: number, zone: string): number[] {
  const first = service.schedule?.firstSessionStart ? Date.parse(service.schedule.firstSessionStart) : Number.NaN;
  if (service.type === 'APPOINTMENT' || Number.isNaN(first)) return [];
  const last = service.schedule?.lastSessionEnd ? Date.parse(service.schedule.lastSessionEnd) : Number.POSITIVE_INFINITY;
  if (service.type === 'COURSE' && !Number.isFinite(last)) return [first].filter((s) => s < to && s + durationOf(service) * MINUTE > from);
  const length = durationOf(service) * MINUTE;
  // Jump close to `from` without walking every week since the first session.
  let week = Math.max(0, Math.floor((from - first) / (7 * DAY)) - 1);
  const out: number[] = [];
  for (; week < MAX_WEEKS; week++) {
    const start = addLocalWeeks(first, week, zone);
    if (start >= to || start + length > last) break;
    if (start + length > from) out.push(start);
  }
  return out;
}

/** Every session of a course, first to last (its whole schedule). */
export function courseSessions(service: ServiceDoc, zone: string): number[] {
  const first = service.schedule?.firstSessionStart ? Date.parse(service.schedule.firstSessionStart) : Number.NaN;
  if (Number.isNaN(first)) return [];
  const last = service.schedule?.lastSessionEnd ? Date.parse(service.schedule.lastSessionEnd) : first + durationOf(service) * MINUTE;
  return sessionStarts(service, first, last + 1, zone);
}

/**
 * [start, end) in epoch ms; for a booking, its id and its service (whose buffer, read when the interval is
 * checked, extends the end). Sessions taught and time off have neither.
 */
type Interval = [number, number, string?, string?];

/** What the bookings of a site occupy: built once, then kept up to date booking by booking. */
export interface Occupancy {
  /** Participants of active bookings per class session (`eventId`). */
  session: Map<string, number>;
  /** Participants of WAITING_LIST bookings per class session. */
  waiting: Map<string, number>;
  /** Participants of active bookings per course schedule. */
  course: Map<string, number>;
  /**
   * Intervals [start, end) of active bookings per staff member, sorted by start, with the booking id and service
   * id (the service's buffer is added to the end where the intervals are checked).
   */
  staff: Map<string, Interval[]>;
}

let occupancyBuilds = 0;

/**
 * How many times this process has built a site's occupancy from every booking (for tests: once per site and
 * store, then never again on booking writes, which update it in place).
 */
export function occupancyBuildCount(): number {
  return occupancyBuilds;
}

function add(map: Map<string, number>, key: string, n: number): void {
  const total = (map.get(key) ?? 0) + n;
  if (total === 0) map.delete(key);
  else map.set(key, total);
}

/** First index of `list` (sorted by start) whose start is at or after `start`. */
function lowerBound(list: readonly Interval[], start: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]![0] < start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The occupancy index of the bookings collection: how it is built and how one booking change moves it. */
const OCCUPANCY: IndexDef<BookingDoc, Occupancy> = {
  key: 'occupancy',
  build(docs) {
    occupancyBuilds++;
    const o: Occupancy = { session: new Map(), waiting: new Map(), course: new Map(), staff: new Map() };
    for (const b of docs) count(o, b, 1, true);
    for (const list of o.staff.values()) list.sort((a, b) => a[0] - b[0]);
    return o;
  },
  apply(o, before, after) {
    if (before) count(o, before, -1, false);
    if (after) count(o, after, 1, false);
  },
};

/**
 * Adds (`sign` 1) or takes away (-1) what one booking occupies. `append`: push staff intervals unsorted (a build,
 * sorted once at its end); otherwise each is put in, or taken out of, its place in the sorted list.
 */
function count(o: Occupancy, b: BookingDoc, sign: 1 | -1, append: boolean): void {
  const n = (b.totalParticipants ?? 1) * sign;
  const slot = b.bookedEntity?.slot;
  if (b.status === 'WAITING_LIST') {
    if (slot?.eventId) add(o.waiting, slot.eventId, n);
    return;
  }
  if (!ACTIVE_STATUSES.has(b.status)) return;
  if (b.bookedEntity?.schedule?.scheduleId) {
    add(o.course, b.bookedEntity.schedule.scheduleId, n);
    return;
  }
  if (!slot) return;
  if (slot.eventId) add(o.session, slot.eventId, n);
  const staffId = slot.resource?.id;
  if (!staffId) return;
  const start = Date.parse(b.startDate);
  let list = o.staff.get(staffId);
  if (sign > 0) {
    if (!list) o.staff.set(staffId, (list = []));
    const it: Interval = [start, Date.parse(b.endDate), b.id, slot.serviceId];
    if (append) list.push(it);
    else list.splice(lowerBound(list, start), 0, it);
    return;
  }
  if (!list) return;
  for (let i = lowerBound(list, start); i < list.length && list[i]![0] === start; i++) {
    if (list[i]![2] !== b.id) continue;
    list.splice(i, 1);
    if (list.length === 0) o.staff.delete(staffId);
    return;
  }
}

/** The site's occupancy (see {@link Occupancy}): built on first use, then updated by every booking write. */
export function occupancyOf(cal: Calendar): Occupancy {
  return cal.bookings.index(OCCUPANCY);
}

/** Buffer (ms) kept after an appointment of each service, by service id; kept until the services change. */
function buffersOf(cal: Calendar): Map<string, number> {
  return cal.catalog.services.derived('buffers', () => {
    const out = new Map<string, number>();
    for (const s of cal.catalog.services.all()) {
      const b = bufferOf(s) * MINUTE;
      if (b > 0) out.set(s.id, b);
    }
    return out;
  });
}

/**
 * Sessions of classes and courses each staff member teaches that overlap [from, to), sorted by start. Kept
 * until the services change (a seed asks for the same range once per appointment service).
 */
function teaching(cal: Calendar, from: number, to: number): Map<string, Interval[]> {
  return cal.catalog.services.derived(`teaching:${from}:${to}:${cal.timeZone}`, () => computeTeaching(cal, from, to));
}

function computeTeaching(cal: Calendar, from: number, to: number): Map<string, Interval[]> {
  const out = new Map<string, Interval[]>();
  for (const s of cal.catalog.services.all()) {
    if (s.type === 'APPOINTMENT') continue;
    const teacher = s.staffMemberIds?.[0];
    if (!teacher) continue;
    const length = durationOf(s) * MINUTE;
    for (const start of sessionStarts(s, from, to, cal.timeZone)) {
      let list = out.get(teacher);
      if (!list) out.set(teacher, (list = []));
      list.push([start, start + length]);
    }
  }
  for (const list of out.values()) list.sort((a, b) => a[0] - b[0]);
  return out;
}

/**
 * Whether [start, end) overlaps any of the intervals (sorted by start). `longest` bounds how long one interval
 * may be, so the scan back from the binary-search point stops early (bookings and sessions: two days).
 */
function overlaps(sorted: readonly Interval[] | undefined, start: number, end: number, longest = 2 * DAY, ignore?: ReadonlySet<string>, buffers?: ReadonlyMap<string, number>): boolean {
  if (!sorted) return false;
  // Binary search for the first interval starting at or after `end`; any before it that ends after `start` overlaps.
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]![0] < end) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0; i--) {
    const it = sorted[i]!;
    const itEnd = it[3] !== undefined && buffers ? it[1] + (buffers.get(it[3]) ?? 0) : it[1];
    if (itEnd > start && !(it[2] !== undefined && ignore?.has(it[2]))) return true;
    if (start - sorted[i]![0] > longest) break;
  }
  return false;
}

/** Options of {@link candidates}. */
export interface CandidateOptions {
  /** Only these staff members (appointments). */
  resourceIds?: readonly string[];
  /** Bookings whose own places do not count (a reschedule: the booking, or every booking of its group). */
  exclude?: BookingDoc | readonly BookingDoc[];
  /**
   * Minutes between appointment starts. Default: the listing grid, the session length plus the buffer from the
   * start of each working-hours block. A booking may start on the finer {@link BOOKING_STEP} grid when the staff
   * member is free then (so a second service can follow a first one back to back).
   */
  step?: number;
  /** Ignore the bookings (the seed, which tracks the places it gives out itself, on a calendar it is filling). */
  ignoreBookings?: boolean;
  /** Minutes duration add-ons add to each appointment slot (docs/wire.md §28): the slot is that much longer. */
  extraMinutes?: number;
}

/** Minutes between the starts an appointment may be booked at (availability lists the coarser grid). */
export const BOOKING_STEP = 15;

/**
 * The bookable units of a service overlapping [from, to), in start order: appointment slots with a free staff
 * member, or class sessions. Courses are booked as a whole and have none here (see {@link courseSessions}).
 */
export function candidates(cal: Calendar, service: ServiceDoc, from: number, to: number, opts: CandidateOptions = {}): Candidate[] {
  const zone = cal.timeZone;
  const location = locationOf(service);
  const scheduleId = scheduleIdOf(service);
  const base = durationOf(service) * MINUTE;
  if (service.type === 'CLASS') {
    const length = base;
    const teacher = service.staffMemberIds?.[0] ? (cal.catalog.staff.get(service.staffMemberIds[0]) as StaffDoc | undefined) : undefined;
    return sessionStarts(service, from, to, zone).map((start) => ({
      service,
      start,
      end: start + length,
      scheduleId,
      eventId: eventIdOf(scheduleId, start),
      staff: teacher,
      capacity: capacityOf(service),
      location,
    }));
  }
  if (service.type !== 'APPOINTMENT') return [];
  const length = base + (opts.extraMinutes ?? 0) * MINUTE;
  const occupancy = opts.ignoreBookings ? undefined : occupancyOf(cal);
  const buffers = buffersOf(cal);
  const taught = teaching(cal, from - DAY, to + DAY);
  const step = opts.step !== undefined ? opts.step * MINUTE : length + bufferOf(service) * MINUTE;
  const out: Candidate[] = [];
  const ignore = idsOf(opts.exclude);
  // The days of the range, each with its weekday and the instants of the working-hours times asked for on it
  // (shared by every staff member: a zone's wall-clock arithmetic is the costly part of a long range).
  const days = localDays(from, to, zone).map((day) => ({ noon: day + 12 * 60 * MINUTE, weekday: weekdayOf(day + 12 * 60 * MINUTE, zone), at: new Map<string, number>() }));
  const at = (day: (typeof days)[number], hhmm: string): number => {
    let t = day.at.get(hhmm);
    if (t === undefined) day.at.set(hhmm, (t = atLocalTime(day.noon, hhmm, zone)));
    return t;
  };
  const capacity = capacityOf(service);
  for (const staff of staffOf(cal, service)) {
    if (opts.resourceIds && !opts.resourceIds.includes(staff.id)) continue;
    const busy = occupancy?.staff.get(staff.id);
    const off = (staff.timeOff ?? []).map((t): Interval => [Date.parse(t.startDate), Date.parse(t.endDate)]).sort((a, b) => a[0] - b[0]);
    const teachingSessions = taught.get(staff.id);
    const hours = staff.workingHours ?? DEFAULT_HOURS;
    for (const day of days) {
      for (const block of hours) {
        if (block.day !== day.weekday) continue;
        const blockStart = at(day, block.startTime);
        const blockEnd = at(day, block.endTime);
        for (let start = blockStart; start + length <= blockEnd; start += step) {
          if (start + length <= from || start >= to) continue;
          const end = start + length;
          if (overlaps(busy, start, end, 2 * DAY, ignore, buffers)) continue;
          if (overlaps(off, start, end, Number.POSITIVE_INFINITY) || overlaps(teachingSessions, start, end)) continue;
          out.push({ service, start, end, scheduleId, staff, capacity, location });
        }
      }
    }
  }
  // Ties by staff id in code-unit order (staff ids are lower-case UUIDs: the order localeCompare gave, at a fraction of its cost).
  out.sort((a, b) => a.start - b.start || compareIds(a.staff?.id ?? '', b.staff?.id ?? ''));
  return out;
}

const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const asList = (exclude: BookingDoc | readonly BookingDoc[] | undefined): readonly BookingDoc[] => (exclude === undefined ? [] : Array.isArray(exclude) ? exclude : [exclude as BookingDoc]);
const idsOf = (exclude: BookingDoc | readonly BookingDoc[] | undefined): ReadonlySet<string> | undefined => (exclude === undefined ? undefined : new Set(asList(exclude).map((b) => b.id)));

/** Participants already holding places in a class session (minus the excluded bookings' own). */
export function takenSpots(cal: Calendar, cand: Candidate, exclude?: BookingDoc | readonly BookingDoc[]): number {
  const o = occupancyOf(cal);
  let taken = cand.eventId ? (o.session.get(cand.eventId) ?? 0) : 0;
  for (const b of asList(exclude)) if (ACTIVE_STATUSES.has(b.status) && b.bookedEntity?.slot?.eventId === cand.eventId) taken -= b.totalParticipants ?? 1;
  return Math.max(0, taken);
}

/** Open spots of a candidate: appointments are free (the slot exists only then); sessions by participants. */
export function openSpotsOf(cal: Calendar, cand: Candidate, exclude?: BookingDoc | readonly BookingDoc[]): number {
  if (cand.service.type === 'APPOINTMENT') return cand.capacity;
  return Math.max(0, cand.capacity - takenSpots(cal, cand, exclude));
}

/** Participants on a class session's waiting list. */
export function waitingOf(cal: Calendar, eventId: string | undefined): number {
  return eventId ? (occupancyOf(cal).waiting.get(eventId) ?? 0) : 0;
}

/** Open places of a course (its schedule's capacity minus active participants, minus `exclude`'s own). */
export function courseOpenSpots(cal: Calendar, service: ServiceDoc, exclude?: BookingDoc | readonly BookingDoc[]): number {
  const scheduleId = scheduleIdOf(service);
  let taken = occupancyOf(cal).course.get(scheduleId) ?? 0;
  for (const b of asList(exclude)) if (ACTIVE_STATUSES.has(b.status) && b.bookedEntity?.schedule?.scheduleId === scheduleId) taken -= b.totalParticipants ?? 1;
  return Math.max(0, capacityOf(service) - taken);
}
