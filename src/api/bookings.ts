/**
 * The bookings family (docs/wire.md §16, 10 calls, plus the bulk cancel, bulk allowed actions and
 * mark-as-pending calls of docs/wire.md §1): creating bookings and moving them through the status
 * table of docs/wire.md §9. Every action carries the booking's current revision; a stale one is a 409 and
 * changes nothing.
 *
 * Replies (the SDK's typings where the spec says "not shown"): single actions `{booking}`; bulk calls
 * `{results:[{itemMetadata, item?}], bulkActionMetadata}` with a booking item (bulk allowed actions: an
 * `{cancel, reschedule}` item); update extended fields `{namespace, namespaceData}`.
 *
 * Retries: the revisioned actions (confirm, decline, cancel, reschedule, participants, mark as pending) may be
 * repeated: a repeat at the old revision is refused, never applied twice. Creates are not repeated.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { bounded } from './schemas/common.js';
import {
  bookingInputs as input,
  bookingReplies as replies,
  MAX_BULK_ALLOWED_ACTIONS,
  MAX_BULK_CANCEL,
  MAX_BULK_CONFIRM_OR_DECLINE,
  MAX_BULK_CREATE,
  NAMESPACE_MAX,
  PaymentStatusValues,
} from './schemas/booking.js';

const notify = () => ({ participantNotification: z.optional(input().NotificationInput) });
const paymentStatus = () => z.optional(z.enum(PaymentStatusValues));
const sms = () => ({ sendSmsReminder: z.optional(z.nullable(z.boolean())) });
const doubleBooked = () => ({ doubleBooked: z.optional(z.nullable(z.boolean())) });
const createFields = () => ({ booking: input().BookingCreate, ...notify(), ...sms(), flowControlSettings: z.optional(input().CreateFlowControl) });

/**
 * A change of one booking at its revision: `POST /v2/bookings/{bookingId}/<verb>` with `{bookingId, revision,
 * ...fields}`, replying `{booking}`. Safe to repeat: a repeat at the old revision is refused (409), never
 * applied twice.
 */
function bookingAction<const F extends Record<string, z.ZodMiniType>>(verb: string, summary: string, fields: () => F) {
  return {
    method: 'POST' as const,
    path: `/v2/bookings/{bookingId}/${verb}`,
    summary,
    request: () => z.looseObject({ bookingId: input().Id, revision: input().RevisionInput, ...fields() }),
    reply: replies.BookingReply,
    revisioned: true,
    idempotent: true,
  };
}

export const bookingsFamily = defineFamily({
  name: 'bookings',
  prefixes: [
    { proto: '/v2/bulk/bookings/confirmOrDecline', urls: ['/bookings/v2/bulk/bookings/confirmOrDecline', '/_api/bookings-confirmator/v2/bulk/bookings/confirmOrDecline'] },
    { proto: '/v2/confirmation', urls: ['/bookings/v2/confirmation', '/_api/bookings-confirmator/v2/confirmation'] },
    { proto: '/v2/bulk/bookings', urls: ['/bookings/v2/bulk/bookings', '/bookings/bookings/v2/bulk/bookings', '/_api/bookings-service/v2/bulk/bookings'] },
    { proto: '/v2/bookings', urls: ['/_api/bookings-service/v2/bookings', '/bookings/v2/bookings'] },
  ],
  operations: {
    confirmOrDeclineBooking: {
      method: 'POST',
      path: '/v2/confirmation/{bookingId}:confirmOrDecline',
      summary: 'Confirm a booking when its slot still has room, else decline it',
      request: () => z.looseObject({ bookingId: input().Id, paymentStatus: paymentStatus() }),
      reply: replies.BookingReply,
    },
    bulkConfirmOrDeclineBooking: {
      method: 'POST',
      path: '/v2/bulk/bookings/confirmOrDecline',
      summary: 'Confirm or decline up to 300 bookings, each by the room left in its slot',
      request: () =>
        z.looseObject({
          details: z.array(z.looseObject({ bookingId: input().Id, paymentStatus: paymentStatus() })).check(z.minLength(1), z.maxLength(MAX_BULK_CONFIRM_OR_DECLINE)),
          returnEntity: z.optional(z.boolean()),
        }),
      reply: replies.BookingBulkReply,
      bulkLimit: MAX_BULK_CONFIRM_OR_DECLINE,
    },
    createBooking: {
      method: 'POST',
      path: '/v2/bookings',
      summary: 'Book a slot (appointment, class session) or a course schedule',
      request: () => z.looseObject(createFields()),
      reply: replies.BookingReply,
    },
    bulkCreateBooking: {
      method: 'POST',
      path: '/v2/bulk/bookings/create',
      summary: 'Create up to 40 bookings, each reported on its own',
      request: () => z.looseObject({ createBookingsInfo: z.array(z.looseObject(createFields())).check(z.minLength(1), z.maxLength(MAX_BULK_CREATE)), returnFullEntity: z.optional(z.boolean()) }),
      reply: replies.BookingBulkReply,
      bulkLimit: MAX_BULK_CREATE,
    },
    rescheduleBooking: bookingAction('reschedule', 'Move a booking to another slot (room checked there; not for courses)', () => ({
      slot: input().SlotInput,
      ...notify(),
      flowControlSettings: z.optional(input().RescheduleFlowControl),
      totalParticipants: z.optional(input().Participants),
      participantsChoices: z.optional(input().ParticipantsChoicesInput),
    })),
    confirmBooking: bookingAction('confirm', 'Confirm a pending, created or waiting-list booking', () => ({
      ...notify(),
      ...sms(),
      paymentStatus: paymentStatus(),
      ...doubleBooked(),
      flowControlSettings: z.optional(input().ConfirmFlowControl),
    })),
    declineBooking: bookingAction('decline', 'Decline a pending, created or waiting-list booking', () => ({
      ...notify(),
      paymentStatus: paymentStatus(),
      ...doubleBooked(),
      flowControlSettings: z.optional(z.looseObject({ withRefund: z.optional(z.nullable(z.boolean())) })),
    })),
    cancelBooking: bookingAction('cancel', "Cancel a booking (the service's cancellation policy applies unless ignored)", () => ({
      ...notify(),
      flowControlSettings: z.optional(input().CancelFlowControl),
      waiveCharges: z.optional(z.nullable(z.boolean())),
    })),
    updateNumberOfParticipants: bookingAction('update_number_of_participants', 'Change how many take part (not for appointments)', () => ({
      totalParticipants: z.optional(input().Participants),
      participantsChoices: z.optional(input().ParticipantsChoicesInput),
    })),
    updateExtendedFields: {
      method: 'POST',
      path: '/v2/bookings/{id}/update_extended_fields',
      summary: "Replace one namespace of a booking's extended fields",
      request: () => z.looseObject({ id: input().Id, namespace: bounded(NAMESPACE_MAX).check(z.minLength(1)), namespaceData: z.record(z.string(), z.unknown()) }),
      reply: replies.UpdateExtendedFieldsReply,
      idempotent: true,
    },
    markBookingAsPending: bookingAction('mark_booking_as_pending', 'Mark a created booking as pending the business’s approval', () => ({
      ...notify(),
      ...sms(),
      paymentStatus: paymentStatus(),
      ...doubleBooked(),
      flowControlSettings: z.optional(input().PendingFlowControl),
    })),
    bulkCancelBooking: {
      method: 'POST',
      path: '/v2/bulk/bookings/cancel',
      summary: 'Cancel up to 100 bookings, each at its own revision',
      request: () =>
        z.looseObject({
          bookings: z.looseObject({
            bookingsInfo: z
              .array(
                z.looseObject({
                  bookingId: input().Id,
                  revision: z.optional(z.nullable(input().RevisionInput)),
                  flowControlSettings: z.optional(input().CancelFlowControl),
                  waiveCharges: z.optional(z.nullable(z.boolean())),
                  ...notify(),
                }),
              )
              .check(z.minLength(1), z.maxLength(MAX_BULK_CANCEL)),
          }),
          returnFullEntity: z.optional(z.boolean()),
        }),
      reply: replies.BookingBulkReply,
      revisioned: true,
      idempotent: true,
      bulkLimit: MAX_BULK_CANCEL,
    },
    bulkCalculateAllowedActions: {
      method: 'POST',
      path: '/v2/bulk/bookings/calculate_allowed_actions',
      summary: 'Whether each booking may still be cancelled or rescheduled under its policy',
      request: () => z.looseObject({ bookingIds: z.array(input().Id).check(z.minLength(1), z.maxLength(MAX_BULK_ALLOWED_ACTIONS)) }),
      reply: replies.AllowedActionsBulkReply,
      idempotent: true,
      readOnly: true,
      bulkLimit: MAX_BULK_ALLOWED_ACTIONS,
    },
  },
});

/** The bookings calls, one typed function per operation. */
export const bookings = callsOf(bookingsFamily);
export const bookingOps = bookingsFamily.operations;
