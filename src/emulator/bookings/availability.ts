/**
 * The availability calendar (docs/wire.md §15; the SDK's typings and the platform's
 * "supported filters" article): availability entries of appointment slots and class sessions, a course
 * schedule's spots, and back-to-back chains of slots for several services.
 *
 * Query filter (equality only, as on the platform): `serviceId` (one or a list), `startDate` and `endDate`
 * (required; slots starting at or after and ending at or before), `resourceId` (one or a list), `bookable`,
 * and `bookingPolicyViolations.tooEarlyToBook|tooLateToBook|bookOnlineDisabled`. With `timezone`, the two
 * dates are read as wall-clock times in that zone (their offsets ignored). Replies carry ISO UTC instants and
 * the zone the slot is shown in (`slot.timezone`: the request's, else the site's). Sorted by `startDate`
 * (ascending unless `sort` says DESC); `slotsPerDay` keeps the first N per local day, bookable ones first.
 */
import { ValidationFailure, ApplicationFailure } from '../errors.js';
import type { Calendar, ServiceDoc } from './model.js';
import { maxParticipantsOf, policyOf, violationsAt, waitlistRoom } from './policy.js';
import { atLocation, BOOKING_STEP, bufferOf, type Candidate, candidates, type SlotLocation, capacityOf, courseOpenSpots, courseSessions, openSpotsOf, scheduleIdOf } from './sessions.js';
import { isTimeZone } from '../../api/time-zones.js';
import { DAY, HOUR, instantOf, iso, localDateKey } from './time.js';

/** Longest date range one availability call may cover. */
export const MAX_RANGE_DAYS = 366;

type Json = Record<string, unknown>;

/** An availability entry as the wire carries it. */
export type AvailabilityEntry = {
  slot: {
    serviceId: string;
    scheduleId: string;
    eventId?: string;
    startDate: string;
    endDate: string;
    timezone: string;
    resource?: { id: string; name?: string };
    location: SlotLocation;
  };
  bookable: boolean;
  totalSpots: number;
  openSpots: number;
  waitingList?: { totalSpots: number; openSpots: number };
  bookingPolicyViolations: { tooEarlyToBook: boolean; tooLateToBook: boolean; bookOnlineDisabled: boolean };
  locked: boolean;
  nestedTimeSlots?: Json[];
};

/** The availability entry of one candidate, shown in `zone`. */
export function entryOf(cal: Calendar, c: Candidate, zone: string): AvailabilityEntry {
  const open = openSpotsOf(cal, c);
  const violations = violationsAt(cal, c.service, c.start);
  const waitlist = c.service.type === 'CLASS' ? policyOf(cal, c.service).waitlistPolicy : undefined;
  return {
    slot: {
      serviceId: c.service.id,
      scheduleId: c.scheduleId,
      ...(c.eventId ? { eventId: c.eventId } : {}),
      startDate: iso(c.start),
      endDate: iso(c.end),
      timezone: zone,
      ...(c.staff ? { resource: { id: c.staff.id, name: c.staff.name } } : {}),
      location: c.location,
    },
    bookable: open > 0 && !violations.tooEarlyToBook && !violations.tooLateToBook && !violations.bookOnlineDisabled,
    totalSpots: c.capacity,
    openSpots: open,
    ...(waitlist?.enabled ? { waitingList: { totalSpots: waitlist.capacity ?? 0, openSpots: waitlistRoom(cal, c) } } : {}),
    bookingPolicyViolations: violations,
    locked: false,
  };
}

const list = (v: unknown): string[] | undefined => (v === undefined || v === null ? undefined : Array.isArray(v) ? v.map(String) : [String(v)]);

/** The zone of a request (checked). @throws ValidationFailure (400, `FORMAT`) for a name that is not an IANA zone */
export function requestZone(given: unknown, field: string): string | undefined {
  if (given === undefined || given === null || given === '') return undefined;
  if (typeof given !== 'string' || !isTimeZone(given)) throw ValidationFailure.field(field, 'must be an IANA time zone such as America/New_York', 'FORMAT');
  return given;
}

/** [from, to) of a request's two dates, checked. */
function range(startText: unknown, endText: unknown, zone: string | undefined, fields: [string, string]): [number, number] {
  const from = typeof startText === 'string' ? instantOf(startText, zone) : Number.NaN;
  const to = typeof endText === 'string' ? instantOf(endText, zone) : Number.NaN;
  if (startText === undefined) throw ValidationFailure.field(fields[0], 'is required', 'REQUIRED_FIELD');
  if (endText === undefined) throw ValidationFailure.field(fields[1], 'is required', 'REQUIRED_FIELD');
  if (Number.isNaN(from)) throw ValidationFailure.field(fields[0], 'must be an ISO-8601 date-time', 'FORMAT');
  if (Number.isNaN(to)) throw ValidationFailure.field(fields[1], 'must be an ISO-8601 date-time', 'FORMAT');
  if (to <= from) throw ValidationFailure.field(fields[1], 'must be after the start', 'INVALID');
  // 366 calendar days: a range from midnight to midnight across a fall-back change holds an hour more.
  if (to - from > MAX_RANGE_DAYS * DAY + HOUR) throw ValidationFailure.field(fields[1], `the range may cover at most ${MAX_RANGE_DAYS} days`, 'MAX');
  return [from, to];
}

/** Keeps at most `n` entries per local day, bookable ones first (the order within each group is kept). */
export function perDay<T extends { bookable: boolean; start: number }>(items: T[], n: number | null | undefined, zone: string): T[] {
  if (!n) return items;
  const byDay = new Map<string, T[]>();
  for (const it of items) {
    const key = localDateKey(it.start, zone);
    let day = byDay.get(key);
    if (!day) byDay.set(key, (day = []));
    day.push(it);
  }
  const keep = new Set<T>();
  for (const day of byDay.values()) {
    for (const it of [...day.filter((d) => d.bookable), ...day.filter((d) => !d.bookable)].slice(0, n)) keep.add(it);
  }
  return items.filter((it) => keep.has(it));
}

/**
 * `POST /v1/availability/query`.
 * @throws ValidationFailure for a missing or malformed filter field, a non-equality operator or a range over a year
 */
export function queryAvailability(cal: Calendar, body: { query: { filter?: Json; sort?: Array<{ fieldName?: string; order?: string }> }; timezone?: string | null; slotsPerDay?: number | null }): { availabilityEntries: AvailabilityEntry[] } {
  const filter = body.query.filter ?? {};
  for (const [key, value] of Object.entries(filter)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      throw ValidationFailure.field(`query.filter.${key}`, 'the availability filter supports only equality ({"field": value})', 'INVALID');
    }
  }
  const serviceIds = list(filter.serviceId);
  if (!serviceIds?.length) throw ValidationFailure.field('query.filter.serviceId', 'is required', 'REQUIRED_FIELD');
  const zone = requestZone(body.timezone, 'timezone');
  const [from, to] = range(filter.startDate, filter.endDate, zone, ['query.filter.startDate', 'query.filter.endDate']);
  const resourceIds = list(filter.resourceId);
  const shownIn = zone ?? cal.timeZone;
  let items: Array<{ entry: AvailabilityEntry; start: number; bookable: boolean }> = [];
  for (const id of serviceIds) {
    const service = cal.catalog.services.get(id);
    if (!service) continue;
    for (const c of candidates(cal, service, from, to, { resourceIds })) {
      if (c.start < from || c.end > to) continue;
      const entry = entryOf(cal, c, shownIn);
      items.push({ entry, start: c.start, bookable: entry.bookable });
    }
  }
  const wanted: Array<[string, unknown]> = [
    ['bookable', filter.bookable],
    ['tooEarlyToBook', filter['bookingPolicyViolations.tooEarlyToBook']],
    ['tooLateToBook', filter['bookingPolicyViolations.tooLateToBook']],
    ['bookOnlineDisabled', filter['bookingPolicyViolations.bookOnlineDisabled']],
  ];
  for (const [key, value] of wanted) {
    if (value === undefined || value === null) continue;
    if (typeof value !== 'boolean') throw ValidationFailure.field(`query.filter.${key === 'bookable' ? key : `bookingPolicyViolations.${key}`}`, 'must be true or false', 'INVALID');
    items = items.filter((it) => (key === 'bookable' ? it.entry.bookable : it.entry.bookingPolicyViolations[key as 'tooEarlyToBook']) === value);
  }
  const desc = body.query.sort?.some((s) => s.fieldName === 'startDate' && s.order === 'DESC');
  items.sort((a, b) => (desc ? b.start - a.start : a.start - b.start));
  return { availabilityEntries: perDay(items, body.slotsPerDay, shownIn).map((it) => it.entry) };
}

/** The course whose schedule has this id. @throws ApplicationFailure 404 SCHEDULE_NOT_FOUND */
export function serviceOfSchedule(cal: Calendar, scheduleId: string): ServiceDoc {
  for (const s of cal.catalog.services.all()) if (scheduleIdOf(s) === scheduleId) return s;
  throw new ApplicationFailure(404, 'SCHEDULE_NOT_FOUND', `schedule ${scheduleId} was not found`, { scheduleId });
}

/**
 * `GET /v2/availability/schedule/{scheduleId}`: a course's places (capacity, open) and policy violations at its
 * first session; for a class or appointment schedule, the spots of one session.
 */
export function scheduleAvailability(cal: Calendar, scheduleId: string) {
  const service = serviceOfSchedule(cal, scheduleId);
  const first = service.type === 'COURSE' ? courseSessions(service, cal.timeZone)[0] : undefined;
  const totalSpots = capacityOf(service);
  return {
    availability: {
      totalSpots,
      openSpots: service.type === 'COURSE' ? courseOpenSpots(cal, service) : totalSpots,
      bookingPolicyViolations: first !== undefined ? violationsAt(cal, service, first) : { tooEarlyToBook: false, tooLateToBook: false, bookOnlineDisabled: service.onlineBooking?.enabled === false },
    },
    bookingPolicySettings: { maxParticipantsPerBooking: maxParticipantsOf(cal, service) ?? null },
  };
}

interface MultiSlotRequest {
  from: string;
  to: string;
  timeZone?: string;
  bookable?: boolean | null;
  slots: Array<{ serviceId: string; resourcesFilter?: { resourceIds?: string[] } }>;
  slotsPerDay?: number | null;
  cursorPaging?: { limit?: number; cursor?: string | null };
}

/**
 * `POST /v1/availability/multislot`: chains of back-to-back slots, one per service in order, each starting
 * when the previous ends, all at one location (a staff member may give several of them). Each entry is the chain: `slot` spans it
 * (the first service's slot, ending when the last ends), its spots are the smallest along it, it is bookable
 * when every part is, and `nestedTimeSlots` name each part. Cursor-paged (default 50, at most 100).
 */
export function multiSlotAvailability(cal: Calendar, body: MultiSlotRequest) {
  const zone = requestZone(body.timeZone, 'timeZone');
  const [from, to] = range(body.from, body.to, zone, ['from', 'to']);
  const services = body.slots.map((s, i) => {
    const service = cal.catalog.services.get(s.serviceId);
    if (!service) throw new ApplicationFailure(404, 'SERVICE_NOT_FOUND', `service ${s.serviceId} was not found`, { serviceId: s.serviceId, index: i });
    if (service.type === 'COURSE') throw ValidationFailure.field(`slots[${i}].serviceId`, 'a course cannot be part of a chain of slots');
    return { service, resourceIds: s.resourcesFilter?.resourceIds };
  });
  const shownIn = zone ?? cal.timeZone;
  // Every service's candidates over the range, grouped by start time for the chaining step: the first service on
  // its listing grid, the ones that follow on the booking grid (they start whenever the previous one ends).
  const byStart = services.map(({ service, resourceIds }, i) => {
    const map = new Map<number, Candidate[]>();
    for (const c of candidates(cal, service, from, to, { resourceIds, step: i > 0 && service.type === 'APPOINTMENT' ? BOOKING_STEP : undefined })) {
      let at = map.get(c.start);
      if (!at) map.set(c.start, (at = []));
      at.push(c);
    }
    return map;
  });
  const chains: Array<{ parts: AvailabilityEntry[]; start: number; bookable: boolean }> = [];
  for (const [start, firsts] of [...byStart[0]!.entries()].sort((a, b) => a[0] - b[0])) {
    for (const first of firsts) {
      const parts: Candidate[] = [first];
      for (let i = 1; i < services.length; i++) {
        const prev = parts[i - 1]!;
        // All parts share the first one's location (the platform's rule); the same staff member can follow on
        // only when the previous service keeps no break after it.
        const next = byStart[i]!.get(prev.end)?.find((c) => atLocation(c.location, first.location) && !(c.staff && c.staff.id === prev.staff?.id && bufferOf(prev.service) > 0));
        if (!next) break;
        parts.push(next);
      }
      if (parts.length !== services.length || parts[parts.length - 1]!.end > to || start < from) continue;
      const entries = parts.map((p) => entryOf(cal, p, shownIn));
      chains.push({ parts: entries, start, bookable: entries.every((e) => e.bookable) });
      break; // one chain per start time
    }
  }
  let kept = chains;
  if (body.bookable !== undefined && body.bookable !== null) kept = kept.filter((c) => c.bookable === body.bookable);
  kept = perDay(kept, body.slotsPerDay, shownIn);
  const limit = Math.min(100, Math.max(1, body.cursorPaging?.limit ?? 50));
  let offset = 0;
  if (body.cursorPaging?.cursor) {
    offset = Number.parseInt(Buffer.from(body.cursorPaging.cursor, 'base64url').toString('utf8'), 10);
    if (!Number.isInteger(offset) || offset < 0) throw ValidationFailure.field('cursorPaging.cursor', 'cursor is not valid', 'INVALID_CURSOR');
  }
  const page = kept.slice(offset, offset + limit);
  const hasNext = offset + page.length < kept.length;
  return {
    slots: page.map(({ parts, bookable }) => {
      const head = parts[0]!;
      const last = parts[parts.length - 1]!;
      return {
        ...head,
        slot: { ...head.slot, endDate: last.slot.endDate },
        bookable,
        openSpots: Math.min(...parts.map((p) => p.openSpots)),
        totalSpots: Math.min(...parts.map((p) => p.totalSpots)),
        nestedTimeSlots: parts.map((p) => ({
          serviceId: p.slot.serviceId,
          start: p.slot.startDate,
          end: p.slot.endDate,
          ...(p.slot.resource ? { resource: p.slot.resource } : {}),
          scheduleId: p.slot.scheduleId,
        })),
      };
    }),
    cursorPagingMetadata: {
      count: page.length,
      cursors: { next: hasNext ? Buffer.from(String(offset + page.length)).toString('base64url') : null, prev: null },
      hasNext,
    },
  };
}
