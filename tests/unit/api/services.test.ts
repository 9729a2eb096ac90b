/**
 * The services calls derived from the family table, against a mock transport: each sends the method, SDK URL
 * (docs/wire.md §1) and body of the platform, and parses the reply with the table's schema (dates become Date).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { operationsOf } from '../../../src/api/family.js';
import { collect, items, listPages } from '../../../src/api/paging.js';
import { serviceOps, services, servicesFamily } from '../../../src/api/services.js';
import { harness, on, type Harness } from './helpers.js';

const S = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  revision: '2',
  name: `Service ${id}`,
  createdDate: '2025-01-01T00:00:00Z',
  ...extra,
});
const BULK = {
  results: [{ itemMetadata: { id: 'a', originalIndex: 0, success: true }, item: S('a') }],
  bulkActionMetadata: { totalSuccesses: 1, totalFailures: 0, undetailedFailures: 0 },
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.agent.close();
  h = undefined;
});

interface Row {
  name: keyof typeof services;
  call: (h: Harness) => Promise<unknown>;
  method: string;
  path: string;
  body?: unknown;
  reply: unknown;
  check: (result: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const rows: Row[] = [
  {
    name: 'createService',
    call: (h) => services.createService(h.api, { service: { name: 'Yoga', type: 'CLASS' } }),
    method: 'POST',
    path: '/_api/bookings/v2/services',
    body: { service: { name: 'Yoga', type: 'CLASS' } },
    reply: { service: S('new') },
    check: (r) => expect(r.service.createdDate).toBeInstanceOf(Date),
  },
  {
    name: 'bulkCreateServices',
    call: (h) => services.bulkCreateServices(h.api, { services: [{ name: 'A', type: 'APPOINTMENT' }], returnEntity: true }),
    method: 'POST',
    path: '/bookings/v2/bulk/services/create',
    body: { services: [{ name: 'A', type: 'APPOINTMENT' }], returnEntity: true },
    reply: BULK,
    check: (r) => expect(r.bulkActionMetadata.totalSuccesses).toBe(1),
  },
  {
    name: 'getService',
    call: (h) => services.getService(h.api, { serviceId: 'svc 1' }),
    method: 'GET',
    path: '/_api/bookings/v2/services/svc%201?serviceId=svc+1',
    reply: { service: S('svc 1') },
    check: (r) => expect(r.service.id).toBe('svc 1'),
  },
  {
    name: 'updateService',
    call: (h) => services.updateService(h.api, { service: { id: 'a', revision: '2', name: 'New' }, mask: 'name,description' }),
    method: 'PATCH',
    path: '/_api/bookings/v2/services/a',
    body: { service: { id: 'a', revision: '2', name: 'New' }, mask: 'name,description' },
    reply: { service: S('a', { revision: '3', name: 'New' }) },
    check: (r) => expect(r.service.revision).toBe('3'),
  },
  {
    name: 'bulkUpdateServices',
    call: (h) => services.bulkUpdateServices(h.api, { services: [{ service: { id: 'a', revision: '2', hidden: true }, mask: 'hidden' }], returnEntity: true }),
    method: 'POST',
    path: '/bookings/v2/bulk/services/update',
    body: { services: [{ service: { id: 'a', revision: '2', hidden: true }, mask: 'hidden' }], returnEntity: true },
    reply: BULK,
    check: (r) => expect(r.results[0].itemMetadata.success).toBe(true),
  },
  {
    name: 'bulkUpdateServicesByFilter',
    call: (h) => services.bulkUpdateServicesByFilter(h.api, { filter: { type: 'CLASS' }, service: { hidden: true }, mask: 'hidden' }),
    method: 'POST',
    path: '/bookings/v2/bulk/services/update-by-filter',
    body: { filter: { type: 'CLASS' }, service: { hidden: true }, mask: 'hidden' },
    reply: { jobId: 'job-1' },
    check: (r) => expect(r).toEqual({ jobId: 'job-1' }),
  },
  {
    name: 'deleteService',
    call: (h) =>
      services.deleteService(h.api, {
        serviceId: 'a',
        preserveFutureSessionsWithParticipants: true,
        participantNotification: { notifyParticipants: true, message: 'Closed' },
      }),
    method: 'DELETE',
    path:
      '/_api/bookings/v2/services/a?serviceId=a&preserveFutureSessionsWithParticipants=true' +
      '&participantNotification.notifyParticipants=true&participantNotification.message=Closed',
    reply: {},
    check: (r) => expect(r).toEqual({}),
  },
  {
    name: 'bulkDeleteServices',
    call: (h) => services.bulkDeleteServices(h.api, { ids: ['a', 'b'], preserveFutureSessionsWithParticipants: false }),
    method: 'POST',
    path: '/bookings/v2/bulk/services/delete',
    body: { ids: ['a', 'b'], preserveFutureSessionsWithParticipants: false },
    reply: { results: [], bulkActionMetadata: { totalSuccesses: 2, totalFailures: 0, undetailedFailures: 0 } },
    check: (r) => expect(r.bulkActionMetadata.totalSuccesses).toBe(2),
  },
  {
    name: 'bulkDeleteServicesByFilter',
    call: (h) => services.bulkDeleteServicesByFilter(h.api, { filter: { hidden: true } }),
    method: 'POST',
    path: '/bookings/v2/bulk/services/delete-by-filter',
    body: { filter: { hidden: true } },
    reply: { jobId: 'job-2' },
    check: (r) => expect(r).toEqual({ jobId: 'job-2' }),
  },
  {
    name: 'searchServices',
    call: (h) =>
      services.searchServices(h.api, {
        search: { search: { expression: 'yoga' }, cursorPaging: { limit: 5 }, aggregations: [{ name: 'byType', type: 'VALUE', fieldPath: 'type' }] },
      }),
    method: 'POST',
    path: '/_api/bookings/v2/services/search',
    body: { search: { search: { expression: 'yoga' }, cursorPaging: { limit: 5 }, aggregations: [{ name: 'byType', type: 'VALUE', fieldPath: 'type' }] } },
    reply: {
      services: [S('a')],
      pagingMetadata: { count: 1, cursors: {}, hasNext: false },
      aggregationData: { results: [{ name: 'byType', type: 'VALUE', fieldPath: 'type', values: { results: [{ value: 'CLASS', count: 1 }] } }] },
    },
    check: (r) => {
      expect(r.aggregationData?.results[0].values?.results).toEqual([{ value: 'CLASS', count: 1 }]);
      expect(r.services[0].createdDate).toBeInstanceOf(Date);
    },
  },
  {
    name: 'queryServices',
    call: (h) =>
      services.queryServices(h.api, {
        query: { filter: { type: 'CLASS' }, sort: [{ fieldName: 'name', order: 'ASC' }], paging: { limit: 2, offset: 0 } },
        conditionalFields: ['STAFF_MEMBER_DETAILS'],
      }),
    method: 'POST',
    path: '/_api/bookings/v2/services/query',
    body: {
      query: { filter: { type: 'CLASS' }, sort: [{ fieldName: 'name', order: 'ASC' }], paging: { limit: 2, offset: 0 } },
      conditionalFields: ['STAFF_MEMBER_DETAILS'],
    },
    reply: { services: [S('a')], pagingMetadata: { count: 1, offset: 0, total: 1, tooManyToCount: false } },
    check: (r) => expect(r.pagingMetadata?.total).toBe(1),
  },
  {
    name: 'queryPolicies',
    call: (h) => services.queryPolicies(h.api, { query: { cursorPaging: { limit: 10 } } }),
    method: 'POST',
    path: '/_api/bookings/v2/services/policies/query',
    body: { query: { cursorPaging: { limit: 10 } } },
    reply: {
      bookingPolicies: [{ bookingPolicy: { id: 'p1', createdDate: '2025-01-01T00:00:00Z' }, connectedServices: [{ id: 'a', name: 'A' }], totalServiceCount: 1 }],
      pagingMetadata: { count: 1, cursors: {} },
    },
    check: (r) => {
      expect(r.bookingPolicies[0].bookingPolicy.createdDate).toBeInstanceOf(Date);
      expect(r.bookingPolicies[0].connectedServices).toEqual([{ id: 'a', name: 'A' }]);
    },
  },
  {
    name: 'queryBookingForms',
    call: (h) => services.queryBookingForms(h.api, { query: {}, conditionalFields: ['DEFAULT_BOOKING_FORM'] }),
    method: 'POST',
    path: '/_api/bookings/v2/services/booking-forms/query',
    body: { query: {}, conditionalFields: ['DEFAULT_BOOKING_FORM'] },
    reply: { bookingForms: [{ form: { id: 'f1', name: 'Default' }, connectedServices: [] }], pagingMetadata: {} },
    check: (r) => expect(r.bookingForms[0].form.id).toBe('f1'),
  },
  {
    name: 'countServices',
    call: (h) => services.countServices(h.api, { filter: { hidden: false } }),
    method: 'POST',
    path: '/_api/bookings/v2/services/count',
    body: { filter: { hidden: false } },
    reply: { count: 42 },
    check: (r) => expect(r.count).toBe(42),
  },
  {
    name: 'queryLocations',
    call: (h) => services.queryLocations(h.api, { filter: {} }),
    method: 'POST',
    path: '/_api/bookings/v2/services/locations/query',
    body: { filter: {} },
    reply: { businessLocations: { locations: [{ id: 'bl-1', name: 'Main', default: true }] } },
    check: (r) => expect(r.businessLocations.locations).toEqual([{ id: 'bl-1', name: 'Main', default: true }]),
  },
  {
    name: 'queryCategories',
    call: (h) => services.queryCategories(h.api, { filter: { name: 'Fitness' } }),
    method: 'POST',
    path: '/_api/bookings/v2/services/categories/query',
    body: { filter: { name: 'Fitness' } },
    reply: { categories: [{ id: 'c1', name: 'Fitness' }] },
    check: (r) => expect(r.categories).toEqual([{ id: 'c1', name: 'Fitness' }]),
  },
  {
    name: 'setServiceLocations',
    call: (h) =>
      services.setServiceLocations(h.api, { serviceId: 'a', locations: [{ type: 'CUSTOMER' }], removedLocationSessionsAction: { action: 'KEEP_AT_CURRENT_LOCATION' } }),
    method: 'POST',
    path: '/_api/bookings/v2/services/a/locations',
    body: { serviceId: 'a', locations: [{ type: 'CUSTOMER' }], removedLocationSessionsAction: { action: 'KEEP_AT_CURRENT_LOCATION' } },
    reply: { service: S('a', { locations: [{ type: 'CUSTOMER' }] }) },
    check: (r) => expect(r.service.locations).toEqual([{ type: 'CUSTOMER' }]),
  },
  {
    name: 'enablePricingPlansForService',
    call: (h) => services.enablePricingPlansForService(h.api, { serviceId: 'a', pricingPlanIds: ['plan-1'] }),
    method: 'POST',
    path: '/_api/bookings/v2/services/a/pricing-plans/add',
    body: { serviceId: 'a', pricingPlanIds: ['plan-1'] },
    reply: { service: S('a', { payment: { pricingPlanIds: ['plan-1'] } }) },
    check: (r) => expect(r.service.payment.pricingPlanIds).toEqual(['plan-1']),
  },
  {
    name: 'disablePricingPlansForService',
    call: (h) => services.disablePricingPlansForService(h.api, { serviceId: 'a', pricingPlanIds: ['plan-1'] }),
    method: 'POST',
    path: '/_api/bookings/v2/services/a/pricing-plans/remove',
    body: { serviceId: 'a', pricingPlanIds: ['plan-1'] },
    reply: { service: S('a', { payment: { pricingPlanIds: [] } }) },
    check: (r) => expect(r.service.payment.pricingPlanIds).toEqual([]),
  },
  {
    name: 'setCustomSlug',
    call: (h) => services.setCustomSlug(h.api, { serviceId: 'a', slug: 'my-yoga' }),
    method: 'POST',
    path: '/_api/bookings/v2/services/a/slugs/custom',
    body: { serviceId: 'a', slug: 'my-yoga' },
    reply: { slug: { name: 'my-yoga', custom: true, createdDate: '2026-01-01T00:00:00Z' }, service: S('a') },
    check: (r) => expect(r.slug.createdDate).toBeInstanceOf(Date),
  },
  {
    name: 'validateSlug',
    call: (h) => services.validateSlug(h.api, { serviceId: 'a', slug: 'bad slug!' }),
    method: 'POST',
    path: '/_api/bookings/v2/services/slugs/validate',
    body: { serviceId: 'a', slug: 'bad slug!' },
    reply: { valid: false, slug: 'bad slug!', errors: ['SLUG_CONTAINS_ILLEGAL_CHARACTERS'] },
    check: (r) => expect(r).toEqual({ valid: false, slug: 'bad slug!', errors: ['SLUG_CONTAINS_ILLEGAL_CHARACTERS'] }),
  },
  {
    name: 'cloneService',
    call: (h) => services.cloneService(h.api, { sourceServiceId: 'a' }),
    method: 'POST',
    path: '/_api/bookings/v2/services/clone',
    body: { sourceServiceId: 'a' },
    reply: { service: S('b'), errors: [] },
    check: (r) => expect(r.service.id).toBe('b'),
  },
  // Add-on groups (docs/wire.md "Add-on groups and add-ons"): every call a POST naming the service.
  {
    name: 'createAddOnGroup',
    call: (h) => services.createAddOnGroup(h.api, { serviceId: 'a', addOnGroup: { name: 'Extras', addOnIds: ['x'] } }),
    method: 'POST',
    path: '/_api/bookings/v2/services/add-on-groups/create',
    body: { serviceId: 'a', addOnGroup: { name: 'Extras', addOnIds: ['x'] } },
    reply: { addOnGroup: { id: 'g', name: 'Extras', addOnIds: ['x'] } },
    check: (r) => expect(r.addOnGroup).toEqual({ id: 'g', name: 'Extras', addOnIds: ['x'] }),
  },
  {
    name: 'updateAddOnGroup',
    call: (h) => services.updateAddOnGroup(h.api, { serviceId: 'a', addOnGroup: { id: 'g', prompt: 'Pick' }, mask: 'prompt' }),
    method: 'POST',
    path: '/_api/bookings/v2/services/add-on-groups/update',
    body: { serviceId: 'a', addOnGroup: { id: 'g', prompt: 'Pick' }, mask: 'prompt' },
    reply: { addOnGroup: { id: 'g', name: 'Extras', prompt: 'Pick' } },
    check: (r) => expect(r.addOnGroup.prompt).toBe('Pick'),
  },
  {
    name: 'deleteAddOnGroup',
    call: (h) => services.deleteAddOnGroup(h.api, { serviceId: 'a', addOnGroupId: 'g' }),
    method: 'POST',
    path: '/_api/bookings/v2/services/add-on-groups/delete',
    body: { serviceId: 'a', addOnGroupId: 'g' },
    reply: {},
    check: (r) => expect(r).toEqual({}),
  },
  {
    name: 'listAddOnGroupsByServiceId',
    call: (h) => services.listAddOnGroupsByServiceId(h.api, { serviceId: 'a' }),
    method: 'POST',
    path: '/_api/bookings/v2/services/add-on-groups/list-add-on-groups-by-service-id',
    body: { serviceId: 'a' },
    reply: { addOnGroupsDetails: [{ groupId: 'g', groupName: 'Extras', addOns: [{ addOnId: 'x', name: 'Towel', price: { value: '5', currency: 'USD' }, maxQuantity: 2 }] }] },
    check: (r) => expect(r.addOnGroupsDetails[0]!.addOns![0]!.price).toEqual({ value: '5', currency: 'USD' }),
  },
  {
    name: 'setAddOnsForGroup',
    call: (h) => services.setAddOnsForGroup(h.api, { serviceId: 'a', groupId: 'g', addOnIds: ['y', 'x'] }),
    method: 'POST',
    path: '/_api/bookings/v2/services/add-on-groups/set-add-ons-for-group',
    body: { serviceId: 'a', groupId: 'g', addOnIds: ['y', 'x'] },
    reply: { addOnGroup: { id: 'g', name: 'Extras', addOnIds: ['y', 'x'] } },
    check: (r) => expect(r.addOnGroup.addOnIds).toEqual(['y', 'x']),
  },
];

describe('services calls (docs/wire.md §14, SDK URLs of docs/wire.md §1)', () => {
  it('cover all 27 rows of the services table, named as the SDK names them', () => {
    expect(rows.map((r) => r.name).sort()).toEqual(operationsOf(servicesFamily).map((o) => o.name).sort());
    expect(rows).toHaveLength(27);
  });

  for (const row of rows) {
    it(`${row.name}: ${row.method} ${row.path.split('?')[0]}`, async () => {
      h = harness();
      on(h, row.method, row.path, () => ({ status: 200, data: row.reply }));
      const result = await row.call(h);
      expect(h.seen).toHaveLength(1);
      expect(h.seen[0].method).toBe(row.method);
      expect(h.seen[0].path).toBe(row.path);
      if (row.body === undefined) expect(h.seen[0].body).toBeUndefined();
      else expect(JSON.parse(h.seen[0].body ?? 'null')).toEqual(row.body);
      row.check(result);
    });
  }

  it('reads are marked read-only (served outside a write transaction), writes are not', () => {
    const readOnly = operationsOf(servicesFamily).filter((o) => o.readOnly).map((o) => o.name).sort();
    expect(readOnly).toEqual(['countServices', 'getService', 'listAddOnGroupsByServiceId', 'queryBookingForms', 'queryCategories', 'queryLocations', 'queryPolicies', 'queryServices', 'searchServices', 'validateSlug']);
  });

  it('queries are retried on 5xx, creates and clones are not', async () => {
    h = harness();
    on(h, 'POST', '/_api/bookings/v2/services/count', () => ({ status: 503 }));
    on(h, 'POST', '/_api/bookings/v2/services/count', () => ({ status: 200, data: { count: 1 } }));
    await expect(services.countServices(h.api, { filter: {} })).resolves.toEqual({ count: 1 });
    on(h, 'POST', '/_api/bookings/v2/services/clone', () => ({ status: 503 }));
    await expect(services.cloneService(h.api, { sourceServiceId: 'a' })).rejects.toThrow('System error occurred');
    expect(h.delays).toHaveLength(1);
  });

  it('a stale revision surfaces as CONFLICT with the server message', async () => {
    h = harness();
    on(h, 'PATCH', '/_api/bookings/v2/services/a', () => ({
      status: 409,
      data: { message: 'entity has already changed since the requested revision' },
      headers: { 'x-wix-request-id': 'rev' },
    }));
    await expect(services.updateService(h.api, { service: { id: 'a', revision: '1', name: 'x' }, mask: 'name' })).rejects.toMatchObject({
      code: 'CONFLICT',
      status: 409,
      requestId: 'rev',
      message: 'entity has already changed since the requested revision',
    });
  });

  it('a reply missing a required field is a one-line system error, not a half-parsed entity', async () => {
    h = harness();
    on(h, 'GET', '/_api/bookings/v2/services/a?serviceId=a', () => ({ status: 200, data: { service: { name: 'no id' } } }));
    await expect(services.getService(h.api, { serviceId: 'a' })).rejects.toThrow(/unexpected reply: service\.id/);
  });
});

describe('list pages from the table (listPages)', () => {
  it('queryServices pages with offset inside `query`, caps the page size at 100 and stops at the limit', async () => {
    const t = harness();
    h = t;
    const all = Array.from({ length: 250 }, (_, i) => S(`s${i}`));
    h.pool
      .intercept({ path: '/_api/bookings/v2/services/query', method: 'POST' })
      .reply((opts) => {
        const body = JSON.parse(String(opts.body)) as { query: { filter: unknown; paging: { limit: number; offset: number } } };
        t.seen.push({ method: 'POST', path: opts.path, headers: {}, body: String(opts.body) });
        const { limit, offset } = body.query.paging;
        const page = all.slice(offset, offset + limit);
        return { statusCode: 200, data: JSON.stringify({ services: page, pagingMetadata: { count: page.length, offset, total: all.length } }) };
      })
      .persist();
    const got = await collect(items(listPages(h.api, serviceOps.queryServices, { filter: { hidden: false }, pageSize: 500, limit: 230 })));
    expect(got.map((s) => s.id)).toEqual(all.slice(0, 230).map((s) => s.id));
    const pagings = h.seen.map((r) => JSON.parse(r.body ?? '{}').query);
    expect(pagings.map((q) => q.paging)).toEqual([
      { limit: 100, offset: 0 },
      { limit: 100, offset: 100 },
      { limit: 30, offset: 200 },
    ]);
    expect(pagings.every((q) => JSON.stringify(q.filter) === '{"hidden":false}')).toBe(true);
  });

  it('searchServices sends filter first, then only cursorPaging, across an empty page', async () => {
    h = harness();
    const replies = [
      { services: [S('a'), S('b')], pagingMetadata: { count: 2, cursors: { next: 'c1' }, hasNext: true } },
      { services: [], pagingMetadata: { count: 0, cursors: { next: 'c2' }, hasNext: true } },
      { services: [S('c')], pagingMetadata: { count: 1, cursors: {}, hasNext: false } },
    ];
    for (const reply of replies) on(h, 'POST', '/_api/bookings/v2/services/search', () => ({ status: 200, data: reply }));
    const got = await collect(items(listPages(h.api, serviceOps.searchServices, { filter: { type: 'CLASS' }, pageSize: 2 })));
    expect(got.map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(h.seen.map((r) => JSON.parse(r.body ?? '{}'))).toEqual([
      { search: { filter: { type: 'CLASS' }, cursorPaging: { limit: 2 } } },
      { search: { cursorPaging: { limit: 2, cursor: 'c1' } } },
      { search: { cursorPaging: { limit: 2, cursor: 'c2' } } },
    ]);
  });

  it('asSent: items as the platform sent them (ISO text, its key order), the page still checked and paged', async () => {
    h = harness();
    const sent = { createdDate: '2025-01-01T00:00:00Z', id: 'a', revision: '2', name: 'A' };
    on(h, 'POST', '/_api/bookings/v2/services/query', () => ({ status: 200, data: { services: [sent], pagingMetadata: { count: 1, offset: 0, total: 1 } } }));
    const got = await collect(items(listPages(h.api, serviceOps.queryServices, { asSent: true })));
    expect(got).toEqual([sent]);
    expect(Object.keys(got[0]!)).toEqual(Object.keys(sent));
    // Parsed (the default), the same reply's date is a Date.
    on(h, 'POST', '/_api/bookings/v2/services/query', () => ({ status: 200, data: { services: [sent], pagingMetadata: { count: 1, offset: 0, total: 1 } } }));
    const parsed = await collect(items(listPages(h.api, serviceOps.queryServices)));
    expect(parsed[0]!.createdDate).toBeInstanceOf(Date);
  });

  it('asSent still refuses a reply that is not a page: an item that is not an object, a services key that is not a list', async () => {
    h = harness();
    on(h, 'POST', '/_api/bookings/v2/services/query', () => ({ status: 200, data: { services: ['a'], pagingMetadata: { count: 1 } } }));
    await expect(collect(items(listPages(h.api, serviceOps.queryServices, { asSent: true })))).rejects.toThrow(/unexpected reply: services: expected a list of objects/);
    on(h, 'POST', '/_api/bookings/v2/services/query', () => ({ status: 200, data: { services: { id: 'a' } } }));
    await expect(collect(items(listPages(h.api, serviceOps.queryServices, { asSent: true })))).rejects.toThrow(/unexpected reply: services/);
  });
});
