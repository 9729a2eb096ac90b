/**
 * The Time Slots API (docs/wire.md "Time slots"; the official module's typings), computed from the same calendar
 * as the availability calendar (availability.ts): the candidates of sessions.ts (staff working hours, time off,
 * classes they teach, bookings and buffers) and the booking policy of policy.ts. So both agree: the starts of an
 * appointment service's time slots are the starts of its availability entries, one time slot per start however
 * many staff members are free then.
 *
 * - Dates are local: `fromLocalDate`/`toLocalDate` and every `localStartDate`/`localEndDate` are wall-clock times
 *   in `timeZone` (the request's, else the site's). A slot is listed when its start is in [from, to).
 * - Only appointment services (the module: classes have List Event Time Slots, courses the course flow).
 * - Capacity: `totalCapacity` 1, `remainingCapacity` and `bookableCapacity` 1 while a staff member is free, else 0
 *   (the module: "For appointment bookings: Either 1 (available) or 0"). The list leaves out a start with no free
 *   staff ("Time slots aren't returned when they have no available resources"); the get of such a start answers
 *   with capacity 0 and `nonBookableReasons.noRemainingCapacity`.
 * - Resources: the staff members free at the start, under the staff resource type; in a list only when the
 *   request names resources (`includeResourceTypeIds` or `resourceTypes`), at most 10; in a get all of them.
 * - Cursor paging: `limit` 1-1000 (default 1000); a cursor carries the query, so a follow-up sends only it.
 */
import { timeSlotsFamily } from '../../api/time-slots.js';
import { STAFF_RESOURCE_TYPE_ID, MAX_LISTED_RESOURCES, MAX_TIME_SLOTS_PAGE, type TimeSlotLocationType } from '../../api/schemas/time-slot.js';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import { MAX_RANGE_DAYS, perDay, requestZone } from './availability.js';
import { serve } from '../serve.js';
import { type Calendar, calendarOf, type ServiceDoc } from './model.js';
import { policyOf, violationsAt } from './policy.js';
import { BOOKING_STEP, type Candidate, candidates, durationOf, locationOf, scheduleIdOf, type SlotLocation } from './sessions.js';
import { DAY, HOUR, MINUTE, instantOf, iso, localDateTimeOf } from './time.js';

type LocationInput = { id?: string | null; name?: string | null; formattedAddress?: string | null; locationType?: TimeSlotLocationType };
type ResourceTypeInput = { resourceTypeId?: string | null; resourceIds?: string[] | null };

/** The query part of a list request (what a cursor carries). */
interface ListQuery {
  serviceId?: string | null;
  fromLocalDate?: string | null;
  toLocalDate?: string | null;
  timeZone?: string | null;
  locations?: LocationInput[];
  includeResourceTypeIds?: string[];
  bookable?: boolean | null;
  bookingPolicyViolations?: { tooEarlyToBook?: boolean | null; tooLateToBook?: boolean | null; bookOnlineDisabled?: boolean | null };
  timeSlotsPerDay?: number | null;
  resourceTypes?: ResourceTypeInput[];
}

/** A time slot as the wire carries it. */
export type TimeSlotWire = {
  serviceId: string;
  localStartDate: string;
  localEndDate: string;
  bookable: boolean;
  location: { id?: string | null; name?: string | null; formattedAddress?: string | null; locationType: TimeSlotLocationType };
  totalCapacity: number;
  remainingCapacity: number;
  bookableCapacity: number;
  bookingPolicyViolations: { tooEarlyToBook: boolean; earliestBookingDate?: string; tooLateToBook: boolean; bookOnlineDisabled: boolean };
  availableResources: Array<{ resourceTypeId: string; resources: Array<{ id: string; name?: string }>; hasMoreAvailableResources: boolean }>;
  nestedTimeSlots: never[];
  nonBookableReasons: { noRemainingCapacity: boolean; violatesBookingPolicy: boolean; reservedForWaitingList: boolean; eventCancelled: boolean };
  scheduleId: string;
  allDay: boolean;
};

/** The module's location types for the calendar's slot location (a service without a location is at the business). */
const LOCATION_TYPES: Record<SlotLocation['locationType'], TimeSlotLocationType> = { OWNER_BUSINESS: 'BUSINESS', OWNER_CUSTOM: 'CUSTOM', CUSTOM: 'CUSTOMER', UNDEFINED: 'BUSINESS' };

function locationWire(l: SlotLocation): TimeSlotWire['location'] {
  return { ...(l.id ? { id: l.id } : {}), ...(l.name ? { name: l.name } : {}), ...(l.formattedAddress ? { formattedAddress: l.formattedAddress } : {}), locationType: LOCATION_TYPES[l.locationType] };
}

/** Whether a slot's location is one the request asked for (an id decides alone; else type and address). */
function locationMatches(actual: TimeSlotWire['location'], wanted: LocationInput): boolean {
  if (wanted.id) return actual.id === wanted.id;
  if (wanted.locationType && wanted.locationType !== actual.locationType) return false;
  if (wanted.formattedAddress && wanted.formattedAddress !== actual.formattedAddress) return false;
  return true;
}

/**
 * The staff members a request's `resourceTypes` allow: undefined for any; an empty list when an entry names
 * another resource type (the emulator has no resources but staff, so no slot has one).
 */
function staffFilter(types: ResourceTypeInput[] | undefined): string[] | undefined {
  if (!types?.length) return undefined;
  const ids: string[] = [];
  for (const t of types) {
    if (t.resourceTypeId && t.resourceTypeId !== STAFF_RESOURCE_TYPE_ID) return [];
    if (t.resourceIds?.length) ids.push(...t.resourceIds);
  }
  return ids.length ? ids : undefined;
}

/** The appointment service of a request. @throws ApplicationFailure 404 SERVICE_NOT_FOUND; ValidationFailure for a class or course */
function appointmentOf(cal: Calendar, serviceId: string, field = 'serviceId'): ServiceDoc {
  const service = cal.catalog.services.get(serviceId);
  if (!service) throw new ApplicationFailure(404, 'SERVICE_NOT_FOUND', `service ${serviceId} was not found`, { serviceId });
  if (service.type !== 'APPOINTMENT') {
    throw ValidationFailure.field(field, `must be an appointment service: a ${String(service.type).toLowerCase()}'s sessions are in the availability calendar (queryAvailability)`, 'INVALID');
  }
  return service;
}

/** An instant from a local date-time of the request. @throws ValidationFailure when it is not one */
function localInstant(text: string | null | undefined, zone: string, field: string): number {
  if (text === undefined || text === null || text === '') throw ValidationFailure.field(field, 'is required', 'REQUIRED_FIELD');
  const at = instantOf(text, zone);
  if (Number.isNaN(at)) throw ValidationFailure.field(field, 'must be a local date-time such as 2026-01-30T13:30:00', 'FORMAT');
  return at;
}

/** The time slot of the candidates of one start (the staff free then; none for a start fully taken). */
function slotOf(cal: Calendar, service: ServiceDoc, start: number, free: Candidate[], zone: string, resources: number | 'none'): TimeSlotWire {
  const end = start + durationOf(service) * MINUTE;
  const v = violationsAt(cal, service, start);
  const early = policyOf(cal, service).limitEarlyBookingPolicy;
  const remaining = free.length > 0 ? 1 : 0;
  const violates = v.tooEarlyToBook || v.tooLateToBook || v.bookOnlineDisabled;
  const staff = free.flatMap((c) => (c.staff ? [{ id: c.staff.id, ...(c.staff.name ? { name: c.staff.name } : {}) }] : []));
  return {
    serviceId: service.id,
    localStartDate: localDateTimeOf(start, zone),
    localEndDate: localDateTimeOf(end, zone),
    bookable: remaining > 0 && !violates,
    location: locationWire(locationOf(service)),
    totalCapacity: 1,
    remainingCapacity: remaining,
    bookableCapacity: remaining,
    bookingPolicyViolations: {
      tooEarlyToBook: v.tooEarlyToBook,
      ...(v.tooEarlyToBook && typeof early?.earliestBookingInMinutes === 'number' ? { earliestBookingDate: iso(start - early.earliestBookingInMinutes * MINUTE) } : {}),
      tooLateToBook: v.tooLateToBook,
      bookOnlineDisabled: v.bookOnlineDisabled,
    },
    availableResources:
      resources === 'none' || !staff.length ? [] : [{ resourceTypeId: STAFF_RESOURCE_TYPE_ID, resources: staff.slice(0, resources), hasMoreAvailableResources: staff.length > resources }],
    nestedTimeSlots: [],
    nonBookableReasons: { noRemainingCapacity: remaining === 0, violatesBookingPolicy: violates, reservedForWaitingList: false, eventCancelled: false },
    scheduleId: scheduleIdOf(service),
    allDay: false,
  };
}

/** The candidates of [from, to), grouped by start, in start order. */
function byStart(list: Candidate[]): Map<number, Candidate[]> {
  const out = new Map<number, Candidate[]>();
  for (const c of list) {
    let at = out.get(c.start);
    if (!at) out.set(c.start, (at = []));
    at.push(c);
  }
  return new Map([...out.entries()].sort((a, b) => a[0] - b[0]));
}

const encodeCursor = (query: ListQuery, offset: number): string => Buffer.from(JSON.stringify({ q: query, o: offset })).toString('base64url');

function decodeCursor(cursor: string): { query: ListQuery; offset: number } {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { q?: ListQuery; o?: number };
    if (parsed && typeof parsed.q === 'object' && parsed.q !== null && Number.isInteger(parsed.o) && parsed.o! >= 0) return { query: parsed.q, offset: parsed.o! };
  } catch {
    // falls through to the refusal
  }
  throw ValidationFailure.field('cursorPaging.cursor', 'cursor is not valid', 'INVALID_CURSOR');
}

/**
 * `POST /v2/time-slots` (listAvailabilityTimeSlots): the time slots of an appointment service whose local start
 * is in [fromLocalDate, toLocalDate), ascending, filtered by location, resources, `bookable` and the policy
 * violations, at most `timeSlotsPerDay` per local day (bookable ones first), a page of `cursorPaging.limit`.
 * @throws ValidationFailure for a missing service or date (without a cursor), a bad date, zone or cursor, a range
 *   over 366 days or a class/course; ApplicationFailure 404 SERVICE_NOT_FOUND
 */
export function listTimeSlots(cal: Calendar, body: ListQuery & { cursorPaging?: { limit?: number | null; cursor?: string | null } }) {
  const { cursorPaging, ...given } = body;
  const { query, offset } = cursorPaging?.cursor ? decodeCursor(cursorPaging.cursor) : { query: given, offset: 0 };
  if (!query.serviceId) throw ValidationFailure.field('serviceId', 'is required (unless cursorPaging.cursor is given)', 'REQUIRED_FIELD');
  const zone = requestZone(query.timeZone, 'timeZone') ?? cal.timeZone;
  const from = localInstant(query.fromLocalDate, zone, 'fromLocalDate');
  const to = localInstant(query.toLocalDate, zone, 'toLocalDate');
  if (to <= from) throw ValidationFailure.field('toLocalDate', 'must be after fromLocalDate', 'INVALID');
  if (to - from > MAX_RANGE_DAYS * DAY + HOUR) throw ValidationFailure.field('toLocalDate', `the range may cover at most ${MAX_RANGE_DAYS} days`, 'MAX');
  const service = appointmentOf(cal, query.serviceId);
  const staff = staffFilter(query.resourceTypes);
  const showResources = Boolean(query.includeResourceTypeIds?.includes(STAFF_RESOURCE_TYPE_ID) || query.resourceTypes?.length);
  const found = staff && !staff.length ? [] : candidates(cal, service, from, to, { resourceIds: staff }).filter((c) => c.start >= from);
  let slots = [...byStart(found).entries()].map(([start, free]) => ({ start, slot: slotOf(cal, service, start, free, zone, showResources ? MAX_LISTED_RESOURCES : 'none') }));
  if (query.locations?.length) slots = slots.filter((s) => query.locations!.some((l) => locationMatches(s.slot.location, l)));
  if (typeof query.bookable === 'boolean') slots = slots.filter((s) => s.slot.bookable === query.bookable);
  const v = query.bookingPolicyViolations ?? {};
  for (const key of ['tooEarlyToBook', 'tooLateToBook', 'bookOnlineDisabled'] as const) {
    const want = v[key];
    if (typeof want === 'boolean') slots = slots.filter((s) => s.slot.bookingPolicyViolations[key] === want);
  }
  const kept = perDay(slots.map((s) => ({ ...s, bookable: s.slot.bookable })), query.timeSlotsPerDay, zone);
  const limit = cursorPaging?.limit ?? MAX_TIME_SLOTS_PAGE;
  const page = kept.slice(offset, offset + limit);
  const hasNext = offset + page.length < kept.length;
  return {
    timeSlots: page.map((s) => s.slot),
    timeZone: zone,
    cursorPagingMetadata: { cursors: { next: hasNext ? encodeCursor(query, offset + page.length) : null, prev: offset > 0 ? encodeCursor(query, Math.max(0, offset - limit)) : null }, hasNext },
  };
}

/**
 * `POST /v2/time-slots/get` (getAvailabilityTimeSlot): the time slot of an appointment service that starts and
 * ends at these local times at this location, with every staff member free then (or those `resourceTypes` name).
 * A start the staff work at but is fully taken answers with capacity 0 (`noRemainingCapacity`).
 * @throws ApplicationFailure 404 SLOT_NOT_FOUND when no staff member of the service works then, the length is not
 *   the service's or the location is not its; 404 SERVICE_NOT_FOUND; ValidationFailure for bad dates or a class
 */
export function getTimeSlot(
  cal: Calendar,
  body: { serviceId: string; localStartDate: string; localEndDate: string; timeZone?: string | null; location: LocationInput; resourceTypes?: ResourceTypeInput[] },
) {
  const zone = requestZone(body.timeZone, 'timeZone') ?? cal.timeZone;
  const start = localInstant(body.localStartDate, zone, 'localStartDate');
  const end = localInstant(body.localEndDate, zone, 'localEndDate');
  const service = appointmentOf(cal, body.serviceId);
  const notFound = () => new ApplicationFailure(404, 'SLOT_NOT_FOUND', `no time slot of service ${service.id} from ${body.localStartDate} to ${body.localEndDate} (${zone})`, { serviceId: service.id });
  if (end - start !== durationOf(service) * MINUTE) throw notFound();
  const staff = staffFilter(body.resourceTypes);
  if (staff && !staff.length) throw notFound();
  // The listing grid, then the finer booking grid (a start a booking may take, docs/wire.md "Time slots").
  const at = (opts: { ignoreBookings?: boolean; step?: number }) => candidates(cal, service, start, end, { resourceIds: staff, ...opts }).filter((c) => c.start === start && c.end === end);
  const worked = [...at({ ignoreBookings: true }), ...at({ ignoreBookings: true, step: BOOKING_STEP })];
  if (!worked.length) throw notFound();
  const freeIds = new Set<string>();
  const free = [...at({}), ...at({ step: BOOKING_STEP })].filter((c) => {
    const id = c.staff?.id ?? '';
    if (freeIds.has(id)) return false;
    freeIds.add(id);
    return true;
  });
  const slot = slotOf(cal, service, start, free, zone, Number.POSITIVE_INFINITY);
  if (!locationMatches(slot.location, body.location)) throw notFound();
  return { timeSlot: slot, timeZone: zone };
}

/**
 * `POST /v2/time-slots/end-options` (listAvailabilityTimeSlotEndOptions): only for services with an hourly duration
 * range, which the emulator's services do not have (they take fixed `sessionDurations`).
 * @throws ApplicationFailure 404 SERVICE_NOT_FOUND, or 400 END_OPTIONS_NOT_SUPPORTED for every service there is
 */
export function listEndOptions(cal: Calendar, body: { serviceId: string }): never {
  const service = cal.catalog.services.get(body.serviceId);
  if (!service) throw new ApplicationFailure(404, 'SERVICE_NOT_FOUND', `service ${body.serviceId} was not found`, { serviceId: body.serviceId });
  throw new ApplicationFailure(400, 'END_OPTIONS_NOT_SUPPORTED', `service ${service.id} has a fixed duration: end options are only for services with an hourly duration range`, { serviceId: service.id });
}

/** Every time slots operation, served (admin only, as the availability calendar). */
export const timeSlotsServed = serve(timeSlotsFamily, {
  listAvailabilityTimeSlots: (ctx) => listTimeSlots(calendarOf(ctx), ctx.body as never),
  getAvailabilityTimeSlot: (ctx) => getTimeSlot(calendarOf(ctx), ctx.body as never),
  listAvailabilityTimeSlotEndOptions: (ctx) => listEndOptions(calendarOf(ctx), ctx.body),
});
