/**
 * Contract check: every typed services call against the real emulator (in-process, port 0, real SQLite),
 * through the default dispatcher. Proves the emulator's replies parse with the client's schemas and that the
 * calls' paths and bodies are what the emulator serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ApplicationError, ValidationError } from '../../../src/api/errors.js';
import { collect } from '../../../src/api/paging.js';
import * as svc from '../../../src/api/services.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emu: TestEmulator;
let api: ApiClient;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 30 });
  api = new ApiClient({ baseUrl: emu.url, credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId: emu.siteId } });
});
afterAll(async () => {
  await api?.close();
  await emu?.close();
});

describe('typed services calls against the emulator', () => {
  it('query, iterate, count, search with aggregations', async () => {
    const page = await svc.queryServices(api, { paging: { limit: 5, offset: 0 } });
    expect(page.services).toHaveLength(5);
    expect(page.services[0].createdDate).toBeInstanceOf(Date);
    expect(page.pagingMetadata?.total).toBe(30);

    const all = await collect(svc.iterateServices(api, { pageSize: 7 }));
    expect(all).toHaveLength(30);
    expect(new Set(all.map((s) => s.id)).size).toBe(30);
    expect(await svc.countServices(api)).toBe(30);
    expect(await svc.countServices(api, { type: 'CLASS' })).toBe(all.filter((s) => s.type === 'CLASS').length);

    const found = await collect(svc.iterateServiceSearch(api, { pageSize: 4 }));
    expect(found).toHaveLength(30);
    const search = await svc.searchServices(api, {
      cursorPaging: { limit: 3 },
      aggregations: [{ name: 'byType', type: 'VALUE', fieldPath: 'type' }],
    });
    const counts = search.aggregationData?.results[0].values?.results ?? [];
    expect(counts.reduce((n, r) => n + r.count, 0)).toBe(30);
  });

  it('create, get, update (revision checked), slug, locations, plans, clone, delete', async () => {
    const created = await svc.createService(api, {
      name: 'Contract Yoga',
      type: 'APPOINTMENT',
      payment: { rateType: 'FIXED', fixed: { price: { value: '40', currency: 'USD' } } },
    });
    expect(created.id).toBeTruthy();
    const id = created.id as string;
    const got = await svc.getService(api, id);
    expect(got.name).toBe('Contract Yoga');

    const updated = await svc.updateService(api, { id, revision: got.revision as string, name: 'Contract Pilates' }, ['name']);
    expect(updated.name).toBe('Contract Pilates');
    expect(Number(updated.revision)).toBe(Number(got.revision) + 1);
    await expect(svc.updateService(api, { id, revision: got.revision as string, name: 'stale' }, ['name'])).rejects.toMatchObject({
      status: 409,
    });

    const bad = await svc.validateSlug(api, id, 'bad slug!');
    expect(bad.valid).toBe(false);
    expect(bad.errors).toContain('SLUG_CONTAINS_ILLEGAL_CHARACTERS');
    const slug = await svc.setCustomSlug(api, id, 'contract-pilates');
    expect(slug.slug.name).toBe('contract-pilates');

    const withPlans = await svc.addPricingPlans(api, id, ['plan-a', 'plan-b']);
    expect(withPlans.payment?.pricingPlanIds).toEqual(expect.arrayContaining(['plan-a', 'plan-b']));
    const fewer = await svc.removePricingPlans(api, id, ['plan-a']);
    expect(fewer.payment?.pricingPlanIds).toEqual(['plan-b']);

    const located = await svc.setServiceLocations(api, id, [{ type: 'CUSTOMER' }], {
      removedLocationSessionsAction: { action: 'KEEP_AT_CURRENT_LOCATION' },
    });
    expect(located.locations?.map((l) => l.type)).toEqual(['CUSTOMER']);

    const clone = await svc.cloneService(api, id);
    expect(clone.service.id).not.toBe(id);

    await svc.deleteService(api, clone.service.id as string);
    await expect(svc.getService(api, clone.service.id as string)).rejects.toBeInstanceOf(ApplicationError);
  });

  it('bulk create, update, delete and the by-filter jobs', async () => {
    const made = await svc.bulkCreateServices(api, [{ name: 'Bulk A', type: 'CLASS', defaultCapacity: 8 }, { name: 'Bulk B', type: 'APPOINTMENT' }], {
      returnEntity: true,
    });
    expect(made.bulkActionMetadata.totalSuccesses).toBe(2);
    const items = made.results.map((r) => r.item!);
    const upd = await svc.bulkUpdateServices(
      api,
      items.map((s) => ({ service: { id: s.id as string, revision: s.revision as string, hidden: true }, mask: ['hidden'] })),
      { returnEntity: true },
    );
    expect(upd.results.every((r) => r.itemMetadata.success)).toBe(true);
    expect(upd.results.every((r) => r.item?.hidden === true)).toBe(true);

    const byFilter = await svc.bulkUpdateServicesByFilter(api, { name: 'Bulk A' }, { description: 'by filter' }, ['description']);
    expect(byFilter.jobId).toBeTruthy();

    const del = await svc.bulkDeleteServices(api, [items[0].id as string]);
    expect(del.bulkActionMetadata.totalSuccesses).toBe(1);
    const delByFilter = await svc.bulkDeleteServicesByFilter(api, { name: 'Bulk B' });
    expect(delByFilter.jobId).toBeTruthy();
  });

  it('policies, booking forms, categories and business locations', async () => {
    const policies = await svc.queryPolicies(api);
    expect(policies.bookingPolicies.length).toBeGreaterThan(0);
    const forms = await svc.queryBookingForms(api);
    expect(forms.bookingForms.length).toBeGreaterThan(0);
    const categories = await svc.queryCategories(api);
    expect(categories.length).toBeGreaterThan(0);
    const locations = await svc.queryBusinessLocations(api);
    expect(locations.length).toBeGreaterThan(0);
  });

  it('a validation error comes back with fieldViolations and the exact message form', async () => {
    const err = await svc.createService(api, { type: 'NOT_A_TYPE' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const v = err as ValidationError;
    expect(v.message).toMatch(/^INVALID_ARGUMENT: "service\.[A-Za-z.]+" /);
    expect(v.requestId).toMatch(/.+/);
    expect(v.fieldViolations.length).toBeGreaterThan(0);
  });
});
