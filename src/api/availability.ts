/**
 * The availability calendar family (docs/wire.md §15, §1, §6, §11):
 * slots of appointments and class sessions, a course schedule's spots, and back-to-back slots for several
 * services. Multislot and the schedule call have no gateway mapping: the official client sends the bare path
 * (`bare`), and the emulator serves it there.
 *
 * Replies (where the spec says "not shown", the SDK's typings): query `{availabilityEntries: SlotAvailability[]}`;
 * schedule `{availability: {totalSpots, openSpots, bookingPolicyViolations}, bookingPolicySettings}`; multislot
 * `{slots: SlotAvailability[], cursorPagingMetadata}`, each entry one chain of back-to-back slots (its
 * `nestedTimeSlots` name each service's part).
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { bounded } from './schemas/common.js';
import { bookingInputs as input, bookingReplies as replies, MAX_MULTISLOT } from './schemas/booking.js';

export const availabilityFamily = defineFamily({
  name: 'availability',
  prefixes: [
    {
      proto: '/v1/availability/query',
      urls: ['/availability-calendar/v1/availability/query', '/bookings/availability-calendar/v1/availability/query', '/bookings/v1/availability/query', '/_api/availability-calendar/v1/availability/query'],
    },
  ],
  operations: {
    queryAvailability: {
      method: 'POST',
      path: '/v1/availability/query',
      summary: 'Slots of appointments and class sessions of services in a date range, with spots and policy violations',
      request: () =>
        z.looseObject({
          query: input().AvailabilityQueryInput,
          timezone: z.optional(z.nullable(input().TimeZoneInput)),
          slotsPerDay: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(1000)))),
        }),
      reply: replies.AvailabilityReply,
      idempotent: true,
    },
    getScheduleAvailability: {
      method: 'GET',
      path: '/v2/availability/schedule/{scheduleId}',
      summary: "A course schedule's total and open spots and policy violations",
      request: () => z.looseObject({ scheduleId: input().Id }),
      reply: replies.ScheduleAvailabilityReply,
      bare: true,
    },
    calculateMultiSlotAvailability: {
      method: 'POST',
      path: '/v1/availability/multislot',
      summary: 'Back-to-back slots for several services, one chain per start time',
      request: () =>
        z.looseObject({
          from: input().DateTimeInput,
          to: input().DateTimeInput,
          timeZone: z.optional(input().TimeZoneInput),
          bookable: z.optional(z.nullable(z.boolean())),
          bookingPolicyViolations: z.optional(z.looseObject({})),
          location: z.optional(z.looseObject({ id: z.optional(z.nullable(bounded(100))), locationType: z.optional(bounded(50)) })),
          slots: z
            .array(z.looseObject({ serviceId: input().Id, resourcesFilter: z.optional(z.looseObject({ resourceIds: z.optional(z.array(input().Id).check(z.maxLength(50))) })) }))
            .check(z.minLength(1), z.maxLength(MAX_MULTISLOT)),
          slotsPerDay: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(1000)))),
          cursorPaging: z.optional(input().CursorPagingInput),
        }),
      reply: replies.MultiSlotReply,
      idempotent: true,
      readOnly: true,
      bare: true,
    },
  },
});

/** The availability calls, one typed function per operation. */
export const availability = callsOf(availabilityFamily);
export const availabilityOps = availabilityFamily.operations;
