/**
 * The Time Slots API on the wire (docs/wire.md "Time slots"; the official module
 * `@wix/auto_sdk_bookings_availability-time-slots`, its typings where the specification is silent).
 *
 * A time slot's dates are local: `localStartDate`/`localEndDate` in `YYYY-MM-DDThh:mm:ss`, on the clock of the
 * reply's `timeZone` (the request's, else the site's). Capacities are whole numbers; `earliestBookingDate` is an
 * ISO instant (the SDK turns it into a `Date`, so it is `isoDate` here).
 */
import * as z from 'zod/mini';
import { bounded, isoDate, lazySchema, once, openEnum, requestShapes } from './common.js';

/** The time slot location types (the module's `LocationType`; not the booking's `OWNER_BUSINESS` names). */
export const TimeSlotLocationTypeValues = ['BUSINESS', 'CUSTOM', 'CUSTOMER'] as const;
export type TimeSlotLocationType = (typeof TimeSlotLocationTypeValues)[number];

/** Most entries one list reply holds, and the default page (`cursorPaging.limit`: default 1000, max 1000). */
export const MAX_TIME_SLOTS_PAGE = 1000;
/** Most locations a list request may name (`locations`, @maxSize 5). */
export const MAX_TIME_SLOT_LOCATIONS = 5;
/** Most resource types a request may name (`resourceTypes`, @maxSize 8), and resource ids in one (@maxSize 135). */
export const MAX_RESOURCE_TYPES = 8;
export const MAX_RESOURCE_IDS = 135;
/** Most resources listed per resource type in a list reply (the module: "up to 10"). */
export const MAX_LISTED_RESOURCES = 10;
/**
 * The emulator's id of the staff resource type. Wix Bookings keeps one resource type for a site's staff members;
 * neither the specification nor the module's typings give its id, so the emulator names its own (docs/wire.md
 * "Time slots"). A request's `resourceTypes` entry without a `resourceTypeId` means the staff too.
 */
export const STAFF_RESOURCE_TYPE_ID = '5a7f0c1e-0000-4000-8000-5747aff00001';

export const TimeSlotLocation = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.nullable(z.string())),
    name: z.optional(z.nullable(z.string())),
    formattedAddress: z.optional(z.nullable(z.string())),
    locationType: z.optional(openEnum(TimeSlotLocationTypeValues)),
  }),
);

export const TimeSlotPolicyViolations = lazySchema(() =>
  z.looseObject({
    tooEarlyToBook: z.optional(z.nullable(z.boolean())),
    earliestBookingDate: z.optional(z.nullable(isoDate)),
    tooLateToBook: z.optional(z.nullable(z.boolean())),
    bookOnlineDisabled: z.optional(z.nullable(z.boolean())),
  }),
);

export const AvailableResources = lazySchema(() =>
  z.looseObject({
    resourceTypeId: z.optional(z.nullable(z.string())),
    resources: z.optional(z.array(z.looseObject({ id: z.optional(z.string()), name: z.optional(z.nullable(z.string())) }))),
    hasMoreAvailableResources: z.optional(z.nullable(z.boolean())),
  }),
);

export const NonBookableReasons = lazySchema(() =>
  z.looseObject({
    noRemainingCapacity: z.optional(z.nullable(z.boolean())),
    violatesBookingPolicy: z.optional(z.nullable(z.boolean())),
    reservedForWaitingList: z.optional(z.nullable(z.boolean())),
    eventCancelled: z.optional(z.nullable(z.boolean())),
  }),
);

/** One time slot: a start on the service's grid with the resources free then, its capacity and why it may not be booked. */
export const TimeSlot = lazySchema(() =>
  z.looseObject({
    serviceId: z.optional(z.nullable(z.string())),
    localStartDate: z.optional(z.nullable(z.string())),
    localEndDate: z.optional(z.nullable(z.string())),
    bookable: z.optional(z.nullable(z.boolean())),
    location: z.optional(TimeSlotLocation),
    totalCapacity: z.optional(z.nullable(z.int())),
    remainingCapacity: z.optional(z.nullable(z.int())),
    bookableCapacity: z.optional(z.nullable(z.int())),
    bookingPolicyViolations: z.optional(TimeSlotPolicyViolations),
    availableResources: z.optional(z.array(AvailableResources)),
    nestedTimeSlots: z.optional(z.array(z.looseObject({}))),
    nonBookableReasons: z.optional(NonBookableReasons),
    scheduleId: z.optional(z.nullable(z.string())),
    allDay: z.optional(z.nullable(z.boolean())),
  }),
);
export type TimeSlot = z.infer<typeof TimeSlot>;

function buildTimeSlotInputs() {
  const { Id } = requestShapes();
  /** `YYYY-MM-DDThh:mm:ss` (seconds optional): a wall-clock time without an offset (`@format LOCAL_DATE_TIME`). */
  const LocalDateTime = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/, 'must be a local date-time such as 2026-01-30T13:30:00 (no offset)'));
  const TimeZone = z.string().check(z.minLength(1), z.maxLength(150));
  const LocationInput = z.looseObject({
    id: z.optional(z.nullable(Id)),
    name: z.optional(z.nullable(bounded(500))),
    formattedAddress: z.optional(z.nullable(bounded(1000))),
    locationType: z.optional(z.enum(TimeSlotLocationTypeValues)),
  });
  const ResourceTypeInput = z.looseObject({
    resourceTypeId: z.optional(z.nullable(Id)),
    resourceIds: z.optional(z.nullable(z.array(Id).check(z.maxLength(MAX_RESOURCE_IDS)))),
  });
  return {
    LocalDateTime,
    TimeZone,
    LocationInput,
    ResourceTypeInput,
    ResourceTypesInput: z.array(ResourceTypeInput).check(z.maxLength(MAX_RESOURCE_TYPES)),
    IncludeResourceTypeIds: z.array(Id).check(z.maxLength(100)),
    PolicyViolationsInput: z.looseObject({
      tooEarlyToBook: z.optional(z.nullable(z.boolean())),
      tooLateToBook: z.optional(z.nullable(z.boolean())),
      bookOnlineDisabled: z.optional(z.nullable(z.boolean())),
    }),
    /** `cursorPaging`: limit 1..1000 (default 1000), the cursor of an earlier reply. */
    CursorPagingInput: z.looseObject({
      limit: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(MAX_TIME_SLOTS_PAGE)))),
      cursor: z.optional(z.nullable(bounded(16_000))),
    }),
  };
}
/** The time slot request shapes (built on first use). */
export const timeSlotInputs = once(buildTimeSlotInputs);

const Cursors = once(() => z.looseObject({ next: z.optional(z.nullable(z.string())), prev: z.optional(z.nullable(z.string())) }));
/** The time slot replies, each a builder run once on first use. */
export const timeSlotReplies = {
  ListTimeSlotsReply: once(() =>
    z.looseObject({
      timeSlots: z.array(TimeSlot),
      timeZone: z.optional(z.nullable(z.string())),
      cursorPagingMetadata: z.optional(z.looseObject({ cursors: z.optional(Cursors()), hasNext: z.optional(z.nullable(z.boolean())) })),
    }),
  ),
  GetTimeSlotReply: once(() => z.looseObject({ timeSlot: TimeSlot, timeZone: z.optional(z.nullable(z.string())) })),
  EndOptionsReply: once(() => z.looseObject({ endOptions: z.array(TimeSlot), timeZone: z.optional(z.nullable(z.string())) })),
};
