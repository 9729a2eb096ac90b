/**
 * The multi-service bookings family (docs/wire.md §16, 11 calls; docs/wire.md
 * §1, §8, §11): several bookings made, confirmed, declined, cancelled, marked pending and rescheduled
 * together, all or nothing. Group actions take per-booking `{bookingId, revision}` lists.
 *
 * Replies (the SDK's typings): `{multiServiceBooking: {id, bookings:[{bookingId, booking?}]}}` (`booking` when
 * `returnFullEntity`); get adds `metadata`; add/remove `{bookings}`; availability `{bookable, totalCapacity,
 * remainingCapacity, policyViolations, policySettings, multiServiceBookingInfo}`; allowed actions the bulk
 * envelope with `{cancel, reschedule}` items.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { bookingInputs as input, bookingReplies as replies, MAX_MSB_ALLOWED_ACTIONS, MSB_MAX, MSB_MIN, MultiServiceBookingTypeValues } from './schemas/booking.js';

const common = () => ({
  participantNotification: z.optional(input().NotificationInput),
  returnFullEntity: z.optional(z.boolean()),
});
const infos = () => z.optional(z.array(input().BookingInfoInput).check(z.maxLength(MSB_MAX)));
const sms = () => ({ sendSmsReminder: z.optional(z.nullable(z.boolean())) });
const doubleBooked = () => ({ doubleBooked: z.optional(z.nullable(z.boolean())) });
const membership = () =>
  z.looseObject({
    multiServiceBookingId: input().Id,
    bookings: z.array(input().BookingIdAndRevision).check(z.minLength(1), z.maxLength(MSB_MAX)),
    returnFullEntity: z.optional(z.boolean()),
  });

/**
 * A change of every booking of a group: `POST /v2/multi_service_bookings/{multiServiceBookingId}/<verb>` with
 * `{multiServiceBookingId, participantNotification?, returnFullEntity?, ...fields}`, replying
 * `{multiServiceBooking}`. `revisioned` when the fields carry each booking's `{bookingId, revision}`: a repeat at
 * the old revisions is refused, never applied twice.
 */
function groupAction<const F extends Record<string, z.ZodMiniType>>(verb: string, summary: string, revisioned: boolean, fields: () => F) {
  return {
    method: 'POST' as const,
    path: `/v2/multi_service_bookings/{multiServiceBookingId}/${verb}`,
    summary,
    request: () => z.looseObject({ multiServiceBookingId: input().Id, ...common(), ...fields() }),
    reply: replies.MultiServiceBookingReply,
    revisioned,
    idempotent: true,
  };
}

export const multiServiceBookingsFamily = defineFamily({
  name: 'multi-service-bookings',
  prefixes: [
    { proto: '/v2/bulk/multi_service_bookings', urls: ['/bookings/multiServiceBookings/v2/bulk/multi_service_bookings', '/_api/bookings-service/v2/bulk/multi_service_bookings'] },
    { proto: '/v2/multi_service_bookings', urls: ['/_api/bookings-service/v2/multi_service_bookings', '/bookings/multiServiceBookings/v2/multi_service_bookings'] },
  ],
  operations: {
    createMultiServiceBooking: {
      method: 'POST',
      path: '/v2/multi_service_bookings',
      summary: 'Create 2 to 40 bookings together (sequential, parallel or separate), all or nothing',
      request: () =>
        z.looseObject({
          bookings: z.array(input().BookingCreate).check(z.minLength(MSB_MIN), z.maxLength(MSB_MAX)),
          ...common(),
          ...sms(),
          flowControlSettings: z.optional(input().CreateFlowControl),
          multiServiceBookingType: z.optional(z.enum(MultiServiceBookingTypeValues)),
        }),
      reply: replies.MultiServiceBookingReply,
    },
    rescheduleMultiServiceBooking: {
      method: 'POST',
      path: '/v2/multi_service_bookings/{multiServiceBookingId}/reschedule',
      summary: 'Move every booking of the group to new slots, each at its revision',
      request: () =>
        z.looseObject({
          multiServiceBookingId: input().Id,
          rescheduleBookingsInfo: z
            .array(
              z.looseObject({
                bookingId: input().Id,
                slot: input().SlotInput,
                revision: input().RevisionInput,
                totalParticipants: z.optional(input().Participants),
                participantsChoices: z.optional(input().ParticipantsChoicesInput),
              }),
            )
            .check(z.minLength(1), z.maxLength(MSB_MAX)),
          ...common(),
          flowControlSettings: z.optional(input().RescheduleFlowControl),
        }),
      reply: replies.MultiServiceBookingReply,
      revisioned: true,
      idempotent: true,
    },
    getMultiServiceBookingAvailability: {
      method: 'POST',
      path: '/v2/multi_service_bookings/{multiServiceBookingId}/get_availability',
      summary: 'Whether every booking of the group still fits its slot',
      request: () => z.looseObject({ multiServiceBookingId: input().Id }),
      reply: replies.MultiServiceAvailabilityReply,
      idempotent: true,
    },
    cancelMultiServiceBooking: groupAction('cancel', 'Cancel every booking of the group', false, () => ({
      flowControlSettings: z.optional(input().CancelFlowControl),
      waiveCharges: z.optional(z.nullable(z.boolean())),
    })),
    markMultiServiceBookingAsPending: groupAction('mark_as_pending', 'Mark every booking of the group as pending, each at its revision', true, () => ({
      markAsPendingBookingsInfo: infos(),
      ...sms(),
      ...doubleBooked(),
      flowControlSettings: z.optional(input().PendingFlowControl),
    })),
    confirmMultiServiceBooking: groupAction('confirm', 'Confirm every booking of the group, each at its revision', true, () => ({
      confirmBookingsInfo: infos(),
      ...sms(),
      ...doubleBooked(),
      flowControlSettings: z.optional(input().ConfirmFlowControl),
    })),
    declineMultiServiceBooking: groupAction('decline', 'Decline every booking of the group, each at its revision', true, () => ({
      declineBookingsInfo: infos(),
      ...doubleBooked(),
      flowControlSettings: z.optional(z.looseObject({ withRefund: z.optional(z.nullable(z.boolean())) })),
    })),
    bulkGetMultiServiceBookingAllowedActions: {
      method: 'POST',
      path: '/v2/bulk/multi_service_bookings/get_allowed_actions',
      summary: 'Whether each group may still be cancelled or rescheduled',
      request: () => z.looseObject({ multiServiceBookingIds: z.array(input().Id).check(z.minLength(1), z.maxLength(MAX_MSB_ALLOWED_ACTIONS)) }),
      reply: replies.AllowedActionsBulkReply,
      idempotent: true,
      readOnly: true,
      bulkLimit: MAX_MSB_ALLOWED_ACTIONS,
    },
    getMultiServiceBooking: {
      method: 'GET',
      path: '/v2/multi_service_bookings/{multiServiceBookingId}',
      summary: 'Get a multi-service booking with its bookings',
      request: () => z.looseObject({ multiServiceBookingId: input().Id }),
      reply: replies.GetMultiServiceBookingReply,
    },
    addBookingsToMultiServiceBooking: {
      method: 'POST',
      path: '/v2/multi_service_bookings/add_bookings_to_multi_service_booking',
      summary: 'Add single-service bookings to a group',
      request: membership,
      reply: replies.MultiServiceBookingsReply,
      idempotent: true,
    },
    removeBookingsFromMultiServiceBooking: {
      method: 'POST',
      path: '/v2/multi_service_bookings/remove_bookings_from_multi_service_booking',
      summary: 'Take bookings out of a group; they stay as single bookings',
      request: membership,
      reply: replies.MultiServiceBookingsReply,
      idempotent: true,
    },
  },
});

/** The multi-service booking calls, one typed function per operation. */
export const multiServiceBookings = callsOf(multiServiceBookingsFamily);
export const multiServiceBookingOps = multiServiceBookingsFamily.operations;
