/**
 * What the services family stores, in wire form (docs/wire.md §8, §13): services and
 * the site's furniture they refer to (business locations, categories, booking policies, booking forms), each a
 * collection declared here, and the staff members (staff/model.ts) a service is given by. Documents are kept exactly as they travel: ISO date strings, string
 * revisions, money values as decimal strings.
 */
import type * as z from 'zod/mini';
import type { BookingForm, BookingPolicy, BusinessLocation, Category, Service, ServiceLocation as ServiceLocationSchema, Slug as SlugSchema } from '../../api/schemas/service.js';
import type { Address as AddressSchema } from '../../api/schemas/common.js';
import type { RequestContext } from '../serve.js';
import { defineCollection, type SiteCollection } from '../store/collection.js';
import { STAFF_MEMBERS, type StaffMemberDoc } from '../staff/model.js';

// The stored shapes are the wire forms of the api schemas (the emulator serves exactly what the client parses),
// with the fields the emulator always fills made required.
type Stored<T> = T & { id: string };

export type Address = z.input<typeof AddressSchema>;
export type ServiceLocation = z.input<typeof ServiceLocationSchema>;
export type Slug = z.input<typeof SlugSchema>;

/** A service document. Fields beyond the schema's are kept as sent. */
export type ServiceDoc = Stored<z.input<typeof Service>> & {
  type: 'APPOINTMENT' | 'CLASS' | 'COURSE';
  name: string;
  mainSlug?: Slug;
  supportedSlugs?: Slug[];
};

/** A business location of the site (`businessLocations.locations`). */
export type BusinessLocationDoc = Stored<z.input<typeof BusinessLocation>> & { name: string };
export type CategoryDoc = Stored<z.input<typeof Category>> & { name: string };
export type BookingPolicyDoc = Stored<z.input<typeof BookingPolicy>> & { name: string };
export type BookingFormDoc = Stored<z.input<typeof BookingForm>> & { name: string; default?: boolean };

/** Services; every slug a service ever had stays unique to it (docs/wire.md §14). */
export const SERVICES = defineCollection<ServiceDoc>({
  kind: 'services',
  entity: 'service',
  notFound: 'SERVICE_NOT_FOUND',
  // A site may hold 100,000 services: they are queried in SQLite, not kept in memory (store/collection.ts), so an
  // emulator reset to that size does not hold them all parsed (about 11 KiB each). Other fields: a streamed scan.
  queryable: {
    // description: searched by default with the name (the services search, query/text.ts), so a text search runs in SQL.
    fields: ['id', 'name', 'type', 'category.id', 'category.name', 'hidden', 'onlineBooking.enabled', 'mainSlug.name', 'sortOrder', 'createdDate', 'updatedDate', 'description'],
    indexed: ['id', 'name', 'type', 'category.id', 'createdDate'],
  },
  uniques: [
    {
      name: 'slug',
      values: (s) => (s.supportedSlugs ?? []).map((slug) => slug.name),
      code: 'SLUG_ALREADY_EXISTS',
      what: 'slug',
    },
  ],
});

export const BUSINESS_LOCATIONS = defineCollection<BusinessLocationDoc>({
  kind: 'businessLocations',
  entity: 'location',
  notFound: 'LOCATION_NOT_FOUND',
});

export const CATEGORIES = defineCollection<CategoryDoc>({
  kind: 'categories',
  entity: 'category',
  notFound: 'CATEGORY_NOT_FOUND',
});

export const BOOKING_POLICIES = defineCollection<BookingPolicyDoc>({
  kind: 'bookingPolicies',
  entity: 'booking_policy',
  notFound: 'BOOKING_POLICY_NOT_FOUND',
});

export const BOOKING_FORMS = defineCollection<BookingFormDoc>({
  kind: 'bookingForms',
  entity: 'booking_form',
  notFound: 'FORM_NOT_FOUND',
});

/** An add-on of the site (the Add-ons API; services/add-ons.ts): a price and a duration or a largest quantity. */
export type AddOnDoc = {
  id: string;
  revision?: string;
  createdDate?: string;
  updatedDate?: string;
  name: string;
  price: { value: string; currency: string };
  durationInMinutes?: number;
  maxQuantity?: number;
};

/** The site's add-ons, which the add-on groups of its services hold (docs/wire.md "Add-on groups and add-ons"). */
export const ADD_ONS = defineCollection<AddOnDoc>({ kind: 'addOns', entity: 'add_on', notFound: 'ADD_ON_NOT_FOUND' });

/** Every collection of the services family (registered at start, so counts list them even when empty). */
export const SERVICE_COLLECTIONS = [SERVICES, BUSINESS_LOCATIONS, CATEGORIES, BOOKING_POLICIES, BOOKING_FORMS, ADD_ONS];

/** The services collections as one site sees them: what the service rules work on. */
export interface Catalog {
  services: SiteCollection<ServiceDoc>;
  locations: SiteCollection<BusinessLocationDoc>;
  staff: SiteCollection<StaffMemberDoc>;
  categories: SiteCollection<CategoryDoc>;
  policies: SiteCollection<BookingPolicyDoc>;
  forms: SiteCollection<BookingFormDoc>;
  addOns: SiteCollection<AddOnDoc>;
  /** ISO time of the current request or seed step. */
  now: string;
  /** Id generator (random; the seed passes a deterministic one). */
  newId: () => string;
}

/** The catalog of a request's site. */
export function catalogOf(ctx: Pick<RequestContext<unknown>, 'db' | 'now'>, newId: () => string = () => crypto.randomUUID()): Catalog {
  return {
    services: ctx.db(SERVICES),
    locations: ctx.db(BUSINESS_LOCATIONS),
    staff: ctx.db(STAFF_MEMBERS),
    categories: ctx.db(CATEGORIES),
    policies: ctx.db(BOOKING_POLICIES),
    forms: ctx.db(BOOKING_FORMS),
    addOns: ctx.db(ADD_ONS),
    now: ctx.now,
    newId,
  };
}
