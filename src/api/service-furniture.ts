/**
 * Creating a site's service furniture (docs/catalogue.md "The catalogue file", `services apply --create-missing`): a category
 * (Bookings Categories v2, `POST /bookings/v2/categories` with `{category: {name}}`, answered `{category}`) and a
 * booking policy (Booking Policies v1, `POST /bookings/v1/booking-policies` with `{bookingPolicy: {name, ...}}`,
 * answered `{bookingPolicy}`). Booking forms, staff members, business locations and pricing plans are not created
 * by this tool.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { bounded, PagingMetadata } from './schemas/common.js';
import { BookingPolicy, Category, serviceInputs } from './schemas/service.js';

/** Longest category or policy name (the platform's booking policy `name` maxLength). */
export const FURNITURE_NAME_MAX = 400;

const name = () => bounded(FURNITURE_NAME_MAX).check(z.refine((v) => v.trim() !== '', 'must not be blank'));

/** Largest page of the categories query. */
export const MAX_CATEGORIES_PAGE = 100;

/**
 * The categories family table (Bookings Categories v2, `@wix/auto_sdk_bookings_categories-v-2`): create, and the
 * query, a GET whose `query` travels as `.r=` and, past 4,000 characters of parameters, as a POST of the same
 * request to the same path (the module's `fallback`; docs/wire.md §5). The services family also reads categories
 * (its own queryCategories).
 */
export const categoriesFamily = defineFamily({
  name: 'categories',
  prefixes: [{ proto: '/v2/categories', urls: ['/bookings/v2/categories'] }],
  operations: {
    queryCategories: {
      method: 'GET',
      path: '/v2/categories/query',
      summary: 'Categories matching a filter, cursor-paged (a long query goes out as a POST)',
      request: () => z.looseObject({ query: z.optional(serviceInputs().CursorQueryInput) }),
      reply: () => z.looseObject({ categories: z.array(Category), pagingMetadata: z.optional(PagingMetadata) }),
      paging: { kind: 'cursor', items: 'categories', wrapper: 'query', maxLimit: MAX_CATEGORIES_PAGE, filter: true },
      complexQuery: true,
      longGetFallback: true,
    },
    createCategory: {
      method: 'POST',
      path: '/v2/categories',
      summary: 'Create a service category',
      request: () => z.looseObject({ category: z.looseObject({ name: name(), sortOrder: z.optional(z.int()) }) }),
      reply: () => z.looseObject({ category: Category }),
    },
  },
});

/** The booking policies family table (create; the services family queries them). */
export const bookingPoliciesFamily = defineFamily({
  name: 'booking-policies',
  prefixes: [{ proto: '/v1/booking-policies', urls: ['/bookings/v1/booking-policies'] }],
  operations: {
    createBookingPolicy: {
      method: 'POST',
      path: '/v1/booking-policies',
      summary: 'Create a booking policy (rules not given take the platform defaults)',
      request: () => z.looseObject({ bookingPolicy: z.looseObject({ name: name() }) }),
      reply: () => z.looseObject({ bookingPolicy: BookingPolicy }),
    },
  },
});

/** Typed calls: `categories.createCategory(api, {category: {name}})`. */
export const categories = callsOf(categoriesFamily);
/** Typed calls: `bookingPolicies.createBookingPolicy(api, {bookingPolicy: {name}})`. */
export const bookingPolicies = callsOf(bookingPoliciesFamily);
