/**
 * Multi-service bookings (docs/bookings.md "Statuses", docs/wire.md §16; the SDK's typings for codes): several bookings made and
 * changed together, all or nothing: every call runs in one transaction, so a failure on one booking leaves the
 * others as they were.
 *
 * - Create: 2 to 40 slot bookings; SEQUENTIAL_BOOKINGS (the default): each starts when the previous ends;
 *   PARALLEL_BOOKINGS: all start together; SEPARATE_BOOKINGS: any times. The parts of a sequential or parallel
 *   group take place at the first part's location unless a part names its own `slot.location`.
 * - Group actions take per-booking infos `{bookingId, revision}`. When infos are given they must name every
 *   booking of the group once (NOT_ALL_BOOKINGS_WERE_SENT, DUPLICATE_BOOKING_INFO [400]), each with its revision
 *   (REVISION_MISSING [400]; a stale one BOOKING_REVISION_MISMATCH [409]). Without infos the current revisions
 *   are used.
 * - Confirm: every booking not yet confirmed (ALL_BOOKINGS_ARE_ALREADY_CONFIRMED [428] when none is left);
 *   decline, cancel and mark-as-pending likewise per the single-booking status table; reschedule moves every
 *   booking (their own old places do not count against the new ones) and keeps the type's timing.
 */
import type { MultiServiceBookingType } from '../../api/schemas/booking.js';
import { formatWallClock } from '../../api/time-zones.js';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import { ACTIVE_STATUSES, FINAL_STATUSES, type BookingDoc, type Calendar, type MultiServiceBookingDoc, serviceIdOf } from './model.js';
import { allowedActions, violationsAt } from './policy.js';
import { cancelBooking, confirmBooking, createBooking, declineBooking, markBookingAsPending, rescheduleBooking } from './rules.js';
import { addOnMinutesOf, findCandidate } from './placement.js';
import { capacityOf, courseOpenSpots, openSpotsOf } from './sessions.js';
import { instantOf, iso } from './time.js';

type Json = Record<string, unknown>;

/** A group and its bookings, in order. */
export interface Group {
  msb: MultiServiceBookingDoc;
  bookings: BookingDoc[];
}

/** The group with its bookings. @throws ApplicationFailure 404 MULTI_SERVICE_BOOKING_NOT_FOUND */
export function groupOf(cal: Calendar, id: string): Group {
  const msb = cal.multiServiceBookings.require(id);
  return { msb, bookings: msb.bookingIds.map((b) => cal.bookings.get(b)).filter((b): b is BookingDoc => b !== undefined) };
}

/** The wire form: `{id, bookings:[{bookingId, booking?}]}`. */
export function groupReply(cal: Calendar, id: string, full: boolean | undefined): Json {
  const { msb, bookings } = groupOf(cal, id);
  return { id: msb.id, bookings: bookings.map((b) => ({ bookingId: b.id, ...(full ? { booking: b } : {}) })) };
}

/**
 * Creates the group's bookings in order and the group (see the module comment for the timing rules).
 * @throws what creating each booking throws (field names prefixed `bookings[i]`), ValidationFailure for timing
 */
export function createGroup(
  cal: Calendar,
  body: { bookings: Json[]; multiServiceBookingType?: MultiServiceBookingType; flowControlSettings?: { skipAvailabilityValidation?: boolean; skipBusinessConfirmation?: boolean } },
): MultiServiceBookingDoc {
  const type = body.multiServiceBookingType ?? 'SEQUENTIAL_BOOKINGS';
  const id = cal.newId();
  const made: BookingDoc[] = [];
  body.bookings.forEach((input, i) => {
    const entity = input.bookedEntity as { slot?: { startDate?: string }; schedule?: unknown } | undefined;
    if (!entity?.slot) throw ValidationFailure.field(`bookings[${i}].bookedEntity.slot`, 'a multi-service booking holds slots of appointments or classes', 'REQUIRED_FIELD');
    const start = instantOf(entity.slot.startDate ?? '');
    if (i > 0 && type !== 'SEPARATE_BOOKINGS') {
      const expected = type === 'SEQUENTIAL_BOOKINGS' ? Date.parse(made[i - 1]!.endDate) : Date.parse(made[0]!.startDate);
      if (start !== expected) {
        const why = type === 'SEQUENTIAL_BOOKINGS' ? `when booking ${i - 1} ends` : 'when the first booking starts';
        throw ValidationFailure.field(`bookings[${i}].bookedEntity.slot.startDate`, `must be ${iso(expected)} (${formatWallClock(expected, cal.timeZone)}), ${why} (${type})`, 'INVALID');
      }
    }
    // Back-to-back and side-by-side parts take place where the first does (unless a part names its place).
    const slot = entity.slot as Json;
    const placed = i > 0 && type !== 'SEPARATE_BOOKINGS' && !slot.location ? { ...input, bookedEntity: { ...entity, slot: { ...slot, location: made[0]!.bookedEntity.slot?.location } } } : input;
    try {
      made.push(createBooking(cal, placed as never, { flow: body.flowControlSettings, prefix: `bookings[${i}]`, multiServiceBooking: { id, type } }));
    } catch (err) {
      // Name the part that could not be booked (field violations already carry `bookings[i]` in their paths).
      if (err instanceof ApplicationFailure) throw new ApplicationFailure(err.status, err.code, `bookings[${i}]: ${err.description}`, { ...err.data, index: i });
      throw err;
    }
  });
  return cal.multiServiceBookings.insert({ id, type, bookingIds: made.map((b) => b.id) });
}

type Info = { bookingId: string; revision?: string | number | null; paymentStatus?: string };

/**
 * The infos of a group action checked against the group (see the module comment).
 * @returns per booking id, its info (empty when no infos were given)
 */
function checkInfos(group: Group, infos: readonly Info[] | undefined, field: string): Map<string, Info> {
  const out = new Map<string, Info>();
  if (!infos) return out;
  const ids = new Set(group.bookings.map((b) => b.id));
  infos.forEach((info, i) => {
    if (out.has(info.bookingId)) throw new ApplicationFailure(400, 'DUPLICATE_BOOKING_INFO', `booking ${info.bookingId} is listed twice`, { bookingId: info.bookingId, index: i });
    if (!ids.has(info.bookingId)) throw new ApplicationFailure(404, 'BOOKING_NOT_FOUND', `booking ${info.bookingId} is not part of multi-service booking ${group.msb.id}`, { bookingId: info.bookingId, index: i });
    if (info.revision === undefined || info.revision === null) throw new ApplicationFailure(400, 'REVISION_MISSING', `${field}[${i}].revision is required`, { bookingId: info.bookingId });
    out.set(info.bookingId, info);
  });
  const missing = [...ids].filter((id) => !out.has(id));
  if (missing.length) throw new ApplicationFailure(400, 'NOT_ALL_BOOKINGS_WERE_SENT', `${field} must list every booking of the group; missing ${missing.join(', ')}`, { missing });
  for (const b of group.bookings) {
    const info = out.get(b.id)!;
    if (String(info.revision) !== b.revision) {
      throw new ApplicationFailure(409, 'BOOKING_REVISION_MISMATCH', `booking ${b.id} has changed since revision ${String(info.revision)}`, { bookingId: b.id, requestedRevision: String(info.revision), currentRevision: b.revision });
    }
  }
  return out;
}

/** Confirms every booking of the group not yet confirmed. */
export function confirmGroup(cal: Calendar, id: string, infos: readonly Info[] | undefined, opts: { checkAvailability?: boolean; doubleBooked?: boolean | null }): void {
  const group = groupOf(cal, id);
  const byId = checkInfos(group, infos, 'confirmBookingsInfo');
  const todo = group.bookings.filter((b) => b.status !== 'CONFIRMED');
  if (todo.length === 0) throw new ApplicationFailure(428, 'ALL_BOOKINGS_ARE_ALREADY_CONFIRMED', `every booking of ${id} is already confirmed`, { id });
  for (const b of todo) confirmBooking(cal, b.id, { checkAvailability: opts.checkAvailability, doubleBooked: opts.doubleBooked, paymentStatus: byId.get(b.id)?.paymentStatus });
}

/** Declines every booking of the group. */
export function declineGroup(cal: Calendar, id: string, infos: readonly Info[] | undefined): void {
  const group = groupOf(cal, id);
  const byId = checkInfos(group, infos, 'declineBookingsInfo');
  for (const b of group.bookings) declineBooking(cal, b.id, { paymentStatus: byId.get(b.id)?.paymentStatus });
}

/** Marks every booking of the group as pending. */
export function markGroupPending(cal: Calendar, id: string, infos: readonly Info[] | undefined, opts: { skipApprovalCheck?: boolean }): void {
  const group = groupOf(cal, id);
  const byId = checkInfos(group, infos, 'markAsPendingBookingsInfo');
  for (const b of group.bookings) markBookingAsPending(cal, b.id, { paymentStatus: byId.get(b.id)?.paymentStatus, skipApprovalCheck: opts.skipApprovalCheck });
}

/** Cancels every booking of the group that is not already cancelled or declined. */
export function cancelGroup(cal: Calendar, id: string, opts: { ignorePolicy?: boolean }): void {
  const group = groupOf(cal, id);
  const open = group.bookings.filter((b) => !FINAL_STATUSES.has(b.status));
  if (open.length === 0) throw new ApplicationFailure(428, 'INVALID_BOOKING_STATUS', `every booking of ${id} is already cancelled or declined`, { id });
  for (const b of open) cancelBooking(cal, b.id, { ignorePolicy: opts.ignorePolicy, asGroup: true });
}

/** Moves every booking of the group to its new slot (the group's own old places are free for the move). */
export function rescheduleGroup(
  cal: Calendar,
  id: string,
  infos: ReadonlyArray<{ bookingId: string; slot: Json; revision: string | number; totalParticipants?: number }>,
  flow: { ignoreReschedulePolicy?: boolean; skipAvailabilityValidation?: boolean } | undefined,
): void {
  const group = groupOf(cal, id);
  checkInfos(group, infos as readonly Info[], 'rescheduleBookingsInfo');
  const byId = new Map(infos.map((i) => [i.bookingId, i]));
  const moved: BookingDoc[] = [];
  group.bookings.forEach((b, i) => {
    const info = byId.get(b.id)!;
    if (i > 0 && group.msb.type !== 'SEPARATE_BOOKINGS') {
      const expected = group.msb.type === 'SEQUENTIAL_BOOKINGS' ? Date.parse(moved[i - 1]!.endDate) : Date.parse(moved[0]!.startDate);
      const start = instantOf(String(info.slot.startDate ?? ''));
      if (start !== expected) throw ValidationFailure.field(`rescheduleBookingsInfo[${i}].slot.startDate`, `must be ${iso(expected)} (${formatWallClock(expected, cal.timeZone)}; ${group.msb.type})`, 'INVALID');
    }
    moved.push(
      rescheduleBooking(cal, b.id, info.slot, {
        ignorePolicy: flow?.ignoreReschedulePolicy,
        skipAvailability: flow?.skipAvailabilityValidation,
        totalParticipants: info.totalParticipants,
        prefix: `rescheduleBookingsInfo[${i}]`,
        asGroup: true,
        group: group.bookings,
      }),
    );
  });
}

/**
 * Adds single bookings to a group (each at its revision when given). A group whose bookings are all canceled or
 * declined takes no more (428 INVALID_MULTI_SERVICE_BOOKING_STATUS; docs/bookings.md).
 */
export function addToGroup(cal: Calendar, id: string, items: ReadonlyArray<{ bookingId: string; revision?: string | number | null }>): BookingDoc[] {
  const msb = cal.multiServiceBookings.require(id);
  const members = msb.bookingIds.map((b) => cal.bookings.get(b)).filter((b): b is BookingDoc => b !== undefined);
  if (members.length > 0 && members.every((b) => FINAL_STATUSES.has(b.status))) {
    const state = members.every((b) => b.status === 'CANCELED') ? 'canceled' : 'declined';
    throw new ApplicationFailure(428, 'INVALID_MULTI_SERVICE_BOOKING_STATUS', `multi-service booking ${id} is ${state}: bookings cannot be added to it`, { multiServiceBookingId: id });
  }
  const added = items.map((item, i) => {
    const b = cal.bookings.require(item.bookingId);
    if (item.revision != null && String(item.revision) !== b.revision) {
      throw new ApplicationFailure(409, 'BOOKING_REVISION_MISMATCH', `booking ${b.id} has changed since revision ${String(item.revision)}`, { bookingId: b.id, index: i });
    }
    if (b.multiServiceBookingInfo) throw new ApplicationFailure(428, 'BOOKING_ALREADY_IN_MULTI_SERVICE_BOOKING', `booking ${b.id} already belongs to ${b.multiServiceBookingInfo.id}`, { bookingId: b.id });
    if (FINAL_STATUSES.has(b.status)) throw new ApplicationFailure(428, 'INVALID_BOOKING_STATUS', `booking ${b.id} is ${b.status}`, { bookingId: b.id });
    return cal.bookings.update({ ...b, multiServiceBookingInfo: { id, type: msb.type } }, { event: 'booking.updated' });
  });
  cal.multiServiceBookings.update({ ...msb, bookingIds: [...msb.bookingIds, ...added.map((b) => b.id)] });
  return added;
}

/**
 * Takes bookings out of a group; they stay as single bookings. A removal that would leave the group without
 * bookings is refused (428 MULTI_SERVICE_BOOKING_WOULD_BE_EMPTY: cancel the group instead; docs/bookings.md).
 */
export function removeFromGroup(cal: Calendar, id: string, items: ReadonlyArray<{ bookingId: string; revision?: string | number | null }>): BookingDoc[] {
  const msb = cal.multiServiceBookings.require(id);
  const leaving = new Set(items.map((i) => i.bookingId));
  if (msb.bookingIds.length > 0 && msb.bookingIds.every((b) => leaving.has(b))) {
    throw new ApplicationFailure(428, 'MULTI_SERVICE_BOOKING_WOULD_BE_EMPTY', `removing every booking would leave multi-service booking ${id} empty: cancel the group instead`, { multiServiceBookingId: id });
  }
  const removed = items.map((item, i) => {
    const b = cal.bookings.require(item.bookingId);
    if (b.multiServiceBookingInfo?.id !== id) throw new ApplicationFailure(404, 'BOOKING_NOT_FOUND', `booking ${b.id} is not part of multi-service booking ${id}`, { bookingId: b.id, index: i });
    if (item.revision != null && String(item.revision) !== b.revision) {
      throw new ApplicationFailure(409, 'BOOKING_REVISION_MISMATCH', `booking ${b.id} has changed since revision ${String(item.revision)}`, { bookingId: b.id, index: i });
    }
    const { multiServiceBookingInfo: _dropped, ...rest } = b;
    return cal.bookings.update(rest as BookingDoc, { event: 'booking.updated' });
  });
  const gone = new Set(removed.map((b) => b.id));
  cal.multiServiceBookings.update({ ...msb, bookingIds: msb.bookingIds.filter((b) => !gone.has(b)) });
  return removed;
}

/** Whether every booking of the group still fits its slot, and the room left (the smallest along the group). */
export function groupAvailability(cal: Calendar, id: string) {
  const { msb, bookings } = groupOf(cal, id);
  let total = Number.POSITIVE_INFINITY;
  let remaining = Number.POSITIVE_INFINITY;
  const violations = { tooEarlyToBook: false, tooLateToBook: false, bookOnlineDisabled: false };
  let fits = bookings.length > 0;
  for (const b of bookings) {
    const service = cal.catalog.services.get(serviceIdOf(b) ?? '');
    if (!service || !ACTIVE_STATUSES.has(b.status)) {
      fits = false;
      continue;
    }
    const start = Date.parse(b.startDate);
    const v = violationsAt(cal, service, start);
    violations.tooEarlyToBook ||= v.tooEarlyToBook;
    violations.tooLateToBook ||= v.tooLateToBook;
    violations.bookOnlineDisabled ||= v.bookOnlineDisabled;
    total = Math.min(total, capacityOf(service));
    // The group's own bookings do not count against it (a chain's parts may share a staff member), and an
    // appointment may start on any 15-minute step (findCandidate), not only the listing grid: the second part
    // of a chain starts when the first ends.
    let open: number;
    if (b.bookedEntity.schedule) open = courseOpenSpots(cal, service, bookings);
    else {
      const cand = findCandidate(cal, service, start, b.bookedEntity.slot?.resource?.id ?? undefined, bookings, undefined, addOnMinutesOf(b.bookedAddOns));
      open = cand ? openSpotsOf(cal, cand, bookings) : 0;
    }
    remaining = Math.min(remaining, open);
    if (open < b.totalParticipants) fits = false;
  }
  return {
    bookable: fits && !violations.tooEarlyToBook && !violations.tooLateToBook,
    totalCapacity: Number.isFinite(total) ? total : 0,
    remainingCapacity: Number.isFinite(remaining) ? remaining : 0,
    policyViolations: violations,
    multiServiceBookingInfo: msb.bookingIds.map((bookingId) => ({ bookingId })),
  };
}

/** What may still be done with the group: what may be done with every one of its bookings. */
export function groupAllowedActions(cal: Calendar, id: string): { cancel: boolean; reschedule: boolean } {
  const { bookings } = groupOf(cal, id);
  const each = bookings.map((b) => allowedActions(cal, b));
  return { cancel: each.length > 0 && each.every((a) => a.cancel), reschedule: each.length > 0 && each.every((a) => a.reschedule) };
}
