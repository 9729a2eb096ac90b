/**
 * The rules of bookings (platform-wire.md section 9; issue 6 section 2): what a new booking may hold, which
 * status each action is allowed from, and what the service's booking policy permits.
 *
 * Codes (the platform's where it names them; HTTP status in brackets):
 * - creating: SERVICE_NOT_FOUND, SCHEDULE_NOT_FOUND, SESSION_NOT_FOUND [404] (no class session at that time);
 *   SLOT_NOT_AVAILABLE [409] (no staff member of the service is free then); SESSION_CAPACITY_EXCEEDED / SCHEDULE_CAPACITY_EXCEEDED [409] (not enough open spots, no waiting
 *   list room); BOOKING_POLICY_VIOLATION [428] (too early, too late, more participants than the policy
 *   allows); INVALID_DATE_FORMAT / INVALID_TIME_ZONE [400]; field violations [400].
 * - actions: BOOKING_NOT_FOUND [404]; REVISION_MISMATCH [409]; INVALID_BOOKING_STATUS,
 *   FAILED_CONFIRMING_NON_PENDING_BOOKING, FAILED_DECLINE_NON_PENDING_BOOKING, NO_OPEN_SPOTS,
 *   RESCHEDULE_NOT_ALLOWED_FOR_COURSE, PARTICIPANTS_UPDATE_NOT_ALLOWED_FOR_APPOINTMENT,
 *   NOT_ALLOWED_TO_UPDATE_BOOKING_IN_MULTI_SERVICE_BOOKING (cancel or reschedule one booking of a group: use the
 *   group's calls) [428].
 *
 * `flowControlSettings` skip checks as on the platform: `skipAvailabilityValidation` books a full or taken slot
 * (the booking is marked `doubleBooked`) and ignores the early/late limits; `skipBusinessConfirmation` confirms
 * at once; `ignoreCancellationPolicy` / `ignoreReschedulePolicy` lift the policy windows;
 * `checkAvailabilityValidation` makes confirm refuse a full session.
 */
import type { BookingCreate, MultiServiceBookingType } from '../../api/schemas/booking.js';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import type { BookingPolicyDoc } from '../services/model.js';
import { ACTIVE_STATUSES, FINAL_STATUSES, type BookedSlotDoc, type BookingDoc, type Calendar, type ServiceDoc, serviceIdOf } from './model.js';
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
  waitingOf,
} from './sessions.js';
import { formatWallClock, isTimeZone } from '../../api/time-zones.js';
import { instantOf, iso, MINUTE } from './time.js';

type Json = Record<string, unknown>;

/** `prefix.name`, or `name` at the top of the request. */
const at = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);

/** A booking policy's rule blocks (those the engine reads). */
interface PolicyRules {
  limitEarlyBookingPolicy?: { enabled?: boolean; earliestBookingInMinutes?: number };
  limitLateBookingPolicy?: { enabled?: boolean; latestBookingInMinutes?: number };
  bookAfterStartPolicy?: { enabled?: boolean };
  cancellationPolicy?: { enabled?: boolean; limitLatestCancellation?: boolean; latestCancellationInMinutes?: number };
  reschedulePolicy?: { enabled?: boolean; limitLatestReschedule?: boolean; latestRescheduleInMinutes?: number };
  waitlistPolicy?: { enabled?: boolean; capacity?: number };
  participantsPolicy?: { enabled?: boolean; maxParticipantsPerBooking?: number };
}

/** The booking policy of a service (the site's policy it names, else the copy embedded in the service). */
export function policyOf(cal: Calendar, service: ServiceDoc): PolicyRules {
  const id = service.bookingPolicy?.id;
  const stored = id ? (cal.catalog.policies.get(id) as (BookingPolicyDoc & PolicyRules) | undefined) : undefined;
  return (stored ?? service.bookingPolicy ?? {}) as PolicyRules;
}

/** The booking policy violations of booking a service's slot starting at `start` now. */
export function violationsAt(cal: Calendar, service: ServiceDoc, start: number): { tooEarlyToBook: boolean; tooLateToBook: boolean; bookOnlineDisabled: boolean } {
  const p = policyOf(cal, service);
  const ahead = start - cal.nowMs;
  const early = p.limitEarlyBookingPolicy;
  const late = p.limitLateBookingPolicy;
  const tooEarlyToBook = Boolean(early?.enabled && typeof early.earliestBookingInMinutes === 'number' && ahead > early.earliestBookingInMinutes * MINUTE);
  const tooLateToBook =
    (ahead <= 0 && !p.bookAfterStartPolicy?.enabled) ||
    Boolean(late?.enabled && typeof late.latestBookingInMinutes === 'number' && ahead < late.latestBookingInMinutes * MINUTE);
  return { tooEarlyToBook, tooLateToBook, bookOnlineDisabled: service.onlineBooking?.enabled === false };
}

/** Places left on a class session's waiting list (0 when the policy has none). */
export function waitlistRoom(cal: Calendar, cand: Candidate): number {
  const w = policyOf(cal, cand.service).waitlistPolicy;
  if (!w?.enabled) return 0;
  return Math.max(0, (w.capacity ?? 0) - waitingOf(cal, cand.eventId));
}

/** What a customer may still do with a booking under its service's policy (`allowedActions`). */
export function allowedActions(cal: Calendar, b: BookingDoc): { cancel: boolean; reschedule: boolean } {
  if (FINAL_STATUSES.has(b.status)) return { cancel: false, reschedule: false };
  const service = cal.catalog.services.get(serviceIdOf(b) ?? '');
  const start = Date.parse(b.startDate);
  const ahead = start - cal.nowMs;
  if (!service || ahead <= 0) return { cancel: false, reschedule: false };
  const p = policyOf(cal, service);
  const c = p.cancellationPolicy;
  const r = p.reschedulePolicy;
  const cancel = !(c?.enabled && c.limitLatestCancellation && ahead < (c.latestCancellationInMinutes ?? 0) * MINUTE);
  const reschedule = service.type !== 'COURSE' && !(r?.enabled && r.limitLatestReschedule && ahead < (r.latestRescheduleInMinutes ?? 0) * MINUTE);
  return { cancel, reschedule };
}

const conflict = (code: string, description: string, data: Json = {}) => new ApplicationFailure(409, code, description, data);
const precondition = (code: string, description: string, data: Json = {}) => new ApplicationFailure(428, code, description, data);

/** Participants a request asks for: `totalParticipants`, or the sum over `participantsChoices` (default 1). */
function participantsOf(input: { totalParticipants?: number | null; participantsChoices?: { serviceChoices?: Array<{ numberOfParticipants?: number | null }> } | null }, field: string): number {
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
interface Target {
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

/** The slot of a service at `start` (with the staff member asked for, if any), or undefined. */
function findCandidate(
  cal: Calendar,
  service: ServiceDoc,
  start: number,
  resourceId: string | undefined,
  exclude?: BookingDoc | readonly BookingDoc[],
  location?: { id?: string | null; formattedAddress?: string | null } | null,
): Candidate | undefined {
  const length = durationOf(service) * MINUTE;
  const list = candidates(cal, service, start, start + length, { resourceIds: resourceId ? [resourceId] : undefined, exclude, step: service.type === 'APPOINTMENT' ? BOOKING_STEP : undefined });
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
 * @throws ApplicationFailure 404 SERVICE_NOT_FOUND, 409 SLOT_NOT_AVAILABLE (unless `force`), 400 date/zone errors;
 *   ValidationFailure for a slot/schedule mix-up
 */
function resolveTarget(
  cal: Calendar,
  entity: { slot?: Json | null; schedule?: Json | null },
  prefix: string,
  opts: { force: boolean; exclude?: BookingDoc | readonly BookingDoc[] },
): Target {
  const slot = entity.slot as
    | { serviceId: string; startDate: string; endDate?: string | null; timezone?: string | null; resource?: { id?: string | null }; location?: { id?: string | null; formattedAddress?: string | null } | null; eventId?: string | null }
    | undefined;
  const schedule = entity.schedule as { scheduleId: string; serviceId?: string | null; timezone?: string | null } | undefined;
  if (Boolean(slot) === Boolean(schedule)) {
    throw ValidationFailure.field(prefix || 'bookedEntity', 'give either slot (appointments and classes) or schedule (courses)', 'INVALID');
  }
  if (schedule) {
    const service = [...cal.catalog.services.all()].find((s) => scheduleIdOf(s) === schedule.scheduleId);
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
  const length = durationOf(service) * MINUTE;
  if (s.endDate) {
    const end = instantOf(s.endDate);
    if (Number.isNaN(end)) throw new ApplicationFailure(400, 'INVALID_DATE_FORMAT', `"${s.endDate}" is not a date-time`, { endDate: s.endDate });
    if (end !== start + length) throw conflict('SLOT_NOT_AVAILABLE', `"${service.name}" lasts ${durationOf(service)} minutes: the slot starting ${formatWallClock(start, timezone)} ends ${formatWallClock(start + length, timezone)}`);
  }
  const resourceId = s.resource?.id ?? undefined;
  let cand = findCandidate(cal, service, start, resourceId, opts.exclude, s.location);
  if (!cand) {
    if (!opts.force) {
      const when = formatWallClock(start, timezone);
      if (service.type === 'CLASS') {
        throw new ApplicationFailure(404, 'SESSION_NOT_FOUND', `no session of "${service.name}" starts at ${when}`, { serviceId: service.id, startDate: iso(start) });
      }
      // Taken, or never offered then (outside working hours, time off, teaching, off the booking grid)?
      const offered = candidates(cal, service, start, start + length, { step: BOOKING_STEP, ignoreBookings: true, ...(resourceId ? { resourceIds: [resourceId] } : {}) }).some((c) => c.start === start);
      const who = resourceId ? `staff member ${resourceId}` : `every staff member of "${service.name}"`;
      const why = offered
        ? `${who} is booked at ${when}`
        : `"${service.name}" has no slot at ${when}${resourceId ? ` with staff member ${resourceId}` : ''} (slots start every ${BOOKING_STEP} minutes within staff working hours)`;
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
function tagsOf(service: ServiceDoc): string[] {
  return [service.type === 'CLASS' ? 'GROUP' : service.type === 'COURSE' ? 'COURSE' : 'INDIVIDUAL'];
}

function checkPolicy(cal: Calendar, service: ServiceDoc, start: number, participants: number, force: boolean): void {
  const p = policyOf(cal, service);
  const max = p.participantsPolicy?.enabled ? p.participantsPolicy.maxParticipantsPerBooking : undefined;
  if (typeof max === 'number' && participants > max) {
    throw precondition('BOOKING_POLICY_VIOLATION', `the booking policy allows at most ${max} participant${max === 1 ? '' : 's'} per booking`, { maxParticipantsPerBooking: max });
  }
  if (force) return;
  const v = violationsAt(cal, service, start);
  if (v.tooEarlyToBook) throw precondition('BOOKING_POLICY_VIOLATION', `too early to book: the policy of "${service.name}" opens bookings later`, { tooEarlyToBook: true });
  if (v.tooLateToBook) throw precondition('BOOKING_POLICY_VIOLATION', start <= cal.nowMs ? 'the slot has already started' : `too late to book "${service.name}" under its booking policy`, { tooLateToBook: true });
}

/** Options of {@link createBooking}. */
export interface CreateOptions {
  flow?: { skipAvailabilityValidation?: boolean; skipBusinessConfirmation?: boolean } | null;
  /** Field prefix for violations (`booking`, `createBookingsInfo[3].booking`, `bookings[1]`). */
  prefix: string;
  multiServiceBooking?: { id: string; type: MultiServiceBookingType };
}

/**
 * Checks and stores a new booking (see the module comment for the checks and codes).
 * @returns the stored booking
 */
export function createBooking(cal: Calendar, input: BookingCreate, opts: CreateOptions): BookingDoc {
  const force = Boolean(opts.flow?.skipAvailabilityValidation);
  const participants = participantsOf(input as never, `${opts.prefix}.totalParticipants`);
  const target = resolveTarget(cal, input.bookedEntity as Json, `${opts.prefix}.bookedEntity`, { force });
  const { service } = target;
  checkPolicy(cal, service, target.start, participants, force);
  if (input.status !== undefined && input.status !== 'CREATED' && input.status !== 'CONFIRMED') {
    throw ValidationFailure.field(`${opts.prefix}.status`, 'a new booking is CREATED, or CONFIRMED by the business', 'INVALID_ENUM_VALUE');
  }
  let status: BookingDoc['status'] = input.status === 'CONFIRMED' || opts.flow?.skipBusinessConfirmation ? 'CONFIRMED' : 'CREATED';
  let doubleBooked = false;
  if (participants > target.open) {
    const room = target.candidate && service.type === 'CLASS' ? waitlistRoom(cal, target.candidate) : 0;
    if (force) doubleBooked = true;
    else if (room >= participants) status = 'WAITING_LIST';
    else if (service.type === 'COURSE') throw conflict('SCHEDULE_CAPACITY_EXCEEDED', `course "${service.name}" has ${target.open} open place${target.open === 1 ? '' : 's'}, ${participants} asked`, { openSpots: target.open });
    else throw conflict('SESSION_CAPACITY_EXCEEDED', `the session has ${target.open} open spot${target.open === 1 ? '' : 's'}, ${participants} asked`, { openSpots: target.open });
  }
  const contact = (input.contactDetails ?? {}) as BookingDoc['contactDetails'] & object;
  const slot = target.slot && status === 'CONFIRMED' && !target.slot.eventId ? { ...target.slot, eventId: eventIdOf(target.slot.scheduleId, target.start, target.slot.resource?.id ?? '') } : target.slot;
  const doc: BookingDoc = {
    id: cal.newId(),
    bookedEntity: {
      ...(slot ? { slot } : { schedule: target.schedule! }),
      title: service.name,
      tags: tagsOf(service),
    },
    contactDetails: { ...contact, contactId: contact.contactId ?? cal.newId() },
    status,
    paymentStatus: 'UNDEFINED',
    selectedPaymentOption: input.selectedPaymentOption ?? 'OFFLINE',
    totalParticipants: participants,
    ...(input.participantsChoices ? { participantsChoices: input.participantsChoices } : {}),
    startDate: iso(target.start),
    endDate: iso(target.end),
    createdBy: { ...cal.actor },
    ...(service.form?.id ? { formId: service.form.id } : {}),
    ...(input.externalUserId ? { externalUserId: input.externalUserId } : {}),
    ...(input.extendedFields ? { extendedFields: input.extendedFields as BookingDoc['extendedFields'] } : {}),
    ...(doubleBooked ? { doubleBooked: true } : {}),
    ...(opts.multiServiceBooking ? { multiServiceBookingInfo: opts.multiServiceBooking } : {}),
  };
  return cal.bookings.insert(doc);
}

/** The stored booking at the caller's revision. @throws 404 BOOKING_NOT_FOUND, 409 REVISION_MISMATCH */
function atRevision(cal: Calendar, id: string, revision: unknown): BookingDoc {
  const b = cal.bookings.require(id);
  if (revision !== undefined && revision !== null && String(revision) !== b.revision) {
    throw new ApplicationFailure(409, 'REVISION_MISMATCH', 'entity has already changed since the requested revision', { id, requestedRevision: String(revision), currentRevision: b.revision });
  }
  return b;
}

function save(cal: Calendar, next: BookingDoc, event: string): BookingDoc {
  return cal.bookings.update(next, { expectedRevision: next.revision, event: `booking.${event}` });
}

const inGroup = (b: BookingDoc) =>
  precondition('NOT_ALLOWED_TO_UPDATE_BOOKING_IN_MULTI_SERVICE_BOOKING', `booking ${b.id} belongs to multi-service booking ${b.multiServiceBookingInfo!.id}: change it with the group's calls`, {
    id: b.id,
    multiServiceBookingId: b.multiServiceBookingInfo!.id,
  });

const statusRefused = (code: string, b: BookingDoc, action: string) =>
  precondition(code, `booking ${b.id} is ${b.status}: it cannot be ${action}`, { id: b.id, status: b.status });

/** Options shared by the status actions. */
export interface ActionOptions {
  revision?: unknown;
  paymentStatus?: string | null;
  doubleBooked?: boolean | null;
}

/** Does this booking's service still have room for it (appointments: the staff member is free)? */
function hasRoom(cal: Calendar, b: BookingDoc): boolean {
  const service = cal.catalog.services.get(serviceIdOf(b) ?? '');
  if (!service) return false;
  if (b.bookedEntity.schedule) return courseOpenSpots(cal, service, b) >= b.totalParticipants;
  const cand = findCandidate(cal, service, Date.parse(b.startDate), b.bookedEntity.slot?.resource?.id ?? undefined, b);
  return cand !== undefined && openSpotsOf(cal, cand, b) >= b.totalParticipants;
}

/** An appointment gets its session id when it is confirmed. */
function withEventId(b: BookingDoc): BookingDoc['bookedEntity'] {
  const slot = b.bookedEntity.slot;
  if (!slot || slot.eventId) return b.bookedEntity;
  return { ...b.bookedEntity, slot: { ...slot, eventId: eventIdOf(slot.scheduleId, Date.parse(slot.startDate), slot.resource?.id ?? '') } };
}

/** CONFIRMED from PENDING, CREATED or WAITING_LIST (wire section 9; no room check unless asked). */
export function confirmBooking(cal: Calendar, id: string, opts: ActionOptions & { checkAvailability?: boolean }): BookingDoc {
  const b = atRevision(cal, id, opts.revision);
  if (b.status === 'CONFIRMED') throw statusRefused('FAILED_CONFIRMING_NON_PENDING_BOOKING', b, 'confirmed again');
  if (FINAL_STATUSES.has(b.status)) throw statusRefused('INVALID_BOOKING_STATUS', b, 'confirmed');
  if (opts.checkAvailability && !(b.status !== 'WAITING_LIST' ? true : hasRoom(cal, b))) {
    throw precondition('NO_OPEN_SPOTS', `the session of booking ${b.id} has no open spots`, { id: b.id });
  }
  return save(cal, { ...b, bookedEntity: withEventId(b), status: 'CONFIRMED', ...(opts.paymentStatus ? { paymentStatus: opts.paymentStatus } : {}), ...(opts.doubleBooked ? { doubleBooked: true } : {}) }, 'confirmed');
}

/** DECLINED from PENDING, CREATED or WAITING_LIST. */
export function declineBooking(cal: Calendar, id: string, opts: ActionOptions): BookingDoc {
  const b = atRevision(cal, id, opts.revision);
  if (!['PENDING', 'CREATED', 'WAITING_LIST'].includes(b.status)) throw statusRefused('FAILED_DECLINE_NON_PENDING_BOOKING', b, 'declined');
  return save(cal, { ...b, status: 'DECLINED', ...(opts.paymentStatus ? { paymentStatus: opts.paymentStatus } : {}) }, 'declined');
}

/** PENDING from CREATED, for services that require the business's approval (unless told to skip that check). */
export function markBookingAsPending(cal: Calendar, id: string, opts: ActionOptions & { skipApprovalCheck?: boolean }): BookingDoc {
  const b = atRevision(cal, id, opts.revision);
  if (b.status !== 'CREATED') throw statusRefused('INVALID_BOOKING_STATUS', b, 'marked as pending');
  const service = cal.catalog.services.get(serviceIdOf(b) ?? '');
  if (!opts.skipApprovalCheck && !service?.onlineBooking?.requireManualApproval) {
    throw precondition('INVALID_BOOKING_STATUS', `service "${service?.name ?? serviceIdOf(b)}" does not require manual approval`, { id: b.id });
  }
  return save(cal, { ...b, status: 'PENDING', ...(opts.paymentStatus ? { paymentStatus: opts.paymentStatus } : {}) }, 'marked_as_pending');
}

/** CANCELED from any status but the final ones; the cancellation window applies unless ignored. */
export function cancelBooking(cal: Calendar, id: string, opts: ActionOptions & { ignorePolicy?: boolean; asGroup?: boolean }): BookingDoc {
  const b = atRevision(cal, id, opts.revision);
  if (FINAL_STATUSES.has(b.status)) throw statusRefused('INVALID_BOOKING_STATUS', b, 'cancelled');
  if (b.multiServiceBookingInfo && !opts.asGroup) throw inGroup(b);
  if (!opts.ignorePolicy && !allowedActions(cal, b).cancel && Date.parse(b.startDate) > cal.nowMs) {
    throw precondition('BOOKING_POLICY_VIOLATION', `too late to cancel booking ${b.id} under its cancellation policy`, { id: b.id });
  }
  return save(cal, { ...b, status: 'CANCELED', canceledDate: cal.now }, 'canceled');
}

/** Confirms when the slot still has room for the booking, else declines it. */
export function confirmOrDeclineBooking(cal: Calendar, id: string, paymentStatus?: string | null): BookingDoc {
  const b = cal.bookings.require(id);
  if (!['PENDING', 'CREATED', 'WAITING_LIST'].includes(b.status)) throw statusRefused('INVALID_BOOKING_STATUS', b, 'confirmed or declined');
  const status = hasRoom(cal, b) ? 'CONFIRMED' : 'DECLINED';
  const next: BookingDoc = { ...b, ...(status === 'CONFIRMED' ? { bookedEntity: withEventId(b) } : {}), status, ...(paymentStatus ? { paymentStatus } : {}) };
  return save(cal, next, status === 'CONFIRMED' ? 'confirmed' : 'declined');
}

/**
 * Moves a booking to another slot of its service: room is checked there (its own place does not count), the
 * reschedule window applies unless ignored; not for courses, not from a final status.
 */
export function rescheduleBooking(
  cal: Calendar,
  id: string,
  slot: Json,
  opts: ActionOptions & { ignorePolicy?: boolean; skipAvailability?: boolean; totalParticipants?: number | null; prefix?: string; asGroup?: boolean; group?: readonly BookingDoc[] },
): BookingDoc {
  const b = atRevision(cal, id, opts.revision);
  if (FINAL_STATUSES.has(b.status)) throw statusRefused('INVALID_BOOKING_STATUS', b, 'rescheduled');
  if (b.multiServiceBookingInfo && !opts.asGroup) throw inGroup(b);
  if (b.bookedEntity.schedule) throw precondition('RESCHEDULE_NOT_ALLOWED_FOR_COURSE', 'a course booking cannot be rescheduled', { id: b.id });
  if (slot.serviceId !== serviceIdOf(b)) throw ValidationFailure.field(at(at(opts.prefix ?? '', 'slot'), 'serviceId'), 'must be the service of the booking');
  if (!opts.ignorePolicy && !allowedActions(cal, b).reschedule) {
    throw precondition('BOOKING_POLICY_VIOLATION', `too late to reschedule booking ${b.id} under its reschedule policy`, { id: b.id });
  }
  const force = Boolean(opts.skipAvailability);
  const target = resolveTarget(cal, { slot }, opts.prefix ?? '', { force, exclude: opts.group ?? b });
  const participants = opts.totalParticipants ?? b.totalParticipants;
  checkPolicy(cal, target.service, target.start, participants, force || Boolean(opts.ignorePolicy));
  let doubleBooked = b.doubleBooked;
  if (b.status !== 'WAITING_LIST' && participants > target.open) {
    if (!force) throw conflict('SESSION_CAPACITY_EXCEEDED', `the new slot has ${target.open} open spot${target.open === 1 ? '' : 's'}, ${participants} needed`, { openSpots: target.open });
    doubleBooked = true;
  }
  const newSlot = target.slot!;
  const keepEvent = b.status === 'CONFIRMED' && !newSlot.eventId ? { ...newSlot, eventId: eventIdOf(newSlot.scheduleId, target.start, newSlot.resource?.id ?? '') } : newSlot;
  return save(
    cal,
    { ...b, bookedEntity: { ...b.bookedEntity, slot: keepEvent }, startDate: iso(target.start), endDate: iso(target.end), totalParticipants: participants, ...(doubleBooked ? { doubleBooked } : {}) },
    'rescheduled',
  );
}

/** Changes how many take part in a class or course booking (room checked for an increase). */
export function updateNumberOfParticipants(cal: Calendar, id: string, opts: { revision?: unknown; totalParticipants?: number | null; participantsChoices?: unknown }): BookingDoc {
  const b = atRevision(cal, id, opts.revision);
  if (FINAL_STATUSES.has(b.status)) throw statusRefused('INVALID_BOOKING_STATUS', b, 'changed');
  const service = cal.catalog.services.get(serviceIdOf(b) ?? '');
  if (!service || service.type === 'APPOINTMENT') throw precondition('PARTICIPANTS_UPDATE_NOT_ALLOWED_FOR_APPOINTMENT', 'the participants of an appointment cannot be changed', { id: b.id });
  const participants = participantsOf(opts as never, 'totalParticipants');
  checkPolicy(cal, service, Date.parse(b.startDate), participants, true);
  if (ACTIVE_STATUSES.has(b.status) && participants > b.totalParticipants) {
    const open = b.bookedEntity.schedule ? courseOpenSpots(cal, service, b) : (() => {
      const cand = findCandidate(cal, service, Date.parse(b.startDate), undefined, b);
      return cand ? openSpotsOf(cal, cand, b) : 0;
    })();
    if (participants > open) {
      const code = b.bookedEntity.schedule ? 'SCHEDULE_CAPACITY_EXCEEDED' : 'SESSION_CAPACITY_EXCEEDED';
      throw conflict(code, `only ${open} open spot${open === 1 ? '' : 's'} for this booking, ${participants} asked`, { openSpots: open });
    }
  }
  return save(cal, { ...b, totalParticipants: participants, ...(opts.participantsChoices ? { participantsChoices: opts.participantsChoices } : {}) }, 'number_of_participants_updated');
}

/** Replaces one namespace of a booking's extended fields. */
export function updateExtendedFields(cal: Calendar, id: string, namespace: string, data: Record<string, unknown>): BookingDoc {
  const b = cal.bookings.require(id);
  const namespaces = { ...(b.extendedFields?.namespaces ?? {}), [namespace]: data };
  return save(cal, { ...b, extendedFields: { namespaces } }, 'updated');
}
