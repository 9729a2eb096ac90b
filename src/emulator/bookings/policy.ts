/**
 * The booking policy of a service as the booking rules and availability read it (docs/wire.md §9;
 * docs/bookings.md "Bookings"): the early and late booking limits, booking after the start, the cancellation and reschedule
 * windows, the waiting list and the participants limit.
 */
import { ApplicationFailure } from '../errors.js';
import type { BookingPolicyDoc } from '../services/model.js';
import { FINAL_STATUSES, type BookingDoc, type Calendar, type ServiceDoc, serviceIdOf } from './model.js';
import { type Candidate, waitingOf } from './sessions.js';
import { MINUTE } from './time.js';

/** A booking policy's rule blocks (those the engine reads). */
export interface PolicyRules {
  limitEarlyBookingPolicy?: { enabled?: boolean; earliestBookingInMinutes?: number };
  limitLateBookingPolicy?: { enabled?: boolean; latestBookingInMinutes?: number };
  bookAfterStartPolicy?: { enabled?: boolean };
  cancellationPolicy?: { enabled?: boolean; limitLatestCancellation?: boolean; latestCancellationInMinutes?: number };
  reschedulePolicy?: { enabled?: boolean; limitLatestReschedule?: boolean; latestRescheduleInMinutes?: number };
  waitlistPolicy?: { enabled?: boolean; capacity?: number };
  /** The SDK's `ParticipantsPolicy` has no `enabled`: the limit always applies (default 1, policy-rules.ts). */
  participantsPolicy?: { maxParticipantsPerBooking?: number };
}

/**
 * The most participants one booking of the service may hold under its policy (`participantsPolicy
 * .maxParticipantsPerBooking`, which applies whenever the policy gives it: the SDK's `ParticipantsPolicy` has no
 * switch); undefined when the service has no policy that gives one.
 */
export function maxParticipantsOf(cal: Calendar, service: ServiceDoc): number | undefined {
  const max = policyOf(cal, service).participantsPolicy?.maxParticipantsPerBooking;
  return typeof max === 'number' ? max : undefined;
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

/** The SDK's default of `latestCancellationInMinutes` and `latestRescheduleInMinutes` (booking-policies typings). */
export const DEFAULT_LATEST_MINUTES = 1440;

/** Why a booking's policy refuses a cancel or a reschedule now: the code's message and its `data`. */
export interface WindowRefusal {
  message: string;
  data: Record<string, unknown>;
}

/**
 * The cancellation or reschedule rule of the policy of `b`'s service, now (docs/wire.md §14, its cancel and
 * reschedule windows): `enabled` false, or no service, is no rule (allowed). On, the change is allowed only before
 * the booking's start (a course's: its first session's), so a booking that has started is refused; with
 * `limitLatestCancellation` (`limitLatestReschedule`) also from `latestCancellationInMinutes`
 * (`latestRescheduleInMinutes`, default 1440, the SDK's) before the start.
 * @returns the refusal, or undefined when the rule allows it
 */
export function windowRefusal(cal: Calendar, b: BookingDoc, action: 'cancel' | 'reschedule'): WindowRefusal | undefined {
  const service = cal.catalog.services.get(serviceIdOf(b) ?? '');
  if (!service) return undefined;
  const ahead = Date.parse(b.startDate) - cal.nowMs;
  const p = policyOf(cal, service);
  const [rule, limited, minutes] =
    action === 'cancel'
      ? [p.cancellationPolicy, p.cancellationPolicy?.limitLatestCancellation, p.cancellationPolicy?.latestCancellationInMinutes]
      : [p.reschedulePolicy, p.reschedulePolicy?.limitLatestReschedule, p.reschedulePolicy?.latestRescheduleInMinutes];
  if (!rule?.enabled) return undefined;
  const field = action === 'cancel' ? 'latestCancellationInMinutes' : 'latestRescheduleInMinutes';
  const verb = action === 'cancel' ? 'cancel' : 'reschedule';
  const latest = typeof minutes === 'number' ? minutes : DEFAULT_LATEST_MINUTES;
  if (ahead <= 0) {
    // The typings: without a limit customers may change it "until the last minute before the course or session starts".
    return {
      message: `too late to ${verb} booking ${b.id}: it started ${b.startDate}, and the policy of "${service.name ?? service.id}" allows it only before the start`,
      data: { id: b.id, ...(limited ? { [field]: latest } : {}), startDate: b.startDate },
    };
  }
  if (!limited) return undefined;
  if (ahead >= latest * MINUTE) return undefined;
  return {
    message: `too late to ${verb} booking ${b.id}: the policy of "${service.name ?? service.id}" allows it until ${latest} minutes before the start (${b.startDate})`,
    data: { id: b.id, [field]: latest, startDate: b.startDate },
  };
}

/**
 * What a customer may still do with a booking under its service's policy (`allowedActions`): nothing once it is
 * final or has started; otherwise what {@link windowRefusal} allows (a course is never rescheduled).
 */
export function allowedActions(cal: Calendar, b: BookingDoc): { cancel: boolean; reschedule: boolean } {
  if (FINAL_STATUSES.has(b.status)) return { cancel: false, reschedule: false };
  const service = cal.catalog.services.get(serviceIdOf(b) ?? '');
  if (!service || Date.parse(b.startDate) - cal.nowMs <= 0) return { cancel: false, reschedule: false };
  return { cancel: !windowRefusal(cal, b, 'cancel'), reschedule: service.type !== 'COURSE' && !windowRefusal(cal, b, 'reschedule') };
}
/**
 * Checks a booking of `participants` at `start` against the service's policy: the participants limit always
 * ({@link maxParticipantsOf}; docs/wire.md §14 "Booking policies"), the early and late booking limits unless
 * `force` (skipAvailabilityValidation).
 * @throws ApplicationFailure 428 BOOKING_POLICY_VIOLATION (`data.maxParticipantsPerBooking` for the participants limit)
 */
export function checkPolicy(cal: Calendar, service: ServiceDoc, start: number, participants: number, force: boolean): void {
  const max = maxParticipantsOf(cal, service);
  if (max !== undefined && participants > max) {
    throw new ApplicationFailure(428, 'BOOKING_POLICY_VIOLATION', `the booking policy allows at most ${max} participant${max === 1 ? '' : 's'} per booking`, { maxParticipantsPerBooking: max });
  }
  if (force) return;
  const v = violationsAt(cal, service, start);
  if (v.tooEarlyToBook) throw new ApplicationFailure(428, 'BOOKING_POLICY_VIOLATION', `too early to book: the policy of "${service.name}" opens bookings later`, { tooEarlyToBook: true });
  if (v.tooLateToBook) throw new ApplicationFailure(428, 'BOOKING_POLICY_VIOLATION', start <= cal.nowMs ? 'the slot has already started' : `too late to book "${service.name}" under its booking policy`, { tooLateToBook: true });
}
