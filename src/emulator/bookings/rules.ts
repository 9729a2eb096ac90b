/**
 * The rules of bookings (docs/wire.md §9; docs/bookings.md "Bookings"): what a new booking may hold and which
 * status each action is allowed from. Where a booking lands is placement.ts; what the service's booking policy
 * permits is policy.ts.
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
import { bookedAddOnsOf } from '../services/add-ons.js';
import { ACTIVE_STATUSES, FINAL_STATUSES, type BookingDoc, type Calendar, serviceIdOf } from './model.js';
import { checkPolicy, waitlistRoom, windowRefusal } from './policy.js';
import { addOnMinutesOf, findCandidate, participantsOf, resolveTarget, tagsOf } from './placement.js';
import { courseOpenSpots, eventIdOf, openSpotsOf } from './sessions.js';
import { iso } from './time.js';

type Json = Record<string, unknown>;

/** `prefix.name`, or `name` at the top of the request. */
const at = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);
const conflict = (code: string, description: string, data: Json = {}) => new ApplicationFailure(409, code, description, data);
const precondition = (code: string, description: string, data: Json = {}) => new ApplicationFailure(428, code, description, data);

/** Options of {@link createBooking}. */
export interface CreateOptions {
  flow?: { skipAvailabilityValidation?: boolean; skipBusinessConfirmation?: boolean; skipAddOnValidation?: boolean } | null;
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
  // Duration add-ons lengthen an appointment (docs/wire.md §28): its end and its staff member's busy time.
  const extraMinutes = addOnMinutesOf((input.bookedAddOns ?? []).map((a) => cal.catalog.addOns.get(a.id ?? '') ?? {}));
  const target = resolveTarget(cal, input.bookedEntity as Json, `${opts.prefix}.bookedEntity`, { force, extraMinutes });
  const { service } = target;
  checkPolicy(cal, service, target.start, participants, force);
  const addOns = input.bookedAddOns?.length ? bookedAddOnsOf(cal.catalog, service, input.bookedAddOns, opts.prefix, Boolean(opts.flow?.skipAddOnValidation)) : [];
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
    ...(addOns.length ? { bookedAddOns: addOns } : {}),
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
  const cand = findCandidate(cal, service, Date.parse(b.startDate), b.bookedEntity.slot?.resource?.id ?? undefined, b, undefined, addOnMinutesOf(b.bookedAddOns));
  return cand !== undefined && openSpotsOf(cal, cand, b) >= b.totalParticipants;
}

/** An appointment gets its session id when it is confirmed. */
function withEventId(b: BookingDoc): BookingDoc['bookedEntity'] {
  const slot = b.bookedEntity.slot;
  if (!slot || slot.eventId) return b.bookedEntity;
  return { ...b.bookedEntity, slot: { ...slot, eventId: eventIdOf(slot.scheduleId, Date.parse(slot.startDate), slot.resource?.id ?? '') } };
}

/** CONFIRMED from PENDING, CREATED or WAITING_LIST (docs/wire.md §9; no room check unless asked). */
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
  const refused = opts.ignorePolicy ? undefined : windowRefusal(cal, b, 'cancel');
  if (refused) throw precondition('BOOKING_POLICY_VIOLATION', refused.message, refused.data);
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
  const refused = opts.ignorePolicy ? undefined : windowRefusal(cal, b, 'reschedule');
  if (refused) throw precondition('BOOKING_POLICY_VIOLATION', refused.message, refused.data);
  const force = Boolean(opts.skipAvailability);
  const target = resolveTarget(cal, { slot }, opts.prefix ?? '', { force, exclude: opts.group ?? b, extraMinutes: addOnMinutesOf(b.bookedAddOns) });
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
