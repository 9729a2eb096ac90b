/**
 * The multi-service bookings family (spec 000 section 7 "Multi-service bookings", 11 calls; platform-wire.md
 * sections 1, 8, 11): several bookings made, confirmed, declined, cancelled, marked pending and rescheduled
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
const infos = () => z.array(input().BookingInfoInput).check(z.maxLength(MSB_MAX));

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
          sendSmsReminder: z.optional(z.nullable(z.boolean())),
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
    cancelMultiServiceBooking: {
      method: 'POST',
      path: '/v2/multi_service_bookings/{multiServiceBookingId}/cancel',
      summary: 'Cancel every booking of the group',
      request: () =>
        z.looseObject({
          multiServiceBookingId: input().Id,
          ...common(),
          flowControlSettings: z.optional(input().CancelFlowControl),
          waiveCharges: z.optional(z.nullable(z.boolean())),
        }),
      reply: replies.MultiServiceBookingReply,
      idempotent: true,
    },
    markMultiServiceBookingAsPending: {
      method: 'POST',
      path: '/v2/multi_service_bookings/{multiServiceBookingId}/mark_as_pending',
      summary: 'Mark every booking of the group as pending, each at its revision',
      request: () =>
        z.looseObject({
          multiServiceBookingId: input().Id,
          markAsPendingBookingsInfo: z.optional(infos()),
          ...common(),
          sendSmsReminder: z.optional(z.nullable(z.boolean())),
          doubleBooked: z.optional(z.nullable(z.boolean())),
          flowControlSettings: z.optional(input().PendingFlowControl),
        }),
      reply: replies.MultiServiceBookingReply,
      revisioned: true,
      idempotent: true,
    },
    confirmMultiServiceBooking: {
      method: 'POST',
      path: '/v2/multi_service_bookings/{multiServiceBookingId}/confirm',
      summary: 'Confirm every booking of the group, each at its revision',
      request: () =>
        z.looseObject({
          multiServiceBookingId: input().Id,
          confirmBookingsInfo: z.optional(infos()),
          ...common(),
          sendSmsReminder: z.optional(z.nullable(z.boolean())),
          doubleBooked: z.optional(z.nullable(z.boolean())),
          flowControlSettings: z.optional(input().ConfirmFlowControl),
        }),
      reply: replies.MultiServiceBookingReply,
      revisioned: true,
      idempotent: true,
    },
    declineMultiServiceBooking: {
      method: 'POST',
      path: '/v2/multi_service_bookings/{multiServiceBookingId}/decline',
      summary: 'Decline every booking of the group, each at its revision',
      request: () =>
        z.looseObject({
          multiServiceBookingId: input().Id,
          declineBookingsInfo: z.optional(infos()),
          ...common(),
          doubleBooked: z.optional(z.nullable(z.boolean())),
          flowControlSettings: z.optional(z.looseObject({ withRefund: z.optional(z.nullable(z.boolean())) })),
        }),
      reply: replies.MultiServiceBookingReply,
      revisioned: true,
      idempotent: true,
    },
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
      request: () =>
        z.looseObject({
          multiServiceBookingId: input().Id,
          bookings: z.array(input().BookingIdAndRevision).check(z.minLength(1), z.maxLength(MSB_MAX)),
          returnFullEntity: z.optional(z.boolean()),
        }),
      reply: replies.MultiServiceBookingsReply,
      idempotent: true,
    },
    removeBookingsFromMultiServiceBooking: {
      method: 'POST',
      path: '/v2/multi_service_bookings/remove_bookings_from_multi_service_booking',
      summary: 'Take bookings out of a group; they stay as single bookings',
      request: () =>
        z.looseObject({
          multiServiceBookingId: input().Id,
          bookings: z.array(input().BookingIdAndRevision).check(z.minLength(1), z.maxLength(MSB_MAX)),
          returnFullEntity: z.optional(z.boolean()),
        }),
      reply: replies.MultiServiceBookingsReply,
      idempotent: true,
    },
  },
});

/** The multi-service booking calls, one typed function per operation. */
export const multiServiceBookings = callsOf(multiServiceBookingsFamily);
export const multiServiceBookingOps = multiServiceBookingsFamily.operations;
