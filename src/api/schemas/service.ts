/**
 * The service entity and everything it holds, plus the entities the services API lists (booking policies,
 * booking forms, categories, business locations). The specification's "Service", "Other entities", "Enumerations";
 * wire shapes from docs/wire.md §8.
 *
 * Every `...Values` array is the exact value list of docs/wire.md §13 so the emulator can validate input with the
 * same lists. Response schemas are loose (unknown platform fields pass through) and turn ISO strings into
 * `Date`; `ServiceWire` is the wire form with string dates, used for create/update bodies.
 */
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { AddOnGroup } from './service-add-ons.js';
import { Address, AggregationData, bounded, bulkResult, isoDate, MediaItem, Money, lazySchema, once, openEnum, PagingMetadata, requestShapes } from './common.js';

export const ServiceTypeValues = ['APPOINTMENT', 'CLASS', 'COURSE'] as const;
export const ServiceType = lazySchema(() => z.enum(ServiceTypeValues));
export type ServiceType = z.infer<typeof ServiceType>;

export const RateTypeValues = ['FIXED', 'CUSTOM', 'VARIED', 'NO_FEE'] as const;
/**
 * `payment.addOnOption` (SDK `AddOnPaymentOptions`): how add-ons are paid when a pricing plan pays the booking.
 * Stored and answered only (docs/wire.md §28).
 */
export const AddOnPaymentOptionValues = ['ONLINE', 'IN_PERSON'] as const;
export const RateType = lazySchema(() => z.enum(RateTypeValues));
export type RateType = z.infer<typeof RateType>;

export const LocationTypeValues = ['CUSTOM', 'BUSINESS', 'CUSTOMER'] as const;
export const LocationType = lazySchema(() => z.enum(LocationTypeValues));
export type LocationType = z.infer<typeof LocationType>;

export const RemovedLocationSessionsActionValues = ['KEEP_AT_CURRENT_LOCATION', 'MOVE_TO_LOCATION', 'DELETE'] as const;
export const RemovedLocationSessionsAction = lazySchema(() => z.enum(RemovedLocationSessionsActionValues));
export type RemovedLocationSessionsAction = z.infer<typeof RemovedLocationSessionsAction>;

export const SlugErrorValues = ['SLUG_CONTAINS_ILLEGAL_CHARACTERS', 'SLUG_ALREADY_EXISTS'] as const;
/** What a clone could not copy (SDK bookings_services `CloneErrors`, in its order; docs/wire.md §14). */
export const CloneErrorValues = ['OPTIONS_AND_VARIANTS', 'FORM'] as const;
/** The specification's resource-creation errors (docs/wire.md §14). */
export const ResourceErrorValues = ['UNKNOWN_CREATE_RESOURCE_TYPE_ERROR', 'FAILED_TO_CREATE_RESOURCES'] as const;
/**
 * A resource a service needs (SDK bookings_services `ServiceResource`: its resource type and, optionally, the
 * resources of it that may be booked; at most 8 a service; docs/wire.md §14 "Clone and resource-creation errors").
 */
const ServiceResource = () =>
  z.looseObject({
    resourceType: z.optional(z.looseObject({ id: z.optional(z.nullable(z.string().check(z.maxLength(100)))), name: z.optional(z.nullable(z.string().check(z.maxLength(40)))) })),
    resourceIds: z.optional(z.looseObject({ values: z.optional(z.array(z.string().check(z.maxLength(100))).check(z.maxLength(100))) })),
  });
export const SlugError = lazySchema(() => z.enum(SlugErrorValues));
export type SlugError = z.infer<typeof SlugError>;

/** `conditionalFields` of services and booking-forms queries: extra data the reply should include. */
/**
 * The conditional fields of getService and queryServices, as the SDK's `V2RequestedFields` has them
 * (`@wix/auto_sdk_bookings_services`; docs/wire.md §14 lists DEFAULT_BOOKING_FORM here, which is the booking forms
 * query's). STAFF_MEMBER_DETAILS fills `service.staffMemberDetails.staffMembers`.
 */
export const RequestedFieldsValues = ['STAFF_MEMBER_DETAILS', 'RESOURCE_TYPE_DETAILS', 'DISCOUNT_INFO_DETAILS', 'RESOURCE_DETAILS'] as const;
export const RequestedFields = lazySchema(() => z.enum(RequestedFieldsValues));
export type RequestedFields = z.infer<typeof RequestedFields>;

export const LocationStatusValues = ['ACTIVE', 'INACTIVE'] as const;
export const LocationStatus = lazySchema(() => z.enum(LocationStatusValues));
export type LocationStatus = z.infer<typeof LocationStatus>;

export const LocationPurposeValues = ['BRANCH', 'OFFICES', 'RECEPTION', 'HEADQUARTERS', 'INVENTORY'] as const;
export const LocationPurpose = lazySchema(() => z.enum(LocationPurposeValues));
export type LocationPurpose = z.infer<typeof LocationPurpose>;

/** Domain event kinds recorded for services (docs/wire.md §24). */
export const EventActionValues = ['CREATED', 'UPDATED', 'DELETED'] as const;
export const EventAction = lazySchema(() => z.enum(EventActionValues));
export type EventAction = z.infer<typeof EventAction>;

export {
  SortOrder,
  SortOrderValues,
  AggregationType,
  AggregationTypeValues,
  ScalarType,
  ScalarTypeValues,
  DateHistogramInterval,
  DateHistogramIntervalValues,
} from './common.js';

/** `media`: gallery `items`, `mainMedia` and `coverMedia`, each `{image}`. */
export const ServiceMedia = lazySchema(() =>
  z.looseObject({
    items: z.optional(z.array(MediaItem)),
    mainMedia: z.optional(MediaItem),
    coverMedia: z.optional(MediaItem),
  }),
);

export const BusinessLocationRef = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.optional(z.string()),
    default: z.optional(z.boolean()),
    address: z.optional(Address),
  }),
);

/** One place a service is offered: a business location, a custom address, or the customer's place. */
export const ServiceLocation = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.string()),
    type: openEnum(LocationTypeValues),
    business: z.optional(BusinessLocationRef),
    custom: z.optional(z.looseObject({ id: z.optional(z.string()), address: z.optional(Address) })),
    calculatedAddress: z.optional(Address),
  }),
);
export type ServiceLocation = z.infer<typeof ServiceLocation>;

const PageUrl = lazySchema(() => z.looseObject({ relativePath: z.optional(z.string()), url: z.optional(z.string()) }));
export const ServiceUrls = lazySchema(() =>
  z.looseObject({
    servicePage: z.optional(PageUrl),
    bookingPage: z.optional(PageUrl),
    calendarPage: z.optional(PageUrl),
  }),
);

export const Slug = lazySchema(() =>
  z.looseObject({
    name: z.string(),
    custom: z.optional(z.boolean()),
    createdDate: z.optional(isoDate),
  }),
);
export type Slug = z.infer<typeof Slug>;

/** `schedule`: session durations are in minutes, `timeBetweenSessions` in minutes. */
export const ServiceSchedule = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.string()),
    firstSessionStart: z.optional(isoDate),
    lastSessionEnd: z.optional(isoDate),
    availabilityConstraints: z.optional(
      z.looseObject({
        durations: z.optional(z.array(z.looseObject({ minutes: z.number() }))),
        sessionDurations: z.optional(z.array(z.number())),
        timeBetweenSessions: z.optional(z.number()),
      }),
    ),
  }),
);
export type ServiceSchedule = z.infer<typeof ServiceSchedule>;

export const ServiceStaffMember = lazySchema(() =>
  z.looseObject({
    staffMemberId: z.string(),
    name: z.optional(z.string()),
    mainMedia: z.optional(MediaItem),
  }),
);
export type ServiceStaffMember = z.infer<typeof ServiceStaffMember>;

/** The rule blocks of a booking policy (docs/wire.md §14 "Booking policies"; the SDK's `BookingPolicy`), named but not modelled. */
export const BookingPolicyRuleValues = [
  'limitEarlyBookingPolicy', 'limitLateBookingPolicy', 'bookAfterStartPolicy', 'cancellationPolicy', 'reschedulePolicy', 'waitlistPolicy', 'participantsPolicy',
  'cancellationFeePolicy', 'saveCreditCardPolicy', 'staffSortingPolicy', 'intakeFormPolicy',
] as const;

/**
 * A booking policy. Only identity and dates are modelled; the rule blocks pass through as sent (declared by
 * name, so a file made from `services get --json` passes the field-name checks of `--file`).
 */
export const BookingPolicy = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.string()),
    revision: z.optional(z.string()),
    name: z.optional(z.string()),
    default: z.optional(z.boolean()),
    createdDate: z.optional(isoDate),
    updatedDate: z.optional(isoDate),
    customPolicyDescription: z.optional(
      z.looseObject({ enabled: z.optional(z.boolean()), description: z.optional(z.string()) }),
    ),
    ...Object.fromEntries(BookingPolicyRuleValues.map((rule) => [rule, z.optional(z.unknown())])) as Record<(typeof BookingPolicyRuleValues)[number], z.ZodMiniOptional<z.ZodMiniUnknown>>,
  }),
);
export type BookingPolicy = z.infer<typeof BookingPolicy>;

export const Category = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.optional(z.string()),
    sortOrder: z.optional(z.number()),
    revision: z.optional(z.string()),
  }),
);
export type Category = z.infer<typeof Category>;

export const FormRef = lazySchema(() => z.looseObject({ id: z.string() }));

/** `payment.options`: how a customer may pay (the same shape in requests and replies). */
const PaymentOptions = lazySchema(() =>
  z.looseObject({
    online: z.optional(z.boolean()),
    inPerson: z.optional(z.boolean()),
    deposit: z.optional(z.boolean()),
    pricingPlan: z.optional(z.boolean()),
  }),
);

/** `payment.varied`: the price range and deposit, in reply money or in request money (bounded strings). */
function variedPrices<M extends $ZodType>(money: M) {
  return z.looseObject({ defaultPrice: z.optional(money), minPrice: z.optional(money), maxPrice: z.optional(money), deposit: z.optional(money) });
}

/** `payment`: one of fixed/custom/varied according to `rateType`; `options` say how a customer may pay. */
export const ServicePayment = lazySchema(() =>
  z.looseObject({
    rateType: z.optional(openEnum(RateTypeValues)),
    fixed: z.optional(z.looseObject({ price: z.optional(Money), deposit: z.optional(Money) })),
    custom: z.optional(z.looseObject({ description: z.optional(z.string()) })),
    varied: z.optional(variedPrices(Money)),
    options: z.optional(PaymentOptions),
    pricingPlanIds: z.optional(z.array(z.string())),
    addOnOption: z.optional(openEnum(AddOnPaymentOptionValues)),
  }),
);
export type ServicePayment = z.infer<typeof ServicePayment>;

export const OnlineBooking = lazySchema(() =>
  z.looseObject({
    enabled: z.optional(z.boolean()),
    requireManualApproval: z.optional(z.boolean()),
    allowMultipleRequests: z.optional(z.boolean()),
  }),
);

/**
 * The service entity. `revision` is a string that goes up by 1 on every change and must be sent back on update
 * (docs/wire.md §9). Fields the platform adds beyond these pass through.
 */
export const Service = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    revision: z.optional(z.string()),
    type: z.optional(openEnum(ServiceTypeValues)),
    name: z.optional(z.string()),
    description: z.optional(z.string()),
    tagLine: z.optional(z.string()),
    sortOrder: z.optional(z.number()),
    defaultCapacity: z.optional(z.int()),
    hidden: z.optional(z.boolean()),
    media: z.optional(ServiceMedia),
    category: z.optional(Category),
    form: z.optional(FormRef),
    payment: z.optional(ServicePayment),
    onlineBooking: z.optional(OnlineBooking),
    conferencing: z.optional(z.looseObject({ enabled: z.optional(z.boolean()) })),
    locations: z.optional(z.array(ServiceLocation)),
    bookingPolicy: z.optional(BookingPolicy),
    schedule: z.optional(ServiceSchedule),
    staffMemberIds: z.optional(z.array(z.string())),
    serviceResources: z.optional(z.array(ServiceResource())),
    staffMembers: z.optional(z.array(ServiceStaffMember)),
    staffMemberDetails: z.optional(z.looseObject({ staffMembers: z.optional(z.array(ServiceStaffMember)) })),
    urls: z.optional(ServiceUrls),
    supportedSlugs: z.optional(z.array(Slug)),
    mainSlug: z.optional(Slug),
    extendedFields: z.optional(z.looseObject({ namespaces: z.optional(z.record(z.string(), z.unknown())) })),
    tags: z.optional(z.array(z.string())),
    /** Its add-on groups (at most 3; schemas/service-add-ons.ts), and every add-on they hold once (read-only). */
    addOnGroups: z.optional(z.array(AddOnGroup)),
    addOnDetails: z.optional(z.array(z.looseObject({ addOnId: z.optional(z.nullable(z.string())), durationInMinutes: z.optional(z.nullable(z.int())) }))),
    createdDate: z.optional(isoDate),
    updatedDate: z.optional(isoDate),
  }),
);
/** A parsed service: dates are `Date` values. */
export type Service = z.infer<typeof Service>;
/** A service as it travels on the wire (ISO date strings). */
export type ServiceWire = z.input<typeof Service>;

/** A booking form as listed by the booking-forms query. */
export const BookingForm = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.optional(z.string()),
    createdDate: z.optional(isoDate),
    updatedDate: z.optional(isoDate),
  }),
);
export type BookingForm = z.infer<typeof BookingForm>;

/** A business location (the site's own places), as returned by `businessLocations.locations`. */
export const BusinessLocation = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.optional(z.string()),
    description: z.optional(z.string()),
    default: z.optional(z.boolean()),
    status: z.optional(openEnum(LocationStatusValues)),
    locationType: z.optional(z.string()),
    locationTypes: z.optional(z.array(openEnum(LocationPurposeValues))),
    address: z.optional(Address),
    timeZone: z.optional(z.string()),
    email: z.optional(z.string()),
    phone: z.optional(z.string()),
    archived: z.optional(z.boolean()),
    revision: z.optional(z.string()),
    createdDate: z.optional(isoDate),
    updatedDate: z.optional(isoDate),
  }),
);
export type BusinessLocation = z.infer<typeof BusinessLocation>;

/** `{id, name}` of a service connected to a policy or form. */
export const ConnectedService = lazySchema(() => z.looseObject({ id: z.string(), name: z.optional(z.string()) }));
export type ConnectedService = z.infer<typeof ConnectedService>;

// ---- Requests (what the emulator validates and the client sends), built on first use (see common.ts).
// Cross-field rules (a FIXED rate needs a price, a class needs a capacity) and references to other entities are
// checked by the emulator's rules.

/** Longest service name (characters). */
export const SERVICE_NAME_MAX = 400;
/** Longest slug (characters). */
export const SLUG_MAX = 100;

function buildServiceInputs() {
  const { AddressInput, CursorPagingInput, FilterInput, Id, MoneyInput, PagingInput, RevisionInput, SortInput } = requestShapes();
  const name = z.string().check(z.maxLength(SERVICE_NAME_MAX), z.refine((v) => v.trim() !== '', 'must not be blank'));
  const ServiceLocationInput = z.looseObject({
    id: z.optional(bounded(100)),
    type: z.enum(LocationTypeValues),
    business: z.optional(z.looseObject({ id: Id, name: z.optional(bounded(500)) })),
    custom: z.optional(z.looseObject({ id: z.optional(bounded(100)), address: z.optional(AddressInput) })),
    calculatedAddress: z.optional(AddressInput),
  });
  const PaymentInput = z.looseObject({
    rateType: z.enum([...RateTypeValues, 'SUBSCRIPTION']),
    fixed: z.optional(z.looseObject({ price: z.optional(MoneyInput), deposit: z.optional(MoneyInput) })),
    custom: z.optional(z.looseObject({ description: z.optional(bounded(1000)) })),
    varied: z.optional(variedPrices(MoneyInput)),
    options: z.optional(PaymentOptions),
    pricingPlanIds: z.optional(z.array(Id).check(z.maxLength(100))),
    addOnOption: z.optional(z.enum(AddOnPaymentOptionValues)),
  });
  /** The writable fields of a service in a request, every one optional (the base of the others). */
  const ServiceFields = z.looseObject({
    name: z.optional(name),
    type: z.optional(z.enum(ServiceTypeValues)),
    description: z.optional(bounded(7000)),
    tagLine: z.optional(bounded(1000)),
    sortOrder: z.optional(z.int()),
    defaultCapacity: z.optional(z.int().check(z.gte(1), z.lte(1000))),
    hidden: z.optional(z.boolean()),
    media: z.optional(z.looseObject({})),
    category: z.optional(z.looseObject({ id: Id })),
    form: z.optional(z.looseObject({ id: Id })),
    payment: z.optional(PaymentInput),
    onlineBooking: z.optional(
      z.looseObject({
        enabled: z.optional(z.boolean()),
        requireManualApproval: z.optional(z.boolean()),
        allowMultipleRequests: z.optional(z.boolean()),
      }),
    ),
    conferencing: z.optional(z.looseObject({ enabled: z.optional(z.boolean()) })),
    locations: z.optional(z.array(ServiceLocationInput).check(z.maxLength(100))),
    bookingPolicy: z.optional(z.looseObject({ id: Id })),
    schedule: z.optional(z.looseObject({})),
    staffMemberIds: z.optional(z.array(Id).check(z.maxLength(200))),
    serviceResources: z.optional(z.array(ServiceResource()).check(z.maxLength(8))),
    extendedFields: z.optional(z.looseObject({ namespaces: z.optional(z.record(z.string(), z.unknown())) })),
    tags: z.optional(z.array(bounded(200)).check(z.maxLength(100))),
  });
  /**
   * The writable fields of a partial change: every field at every depth optional (a masked update sends only
   * the masked paths, e.g. `payment.fixed.price.value`), each still typed and bounded. The service that
   * results is checked as a whole by the emulator.
   */
  const ServiceChanges = z.deepPartial(ServiceFields);
  return {
    ServiceLocationInput,
    ServiceFields,
    ServiceChanges,
    /** A new service: `name` and `type` are required; server-owned fields (id, revision, dates, slugs) are ignored. */
    ServiceCreate: z.extend(ServiceFields, { name, type: z.enum(ServiceTypeValues) }),
    /** The `service` of an update: the id, the current revision (docs/wire.md §9) and the fields to change. */
    ServicePatch: z.extend(ServiceChanges, { id: Id, revision: RevisionInput }),
    /** `{query:{filter, sort, paging}}` of the services query. */
    ServiceQueryInput: z.looseObject({ filter: z.optional(FilterInput), sort: z.optional(SortInput), paging: z.optional(PagingInput) }),
    /** The `search` object of the services search (cursor paging, text, aggregations). */
    ServiceSearchInput: z.looseObject({
      filter: z.optional(FilterInput),
      sort: z.optional(SortInput),
      cursorPaging: z.optional(CursorPagingInput),
      aggregations: z.optional(z.array(z.looseObject({ type: bounded(50), fieldPath: z.optional(bounded(200)) })).check(z.maxLength(10))),
      search: z.optional(
        z.looseObject({
          expression: z.optional(bounded(500)),
          fields: z.optional(z.array(bounded(200)).check(z.maxLength(20))),
          fuzzy: z.optional(z.boolean()),
          mode: z.optional(z.enum(['OR', 'AND'])),
        }),
      ),
      timeZone: z.optional(bounded(100)),
    }),
    /** `{query:{filter, sort, cursorPaging}}` of the policies and booking-forms queries. */
    CursorQueryInput: z.looseObject({ filter: z.optional(FilterInput), sort: z.optional(SortInput), cursorPaging: z.optional(CursorPagingInput) }),
    /** What happens to sessions at a location a service no longer has. */
    RemovedLocationSessionsActionInput: z.looseObject({
      action: z.enum(RemovedLocationSessionsActionValues),
      moveToLocationOptions: z.optional(z.looseObject({ newLocation: ServiceLocationInput })),
    }),
  };
}

/** The services request schemas (built on first use). */
export const serviceInputs = once(buildServiceInputs);
type ServiceInputs = ReturnType<typeof buildServiceInputs>;

/** The wire body of a new service. */
export type ServiceCreate = z.input<ServiceInputs['ServiceCreate']>;
/** The wire body of an update. */
export type ServicePatch = z.input<ServiceInputs['ServicePatch']>;
/** The `search` object of a services search. */
export type ServiceSearchInput = z.input<ServiceInputs['ServiceSearchInput']>;

// ---- Replies, each built once on first use (see OperationSpec in family.ts).

const ServiceReply = once(() => z.looseObject({ service: Service }));
const ServiceBulkReply = once(() => bulkResult(Service));

const QueryServicesReply = once(() => z.looseObject({ services: z.array(Service), pagingMetadata: z.optional(PagingMetadata) }));

const SearchServicesReply = once(() =>
  z.looseObject({ services: z.array(Service), pagingMetadata: z.optional(PagingMetadata), aggregationData: z.optional(AggregationData) }),
);

/** One booking policy of the policies query, with the services that use it. */
const PolicyWithServices = once(() =>
  z.looseObject({
    bookingPolicy: BookingPolicy,
    connectedServices: z.optional(z.array(ConnectedService)),
    services: z.optional(z.array(Service)),
    totalServiceCount: z.optional(z.int()),
  }),
);

const QueryPoliciesReply = once(() => z.looseObject({ bookingPolicies: z.array(PolicyWithServices()), pagingMetadata: z.optional(PagingMetadata) }));

/** One booking form of the booking-forms query, with the services that use it. */
const FormWithServices = once(() =>
  z.looseObject({ form: BookingForm, connectedServices: z.optional(z.array(ConnectedService)), totalServiceCount: z.optional(z.int()) }),
);

const QueryBookingFormsReply = once(() => z.looseObject({ bookingForms: z.array(FormWithServices()), pagingMetadata: z.optional(PagingMetadata) }));

const QueryCategoriesReply = once(() => z.looseObject({ categories: z.array(Category) }));

/** Business, custom and customer locations (the platform lists the three kinds separately). */
const QueryLocationsReply = once(() =>
  z.looseObject({
    businessLocations: z.looseObject({ exists: z.optional(z.boolean()), locations: z.array(BusinessLocation) }),
    customLocations: z.optional(z.looseObject({ exists: z.optional(z.boolean()) })),
    customerLocations: z.optional(z.looseObject({ exists: z.optional(z.boolean()) })),
  }),
);

const SetCustomSlugReply = once(() => z.looseObject({ slug: Slug, service: Service }));

/** The validate-slug reply: the SDK reads `slug` (the slug checked), `valid` and `errors` (docs/wire.md §11). */
const ValidateSlugReply = once(() => z.looseObject({ valid: z.boolean(), slug: z.optional(z.string()), errors: z.optional(z.array(openEnum(SlugErrorValues))) }));

/** The clone reply: the copy, and what of the source it lacks (`errors`; the SDK marks it non-null). */
const CloneServiceReply = once(() => z.looseObject({ service: Service, errors: z.optional(z.array(openEnum(CloneErrorValues))) }));

/** The services reply schemas, each a builder run once on first use. */
export const serviceReplies = {
  ServiceReply,
  ServiceBulkReply,
  QueryServicesReply,
  SearchServicesReply,
  PolicyWithServices,
  QueryPoliciesReply,
  FormWithServices,
  QueryBookingFormsReply,
  QueryCategoriesReply,
  QueryLocationsReply,
  SetCustomSlugReply,
  ValidateSlugReply,
  CloneServiceReply,
};
export type QueryServicesReply = z.infer<ReturnType<typeof QueryServicesReply>>;
export type SearchServicesReply = z.infer<ReturnType<typeof SearchServicesReply>>;
export type PolicyWithServices = z.infer<ReturnType<typeof PolicyWithServices>>;
export type FormWithServices = z.infer<ReturnType<typeof FormWithServices>>;
