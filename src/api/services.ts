/**
 * The services family (docs/wire.md §14, 22 calls; docs/wire.md §1, §5-§10), declared
 * once as an operation table. The client's calls ({@link services}), the emulator's routes and request
 * validation, the bulk engine's services port and the contract test all come from this table.
 *
 * Where the spec says "not shown" for a reply, the shape follows the real platform (docs/wire.md §8,
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
import { bounded, CountReply, EmptyReply, JobResponse, requestShapes } from './schemas/common.js';
import { RequestedFieldsValues, serviceInputs, serviceReplies as replies, SLUG_MAX } from './schemas/service.js';
import { addOnInputs, addOnReplies, MAX_ADD_ON_GROUPS } from './schemas/service-add-ons.js';

/** Most services one bulk request may hold (docs/wire.md §7). */
export const MAX_BULK_SERVICES = 100;
/** Largest page of the services query and search (docs/wire.md §12, §6). */
export const MAX_SERVICES_PAGE = 100;

// Schemas are built on first use (see OperationSpec): the client never parses a request, and a command uses
// one or two of the replies.
const input = () => ({ ...requestShapes(), ...serviceInputs() });
const bulkOf = <T extends z.ZodMiniType>(item: T) => z.array(item).check(z.minLength(1), z.maxLength(MAX_BULK_SERVICES));
const deleteOptions = () => ({
  preserveFutureSessionsWithParticipants: z.optional(z.boolean()),
  participantNotification: z.optional(input().ParticipantNotificationInput),
});

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
      request: () => z.looseObject({ service: input().ServiceCreate }),
      reply: replies.ServiceReply,
    },
    bulkCreateServices: {
      method: 'POST',
      path: '/v2/bulk/services/create',
      summary: 'Create up to 100 services, each reported on its own',
      request: () => z.looseObject({ services: bulkOf(input().ServiceCreate), returnEntity: z.optional(z.boolean()) }),
      reply: replies.ServiceBulkReply,
      bulkLimit: MAX_BULK_SERVICES,
    },
    getService: {
      method: 'GET',
      path: '/v2/services/{serviceId}',
      summary: 'Get one service (with the conditional fields asked: STAFF_MEMBER_DETAILS fills staffMemberDetails)',
      request: () => z.looseObject({ serviceId: input().Id, conditionalFields: z.optional(z.array(z.enum(RequestedFieldsValues)).check(z.maxLength(5))) }),
      reply: replies.ServiceReply,
    },
    updateService: {
      method: 'PATCH',
      path: '/v2/services/{service.id}',
      summary: 'Change the masked fields of a service at its current revision',
      request: () => z.looseObject({ service: input().ServicePatch, mask: z.optional(input().FieldMaskInput) }),
      reply: replies.ServiceReply,
      revisioned: true,
    },
    bulkUpdateServices: {
      method: 'POST',
      path: '/v2/bulk/services/update',
      summary: 'Change up to 100 services, each at its own revision and with its own field mask',
      request: () => z.looseObject({
        services: bulkOf(z.looseObject({ service: input().ServicePatch, mask: z.optional(input().FieldMaskInput) })),
        returnEntity: z.optional(z.boolean()),
      }),
      reply: replies.ServiceBulkReply,
      idempotent: true,
      revisioned: true,
      bulkLimit: MAX_BULK_SERVICES,
    },
    bulkUpdateServicesByFilter: {
      method: 'POST',
      path: '/v2/bulk/services/update-by-filter',
      summary: 'Change the masked fields of every service matching a filter, as a job',
      request: () => z.looseObject({ filter: input().FilterInput, service: input().ServiceChanges, mask: z.optional(input().FieldMaskInput) }),
      reply: () => JobResponse,
    },
    deleteService: {
      method: 'DELETE',
      path: '/v2/services/{serviceId}',
      summary: 'Delete one service',
      request: () => z.looseObject({ serviceId: input().Id, ...deleteOptions() }),
      reply: () => EmptyReply,
    },
    bulkDeleteServices: {
      method: 'POST',
      path: '/v2/bulk/services/delete',
      summary: 'Delete up to 100 services by id, each reported on its own',
      request: () => z.looseObject({ ids: bulkOf(input().Id), ...deleteOptions() }),
      reply: replies.ServiceBulkReply,
      bulkLimit: MAX_BULK_SERVICES,
    },
    bulkDeleteServicesByFilter: {
      method: 'POST',
      path: '/v2/bulk/services/delete-by-filter',
      summary: 'Delete every service matching a filter, as a job',
      request: () => z.looseObject({ filter: input().FilterInput, ...deleteOptions() }),
      reply: () => JobResponse,
    },
    queryServices: {
      method: 'POST',
      path: '/v2/services/query',
      summary: 'Services matching a filter, sorted, with offset paging (default order: createdDate)',
      request: () => z.looseObject({
        query: z.optional(input().ServiceQueryInput),
        conditionalFields: z.optional(z.array(z.enum(RequestedFieldsValues)).check(z.maxLength(5))),
      }),
      reply: replies.QueryServicesReply,
      idempotent: true,
      paging: { kind: 'offset', items: 'services', wrapper: 'query', maxLimit: MAX_SERVICES_PAGE, filter: true },
    },
    searchServices: {
      method: 'POST',
      path: '/v2/services/search',
      summary: 'Search services by text with filter, sort, aggregations and cursor paging',
      request: () => z.looseObject({ search: z.optional(input().ServiceSearchInput) }),
      reply: replies.SearchServicesReply,
      idempotent: true,
      paging: { kind: 'cursor', items: 'services', wrapper: 'search', maxLimit: MAX_SERVICES_PAGE, filter: true },
    },
    queryPolicies: {
      method: 'POST',
      path: '/v2/services/policies/query',
      summary: 'Booking policies, each with the services that use it',
      request: () => z.looseObject({ query: z.optional(input().CursorQueryInput) }),
      reply: replies.QueryPoliciesReply,
      idempotent: true,
      paging: { kind: 'cursor', items: 'bookingPolicies', wrapper: 'query', maxLimit: 100, filter: true },
    },
    queryBookingForms: {
      method: 'POST',
      path: '/v2/services/booking-forms/query',
      summary: 'Booking forms, each with the services that use it',
      request: () => z.looseObject({ query: z.optional(input().CursorQueryInput), conditionalFields: z.optional(z.array(bounded(100))) }),
      reply: replies.QueryBookingFormsReply,
      idempotent: true,
      paging: { kind: 'cursor', items: 'bookingForms', wrapper: 'query', maxLimit: 100, filter: true },
    },
    countServices: {
      method: 'POST',
      path: '/v2/services/count',
      summary: 'How many services match a filter',
      request: () => z.looseObject({ filter: z.optional(input().FilterInput) }),
      reply: () => CountReply,
      idempotent: true,
    },
    queryLocations: {
      method: 'POST',
      path: '/v2/services/locations/query',
      summary: "The site's business locations (and whether custom and customer locations are in use)",
      request: () => z.looseObject({ filter: z.optional(input().FilterInput) }),
      reply: replies.QueryLocationsReply,
      idempotent: true,
    },
    queryCategories: {
      method: 'POST',
      path: '/v2/services/categories/query',
      summary: 'Service categories matching a filter',
      request: () => z.looseObject({ filter: z.optional(input().FilterInput) }),
      reply: replies.QueryCategoriesReply,
      idempotent: true,
    },
    setServiceLocations: {
      method: 'POST',
      path: '/v2/services/{serviceId}/locations',
      summary: 'Replace the locations of a service, saying what happens to sessions at removed ones',
      request: () => z.looseObject({
        serviceId: input().Id,
        locations: z.array(input().ServiceLocationInput).check(z.maxLength(100)),
        removedLocationSessionsAction: z.optional(input().RemovedLocationSessionsActionInput),
        participantNotification: z.optional(input().ParticipantNotificationInput),
      }),
      reply: replies.ServiceReply,
      idempotent: true,
    },
    enablePricingPlansForService: {
      method: 'POST',
      path: '/v2/services/{serviceId}/pricing-plans/add',
      summary: 'Link pricing plans to a service',
      request: () => z.looseObject({ serviceId: input().Id, pricingPlanIds: z.array(input().Id).check(z.minLength(1), z.maxLength(100)) }),
      reply: replies.ServiceReply,
      idempotent: true,
    },
    disablePricingPlansForService: {
      method: 'POST',
      path: '/v2/services/{serviceId}/pricing-plans/remove',
      summary: 'Unlink pricing plans from a service',
      request: () => z.looseObject({ serviceId: input().Id, pricingPlanIds: z.array(input().Id).check(z.minLength(1), z.maxLength(100)) }),
      reply: replies.ServiceReply,
      idempotent: true,
    },
    setCustomSlug: {
      method: 'POST',
      path: '/v2/services/{serviceId}/slugs/custom',
      summary: 'Set the custom slug of a service (it becomes the main slug)',
      request: () => z.looseObject({ serviceId: input().Id, slug: z.string().check(z.minLength(1), z.maxLength(SLUG_MAX)) }),
      reply: replies.SetCustomSlugReply,
    },
    validateSlug: {
      method: 'POST',
      path: '/v2/services/slugs/validate',
      summary: 'Whether a slug could be the custom slug of a service',
      request: () => z.looseObject({ serviceId: z.optional(input().Id), slug: z.string().check(z.minLength(1), z.maxLength(SLUG_MAX)) }),
      reply: replies.ValidateSlugReply,
      idempotent: true,
    },
    cloneService: {
      method: 'POST',
      path: '/v2/services/clone',
      summary: 'Copy a service under a new id, name and slug',
      request: () => z.looseObject({ sourceServiceId: input().Id }),
      reply: replies.CloneServiceReply,
    },
    // Add-on groups (the module's AddOnGroupsService; docs/wire.md "Add-on groups and add-ons"): every call is a
    // POST naming the service; a group lives on one service (`service.addOnGroups`, at most 3).
    createAddOnGroup: {
      method: 'POST',
      path: '/v2/services/add-on-groups/create',
      summary: "Create an add-on group on a service (it joins the service's addOnGroups)",
      request: () => z.looseObject({ serviceId: input().Id, addOnGroup: addOnInputs().AddOnGroupCreate }),
      reply: addOnReplies.AddOnGroupReply,
    },
    updateAddOnGroup: {
      method: 'POST',
      path: '/v2/services/add-on-groups/update',
      summary: 'Change the name, prompt, limit or add-ons of an add-on group of a service',
      request: () => z.looseObject({ serviceId: input().Id, addOnGroup: addOnInputs().AddOnGroupUpdate, mask: z.optional(input().FieldMaskInput) }),
      reply: addOnReplies.AddOnGroupReply,
    },
    deleteAddOnGroup: {
      method: 'POST',
      path: '/v2/services/add-on-groups/delete',
      summary: 'Delete an add-on group of a service (its add-ons stay)',
      request: () => z.looseObject({ serviceId: input().Id, addOnGroupId: input().Id }),
      reply: () => EmptyReply,
    },
    listAddOnGroupsByServiceId: {
      method: 'POST',
      path: '/v2/services/add-on-groups/list-add-on-groups-by-service-id',
      summary: "A service's add-on groups, each with its add-ons' names, prices and durations",
      request: () => z.looseObject({ serviceId: input().Id, groupIds: z.optional(z.nullable(z.array(input().Id).check(z.maxLength(MAX_ADD_ON_GROUPS)))) }),
      reply: addOnReplies.AddOnGroupsDetailsReply,
      idempotent: true,
    },
    setAddOnsForGroup: {
      method: 'POST',
      path: '/v2/services/add-on-groups/set-add-ons-for-group',
      summary: 'Replace the add-ons of a group, in display order',
      request: () => z.looseObject({ serviceId: input().Id, groupId: input().Id, addOnIds: addOnInputs().AddOnIds }),
      reply: addOnReplies.AddOnGroupReply,
      idempotent: true,
    },
  },
});

/** One typed call per services operation: `services.getService(api, {serviceId})`. */
export const services = callsOf(servicesFamily);

/** The services operations, by SDK method name. */
export const serviceOps = servicesFamily.operations;
