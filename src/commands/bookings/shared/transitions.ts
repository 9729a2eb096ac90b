/**
 * The status actions of bookings (docs/wire.md §9), as shared transition verbs: confirm, decline and
 * mark-as-pending from PENDING/CREATED/WAITING_LIST (pending: from CREATED), cancel from any status but the final
 * ones. Bookings of a multi-service booking are cancelled with their group (`msb cancel`), so the bulk form
 * skips them and the single form says so.
 */
import type { KeyedVerb, TransitionSpec } from '../../shared/entity-view.js';
import type { Command } from 'commander';
import type { ApiClient } from '../../../api/client.js';
import { bookingOps } from '../../../api/bookings.js';
import { MAX_BULK_CANCEL, MAX_BULK_CONFIRM_OR_DECLINE, PaymentStatusValues } from '../../../api/schemas/booking.js';
import { UserError } from '../../../core/errors.js';
import { bulkSender, eachSender } from '../../../bulk/actions.js';
import type { ChunkRunner } from '../../../bulk/execute.js';
import { addNotifyFlags, notifyOption, notifySaying, participantNotification } from '../../shared/notify.js';
import { transitionVerb } from '../../shared/transition.js';
import { addCriteriaFlags, criteriaFilter, type CriteriaFlags, hasCriteria } from './criteria.js';
import { fetchBooking } from './read.js';
import { BOOKING_VIEW, type BookingRow } from './view.js';

const FINAL = new Set(['CANCELED', 'DECLINED']);
const AWAITING = new Set(['PENDING', 'CREATED', 'WAITING_LIST']);

type Verb = 'confirm' | 'decline' | 'cancel' | 'pending' | 'confirm-or-decline';

const plural = (n: number) => `${n} booking${n === 1 ? '' : 's'}`;
const cap = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}`;

/** Bookings per request of the per-booking actions (the engine runs several such chunks at once). */
const EACH_CHUNK = 10;

/** Each booking through a per-booking call at its planned revision (there is no bulk confirm at a revision). */
function eachBooking(api: ApiClient, op: 'confirmBooking' | 'declineBooking' | 'markBookingAsPending', extra: Record<string, unknown> = {}): ChunkRunner['send'] {
  return eachSender(
    api,
    bookingOps[op] as typeof bookingOps.confirmBooking,
    (item) => ({ bookingId: item.id, revision: item.revision ?? '', ...extra }),
    (reply) => ({ revision: reply.booking.revision ?? undefined }),
  );
}

const SPECS: Record<Verb, Omit<TransitionSpec<BookingRow>, 'view' | 'fetch' | 'command'>> = {
  confirm: {
    verb: 'confirm',
    description: 'Confirm a booking, or many through a previewed, journaled bulk run',
    examples: ['sitectl bookings confirm 7c1e', 'sitectl bookings confirm --status PENDING --dry-run', "sitectl bookings confirm --where status=CREATED --from tomorrow --days 7 --yes --json"],
    done: 'confirmed',
    title: 'Confirming',
    destructive: false,
    reached: (b) => b.status === 'CONFIRMED',
    blocked: (b) => (AWAITING.has(String(b.status)) ? undefined : `it is ${b.status} (confirm takes PENDING, CREATED or WAITING_LIST)`),
    flags: (cmd: Command) => addNotifyFlags(cmd),
    options: (o) => notifyOption(o),
    send: (api, o) => eachBooking(api, 'confirmBooking', participantNotification(o)),
    chunkSize: EACH_CHUNK,
    question: (n, o = {}) => `Confirm ${plural(n)}? ${cap(notifySaying(o, 'each customer is'))}.`,
  },
  decline: {
    verb: 'decline',
    description: 'Decline a booking, or many through a previewed, journaled bulk run',
    examples: ['sitectl bookings decline 7c1e --yes', 'sitectl bookings decline --where status=WAITING_LIST --yes'],
    done: 'declined',
    title: 'Declining',
    destructive: true,
    reached: (b) => b.status === 'DECLINED',
    blocked: (b) => (AWAITING.has(String(b.status)) ? undefined : `it is ${b.status} (decline takes PENDING, CREATED or WAITING_LIST)`),
    flags: (cmd: Command) => addNotifyFlags(cmd),
    options: (o) => notifyOption(o),
    confirmOne: (b, o) => `Decline booking ${b.id} (${BOOKING_VIEW.label(b) ?? ''})? ${cap(notifySaying(o))}.`,
    send: (api, o) => eachBooking(api, 'declineBooking', participantNotification(o)),
    chunkSize: EACH_CHUNK,
    question: (n, o = {}) => `Decline ${plural(n)}? ${cap(notifySaying(o, 'each customer is'))}.`,
  },
  cancel: {
    verb: 'cancel',
    description: 'Cancel a booking, or many through a previewed, journaled bulk run',
    examples: ['sitectl bookings cancel 7c1e --yes', 'sitectl bookings cancel 7c1e --ignore-policy --yes', "sitectl bookings cancel --service 'Hot Yoga' --from mon --days 7 --dry-run"],
    done: 'canceled',
    title: 'Cancelling',
    destructive: true,
    reached: (b) => b.status === 'CANCELED',
    blocked: (b) => {
      if (FINAL.has(String(b.status))) return `it is ${b.status}, which is final`;
      if (b.multiServiceBookingInfo?.id) return `it belongs to multi-service booking ${b.multiServiceBookingInfo.id} (cancel the group: msb cancel)`;
      return undefined;
    },
    // The platform's own answer (extended bookings' allowedActions): inside the policy's cancellation window.
    refused: (b, o) =>
      !o.ignorePolicy && b.allowedActions?.cancel === false
        ? { reason: "the service's booking policy does not allow cancelling it now (BOOKING_POLICY_VIOLATION)", lift: '--ignore-policy' }
        : undefined,
    instead: (b, bin) => (b.multiServiceBookingInfo?.id && !FINAL.has(String(b.status)) ? `'${bin} msb cancel ${b.multiServiceBookingInfo.id}' cancels the whole group` : undefined),
    flags: (cmd: Command) => addNotifyFlags(cmd.option('--ignore-policy', "cancel even inside the cancellation window of the service's booking policy")),
    options: (o) => ({ ...(o.ignorePolicy ? { ignorePolicy: true } : {}), ...notifyOption(o) }),
    confirmOne: (b, o) => `Cancel booking ${b.id} (${BOOKING_VIEW.label(b) ?? ''})? ${cap(notifySaying(o))}.`,
    // The bulk cancel call, 100 per request, each booking at its planned revision.
    send: (api, o) =>
      bulkSender(api, bookingOps.bulkCancelBooking, (chunk) => ({
        bookings: {
          bookingsInfo: chunk.map((item) => ({
            bookingId: item.id,
            revision: item.revision ?? undefined,
            ...(o.ignorePolicy ? { flowControlSettings: { ignoreCancellationPolicy: true } } : {}),
            // Per booking, as the SDK's CancelBookingInfo carries it: one notification per booking.
            ...participantNotification(o),
          })),
        },
        returnFullEntity: false,
      })),
    chunkSize: MAX_BULK_CANCEL,
    question: (n, o = {}) => `Cancel ${plural(n)}? Customers lose their places; ${notifySaying(o, 'each customer is')}.`,
  },
  // The platform's decision by room (docs/bookings.md "Statuses", docs/wire.md §25): for bookings paid outside the
  // platform's checkout, the SDK's confirmOrDeclineBooking: CONFIRMED (or PENDING when the service needs approval)
  // unless a double booking conflict meets an unpaid status, then DECLINED. Its own verb, not what `confirm` sends:
  // a confirm never declines.
  'confirm-or-decline': {
    verb: 'confirm-or-decline',
    description: 'Confirm bookings whose slot still has room and decline the others (custom checkout: with their payment status)',
    examples: [
      'sitectl bookings confirm-or-decline 7c1e --payment-status PAID',
      'sitectl bookings confirm-or-decline --status CREATED --from tomorrow --days 7 --dry-run',
      'sitectl bookings confirm-or-decline --where status=WAITING_LIST --dry-run --json',
    ],
    done: 'confirmed or declined',
    title: 'Confirming or declining',
    // It may decline: asked first, as decline is.
    destructive: true,
    revisioned: false,
    reached: (b) => b.status === 'CONFIRMED' || b.status === 'DECLINED',
    blocked: (b) => (AWAITING.has(String(b.status)) ? undefined : `it is ${b.status} (confirm-or-decline takes PENDING, CREATED or WAITING_LIST)`),
    flags: (cmd: Command) => cmd.option('--payment-status <status>', `the payment status to record (${PaymentStatusValues.join(', ')}); unpaid ones are declined on a double booking`),
    options: (o) => {
      const given = o.paymentStatus;
      if (given === undefined) return {};
      const status = String(given).toUpperCase();
      if (!(PaymentStatusValues as readonly string[]).includes(status)) throw new UserError(`--payment-status takes ${PaymentStatusValues.join(', ')}, got '${String(given)}'`);
      return { paymentStatus: status };
    },
    // One booking: the single call (POST /v2/confirmation/{bookingId}:confirmOrDecline); more: the bulk call, 300 a request.
    send: (api, o) => {
      const paymentStatus = o.paymentStatus as (typeof PaymentStatusValues)[number] | undefined;
      const single = eachSender(api, bookingOps.confirmOrDeclineBooking, (item) => ({ bookingId: item.id, ...(paymentStatus ? { paymentStatus } : {}) }), (reply) => ({ revision: reply.booking.revision ?? undefined }));
      const bulk = bulkSender(api, bookingOps.bulkConfirmOrDeclineBooking, (chunk) => ({ details: chunk.map((item) => ({ bookingId: item.id, ...(paymentStatus ? { paymentStatus } : {}) })), returnEntity: false }));
      return (chunk, info) => (chunk.length === 1 ? single(chunk, info) : bulk(chunk, info));
    },
    chunkSize: MAX_BULK_CONFIRM_OR_DECLINE,
    question: (n) => `Confirm or decline ${plural(n)}? Those whose slot has no room are declined.`,
  },
  pending: {
    verb: 'pending',
    description: "Mark a created booking as pending the business's approval (or many, in bulk)",
    examples: ['sitectl bookings pending 7c1e', 'sitectl bookings pending --where status=CREATED --skip-approval-check --notify "We will confirm within a day" --yes'],
    done: 'pending',
    title: 'Marking pending',
    // Not named when the rule was set (docs/architecture.md "The confirmation rule"): takes the rule of its sibling `confirm` (the booking still awaits a decision).
    destructive: false,
    reached: (b) => b.status === 'PENDING',
    blocked: (b) => (b.status === 'CREATED' ? undefined : `it is ${b.status} (only a CREATED booking can be marked pending)`),
    flags: (cmd: Command) => addNotifyFlags(cmd.option('--skip-approval-check', 'also for services that do not require manual approval')),
    options: (o) => ({ ...(o.skipApprovalCheck ? { skipApprovalCheck: true } : {}), ...notifyOption(o) }),
    send: (api, o) =>
      eachBooking(api, 'markBookingAsPending', { ...(o.skipApprovalCheck ? { flowControlSettings: { skipPendingApprovalServiceValidation: true } } : {}), ...participantNotification(o) }),
    chunkSize: EACH_CHUNK,
    question: (n, o = {}) => `Mark ${plural(n)} as pending? ${cap(notifySaying(o, 'each customer is'))}.`,
  },
};

/** The shared transition verb of one booking status action. */
export function bookingTransition(verb: Verb) {
  const spec = SPECS[verb];
  return transitionVerb<BookingRow>({
    ...spec,
    view: BOOKING_VIEW,
    command: `bookings ${verb}`,
    flags: (cmd) => {
      spec.flags?.(cmd);
      addCriteriaFlags(cmd);
    },
    hasCriteria: (o) => hasCriteria(o as CriteriaFlags),
    criteria: (o, ctx) => criteriaFilter(o as CriteriaFlags, ctx),
    // The single form prints the booking with every extra, as `bookings get` does.
    fetch: (api, id, signal) => fetchBooking(api, id, signal),
    // What the platform allows each booking (policy windows): the plan refuses one before anything is sent.
    reads: { withBookingAllowedActions: true },
  });
}

/**
 * The single-key actions of bookings in the interactive browser and the dashboard (k9s-style letters): the status
 * actions, and `a`, the attendance noun's mark (attended, all the booking's participants), for the front desk.
 */
export async function bookingKeys(): Promise<KeyedVerb[]> {
  const { MARK_KEY } = await import('../../attendance/shared/mark.js');
  return [
    { key: 'c', label: 'Confirm', spec: bookingTransition('confirm').spec },
    { key: 'd', label: 'Decline', spec: bookingTransition('decline').spec },
    { key: 'x', label: 'Cancel', spec: bookingTransition('cancel').spec },
    MARK_KEY,
  ];
}
