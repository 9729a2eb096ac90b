/**
 * Creating a site's service furniture (docs/catalogue.md "The catalogue file", `services apply --create-missing`): a category
 * (Bookings Categories v2, `POST /bookings/v2/categories` with `{category: {name}}`, answered `{category}`) and a
 * booking policy (Booking Policies v1, `POST /bookings/v1/booking-policies` with `{bookingPolicy: {name, ...}}`,
 * answered `{bookingPolicy}`; also get, update, delete, set-default, query, count and the strictest of several). Booking forms, staff members, business locations and pricing plans are not created
 * by this tool.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { bounded, CountReply, EmptyReply, PagingMetadata, requestShapes } from './schemas/common.js';
import { BookingPolicy, Category, serviceInputs } from './schemas/service.js';

/** Longest category or policy name (the platform's booking policy `name` maxLength). */
export const FURNITURE_NAME_MAX = 400;

const name = () => bounded(FURNITURE_NAME_MAX).check(z.refine((v) => v.trim() !== '', 'must not be blank'));

/** Longest category name on update (SDK typings of Bookings Categories v2: `name` `@maxLength 100`). */
export const MAX_CATEGORY_NAME = 100;

const categoryName = () => bounded(MAX_CATEGORY_NAME).check(z.refine((v) => v.trim() !== '', 'must not be blank'));

/** Where `moveCategory` puts a category (SDK typings: `Position`). */
export const CategoryPositionValues = ['FIRST', 'LAST', 'AFTER_CATEGORY'] as const;

/** Largest page of the categories query. */
export const MAX_CATEGORIES_PAGE = 100;

/**
 * The categories family table (Bookings Categories v2, `@wix/auto_sdk_bookings_categories-v-2`): create, get,
 * update (revision-checked), delete, count, move (`POST /v2/categories/set-position/{categoryId}` `{position:
 * FIRST|LAST|AFTER_CATEGORY, afterCategoryId}`), and the query, a GET whose `query` travels as `.r=` and, past 4,000 characters of parameters, as a POST of the same
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
    getCategory: {
      method: 'GET',
      path: '/v2/categories/{categoryId}',
      summary: 'One service category',
      request: () => z.looseObject({ categoryId: requestShapes().Id }),
      reply: () => z.looseObject({ category: Category }),
    },
    updateCategory: {
      method: 'PATCH',
      path: '/v2/categories/{category.id}',
      summary: "Rename a service category (revision-checked; its services show the new name)",
      request: () => z.looseObject({ category: z.looseObject({ id: requestShapes().Id, revision: requestShapes().RevisionInput, name: z.optional(categoryName()) }) }),
      reply: () => z.looseObject({ category: Category }),
      revisioned: true,
    },
    deleteCategory: {
      method: 'DELETE',
      path: '/v2/categories/{categoryId}',
      summary: 'Delete a service category (its services keep naming it, hidden from customers until given another)',
      request: () => z.looseObject({ categoryId: requestShapes().Id }),
      reply: () => EmptyReply,
    },
    countCategories: {
      method: 'POST',
      path: '/v2/categories/count',
      summary: 'How many service categories match a filter',
      request: () => z.looseObject({ filter: z.optional(z.nullable(requestShapes().FilterInput)) }),
      reply: () => CountReply,
      idempotent: true,
    },
    moveCategory: {
      method: 'POST',
      path: '/v2/categories/set-position/{categoryId}',
      summary: 'Move a service category first, last or after another one (its sortOrder changes)',
      request: () => z.looseObject({ categoryId: requestShapes().Id, position: z.optional(z.enum(CategoryPositionValues)), afterCategoryId: z.optional(z.nullable(requestShapes().Id)) }),
      reply: () => z.looseObject({ category: z.optional(Category) }),
    },
  },
});

/** Largest page of the booking policies query, and most policies the strictest-policy call takes (SDK typings: `@max 100`, `@maxSize 100`). */
export const MAX_POLICIES_PAGE = 100;

/**
 * The booking policies family table, as the SDK module `@wix/auto_sdk_bookings_booking-policies` sends it
 * (build/cjs/index.js request builders): create, get, update (revision-checked), delete, set-default, the query
 * (`POST /v1/booking-policies/query` `{query: {filter, sort, cursorPaging}}` -> `{bookingPolicies, pagingMetadata}`),
 * the count (`POST /v1/booking-policies/count` `{filter}` -> `{count}`) and the strictest policy of several
 * (`POST /v1/booking-policies/strictest` `{bookingPolicyIds}` -> `{bookingPolicy}`, a policy that is not stored:
 * its `id` is null). The services family also queries policies, each with its services (queryPolicies).
 */
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
    getBookingPolicy: {
      method: 'GET',
      path: '/v1/booking-policies/{bookingPolicyId}',
      summary: 'One booking policy',
      request: () => z.looseObject({ bookingPolicyId: requestShapes().Id }),
      reply: () => z.looseObject({ bookingPolicy: BookingPolicy }),
    },
    updateBookingPolicy: {
      method: 'PATCH',
      path: '/v1/booking-policies/{bookingPolicy.id}',
      summary: "Change a booking policy's name, text or rules (revision-checked)",
      request: () => z.looseObject({ bookingPolicy: z.looseObject({ id: requestShapes().Id, revision: requestShapes().RevisionInput, name: z.optional(name()) }) }),
      reply: () => z.looseObject({ bookingPolicy: BookingPolicy }),
      revisioned: true,
    },
    deleteBookingPolicy: {
      method: 'DELETE',
      path: '/v1/booking-policies/{bookingPolicyId}',
      summary: 'Delete a booking policy (not the default one); its services get the default policy',
      request: () => z.looseObject({ bookingPolicyId: requestShapes().Id }),
      reply: () => EmptyReply,
    },
    setDefaultBookingPolicy: {
      method: 'POST',
      path: '/v1/booking-policies/{bookingPolicyId}:setDefault',
      summary: "Make a booking policy the site's default",
      request: () => z.looseObject({ bookingPolicyId: requestShapes().Id }),
      reply: () => z.looseObject({ currentDefaultBookingPolicy: z.optional(BookingPolicy), previousDefaultBookingPolicy: z.optional(BookingPolicy) }),
    },
    queryBookingPolicies: {
      method: 'POST',
      path: '/v1/booking-policies/query',
      summary: 'Booking policies matching a filter, sorted, cursor-paged',
      request: () => z.looseObject({ query: z.optional(serviceInputs().CursorQueryInput) }),
      reply: () => z.looseObject({ bookingPolicies: z.array(BookingPolicy), pagingMetadata: z.optional(PagingMetadata) }),
      idempotent: true,
      paging: { kind: 'cursor', items: 'bookingPolicies', wrapper: 'query', maxLimit: MAX_POLICIES_PAGE, filter: true },
    },
    countBookingPolicies: {
      method: 'POST',
      path: '/v1/booking-policies/count',
      summary: 'How many booking policies match a filter',
      request: () => z.looseObject({ filter: z.optional(requestShapes().FilterInput) }),
      reply: () => CountReply,
      idempotent: true,
    },
    getStrictestBookingPolicy: {
      method: 'POST',
      path: '/v1/booking-policies/strictest',
      summary: 'The strictest version of each rule of several booking policies (a policy not stored: no id)',
      request: () => z.looseObject({ bookingPolicyIds: z.array(requestShapes().Id).check(z.minLength(1), z.maxLength(MAX_POLICIES_PAGE)) }),
      reply: () => z.looseObject({ bookingPolicy: z.optional(z.looseObject({ ...BookingPolicy.shape, id: z.nullish(z.string()) })) }),
      idempotent: true,
    },
  },
});

/** Typed calls: `categories.createCategory(api, {category: {name}})`. */
export const categories = callsOf(categoriesFamily);
/** Typed calls: `bookingPolicies.createBookingPolicy(api, {bookingPolicy: {name}})`. */
export const bookingPolicies = callsOf(bookingPoliciesFamily);
