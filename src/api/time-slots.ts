/**
 * The Time Slots family (docs/wire.md "Time slots"): the Availability Time Slots API of the official module
 * `@wix/auto_sdk_bookings_availability-time-slots`, beside the availability calendar (availability.ts) and
 * computed by the emulator from the same calendar. One time slot is one start of an appointment service with the
 * staff members free then (`availableResources`), its capacity and why it may not be booked; its dates are local
 * (`YYYY-MM-DDThh:mm:ss`) on the clock of the reply's `timeZone`.
 *
 * Replies: list `{timeSlots, timeZone, cursorPagingMetadata: {cursors: {next, prev}, hasNext}}` (a cursor carries
 * the whole query: a follow-up request sends only `cursorPaging`); get `{timeSlot, timeZone}`; end options
 * `{endOptions, timeZone}`.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { MAX_TIME_SLOT_LOCATIONS, timeSlotInputs as input, timeSlotReplies as replies } from './schemas/time-slot.js';

export const timeSlotsFamily = defineFamily({
  name: 'time-slots',
  prefixes: [{ proto: '/v2/time-slots', urls: ['/_api/service-availability/v2/time-slots', '/service-availability/v2/time-slots'] }],
  operations: {
    listAvailabilityTimeSlots: {
      method: 'POST',
      path: '/v2/time-slots',
      summary: "An appointment service's time slots between two local dates, with capacity, free staff and policy violations",
      request: () =>
        z.looseObject({
          serviceId: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(100)))),
          fromLocalDate: z.optional(z.nullable(input().LocalDateTime)),
          toLocalDate: z.optional(z.nullable(input().LocalDateTime)),
          timeZone: z.optional(z.nullable(input().TimeZone)),
          locations: z.optional(z.array(input().LocationInput).check(z.maxLength(MAX_TIME_SLOT_LOCATIONS))),
          includeResourceTypeIds: z.optional(input().IncludeResourceTypeIds),
          bookable: z.optional(z.nullable(z.boolean())),
          bookingPolicyViolations: z.optional(input().PolicyViolationsInput),
          timeSlotsPerDay: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(1000)))),
          cursorPaging: z.optional(input().CursorPagingInput),
          resourceTypes: z.optional(input().ResourceTypesInput),
        }),
      reply: replies.ListTimeSlotsReply,
      idempotent: true,
    },
    getAvailabilityTimeSlot: {
      method: 'POST',
      path: '/v2/time-slots/get',
      summary: 'One time slot of an appointment service, with every staff member free then',
      request: () =>
        z.looseObject({
          serviceId: z.string().check(z.minLength(1), z.maxLength(100)),
          localStartDate: input().LocalDateTime,
          localEndDate: input().LocalDateTime,
          timeZone: z.optional(z.nullable(input().TimeZone)),
          location: input().LocationInput,
          includeResourceTypeIds: z.optional(input().IncludeResourceTypeIds),
          resourceTypes: z.optional(input().ResourceTypesInput),
        }),
      reply: replies.GetTimeSlotReply,
      idempotent: true,
    },
    listAvailabilityTimeSlotEndOptions: {
      method: 'POST',
      path: '/v2/time-slots/end-options',
      summary: 'End times for a start of a service with a duration range (the emulator has none: END_OPTIONS_NOT_SUPPORTED)',
      request: () =>
        z.looseObject({
          serviceId: z.string().check(z.minLength(1), z.maxLength(100)),
          localStartDate: input().LocalDateTime,
          maxLocalEndDate: z.optional(z.nullable(input().LocalDateTime)),
          timeZone: z.optional(z.nullable(input().TimeZone)),
          location: input().LocationInput,
          resourceTypes: z.optional(input().ResourceTypesInput),
        }),
      reply: replies.EndOptionsReply,
      idempotent: true,
    },
  },
});

/** The time slot calls, one typed function per operation. */
export const timeSlots = callsOf(timeSlotsFamily);
export const timeSlotsOps = timeSlotsFamily.operations;
