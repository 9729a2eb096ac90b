/**
 * Bookings, extended bookings, multi-service bookings and availability on the wire (docs/wire.md §13, §14;
 * docs/wire.md §6-§9 and §11; the official SDK's typings where the spec says "not shown").
 *
 * Dates the official client turns into `Date` are `isoDate` here (booking `createdDate`, `startDate`,
 * `endDate`, `updatedDate`, `canceledDate`); the booked slot's and the availability slot's `startDate`/`endDate`
 * stay strings, as the SDK leaves them (docs/wire.md §11). Revisions are strings. Enumerations the platform may
 * extend are open (an unknown value still parses).
 */
import { AttendanceRecord } from './attendance.js';
import * as z from 'zod/mini';
import { Address, bounded, bulkResult, isoDate, lazySchema, once, openEnum, PagingMetadata, requestShapes } from './common.js';

export const BookingStatusValues = ['CREATED', 'CONFIRMED', 'CANCELED', 'PENDING', 'DECLINED', 'WAITING_LIST'] as const;
export type BookingStatus = (typeof BookingStatusValues)[number];
export const PaymentStatusValues = ['UNDEFINED', 'NOT_PAID', 'PAID', 'PARTIALLY_PAID', 'REFUNDED', 'EXEMPT', 'FAILED'] as const;
export const SelectedPaymentOptionValues = ['UNDEFINED', 'OFFLINE', 'ONLINE', 'MEMBERSHIP', 'MEMBERSHIP_OFFLINE'] as const;
export const MultiServiceBookingTypeValues = ['SEQUENTIAL_BOOKINGS', 'SEPARATE_BOOKINGS', 'PARALLEL_BOOKINGS'] as const;
export type MultiServiceBookingType = (typeof MultiServiceBookingTypeValues)[number];
export const BookingFeeStatusValues = ['UNKNOWN_STATUS', 'NOT_YET_APPLIED_TO_ORDER', 'APPLIED_TO_ORDER'] as const;
/** Location type of a slot or booked schedule (docs/wire.md §13). */
export const SlotLocationTypeValues = ['UNDEFINED', 'OWNER_BUSINESS', 'OWNER_CUSTOM', 'CUSTOM'] as const;
export const ActorValues = ['UNDEFINED_ACTOR', 'BUSINESS', 'CUSTOMER'] as const;
export const PlatformValues = ['UNDEFINED_PLATFORM', 'WEB', 'MOBILE_APP'] as const;

/** Where a slot or session takes place. */
export const SlotLocation = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.nullable(z.string())),
    name: z.optional(z.nullable(z.string())),
    formattedAddress: z.optional(z.nullable(z.string())),
    locationType: z.optional(openEnum(SlotLocationTypeValues)),
  }),
);

/** The staff member (resource) of a slot. */
export const SlotResource = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.nullable(z.string())),
    name: z.optional(z.nullable(z.string())),
    email: z.optional(z.nullable(z.string())),
    scheduleId: z.optional(z.nullable(z.string())),
  }),
);

/** A booked or available slot: one session of a class, or a time with a staff member for an appointment. */
export const Slot = lazySchema(() =>
  z.looseObject({
    serviceId: z.optional(z.string()),
    scheduleId: z.optional(z.string()),
    eventId: z.optional(z.nullable(z.string())),
    sessionId: z.optional(z.nullable(z.string())),
    startDate: z.optional(z.nullable(z.string())),
    endDate: z.optional(z.nullable(z.string())),
    timezone: z.optional(z.nullable(z.string())),
    resource: z.optional(SlotResource),
    location: z.optional(SlotLocation),
  }),
);
export type Slot = z.infer<typeof Slot>;

/** A booked course: the whole schedule, from its first session to its last. */
export const BookedSchedule = lazySchema(() =>
  z.looseObject({
    scheduleId: z.optional(z.string()),
    serviceId: z.optional(z.nullable(z.string())),
    location: z.optional(SlotLocation),
    timezone: z.optional(z.nullable(z.string())),
    firstSessionStart: z.optional(z.nullable(z.string())),
    lastSessionEnd: z.optional(z.nullable(z.string())),
  }),
);

/** What was booked: a `slot` (appointment, class session) or a `schedule` (course). */
export const BookedEntity = lazySchema(() =>
  z.looseObject({
    slot: z.optional(Slot),
    schedule: z.optional(BookedSchedule),
    title: z.optional(z.nullable(z.string())),
    tags: z.optional(z.nullable(z.array(z.string()))),
  }),
);

/** Who the booking is for; `fullAddress.geocode` holds latitude/longitude (docs/wire.md §13). */
export const ContactDetails = lazySchema(() =>
  z.looseObject({
    contactId: z.optional(z.nullable(z.string())),
    firstName: z.optional(z.nullable(z.string())),
    lastName: z.optional(z.nullable(z.string())),
    email: z.optional(z.nullable(z.string())),
    phone: z.optional(z.nullable(z.string())),
    fullAddress: z.optional(Address),
    timeZone: z.optional(z.nullable(z.string())),
    countryCode: z.optional(z.nullable(z.string())),
  }),
);

/** Identity of whoever created the booking (one of the ids, plus the contact). */
export const IdentificationData = lazySchema(() =>
  z.looseObject({
    anonymousVisitorId: z.optional(z.string()),
    memberId: z.optional(z.string()),
    wixUserId: z.optional(z.string()),
    appId: z.optional(z.string()),
    contactId: z.optional(z.nullable(z.string())),
  }),
);

/** Participants per chosen service variant (instead of `totalParticipants`). */
export const ParticipantsChoices = lazySchema(() =>
  z.looseObject({
    serviceChoices: z.optional(z.array(z.looseObject({ numberOfParticipants: z.optional(z.nullable(z.int())), choices: z.optional(z.array(z.looseObject({}))) }))),
  }),
);

export const MultiServiceBookingInfo = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.nullable(z.string())),
    type: z.optional(openEnum(MultiServiceBookingTypeValues)),
  }),
);

export const ExtendedFields = lazySchema(() =>
  z.looseObject({ namespaces: z.optional(z.record(z.string(), z.record(z.string(), z.unknown()))) }),
);

/** A booking (docs/wire.md §8). Dates become `Date`; revision is a string. */
export const Booking = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    revision: z.optional(z.nullable(z.string())),
    bookedEntity: z.optional(BookedEntity),
    contactDetails: z.optional(ContactDetails),
    status: z.optional(openEnum(BookingStatusValues)),
    paymentStatus: z.optional(openEnum(PaymentStatusValues)),
    selectedPaymentOption: z.optional(openEnum(SelectedPaymentOptionValues)),
    totalParticipants: z.optional(z.int()),
    participantsChoices: z.optional(ParticipantsChoices),
    externalUserId: z.optional(z.nullable(z.string())),
    createdBy: z.optional(IdentificationData),
    doubleBooked: z.optional(z.nullable(z.boolean())),
    multiServiceBookingInfo: z.optional(MultiServiceBookingInfo),
    extendedFields: z.optional(ExtendedFields),
    formId: z.optional(z.nullable(z.string())),
    startDate: z.optional(z.nullable(isoDate)),
    endDate: z.optional(z.nullable(isoDate)),
    createdDate: z.optional(z.nullable(isoDate)),
    updatedDate: z.optional(z.nullable(isoDate)),
    canceledDate: z.optional(z.nullable(isoDate)),
    bookedAddOns: z.optional(
      z.array(z.looseObject({ id: z.optional(z.string()), groupId: z.optional(z.string()), name: z.optional(z.nullable(z.string())), quantity: z.optional(z.nullable(z.int())), durationInMinutes: z.optional(z.nullable(z.int())) })),
    ),
  }),
);
export type Booking = z.infer<typeof Booking>;
export type BookingWire = z.input<typeof Booking>;

/** What a customer may still do with a booking under its service's policy. */
export const AllowedActions = lazySchema(() =>
  z.looseObject({
    cancel: z.optional(z.boolean()),
    reschedule: z.optional(z.boolean()),
    refund: z.optional(z.nullable(z.boolean())),
  }),
);

/** A booking with the extras asked for (`withBookingAllowedActions`, ...). */
export const ExtendedBooking = lazySchema(() =>
  z.looseObject({
    booking: Booking,
    allowedActions: z.optional(AllowedActions),
    attendance: z.optional(AttendanceRecord),
    conferencingDetails: z.optional(z.looseObject({ guestUrl: z.optional(z.nullable(z.string())), password: z.optional(z.nullable(z.string())) })),
    bookingPolicySettings: z.optional(z.looseObject({ cancellationFeeEnabled: z.optional(z.nullable(z.boolean())) })),
    bookingFeeDetails: z.optional(z.looseObject({ cancellationFeeStatus: z.optional(openEnum(BookingFeeStatusValues)) })),
  }),
);
export type ExtendedBooking = z.infer<typeof ExtendedBooking>;

/** A group of bookings made together; each entry holds the booking when the call asked for full entities. */
export const MultiServiceBooking = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.nullable(z.string())),
    bookings: z.optional(z.array(z.looseObject({ bookingId: z.optional(z.nullable(z.string())), booking: z.optional(Booking) }))),
  }),
);
export type MultiServiceBooking = z.infer<typeof MultiServiceBooking>;

export const BookingPolicyViolations = lazySchema(() =>
  z.looseObject({
    tooEarlyToBook: z.optional(z.nullable(z.boolean())),
    tooLateToBook: z.optional(z.nullable(z.boolean())),
    bookOnlineDisabled: z.optional(z.nullable(z.boolean())),
  }),
);
export type BookingPolicyViolations = z.infer<typeof BookingPolicyViolations>;

/** One sub-slot of a back-to-back chain (multislot). */
export const NestedTimeSlot = lazySchema(() =>
  z.looseObject({
    serviceId: z.optional(z.string()),
    start: z.optional(z.string()),
    end: z.optional(z.string()),
    resource: z.optional(SlotResource),
    scheduleId: z.optional(z.string()),
  }),
);

/** An availability entry: a slot with its spots and what the booking policy says about it. */
export const SlotAvailability = lazySchema(() =>
  z.looseObject({
    slot: z.optional(Slot),
    bookable: z.optional(z.boolean()),
    totalSpots: z.optional(z.nullable(z.int())),
    openSpots: z.optional(z.nullable(z.int())),
    waitingList: z.optional(z.looseObject({ totalSpots: z.optional(z.nullable(z.int())), openSpots: z.optional(z.nullable(z.int())) })),
    bookingPolicyViolations: z.optional(BookingPolicyViolations),
    locked: z.optional(z.nullable(z.boolean())),
    nestedTimeSlots: z.optional(z.array(NestedTimeSlot)),
  }),
);
export type SlotAvailability = z.infer<typeof SlotAvailability>;

export const BookingPolicySettings = lazySchema(() =>
  z.looseObject({ maxParticipantsPerBooking: z.optional(z.nullable(z.int())) }),
);

/**
 * The extended bookings query's documented filter paths (the platform's "supported filters") and the JSON paths
 * of a booking: the proto's oneof `bookedEntity.item.slot.*` is `bookedEntity.slot.*` in the JSON,
 * `participantsInfo.type.totalParticipants.value` is `totalParticipants`, `createdBy.id.appId` (and the other
 * identity ids) is `createdBy.appId`.
 */
export const BOOKING_FILTER_PATHS: ReadonlyArray<[documented: string, json: string]> = [
  ['bookedEntity.item.slot.', 'bookedEntity.slot.'],
  ['bookedEntity.item.schedule.', 'bookedEntity.schedule.'],
  ['participantsInfo.type.totalParticipants.value', 'totalParticipants'],
  ...['appId', 'wixUserId', 'memberId', 'anonymousVisitorId'].map((k): [string, string] => [`createdBy.id.${k}`, `createdBy.${k}`]),
];

/** The JSON path of a documented booking filter path (other paths unchanged). */
export function bookingJsonPath(path: string): string {
  for (const [documented, json] of BOOKING_FILTER_PATHS) if (path.startsWith(documented)) return json + path.slice(documented.length);
  return path;
}

/** The documented filter path of a booking's JSON path (other paths unchanged). */
export function bookingWirePath(path: string): string {
  for (const [documented, json] of BOOKING_FILTER_PATHS) if (path.startsWith(json)) return documented + path.slice(json.length);
  return path;
}

// ---- Requests, built on first use (see common.ts). Rules that need the site's data (the slot exists, has
// room, the policy allows it) are the emulator's.

/** Longest extended-fields namespace name. */
export const NAMESPACE_MAX = 164;
/** Most bookings in one bulk create (docs/wire.md §7). */
export const MAX_BULK_CREATE = 40;
/** Most items in one bulk confirm-or-decline (docs/wire.md §7). */
export const MAX_BULK_CONFIRM_OR_DECLINE = 300;
/** Most bookings in one bulk cancel (docs/wire.md §7). */
export const MAX_BULK_CANCEL = 100;
/** Most ids in one bulk allowed-actions call (the same limit as the multi-service one, docs/wire.md §7). */
export const MAX_BULK_ALLOWED_ACTIONS = 100;
/** Bookings in one multi-service booking (docs/wire.md §7). */
export const MSB_MIN = 2;
export const MSB_MAX = 40;
/** Multi-service ids in one allowed-actions call. */
export const MAX_MSB_ALLOWED_ACTIONS = 50;
/** Services in one multislot request. */
export const MAX_MULTISLOT = 6;
/** Most participants in one booking (a sane bound; the policy's own maximum is checked by the emulator). */
export const MAX_PARTICIPANTS = 1000;

/** An ISO-8601 date-time with a time zone offset or Z (`2026-01-30T13:30:00Z`), or a local one (`...T13:30:00`). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

function buildBookingInputs() {
  const { AddressInput, CursorPagingInput, FilterInput, Id, PagingInput, ParticipantNotificationInput, RevisionInput, SortInput } = requestShapes();
  const DateTimeInput = z.string().check(
    z.maxLength(40),
    z.regex(ISO_DATE_TIME, 'must be an ISO-8601 date-time such as 2026-01-30T13:30:00Z'),
    z.refine((v) => !Number.isNaN(Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}Z`)), 'is not a real date'),
  );
  const TimeZoneInput = bounded(64);
  const LocationInput = z.looseObject({
    id: z.optional(z.nullable(bounded(100))),
    name: z.optional(z.nullable(bounded(500))),
    formattedAddress: z.optional(z.nullable(bounded(1000))),
    locationType: z.optional(z.enum(SlotLocationTypeValues)),
  });
  const SlotInput = z.looseObject({
    serviceId: Id,
    scheduleId: z.optional(bounded(100)),
    eventId: z.optional(z.nullable(bounded(250))),
    sessionId: z.optional(z.nullable(bounded(250))),
    startDate: DateTimeInput,
    endDate: z.optional(z.nullable(DateTimeInput)),
    timezone: z.optional(z.nullable(TimeZoneInput)),
    resource: z.optional(z.looseObject({ id: z.optional(z.nullable(bounded(100))), name: z.optional(z.nullable(bounded(1200))) })),
    location: z.optional(LocationInput),
  });
  const BookedScheduleInput = z.looseObject({
    scheduleId: bounded(100).check(z.minLength(1)),
    serviceId: z.optional(z.nullable(bounded(100))),
    timezone: z.optional(z.nullable(TimeZoneInput)),
  });
  const ContactDetailsInput = z.looseObject({
    contactId: z.optional(z.nullable(bounded(100))),
    firstName: z.optional(z.nullable(bounded(200))),
    lastName: z.optional(z.nullable(bounded(200))),
    email: z.optional(z.nullable(z.email().check(z.maxLength(320)))),
    phone: z.optional(z.nullable(bounded(50))),
    fullAddress: z.optional(AddressInput),
    timeZone: z.optional(z.nullable(TimeZoneInput)),
    countryCode: z.optional(z.nullable(z.string().check(z.regex(/^[A-Z]{2}$/, 'must be a 2-letter country code such as US')))),
  });
  const Participants = z.int().check(z.gte(1), z.lte(MAX_PARTICIPANTS));
  const ParticipantsChoicesInput = z.looseObject({
    serviceChoices: z.array(z.looseObject({ numberOfParticipants: z.optional(Participants), choices: z.optional(z.array(z.looseObject({})).check(z.maxLength(5))) })).check(z.minLength(1), z.maxLength(20)),
  });
  const ExtendedFieldsInput = z.looseObject({ namespaces: z.optional(z.record(bounded(NAMESPACE_MAX), z.record(z.string(), z.unknown()))) });
  /** A new booking: what was booked (a slot or a course schedule), for whom, how many. */
  const BookingCreate = z.looseObject({
    bookedEntity: z.looseObject({ slot: z.optional(SlotInput), schedule: z.optional(BookedScheduleInput), tags: z.optional(z.array(bounded(50)).check(z.maxLength(10))) }),
    contactDetails: z.optional(ContactDetailsInput),
    totalParticipants: z.optional(Participants),
    participantsChoices: z.optional(ParticipantsChoicesInput),
    status: z.optional(z.enum(BookingStatusValues)),
    paymentStatus: z.optional(z.enum(PaymentStatusValues)),
    selectedPaymentOption: z.optional(z.enum(SelectedPaymentOptionValues)),
    externalUserId: z.optional(z.nullable(bounded(100))),
    extendedFields: z.optional(ExtendedFieldsInput),
    /** The add-ons chosen from the service's add-on groups (BookedAddOn: `{id, groupId, quantity}`; docs/wire.md "Add-on groups and add-ons"). */
    bookedAddOns: z.optional(
      z.array(z.looseObject({ id: bounded(100).check(z.minLength(1)), groupId: bounded(100).check(z.minLength(1)), quantity: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(1000)))) })).check(z.maxLength(21)),
    ),
  });
  const CreateFlowControl = z.looseObject({
    skipAvailabilityValidation: z.optional(z.boolean()),
    skipBusinessConfirmation: z.optional(z.boolean()),
    skipSelectedPaymentOptionValidation: z.optional(z.boolean()),
    skipAddOnValidation: z.optional(z.boolean()),
  });
  const CancelFlowControl = z.looseObject({
    ignoreCancellationPolicy: z.optional(z.nullable(z.boolean())),
    withRefund: z.optional(z.nullable(z.boolean())),
    waiveCancellationFee: z.optional(z.nullable(z.boolean())),
  });
  const RescheduleFlowControl = z.looseObject({
    ignoreReschedulePolicy: z.optional(z.boolean()),
    skipAvailabilityValidation: z.optional(z.boolean()),
    skipBusinessConfirmation: z.optional(z.boolean()),
  });
  const ConfirmFlowControl = z.looseObject({ checkAvailabilityValidation: z.optional(z.boolean()) });
  const PendingFlowControl = z.looseObject({ checkAvailabilityValidation: z.optional(z.boolean()), skipPendingApprovalServiceValidation: z.optional(z.boolean()) });
  const BookingInfoInput = z.looseObject({ bookingId: Id, revision: z.optional(z.nullable(RevisionInput)), paymentStatus: z.optional(z.enum(PaymentStatusValues)) });
  const BookingIdAndRevision = z.looseObject({ bookingId: Id, revision: z.optional(z.nullable(RevisionInput)) });
  return {
    DateTimeInput,
    TimeZoneInput,
    SlotInput,
    BookedScheduleInput,
    ContactDetailsInput,
    Participants,
    ParticipantsChoicesInput,
    BookingCreate,
    CreateFlowControl,
    CancelFlowControl,
    RescheduleFlowControl,
    ConfirmFlowControl,
    PendingFlowControl,
    BookingInfoInput,
    BookingIdAndRevision,
    NotificationInput: ParticipantNotificationInput,
    /** `{query:{filter, sort, paging | cursorPaging}}` of the extended bookings query. */
    BookingQueryInput: z.looseObject({
      filter: z.optional(FilterInput),
      sort: z.optional(SortInput),
      paging: z.optional(PagingInput),
      cursorPaging: z.optional(CursorPagingInput),
    }),
    /** The availability query: `serviceId`, `startDate` and `endDate` are required in the filter (equality only). */
    AvailabilityQueryInput: z.looseObject({ filter: FilterInput, sort: z.optional(SortInput) }),
    CursorPagingInput,
    RevisionInput,
    Id,
  };
}

/** The booking request schemas (built on first use). */
export const bookingInputs = once(buildBookingInputs);
type BookingInputs = ReturnType<typeof buildBookingInputs>;
/** The wire body of a new booking. */
export type BookingCreate = z.input<BookingInputs['BookingCreate']>;
/** The wire form of a slot in a request. */
export type SlotInput = z.input<BookingInputs['SlotInput']>;

// ---- Replies, each built once on first use.

const BookingReply = once(() => z.looseObject({ booking: Booking }));
const BookingBulkReply = once(() => bulkResult(Booking));
const AllowedActionsBulkReply = once(() => bulkResult(AllowedActions));
const ExtendedBookingsReply = once(() => z.looseObject({ extendedBookings: z.array(ExtendedBooking), pagingMetadata: z.optional(PagingMetadata) }));
const MultiServiceBookingReply = once(() => z.looseObject({ multiServiceBooking: MultiServiceBooking }));
const GetMultiServiceBookingReply = once(() =>
  z.looseObject({ multiServiceBooking: MultiServiceBooking, metadata: z.optional(z.looseObject({ totalNumberOfScheduledBookings: z.optional(z.nullable(z.int())) })) }),
);
const MultiServiceBookingsReply = once(() => z.looseObject({ bookings: z.array(z.looseObject({ bookingId: z.optional(z.nullable(z.string())), booking: z.optional(Booking) })) }));
const MultiServiceAvailabilityReply = once(() =>
  z.looseObject({
    bookable: z.boolean(),
    totalCapacity: z.optional(z.nullable(z.int())),
    remainingCapacity: z.optional(z.nullable(z.int())),
    policyViolations: z.optional(BookingPolicyViolations),
    policySettings: z.optional(BookingPolicySettings),
    multiServiceBookingInfo: z.optional(z.array(z.looseObject({ bookingId: z.optional(z.nullable(z.string())) }))),
  }),
);
const UpdateExtendedFieldsReply = once(() => z.looseObject({ namespace: z.string(), namespaceData: z.optional(z.nullable(z.record(z.string(), z.unknown()))) }));
const AvailabilityReply = once(() => z.looseObject({ availabilityEntries: z.array(SlotAvailability) }));
const ScheduleAvailabilityReply = once(() =>
  z.looseObject({
    availability: z.looseObject({
      totalSpots: z.optional(z.nullable(z.int())),
      openSpots: z.optional(z.nullable(z.int())),
      bookingPolicyViolations: z.optional(BookingPolicyViolations),
    }),
    bookingPolicySettings: z.optional(BookingPolicySettings),
  }),
);
const MultiSlotReply = once(() =>
  z.looseObject({
    slots: z.array(SlotAvailability),
    cursorPagingMetadata: z.optional(z.looseObject({ count: z.optional(z.nullable(z.int())), cursors: z.optional(z.looseObject({ next: z.optional(z.nullable(z.string())), prev: z.optional(z.nullable(z.string())) })), hasNext: z.optional(z.nullable(z.boolean())) })),
  }),
);

/** The booking family reply schemas, each a builder run once on first use. */
export const bookingReplies = {
  BookingReply,
  BookingBulkReply,
  AllowedActionsBulkReply,
  ExtendedBookingsReply,
  MultiServiceBookingReply,
  GetMultiServiceBookingReply,
  MultiServiceBookingsReply,
  MultiServiceAvailabilityReply,
  UpdateExtendedFieldsReply,
  AvailabilityReply,
  ScheduleAvailabilityReply,
  MultiSlotReply,
};
