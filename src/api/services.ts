/**
 * The services API (spec 000 §7 "Services", 22 calls), one short function per call: path + body + schema.
 * Paths are the SDK URL column of platform-wire.md §1: `/_api/bookings/v2/services…` for single calls,
 * `/bookings/v2/bulk/services/…` for bulk calls. Every function takes the ApiClient first and throws the
 * errors of errors.ts (ValidationError, ApplicationError, SystemError, NetworkError).
 *
 * Reply shapes (the spec says "not shown" for most; these follow the real platform, and the emulator serves
 * exactly these):
 *   create / get / update / set locations / pricing plans add|remove  -> {service}
 *   bulk create / bulk update / bulk delete -> {results:[{itemMetadata:{id,originalIndex,success,error?:{code,
 *       description,data}}, item?}], bulkActionMetadata:{totalSuccesses,totalFailures,undetailedFailures}}
 *       (`item` only when returnEntity; never for delete)
 *   update-by-filter / delete-by-filter -> {jobId}
 *   delete -> {}
 *   query -> {services, pagingMetadata:{count,offset,total,tooManyToCount}}
 *   search -> {services, pagingMetadata:{count,cursors:{next,prev},hasNext}, aggregationData:{results:[{name,
 *       type, fieldPath, values?:{results:[{value,count}]}, ranges?:{results:[{from?,to?,count}]},
 *       scalar?:{type,value}, dateHistogram?:{results:[{value,count}]}}]}}
 *   count -> {count}
 *   policies query -> {bookingPolicies:[{bookingPolicy, connectedServices?, services?, totalServiceCount?}],
 *       pagingMetadata}
 *   booking forms query -> {bookingForms:[{form, connectedServices}], pagingMetadata}
 *   categories query -> {categories}
 *   business locations query -> {businessLocations:{locations}}
 *   custom slug -> {slug, service}
 *   validate slug -> {valid, slugName?, errors?: ('SLUG_CONTAINS_ILLEGAL_CHARACTERS'|'SLUG_ALREADY_EXISTS')[]}
 *   clone -> {service, errors: []}
 */
import * as z from 'zod/mini';
import type { ApiClient } from './client.js';
import { cursorPages, items, offsetPages, type Page, type PagingOptions } from './paging.js';
import { fieldMask } from './query.js';
import {
  AggregationData,
  bulkResult,
  type Aggregation,
  type BulkResult,
  type CursorPaging,
  type Filter,
  JobResponse,
  type Paging,
  PagingMetadata,
  type Sorting,
} from './schemas/common.js';
import {
  BookingForm,
  BookingPolicy,
  BusinessLocation,
  Category,
  ConnectedService,
  type RemovedLocationSessionsAction,
  type RequestedFields,
  Service,
  type ServiceLocation,
  type ServiceUpdateWire,
  type ServiceWire,
  Slug,
  SlugErrorValues,
} from './schemas/service.js';

const SINGLE = '/_api/bookings/v2/services';
const BULK = '/bookings/v2/bulk/services';

/** Options every call accepts. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Who is told about a change to booked sessions, and with what text. */
export interface ParticipantNotification {
  notifyParticipants?: boolean;
  message?: string;
}

/** Options shared by the delete calls (spec 000 §7: "preserveFutureSessionsWithParticipants, participantNotification"). */
export interface DeleteOptions extends CallOptions {
  preserveFutureSessionsWithParticipants?: boolean;
  participantNotification?: ParticipantNotification;
}

/** `{query:{filter, sort, paging}}` of the services query (offset paging, sort at most 50 entries). */
export interface ServiceQuery {
  filter?: Filter;
  sort?: Sorting[];
  paging?: Paging;
}

/** The `search` object of the services search (cursor paging). */
export interface ServiceSearch {
  filter?: Filter;
  sort?: Sorting[];
  cursorPaging?: CursorPaging;
  aggregations?: Aggregation[];
  /** Free-text search: `expression` matched against `fields` (default: all searchable fields). */
  search?: { expression?: string; fields?: string[]; fuzzy?: boolean; mode?: 'OR' | 'AND' };
  timeZone?: string;
}

/** `{query:{filter, sort, cursorPaging}}` of the policies and booking-forms queries. */
export interface CursorQuery {
  filter?: Filter;
  sort?: Sorting[];
  cursorPaging?: CursorPaging;
}

const ServiceReply = z.looseObject({ service: Service });
const ServiceBulkReply = bulkResult(Service);
const EmptyReply = z.looseObject({});

export const QueryServicesReply = z.looseObject({
  services: z.array(Service),
  pagingMetadata: z.optional(PagingMetadata),
});
export type QueryServicesReply = z.infer<typeof QueryServicesReply>;

export const SearchServicesReply = z.looseObject({
  services: z.array(Service),
  pagingMetadata: z.optional(PagingMetadata),
  aggregationData: z.optional(AggregationData),
});
export type SearchServicesReply = z.infer<typeof SearchServicesReply>;

export const CountServicesReply = z.looseObject({ count: z.int() });

export const QueryPoliciesReply = z.looseObject({
  bookingPolicies: z.array(
    z.looseObject({
      bookingPolicy: BookingPolicy,
      connectedServices: z.optional(z.array(ConnectedService)),
      services: z.optional(z.array(Service)),
      totalServiceCount: z.optional(z.int()),
    }),
  ),
  pagingMetadata: z.optional(PagingMetadata),
});
export type QueryPoliciesReply = z.infer<typeof QueryPoliciesReply>;

export const QueryBookingFormsReply = z.looseObject({
  bookingForms: z.array(
    z.looseObject({ form: BookingForm, connectedServices: z.optional(z.array(ConnectedService)) }),
  ),
  pagingMetadata: z.optional(PagingMetadata),
});
export type QueryBookingFormsReply = z.infer<typeof QueryBookingFormsReply>;

export const QueryCategoriesReply = z.looseObject({ categories: z.array(Category) });
export const QueryBusinessLocationsReply = z.looseObject({
  businessLocations: z.looseObject({ locations: z.array(BusinessLocation) }),
});

export const SetCustomSlugReply = z.looseObject({ slug: Slug, service: Service });
export type SetCustomSlugReply = z.infer<typeof SetCustomSlugReply>;

export const ValidateSlugReply = z.looseObject({
  valid: z.boolean(),
  slugName: z.optional(z.string()),
  errors: z.optional(z.array(z.union([z.enum(SlugErrorValues), z.string()]))),
});
export type ValidateSlugReply = z.infer<typeof ValidateSlugReply>;

export const CloneServiceReply = z.looseObject({
  service: Service,
  errors: z.optional(z.array(z.unknown())),
});
export type CloneServiceReply = z.infer<typeof CloneServiceReply>;

function servicePath(id: string, suffix = ''): string {
  return `${SINGLE}/${encodeURIComponent(id)}${suffix}`;
}

/**
 * POST /v2/services: creates a service. `service` is the wire form (no id/revision; dates as ISO strings).
 * @returns the created service with id, revision "1" and dates.
 */
export async function createService(api: ApiClient, service: ServiceWire, opts: CallOptions = {}): Promise<Service> {
  const reply = await api.request({ method: 'POST', path: SINGLE, body: { service }, schema: ServiceReply, signal: opts.signal });
  return reply.service;
}

/**
 * POST /v2/bulk/services/create: creates up to 100 services in one call; per-item outcome in `results`
 * (in request order, `itemMetadata.originalIndex`). `item` is returned only with `returnEntity`.
 */
export function bulkCreateServices(
  api: ApiClient,
  services: ServiceWire[],
  opts: CallOptions & { returnEntity?: boolean } = {},
): Promise<BulkResult<Service>> {
  return api.request({
    method: 'POST',
    path: `${BULK}/create`,
    body: { services, returnEntity: opts.returnEntity ?? false },
    schema: ServiceBulkReply,
    signal: opts.signal,
  });
}

/**
 * GET /v2/services/{serviceId}: one service. The id is repeated as the `serviceId` query parameter as the SDK
 * does (wire §10). @throws ApplicationError NOT_FOUND (404) for an unknown id.
 */
export async function getService(api: ApiClient, id: string, opts: CallOptions = {}): Promise<Service> {
  const reply = await api.request({
    method: 'GET',
    path: servicePath(id),
    query: { serviceId: id },
    schema: ServiceReply,
    signal: opts.signal,
  });
  return reply.service;
}

/**
 * PATCH /v2/services/{service.id}: changes only the `mask` paths (e.g. `['name', 'payment.fixed.price']`),
 * sent as `{service, mask: "name,payment.fixed.price"}`. `service.revision` must be the current revision.
 * Not retried on 5xx: a repeat of a committed change would come back as a 409 conflict.
 * @throws ApplicationError CONFLICT (409) when the revision is stale; ValidationError for bad fields.
 */
export async function updateService(
  api: ApiClient,
  service: ServiceUpdateWire,
  mask: string[],
  opts: CallOptions = {},
): Promise<Service> {
  const reply = await api.request({
    method: 'PATCH',
    path: servicePath(service.id),
    body: { service, mask: fieldMask(mask) },
    schema: ServiceReply,
    signal: opts.signal,
  });
  return reply.service;
}

/**
 * POST /v2/bulk/services/update: up to 100 `{service:{id, revision, ...}, mask}` items, each revision-checked
 * by the server. Because a repeat cannot apply a change twice (the second attempt meets a new revision and
 * reports that item as a conflict), the call is retried on 5xx and network errors unless `idempotent: false`;
 * a caller that retries must recognise an item whose current revision is its sent revision + 1 as done.
 */
export function bulkUpdateServices(
  api: ApiClient,
  updates: { service: ServiceUpdateWire; mask: string[] }[],
  opts: CallOptions & { returnEntity?: boolean; idempotent?: boolean } = {},
): Promise<BulkResult<Service>> {
  return api.request({
    method: 'POST',
    path: `${BULK}/update`,
    body: {
      services: updates.map((u) => ({ service: u.service, mask: fieldMask(u.mask) })),
      returnEntity: opts.returnEntity ?? false,
    },
    schema: ServiceBulkReply,
    idempotent: opts.idempotent ?? true,
    signal: opts.signal,
  });
}

/**
 * POST /v2/bulk/services/update-by-filter: applies the masked fields of `service` to every service matching
 * `filter`, as an asynchronous platform job. @returns `{jobId}`.
 */
export function bulkUpdateServicesByFilter(
  api: ApiClient,
  filter: Filter,
  service: ServiceWire,
  mask: string[],
  opts: CallOptions = {},
): Promise<JobResponse> {
  return api.request({
    method: 'POST',
    path: `${BULK}/update-by-filter`,
    body: { filter, service, mask: fieldMask(mask) },
    schema: JobResponse,
    signal: opts.signal,
  });
}

/**
 * DELETE /v2/services/{serviceId}: options travel as query parameters (`participantNotification.message=...`).
 * @throws ApplicationError NOT_FOUND for an unknown id.
 */
export async function deleteService(api: ApiClient, id: string, opts: DeleteOptions = {}): Promise<void> {
  await api.request({
    method: 'DELETE',
    path: servicePath(id),
    query: {
      serviceId: id,
      preserveFutureSessionsWithParticipants: opts.preserveFutureSessionsWithParticipants,
      participantNotification: opts.participantNotification,
    },
    schema: EmptyReply,
    signal: opts.signal,
  });
}

/** POST /v2/bulk/services/delete: deletes up to 100 services by id, reporting per item. */
export function bulkDeleteServices(api: ApiClient, ids: string[], opts: DeleteOptions = {}): Promise<BulkResult<Service>> {
  return api.request({
    method: 'POST',
    path: `${BULK}/delete`,
    body: {
      ids,
      preserveFutureSessionsWithParticipants: opts.preserveFutureSessionsWithParticipants,
      participantNotification: opts.participantNotification,
    },
    schema: ServiceBulkReply,
    signal: opts.signal,
  });
}

/** POST /v2/bulk/services/delete-by-filter: deletes every service matching `filter` as a platform job. */
export function bulkDeleteServicesByFilter(
  api: ApiClient,
  filter: Filter,
  opts: DeleteOptions = {},
): Promise<JobResponse> {
  return api.request({
    method: 'POST',
    path: `${BULK}/delete-by-filter`,
    body: {
      filter,
      preserveFutureSessionsWithParticipants: opts.preserveFutureSessionsWithParticipants,
      participantNotification: opts.participantNotification,
    },
    schema: JobResponse,
    signal: opts.signal,
  });
}

/**
 * POST /v2/services/search: text search, filter, sort, cursor paging and aggregations (VALUE, RANGE, SCALAR,
 * DATE_HISTOGRAM). To fetch a next page send only `{cursorPaging:{limit, cursor}}` (wire §6).
 */
export function searchServices(api: ApiClient, search: ServiceSearch, opts: CallOptions = {}): Promise<SearchServicesReply> {
  return api.request({
    method: 'POST',
    path: `${SINGLE}/search`,
    body: { search },
    schema: SearchServicesReply,
    idempotent: true,
    signal: opts.signal,
  });
}

/**
 * POST /v2/services/query: filter, sort and offset paging (`paging:{limit<=100, offset}`); `conditionalFields`
 * asks for extra data such as STAFF_MEMBER_DETAILS. Without a sort the platform orders by createdDate ASC.
 */
export function queryServices(
  api: ApiClient,
  query: ServiceQuery,
  opts: CallOptions & { conditionalFields?: RequestedFields[] } = {},
): Promise<QueryServicesReply> {
  return api.request({
    method: 'POST',
    path: `${SINGLE}/query`,
    body: { query, conditionalFields: opts.conditionalFields },
    schema: QueryServicesReply,
    idempotent: true,
    signal: opts.signal,
  });
}

/** POST /v2/services/policies/query: booking policies, each with its connected services. */
export function queryPolicies(api: ApiClient, query: CursorQuery = {}, opts: CallOptions = {}): Promise<QueryPoliciesReply> {
  return api.request({
    method: 'POST',
    path: `${SINGLE}/policies/query`,
    body: { query },
    schema: QueryPoliciesReply,
    idempotent: true,
    signal: opts.signal,
  });
}

/** POST /v2/services/booking-forms/query: booking forms, each with its connected services. */
export function queryBookingForms(
  api: ApiClient,
  query: CursorQuery = {},
  opts: CallOptions & { conditionalFields?: string[] } = {},
): Promise<QueryBookingFormsReply> {
  return api.request({
    method: 'POST',
    path: `${SINGLE}/booking-forms/query`,
    body: { query, conditionalFields: opts.conditionalFields },
    schema: QueryBookingFormsReply,
    idempotent: true,
    signal: opts.signal,
  });
}

/** POST /v2/services/count: number of services matching `filter` (all services without one). */
export async function countServices(api: ApiClient, filter: Filter = {}, opts: CallOptions = {}): Promise<number> {
  const reply = await api.request({
    method: 'POST',
    path: `${SINGLE}/count`,
    body: { filter },
    schema: CountServicesReply,
    idempotent: true,
    signal: opts.signal,
  });
  return reply.count;
}

/** POST /v2/services/locations/query: the site's business locations (`businessLocations.locations`). */
export async function queryBusinessLocations(
  api: ApiClient,
  filter: Filter = {},
  opts: CallOptions = {},
): Promise<BusinessLocation[]> {
  const reply = await api.request({
    method: 'POST',
    path: `${SINGLE}/locations/query`,
    body: { filter },
    schema: QueryBusinessLocationsReply,
    idempotent: true,
    signal: opts.signal,
  });
  return reply.businessLocations.locations;
}

/** POST /v2/services/categories/query: the service categories matching `filter`. */
export async function queryCategories(api: ApiClient, filter: Filter = {}, opts: CallOptions = {}): Promise<Category[]> {
  const reply = await api.request({
    method: 'POST',
    path: `${SINGLE}/categories/query`,
    body: { filter },
    schema: QueryCategoriesReply,
    idempotent: true,
    signal: opts.signal,
  });
  return reply.categories;
}

/** What happens to sessions at a location the service no longer has. */
export interface RemovedLocationSessions {
  action: RemovedLocationSessionsAction;
  /** Required with MOVE_TO_LOCATION: where the sessions go. */
  moveToLocationOptions?: { newLocation: z.input<typeof ServiceLocation> };
}

/**
 * POST /v2/services/{serviceId}/locations: replaces the service's locations. Retried like a read: sending the
 * same full replacement twice leaves the same state.
 */
export async function setServiceLocations(
  api: ApiClient,
  id: string,
  locations: z.input<typeof ServiceLocation>[],
  opts: CallOptions & {
    removedLocationSessionsAction?: RemovedLocationSessions;
    participantNotification?: ParticipantNotification;
  } = {},
): Promise<Service> {
  const reply = await api.request({
    method: 'POST',
    path: servicePath(id, '/locations'),
    body: {
      serviceId: id,
      locations,
      removedLocationSessionsAction: opts.removedLocationSessionsAction,
      participantNotification: opts.participantNotification,
    },
    schema: ServiceReply,
    idempotent: true,
    signal: opts.signal,
  });
  return reply.service;
}

/** POST /v2/services/{serviceId}/pricing-plans/add: links pricing plans (set union, so safe to repeat). */
export function addPricingPlans(api: ApiClient, id: string, pricingPlanIds: string[], opts: CallOptions = {}): Promise<Service> {
  return changePricingPlans(api, id, '/pricing-plans/add', pricingPlanIds, opts);
}

/** POST /v2/services/{serviceId}/pricing-plans/remove: unlinks pricing plans (safe to repeat). */
export function removePricingPlans(api: ApiClient, id: string, pricingPlanIds: string[], opts: CallOptions = {}): Promise<Service> {
  return changePricingPlans(api, id, '/pricing-plans/remove', pricingPlanIds, opts);
}

async function changePricingPlans(
  api: ApiClient,
  id: string,
  suffix: '/pricing-plans/add' | '/pricing-plans/remove',
  pricingPlanIds: string[],
  opts: CallOptions,
): Promise<Service> {
  const reply = await api.request({
    method: 'POST',
    path: servicePath(id, suffix),
    body: { serviceId: id, pricingPlanIds },
    schema: ServiceReply,
    idempotent: true,
    signal: opts.signal,
  });
  return reply.service;
}

/**
 * POST /v2/services/{serviceId}/slugs/custom: sets the service's custom slug (it becomes `mainSlug`).
 * @throws ApplicationError SLUG_ALREADY_EXISTS / SLUG_CONTAINS_ILLEGAL_CHARACTERS (check first with validateSlug).
 */
export function setCustomSlug(api: ApiClient, id: string, slug: string, opts: CallOptions = {}): Promise<SetCustomSlugReply> {
  return api.request({
    method: 'POST',
    path: servicePath(id, '/slugs/custom'),
    body: { serviceId: id, slug },
    schema: SetCustomSlugReply,
    signal: opts.signal,
  });
}

/** POST /v2/services/slugs/validate: whether `slug` could be used as the custom slug of service `serviceId`. */
export function validateSlug(
  api: ApiClient,
  serviceId: string,
  slug: string,
  opts: CallOptions = {},
): Promise<ValidateSlugReply> {
  return api.request({
    method: 'POST',
    path: `${SINGLE}/slugs/validate`,
    body: { serviceId, slug },
    schema: ValidateSlugReply,
    idempotent: true,
    signal: opts.signal,
  });
}

/** POST /v2/services/clone: copies a service under a new id and slug. Not retried on 5xx (a repeat clones twice). */
export function cloneService(api: ApiClient, sourceServiceId: string, opts: CallOptions = {}): Promise<CloneServiceReply> {
  return api.request({
    method: 'POST',
    path: `${SINGLE}/clone`,
    body: { sourceServiceId },
    schema: CloneServiceReply,
    signal: opts.signal,
  });
}

/** Largest page the services query accepts. */
export const MAX_SERVICES_PAGE = 100;

export interface IterateServicesOptions extends PagingOptions, CallOptions {
  filter?: Filter;
  sort?: Sorting[];
  conditionalFields?: RequestedFields[];
}

/**
 * Pages of the services query with offset paging (spec 000 §9), `pageSize` capped at 100 (default 100).
 * Each page carries `pagingMetadata` (with `total` unless `tooManyToCount`).
 */
export function servicePages(api: ApiClient, opts: IterateServicesOptions = {}): AsyncGenerator<Page<Service>> {
  const pageSize = Math.min(opts.pageSize ?? MAX_SERVICES_PAGE, MAX_SERVICES_PAGE);
  return offsetPages<Service>(
    async (paging) => {
      const reply = await queryServices(
        api,
        { filter: opts.filter, sort: opts.sort, paging },
        { conditionalFields: opts.conditionalFields, signal: opts.signal },
      );
      return { items: reply.services, pagingMetadata: reply.pagingMetadata };
    },
    { pageSize, limit: opts.limit },
  );
}

/** Every service matching `filter` (up to `limit`), one at a time; see {@link servicePages}. */
export function iterateServices(api: ApiClient, opts: IterateServicesOptions = {}): AsyncGenerator<Service> {
  return items(servicePages(api, opts));
}

export interface IterateServiceSearchOptions extends PagingOptions, CallOptions {
  filter?: Filter;
  sort?: Sorting[];
  search?: ServiceSearch['search'];
  timeZone?: string;
}

/**
 * Every service found by the search, with cursor paging: the first request carries filter/sort/search, later
 * ones only `cursorPaging` (wire §6). `pageSize` capped at 100. Aggregations are not requested here; call
 * {@link searchServices} for them.
 */
export function iterateServiceSearch(api: ApiClient, opts: IterateServiceSearchOptions = {}): AsyncGenerator<Service> {
  const pageSize = Math.min(opts.pageSize ?? MAX_SERVICES_PAGE, MAX_SERVICES_PAGE);
  return items(
    cursorPages<Service>(
      async (cursorPaging) => {
        const search: ServiceSearch =
          cursorPaging.cursor === undefined
            ? { filter: opts.filter, sort: opts.sort, search: opts.search, timeZone: opts.timeZone, cursorPaging }
            : { cursorPaging };
        const reply = await searchServices(api, search, { signal: opts.signal });
        return { items: reply.services, pagingMetadata: reply.pagingMetadata };
      },
      { pageSize, limit: opts.limit },
    ),
  );
}
