/**
 * Participant notifications (docs/wire.md §25): what the platform would send a
 * booking's customer when a call carries `participantNotification: {notifyParticipants: true, message?,
 * metadata?: {channels}}`, kept in the emulator's outbox (`GET /__emulator/mail`, `sitectl emulator mail`)
 * instead of being sent. Without `notifyParticipants: true` nothing is recorded: nobody is told.
 *
 * Each record says who (the booking's contact: name, e-mail, phone), on which channel (`EMAIL` or `SMS`, as the
 * SDK's `ParticipantNotification.metadata.channels` names them: "EMAIL", "SMS" or "EMAIL, SMS"; `EMAIL` when the
 * call names none), what (the call's message, and a line naming the change) and for which change (the booking's
 * id and the action: `canceled`, `confirmed`, `declined`, `rescheduled`, `created`, `marked_as_pending`,
 * `service_deleted`). A contact without the address a channel needs gets a record with `to` empty and
 * `undeliverable` saying why, so a rehearsal shows who would not be reached.
 */
import type { Store } from '../store/store.js';
import { oauthOf, type Mail } from '../oauth/state.js';
import type { BookingDoc } from './model.js';

/** The request field as the tables accept it (src/api/schemas/common.ts ParticipantNotificationInput). */
export interface NotificationRequest {
  notifyParticipants?: boolean | null;
  message?: string | null;
  metadata?: Record<string, string> | null;
}

/** What changed for the booking: the action, in the booking events' words. */
export type NotifiedAction = 'canceled' | 'confirmed' | 'declined' | 'rescheduled' | 'created' | 'marked_as_pending' | 'service_deleted';

const CHANNELS = ['EMAIL', 'SMS'] as const;
type Channel = (typeof CHANNELS)[number];

/** The channels a request names (`metadata.channels`, comma-separated, any case); EMAIL when none. */
export function channelsOf(request: NotificationRequest): Channel[] {
  const given = String(request.metadata?.channels ?? '')
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter((c): c is Channel => (CHANNELS as readonly string[]).includes(c));
  return given.length ? [...new Set(given)] : ['EMAIL'];
}

const SAID: Record<NotifiedAction, string> = {
  canceled: 'was canceled',
  confirmed: 'is confirmed',
  declined: 'was declined',
  rescheduled: 'was moved',
  created: 'is booked',
  marked_as_pending: 'awaits the business’s approval',
  service_deleted: 'was canceled: the service is no longer offered',
};

/** Where a request's notifications go: the store (the outbox) and the request's site. */
export interface NotifyScope {
  store: Store;
  site: string;
}

/**
 * Records the notifications `request` asks for about one booking's change, one per channel (nothing when
 * `notifyParticipants` is not true). Runs in the request's transaction: an item of a bulk call that fails
 * leaves no notification behind.
 * @returns the records put in the outbox
 */
export function notifyParticipants(scope: NotifyScope, booking: BookingDoc, action: NotifiedAction, request: NotificationRequest | null | undefined, extra: { multiServiceBookingId?: string } = {}): Mail[] {
  if (request?.notifyParticipants !== true) return [];
  const c = booking.contactDetails ?? {};
  const name = [c.firstName, c.lastName].filter(Boolean).join(' ');
  const what = booking.bookedEntity?.title ?? 'your booking';
  const when = booking.startDate;
  const line = `Your booking of ${what} on ${when} ${SAID[action]}.`;
  const message = request.message ?? undefined;
  const oauth = oauthOf(scope.store);
  return channelsOf(request).map((channel) => {
    const to = (channel === 'EMAIL' ? c.email : c.phone) ?? '';
    return oauth.send({
      site: scope.site,
      to,
      subject: `${what}: booking ${action.replace(/_/g, ' ')}`,
      text: message ? `${line}\n\n${message}` : line,
      channel,
      bookingId: booking.id,
      action,
      contact: { ...(name ? { name } : {}), ...(c.email ? { email: c.email } : {}), ...(c.phone ? { phone: c.phone } : {}) },
      ...(message !== undefined ? { message } : {}),
      ...(extra.multiServiceBookingId ? { multiServiceBookingId: extra.multiServiceBookingId } : {}),
      ...(to ? {} : { undeliverable: `the contact has no ${channel === 'EMAIL' ? 'e-mail address' : 'phone number'}` }),
    });
  });
}
