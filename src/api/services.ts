/**
 * The services family (spec 000 section 7 "Services", 22 calls; platform-wire.md sections 1, 5-10), declared
 * once as an operation table. The client's calls ({@link services}), the emulator's routes and request
 * validation, the bulk engine's services port and the contract test all come from this table.
 *
 * Where the spec says "not shown" for a reply, the shape follows the real platform (platform-wire.md section 8,
 * the SDK's typings) and is what the emulator serves: create/get/update/locations/pricing plans `{service}`; bulk
 * `{results:[{itemMetadata, item?}], bulkActionMetadata}`; by-filter `{jobId}`; delete `{}`; query and search
 * `{services, pagingMetadata}` (search adds `aggregationData`); count `{count}`; policies `{bookingPolicies:
 * [{bookingPolicy, connectedServices, services, totalServiceCount}], pagingMetadata}`; booking forms
 * `{bookingForms:[{form, connectedServices, totalServiceCount}], pagingMetadata}`; categories `{categories}`;
 * locations `{businessLocations:{exists, locations}, customLocations, customerLocations}`; custom slug `{slug,
 * service}`; validate slug `{valid, slug, errors}`; clone `{service, errors}`.
 *
 * Retries (`idempotent`): reads, setServiceLocations and the pricing-plan calls (full replacements and set
 * operations) and bulkUpdateServices (each item revision-checked) may be repeated; updateService, setCustomSlug,
 * cloneService, creates and deletes are retried only where the request cannot have been processed.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import {
  bounded,
  CountReply,
  EmptyReply,
  FieldMaskInput,
  FilterInput,
  Id,
  JobResponse,
} from './schemas/common.js';
import {
  CloneServiceReply,
  CursorQueryInput,
  ParticipantNotificationInput,
  QueryBookingFormsReply,
  QueryCategoriesReply,
  QueryLocationsReply,
  QueryPoliciesReply,
  QueryServicesReply,
  RemovedLocationSessionsActionInput,
  RequestedFieldsValues,
  SearchServicesReply,
  ServiceBulkReply,
  ServiceCreate,
  ServiceChanges,
  ServiceLocationInput,
  ServicePatch,
  ServiceQueryInput,
  ServiceReply,
  ServiceSearchInput,
  SetCustomSlugReply,
  SLUG_MAX,
  ValidateSlugReply,
} from './schemas/service.js';

/** Most services one bulk request may hold (wire section 7). */
export const MAX_BULK_SERVICES = 100;
/** Largest page of the services query and search (spec 000 section 9; wire section 6). */
export const MAX_SERVICES_PAGE = 100;

const bulkOf = <T extends z.ZodMiniType>(item: T) => z.array(item).check(z.minLength(1), z.maxLength(MAX_BULK_SERVICES));

const DeleteOptions = {
  preserveFutureSessionsWithParticipants: z.optional(z.boolean()),
  participantNotification: z.optional(ParticipantNotificationInput),
};

export const servicesFamily = defineFamily({
  name: 'services',
  prefixes: [
    {
      proto: '/v2/bulk/services',
      urls: ['/bookings/v2/bulk/services', '/bookings/services/v2/bulk/services', '/_api/bookings/v2/bulk/services'],
    },
    { proto: '/v2/services', urls: ['/_api/bookings/v2/services', '/bookings/v2/services'] },
  ],
  operations: {
    createService: {
      method: 'POST',
      path: '/v2/services',
      summary: 'Create a service; it gets an id, revision "1" and a slug from its name',
      request: z.looseObject({ service: ServiceCreate }),
      reply: ServiceReply,
    },
    bulkCreateServices: {
      method: 'POST',
      path: '/v2/bulk/services/create',
      summary: 'Create up to 100 services, each reported on its own',
      request: z.looseObject({ services: bulkOf(ServiceCreate), returnEntity: z.optional(z.boolean()) }),
      reply: ServiceBulkReply,
      bulkLimit: MAX_BULK_SERVICES,
    },
    getService: {
      method: 'GET',
      path: '/v2/services/{serviceId}',
      summary: 'Get one service',
      request: z.looseObject({ serviceId: Id }),
      reply: ServiceReply,
    },
    updateService: {
      method: 'PATCH',
      path: '/v2/services/{service.id}',
      summary: 'Change the masked fields of a service at its current revision',
      request: z.looseObject({ service: ServicePatch, mask: z.optional(FieldMaskInput) }),
      reply: ServiceReply,
      revisioned: true,
    },
    bulkUpdateServices: {
      method: 'POST',
      path: '/v2/bulk/services/update',
      summary: 'Change up to 100 services, each at its own revision and with its own field mask',
      request: z.looseObject({
        services: bulkOf(z.looseObject({ service: ServicePatch, mask: z.optional(FieldMaskInput) })),
        returnEntity: z.optional(z.boolean()),
      }),
      reply: ServiceBulkReply,
      idempotent: true,
      revisioned: true,
      bulkLimit: MAX_BULK_SERVICES,
    },
    bulkUpdateServicesByFilter: {
      method: 'POST',
      path: '/v2/bulk/services/update-by-filter',
      summary: 'Change the masked fields of every service matching a filter, as a job',
      request: z.looseObject({ filter: FilterInput, service: ServiceChanges, mask: z.optional(FieldMaskInput) }),
      reply: JobResponse,
    },
    deleteService: {
      method: 'DELETE',
      path: '/v2/services/{serviceId}',
      summary: 'Delete one service',
      request: z.looseObject({ serviceId: Id, ...DeleteOptions }),
      reply: EmptyReply,
    },
    bulkDeleteServices: {
      method: 'POST',
      path: '/v2/bulk/services/delete',
      summary: 'Delete up to 100 services by id, each reported on its own',
      request: z.looseObject({ ids: bulkOf(Id), ...DeleteOptions }),
      reply: ServiceBulkReply,
      bulkLimit: MAX_BULK_SERVICES,
    },
    bulkDeleteServicesByFilter: {
      method: 'POST',
      path: '/v2/bulk/services/delete-by-filter',
      summary: 'Delete every service matching a filter, as a job',
      request: z.looseObject({ filter: FilterInput, ...DeleteOptions }),
      reply: JobResponse,
    },
    queryServices: {
      method: 'POST',
      path: '/v2/services/query',
      summary: 'Services matching a filter, sorted, with offset paging (default order: createdDate)',
      request: z.looseObject({
        query: z.optional(ServiceQueryInput),
        conditionalFields: z.optional(z.array(z.enum(RequestedFieldsValues))),
      }),
      reply: QueryServicesReply,
      idempotent: true,
      paging: { kind: 'offset', items: 'services', wrapper: 'query', maxLimit: MAX_SERVICES_PAGE, filter: true },
    },
    searchServices: {
      method: 'POST',
      path: '/v2/services/search',
      summary: 'Search services by text with filter, sort, aggregations and cursor paging',
      request: z.looseObject({ search: z.optional(ServiceSearchInput) }),
      reply: SearchServicesReply,
      idempotent: true,
      paging: { kind: 'cursor', items: 'services', wrapper: 'search', maxLimit: MAX_SERVICES_PAGE, filter: true },
    },
    queryPolicies: {
      method: 'POST',
      path: '/v2/services/policies/query',
      summary: 'Booking policies, each with the services that use it',
      request: z.looseObject({ query: z.optional(CursorQueryInput) }),
      reply: QueryPoliciesReply,
      idempotent: true,
      paging: { kind: 'cursor', items: 'bookingPolicies', wrapper: 'query', maxLimit: 100, filter: true },
    },
    queryBookingForms: {
      method: 'POST',
      path: '/v2/services/booking-forms/query',
      summary: 'Booking forms, each with the services that use it',
      request: z.looseObject({ query: z.optional(CursorQueryInput), conditionalFields: z.optional(z.array(bounded(100))) }),
      reply: QueryBookingFormsReply,
      idempotent: true,
      paging: { kind: 'cursor', items: 'bookingForms', wrapper: 'query', maxLimit: 100, filter: true },
    },
    countServices: {
      method: 'POST',
      path: '/v2/services/count',
      summary: 'How many services match a filter',
      request: z.looseObject({ filter: z.optional(FilterInput) }),
      reply: CountReply,
      idempotent: true,
    },
    queryLocations: {
      method: 'POST',
      path: '/v2/services/locations/query',
      summary: "The site's business locations (and whether custom and customer locations are in use)",
      request: z.looseObject({ filter: z.optional(FilterInput) }),
      reply: QueryLocationsReply,
      idempotent: true,
    },
    queryCategories: {
      method: 'POST',
      path: '/v2/services/categories/query',
      summary: 'Service categories matching a filter',
      request: z.looseObject({ filter: z.optional(FilterInput) }),
      reply: QueryCategoriesReply,
      idempotent: true,
    },
    setServiceLocations: {
      method: 'POST',
      path: '/v2/services/{serviceId}/locations',
      summary: 'Replace the locations of a service, saying what happens to sessions at removed ones',
      request: z.looseObject({
        serviceId: Id,
        locations: z.array(ServiceLocationInput).check(z.maxLength(100)),
        removedLocationSessionsAction: z.optional(RemovedLocationSessionsActionInput),
        participantNotification: z.optional(ParticipantNotificationInput),
      }),
      reply: ServiceReply,
      idempotent: true,
    },
    enablePricingPlansForService: {
      method: 'POST',
      path: '/v2/services/{serviceId}/pricing-plans/add',
      summary: 'Link pricing plans to a service',
      request: z.looseObject({ serviceId: Id, pricingPlanIds: z.array(Id).check(z.minLength(1), z.maxLength(100)) }),
      reply: ServiceReply,
      idempotent: true,
    },
    disablePricingPlansForService: {
      method: 'POST',
      path: '/v2/services/{serviceId}/pricing-plans/remove',
      summary: 'Unlink pricing plans from a service',
      request: z.looseObject({ serviceId: Id, pricingPlanIds: z.array(Id).check(z.minLength(1), z.maxLength(100)) }),
      reply: ServiceReply,
      idempotent: true,
    },
    setCustomSlug: {
      method: 'POST',
      path: '/v2/services/{serviceId}/slugs/custom',
      summary: 'Set the custom slug of a service (it becomes the main slug)',
      request: z.looseObject({ serviceId: Id, slug: z.string().check(z.minLength(1), z.maxLength(SLUG_MAX)) }),
      reply: SetCustomSlugReply,
    },
    validateSlug: {
      method: 'POST',
      path: '/v2/services/slugs/validate',
      summary: 'Whether a slug could be the custom slug of a service',
      request: z.looseObject({ serviceId: z.optional(Id), slug: z.string().check(z.minLength(1), z.maxLength(SLUG_MAX)) }),
      reply: ValidateSlugReply,
      idempotent: true,
    },
    cloneService: {
      method: 'POST',
      path: '/v2/services/clone',
      summary: 'Copy a service under a new id, name and slug',
      request: z.looseObject({ sourceServiceId: Id }),
      reply: CloneServiceReply,
    },
  },
});

/** One typed call per services operation: `services.getService(api, {serviceId})`. */
export const services = callsOf(servicesFamily);

/** The services operations, by SDK method name. */
export const serviceOps = servicesFamily.operations;
