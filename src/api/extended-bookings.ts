/**
 * The extended bookings family (docs/wire.md §17, §1, §6, §11):
 * bookings read with the extras asked for (allowed actions, attendance, conferencing, policy settings, fee
 * details), and their count. The singular `/v2/extended-booking/query` (one session's bookings; the SDK's
 * `@wix/auto_sdk_bookings_extended-bookings` op `query`) goes through the module's `/_api/bookings-reader` mapping
 * like the others: `POST /_api/bookings-reader/v2/extended-booking/query`.
 *
 * Filters take the platform's documented paths (`status`, `startDate`, `bookedEntity.item.slot.serviceId`,
 * `contactDetails.contactId`, ...); the default order is `id` ascending, cursor paging of 50, at most 100.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { bounded, CountReply, requestShapes } from './schemas/common.js';
import { bookingInputs as input, bookingReplies as replies } from './schemas/booking.js';

/** Largest page of the extended bookings query (docs/wire.md §6). */
export const MAX_BOOKINGS_PAGE = 100;

const withExtras = () => ({
  withBookingAllowedActions: z.optional(z.boolean()),
  withBookingAttendanceInfo: z.optional(z.boolean()),
  withBookingConferencingDetails: z.optional(z.boolean()),
  withBookingPolicySettings: z.optional(z.boolean()),
  withBookingFeeDetails: z.optional(z.boolean()),
});

export const extendedBookingsFamily = defineFamily({
  name: 'extended-bookings',
  // The SDK module maps `/_api/bookings-reader` (then `/bookings/bookings-reader`) onto the proto root on
  // www.wixapis.com: both the plural and the singular query travel under it.
  prefixes: [
    { proto: '/v2/extended-bookings', urls: ['/_api/bookings-reader/v2/extended-bookings', '/bookings/bookings-reader/v2/extended-bookings'] },
    { proto: '/v2/extended-booking', urls: ['/_api/bookings-reader/v2/extended-booking', '/bookings/bookings-reader/v2/extended-booking'] },
  ],
  operations: {
    queryExtendedBookings: {
      method: 'POST',
      path: '/v2/extended-bookings/query',
      summary: 'Bookings matching a filter, with the extras asked for',
      request: () => z.looseObject({ query: input().BookingQueryInput, ...withExtras() }),
      reply: replies.ExtendedBookingsReply,
      paging: { kind: 'cursor', items: 'extendedBookings', wrapper: 'query', maxLimit: MAX_BOOKINGS_PAGE, filter: true },
      idempotent: true,
    },
    queryExtendedBooking: {
      method: 'POST',
      path: '/v2/extended-booking/query',
      summary: 'Bookings matching a filter (optionally of one session), with allowed actions and attendance',
      request: () =>
        z.looseObject({
          query: input().BookingQueryInput,
          withBookingAllowedActions: z.optional(z.boolean()),
          withBookingAttendanceInfo: z.optional(z.boolean()),
          sessionId: z.optional(z.nullable(bounded(250))),
        }),
      reply: replies.ExtendedBookingsReply,
      paging: { kind: 'cursor', items: 'extendedBookings', wrapper: 'query', maxLimit: MAX_BOOKINGS_PAGE, filter: true },
      idempotent: true,
    },
    countExtendedBookings: {
      method: 'POST',
      path: '/v2/extended-bookings/count',
      summary: 'How many bookings match a filter',
      request: () => z.looseObject({ filter: z.optional(z.nullable(requestShapes().FilterInput)) }),
      reply: () => CountReply,
      idempotent: true,
    },
  },
});

/** The extended bookings calls, one typed function per operation. */
export const extendedBookings = callsOf(extendedBookingsFamily);
export const extendedBookingOps = extendedBookingsFamily.operations;
