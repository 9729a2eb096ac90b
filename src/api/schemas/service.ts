/**
 * The service entity and everything it holds, plus the entities the services API lists (booking policies,
 * booking forms, categories, business locations). Spec 000 §3 "Service", "Other entities", "Enumerations";
 * wire shapes from platform-wire.md §8.
 *
 * Every `...Values` array is the exact value list of spec 000 §3 so the emulator can validate input with the
 * same lists. Response schemas are loose (unknown platform fields pass through) and turn ISO strings into
 * `Date`; `ServiceWire` is the wire form with string dates, used for create/update bodies.
 */
import { z } from 'zod';
import { Address, isoDate, MediaItem, Money, openEnum } from './common.js';

export const ServiceTypeValues = ['APPOINTMENT', 'CLASS', 'COURSE'] as const;
export const ServiceType = z.enum(ServiceTypeValues);
export type ServiceType = z.infer<typeof ServiceType>;

export const RateTypeValues = ['FIXED', 'CUSTOM', 'VARIED', 'NO_FEE'] as const;
export const RateType = z.enum(RateTypeValues);
export type RateType = z.infer<typeof RateType>;

export const LocationTypeValues = ['CUSTOM', 'BUSINESS', 'CUSTOMER'] as const;
export const LocationType = z.enum(LocationTypeValues);
export type LocationType = z.infer<typeof LocationType>;

export const RemovedLocationSessionsActionValues = ['KEEP_AT_CURRENT_LOCATION', 'MOVE_TO_LOCATION', 'DELETE'] as const;
export const RemovedLocationSessionsAction = z.enum(RemovedLocationSessionsActionValues);
export type RemovedLocationSessionsAction = z.infer<typeof RemovedLocationSessionsAction>;

export const SlugErrorValues = ['SLUG_CONTAINS_ILLEGAL_CHARACTERS', 'SLUG_ALREADY_EXISTS'] as const;
export const SlugError = z.enum(SlugErrorValues);
export type SlugError = z.infer<typeof SlugError>;

/** `conditionalFields` of services and booking-forms queries: extra data the reply should include. */
export const RequestedFieldsValues = ['STAFF_MEMBER_DETAILS', 'RESOURCE_TYPE_DETAILS', 'DEFAULT_BOOKING_FORM'] as const;
export const RequestedFields = z.enum(RequestedFieldsValues);
export type RequestedFields = z.infer<typeof RequestedFields>;

export const LocationStatusValues = ['ACTIVE', 'INACTIVE'] as const;
export const LocationStatus = z.enum(LocationStatusValues);
export type LocationStatus = z.infer<typeof LocationStatus>;

export const LocationPurposeValues = ['BRANCH', 'OFFICES', 'RECEPTION', 'HEADQUARTERS', 'INVENTORY'] as const;
export const LocationPurpose = z.enum(LocationPurposeValues);
export type LocationPurpose = z.infer<typeof LocationPurpose>;

/** Domain event kinds recorded for services (spec 000 §4 "Events published"). */
export const EventActionValues = ['CREATED', 'UPDATED', 'DELETED'] as const;
export const EventAction = z.enum(EventActionValues);
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
export const ServiceMedia = z.looseObject({
  items: z.array(MediaItem).optional(),
  mainMedia: MediaItem.optional(),
  coverMedia: MediaItem.optional(),
});

export const BusinessLocationRef = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  default: z.boolean().optional(),
  address: Address.optional(),
});

/** One place a service is offered: a business location, a custom address, or the customer's place. */
export const ServiceLocation = z.looseObject({
  id: z.string().optional(),
  type: openEnum(LocationTypeValues),
  business: BusinessLocationRef.optional(),
  custom: z.looseObject({ id: z.string().optional(), address: Address.optional() }).optional(),
  calculatedAddress: Address.optional(),
});
export type ServiceLocation = z.infer<typeof ServiceLocation>;

const PageUrl = z.looseObject({ relativePath: z.string().optional(), url: z.string().optional() });
export const ServiceUrls = z.looseObject({
  servicePage: PageUrl.optional(),
  bookingPage: PageUrl.optional(),
  calendarPage: PageUrl.optional(),
});

export const Slug = z.looseObject({
  name: z.string(),
  custom: z.boolean().optional(),
  createdDate: isoDate.optional(),
});
export type Slug = z.infer<typeof Slug>;

/** `schedule`: session durations are in minutes, `timeBetweenSessions` in minutes. */
export const ServiceSchedule = z.looseObject({
  id: z.string().optional(),
  firstSessionStart: isoDate.optional(),
  lastSessionEnd: isoDate.optional(),
  availabilityConstraints: z
    .looseObject({
      durations: z.array(z.looseObject({ minutes: z.number() })).optional(),
      sessionDurations: z.array(z.number()).optional(),
      timeBetweenSessions: z.number().optional(),
    })
    .optional(),
});
export type ServiceSchedule = z.infer<typeof ServiceSchedule>;

export const StaffMember = z.looseObject({
  staffMemberId: z.string(),
  name: z.string().optional(),
  mainMedia: MediaItem.optional(),
});
export type StaffMember = z.infer<typeof StaffMember>;

/** A booking policy. Only identity and dates are modelled; the rule blocks pass through as sent. */
export const BookingPolicy = z.looseObject({
  id: z.string().optional(),
  revision: z.string().optional(),
  name: z.string().optional(),
  default: z.boolean().optional(),
  createdDate: isoDate.optional(),
  updatedDate: isoDate.optional(),
  customPolicyDescription: z
    .looseObject({ enabled: z.boolean().optional(), description: z.string().optional() })
    .optional(),
});
export type BookingPolicy = z.infer<typeof BookingPolicy>;

export const Category = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  sortOrder: z.number().optional(),
});
export type Category = z.infer<typeof Category>;

export const FormRef = z.looseObject({ id: z.string() });

/** `payment`: one of fixed/custom/varied according to `rateType`; `options` say how a customer may pay. */
export const ServicePayment = z.looseObject({
  rateType: openEnum(RateTypeValues).optional(),
  fixed: z.looseObject({ price: Money.optional(), deposit: Money.optional() }).optional(),
  custom: z.looseObject({ description: z.string().optional() }).optional(),
  varied: z
    .looseObject({
      defaultPrice: Money.optional(),
      minPrice: Money.optional(),
      maxPrice: Money.optional(),
      deposit: Money.optional(),
    })
    .optional(),
  options: z
    .looseObject({
      online: z.boolean().optional(),
      inPerson: z.boolean().optional(),
      deposit: z.boolean().optional(),
      pricingPlan: z.boolean().optional(),
    })
    .optional(),
  pricingPlanIds: z.array(z.string()).optional(),
});
export type ServicePayment = z.infer<typeof ServicePayment>;

export const OnlineBooking = z.looseObject({
  enabled: z.boolean().optional(),
  requireManualApproval: z.boolean().optional(),
  allowMultipleRequests: z.boolean().optional(),
});

/**
 * The service entity. `revision` is a string that goes up by 1 on every change and must be sent back on update
 * (wire §9). Fields the platform adds beyond these pass through.
 */
export const Service = z.looseObject({
  id: z.string().optional(),
  revision: z.string().optional(),
  type: openEnum(ServiceTypeValues).optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  tagLine: z.string().optional(),
  sortOrder: z.number().optional(),
  defaultCapacity: z.number().int().optional(),
  hidden: z.boolean().optional(),
  media: ServiceMedia.optional(),
  category: Category.optional(),
  form: FormRef.optional(),
  payment: ServicePayment.optional(),
  onlineBooking: OnlineBooking.optional(),
  conferencing: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  locations: z.array(ServiceLocation).optional(),
  bookingPolicy: BookingPolicy.optional(),
  schedule: ServiceSchedule.optional(),
  staffMemberIds: z.array(z.string()).optional(),
  staffMembers: z.array(StaffMember).optional(),
  staffMemberDetails: z.looseObject({ staffMembers: z.array(StaffMember).optional() }).optional(),
  urls: ServiceUrls.optional(),
  supportedSlugs: z.array(Slug).optional(),
  mainSlug: Slug.optional(),
  extendedFields: z.looseObject({ namespaces: z.record(z.string(), z.unknown()).optional() }).optional(),
  tags: z.array(z.string()).optional(),
  createdDate: isoDate.optional(),
  updatedDate: isoDate.optional(),
});
/** A parsed service: dates are `Date` values. */
export type Service = z.infer<typeof Service>;
/** A service as it travels on the wire (ISO date strings); the body type of create and update. */
export type ServiceWire = z.input<typeof Service>;
/** The body of an update: the wire form with the id and the current revision (wire §8, §9). */
export type ServiceUpdateWire = ServiceWire & { id: string; revision: string };

/** A booking form as listed by the booking-forms query. */
export const BookingForm = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  createdDate: isoDate.optional(),
  updatedDate: isoDate.optional(),
});
export type BookingForm = z.infer<typeof BookingForm>;

/** A business location (the site's own places), as returned by `businessLocations.locations`. */
export const BusinessLocation = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  default: z.boolean().optional(),
  status: openEnum(LocationStatusValues).optional(),
  locationType: z.string().optional(),
  locationTypes: z.array(openEnum(LocationPurposeValues)).optional(),
  address: Address.optional(),
  timeZone: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  archived: z.boolean().optional(),
  revision: z.string().optional(),
  createdDate: isoDate.optional(),
  updatedDate: isoDate.optional(),
});
export type BusinessLocation = z.infer<typeof BusinessLocation>;

/** `{id, name}` of a service connected to a policy or form. */
export const ConnectedService = z.looseObject({ id: z.string(), name: z.string().optional() });
export type ConnectedService = z.infer<typeof ConnectedService>;
