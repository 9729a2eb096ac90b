/**
 * Where a booking lands (docs/bookings.md "Bookings"): the service and its slot (appointments, classes) or schedule
 * (courses) a request names, checked against the site's sessions and staff, with the room left there; the
 * participants and time zone a request asks for; a booking's tags.
 */
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import type { BookedSlotDoc, BookingDoc, Calendar, ServiceDoc } from './model.js';
import {
  atLocation,
  BOOKING_STEP,
  type Candidate,
  candidates,
  capacityOf,
  courseOpenSpots,
  courseSessions,
  durationOf,
  eventIdOf,
  locationOf,
  openSpotsOf,
  scheduleIdOf,
} from './sessions.js';
import { formatWallClock, isTimeZone } from '../../api/time-zones.js';
import { instantOf, iso, MINUTE } from './time.js';

type Json = Record<string, unknown>;

/** `prefix.name`, or `name` at the top of the request. */
const at = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);
const conflict = (code: string, description: string, data: Json = {}) => new ApplicationFailure(409, code, description, data);

/** Participants a request asks for: `totalParticipants`, or the sum over `participantsChoices` (default 1). */
export function participantsOf(input: { totalParticipants?: number | null; participantsChoices?: { serviceChoices?: Array<{ numberOfParticipants?: number | null }> } | null }, field: string): number {
  if (input.totalParticipants != null && input.participantsChoices) {
    throw ValidationFailure.field(field, 'give either totalParticipants or participantsChoices, not both');
  }
  if (input.participantsChoices?.serviceChoices) return input.participantsChoices.serviceChoices.reduce((n, c) => n + (c.numberOfParticipants ?? 1), 0);
  return input.totalParticipants ?? 1;
}

/** The timezone a slot was shown in (checked), else the site's. @throws ApplicationFailure 400 INVALID_TIME_ZONE */
function zoneOf(cal: Calendar, given: string | null | undefined): string {
  if (given === undefined || given === null || given === '') return cal.timeZone;
  if (!isTimeZone(given)) throw new ApplicationFailure(400, 'INVALID_TIME_ZONE', `"${given}" is not an IANA time zone such as America/New_York`, { timezone: given });
  return given;
}

/** Where a booking lands: the service, its slot or schedule, the time it spans, and the room there. */
export interface Target {
  service: ServiceDoc;
  slot?: BookedSlotDoc;
  schedule?: BookingDoc['bookedEntity']['schedule'];
  start: number;
  end: number;
  /** Open spots for this booking (its own excluded when it is moving). */
  open: number;
  /** The class session, for waiting-list room. */
  candidate?: Candidate;
}

/**
 * Minutes the duration add-ons of a booking add to it (the bookings module's `BookedAddOn.durationInMinutes`, the
 * add-on's duration at the time of booking; quantity add-ons add none). docs/wire.md §28.
 */
export function addOnMinutesOf(addOns: readonly { durationInMinutes?: number | null }[] | null | undefined): number {
  let minutes = 0;
  for (const a of addOns ?? []) if (typeof a.durationInMinutes === 'number' && a.durationInMinutes > 0) minutes += a.durationInMinutes;
  return minutes;
}

/**
 * The slot of a service at `start` (with the staff member asked for, if any), or undefined. `extraMinutes`: what
 * duration add-ons add to an appointment (the staff member must be free, within working hours, for the whole span).
 */
export function findCandidate(
  cal: Calendar,
  service: ServiceDoc,
  start: number,
  resourceId: string | undefined,
  exclude?: BookingDoc | readonly BookingDoc[],
  location?: { id?: string | null; formattedAddress?: string | null } | null,
  extraMinutes = 0,
): Candidate | undefined {
  const extra = service.type === 'APPOINTMENT' ? extraMinutes : 0;
  const length = (durationOf(service) + extra) * MINUTE;
  const list = candidates(cal, service, start, start + length, { resourceIds: resourceId ? [resourceId] : undefined, exclude, step: service.type === 'APPOINTMENT' ? BOOKING_STEP : undefined, extraMinutes: extra });
  return list.find((c) => c.start === start && atLocation(c.location, location));
}

/** A booked slot for a candidate. */
function bookedSlot(cand: Candidate, timezone: string, eventId?: string | null): BookedSlotDoc {
  return {
    serviceId: cand.service.id,
    scheduleId: cand.scheduleId,
    ...(eventId ?? cand.eventId ? { eventId: eventId ?? cand.eventId } : {}),
    startDate: iso(cand.start),
    endDate: iso(cand.end),
    timezone,
    ...(cand.staff ? { resource: { id: cand.staff.id, name: cand.staff.name, ...(cand.staff.email ? { email: cand.staff.email } : {}) } } : {}),
    location: cand.location,
  };
}

/**
 * Resolves what a request books (a new booking, or a reschedule of `exclude`) without checking room.
 * `extraMinutes` (duration add-ons, {@link addOnMinutesOf}) lengthen an appointment: its end, and the time its
 * staff member must be free (classes and courses keep their sessions' times; docs/wire.md §28).
 * @throws ApplicationFailure 404 SERVICE_NOT_FOUND, 409 SLOT_NOT_AVAILABLE (unless `force`), 400 date/zone errors;
 *   ValidationFailure for a slot/schedule mix-up
 */
export function resolveTarget(
  cal: Calendar,
  entity: { slot?: Json | null; schedule?: Json | null },
  prefix: string,
  opts: { force: boolean; exclude?: BookingDoc | readonly BookingDoc[]; extraMinutes?: number },
): Target {
  const slot = entity.slot as
    | { serviceId: string; startDate: string; endDate?: string | null; timezone?: string | null; resource?: { id?: string | null }; location?: { id?: string | null; formattedAddress?: string | null } | null; eventId?: string | null }
    | undefined;
  const schedule = entity.schedule as { scheduleId: string; serviceId?: string | null; timezone?: string | null } | undefined;
  if (Boolean(slot) === Boolean(schedule)) {
    throw ValidationFailure.field(prefix || 'bookedEntity', 'give either slot (appointments and classes) or schedule (courses)', 'INVALID');
  }
  if (schedule) {
    let service: ServiceDoc | undefined;
    for (const s of cal.catalog.services.all()) {
      if (scheduleIdOf(s) !== schedule.scheduleId) continue;
      service = s;
      break;
    }
    if (!service) throw new ApplicationFailure(404, 'SCHEDULE_NOT_FOUND', `schedule ${schedule.scheduleId} was not found`, { scheduleId: schedule.scheduleId });
    if (service.type !== 'COURSE') throw ValidationFailure.field(at(prefix, 'schedule'), `a ${service.type?.toLowerCase()} is booked by its slot, not its schedule`);
    const sessions = courseSessions(service, cal.timeZone);
    if (sessions.length === 0) throw conflict('SLOT_NOT_AVAILABLE', `course "${service.name}" has no sessions`, { scheduleId: schedule.scheduleId });
    const start = sessions[0]!;
    const end = sessions[sessions.length - 1]! + durationOf(service) * MINUTE;
    const timezone = zoneOf(cal, schedule.timezone);
    return {
      service,
      schedule: { scheduleId: schedule.scheduleId, serviceId: service.id, location: locationOf(service), timezone, firstSessionStart: iso(start), lastSessionEnd: iso(end) },
      start,
      end,
      open: courseOpenSpots(cal, service, opts.exclude),
    };
  }
  const s = slot!;
  const service = cal.catalog.services.get(s.serviceId);
  if (!service) throw new ApplicationFailure(404, 'SERVICE_NOT_FOUND', `service ${s.serviceId} was not found`, { serviceId: s.serviceId });
  if (service.type === 'COURSE') throw ValidationFailure.field(at(prefix, 'slot'), 'a course is booked as a whole: give bookedEntity.schedule.scheduleId');
  const timezone = zoneOf(cal, s.timezone);
  const start = instantOf(s.startDate);
  if (Number.isNaN(start)) throw new ApplicationFailure(400, 'INVALID_DATE_FORMAT', `"${s.startDate}" is not a date-time`, { startDate: s.startDate });
  const base = durationOf(service) * MINUTE;
  const extra = service.type === 'APPOINTMENT' ? (opts.extraMinutes ?? 0) : 0;
  const length = base + extra * MINUTE;
  if (s.endDate) {
    const end = instantOf(s.endDate);
    if (Number.isNaN(end)) throw new ApplicationFailure(400, 'INVALID_DATE_FORMAT', `"${s.endDate}" is not a date-time`, { endDate: s.endDate });
    // The slot as listed (the service's length), or as lengthened by the booking's duration add-ons.
    if (end !== start + base && end !== start + length) throw conflict('SLOT_NOT_AVAILABLE', `"${service.name}" lasts ${durationOf(service)} minutes: the slot starting ${formatWallClock(start, timezone)} ends ${formatWallClock(start + base, timezone)}${extra ? ` (${formatWallClock(start + length, timezone)} with its add-ons)` : ''}`);
  }
  const resourceId = s.resource?.id ?? undefined;
  let cand = findCandidate(cal, service, start, resourceId, opts.exclude, s.location, extra);
  if (!cand) {
    if (!opts.force) {
      const when = formatWallClock(start, timezone);
      if (service.type === 'CLASS') {
        throw new ApplicationFailure(404, 'SESSION_NOT_FOUND', `no session of "${service.name}" starts at ${when}`, { serviceId: service.id, startDate: iso(start) });
      }
      // Taken, or never offered then (outside working hours, time off, teaching, off the booking grid)?
      const offered = candidates(cal, service, start, start + length, { step: BOOKING_STEP, ignoreBookings: true, extraMinutes: extra, ...(resourceId ? { resourceIds: [resourceId] } : {}) }).some((c) => c.start === start);
      const who = resourceId ? `staff member ${resourceId}` : `every staff member of "${service.name}"`;
      const why = offered
        ? `${who} is booked at ${when}`
        : `"${service.name}" has no slot at ${when}${resourceId ? ` with staff member ${resourceId}` : ''}${extra ? ` lasting ${durationOf(service) + extra} minutes with its add-ons` : ''} (slots start every ${BOOKING_STEP} minutes within staff working hours)`;
      throw conflict('SLOT_NOT_AVAILABLE', why, { serviceId: service.id, startDate: iso(start) });
    }
    // Forced past the availability check: the slot as asked (a double booking).
    const staff = resourceId ? cal.catalog.staff.get(resourceId) : cal.catalog.staff.get(service.staffMemberIds?.[0] ?? '');
    cand = {
      service,
      start,
      end: start + length,
      scheduleId: scheduleIdOf(service),
      ...(service.type === 'CLASS' ? { eventId: eventIdOf(scheduleIdOf(service), start) } : {}),
      staff,
      capacity: capacityOf(service),
      location: locationOf(service),
    };
    return { service, slot: bookedSlot(cand, timezone, s.eventId), start, end: cand.end, open: 0, candidate: cand };
  }
  return { service, slot: bookedSlot(cand, timezone), start, end: cand.end, open: openSpotsOf(cal, cand, opts.exclude), candidate: cand };
}

/** The tags the platform gives a booking by service type. */
export function tagsOf(service: ServiceDoc): string[] {
  return [service.type === 'CLASS' ? 'GROUP' : service.type === 'COURSE' ? 'COURSE' : 'INDIVIDUAL'];
}
