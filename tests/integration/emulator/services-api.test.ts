/**
 * The services API of the emulator over HTTP: in-process server on port 0, temp data dir, real SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 60 });
});
afterAll(async () => {
  await emu?.close();
});

async function raw(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(emu.url + path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined, requestId: res.headers.get('x-wix-request-id'), headers: res.headers };
}

async function firstService(filter: unknown = {}) {
  const r = await emu.request('POST', '/v2/services/query', { query: { filter, paging: { limit: 1 } } });
  expect(r.status).toBe(200);
  return r.body.services[0];
}

const newService = (name: string, extra: Record<string, unknown> = {}) => ({
  service: { name, type: 'APPOINTMENT', payment: { rateType: 'FIXED', fixed: { price: { value: '40', currency: 'USD' } } }, ...extra },
});

describe('envelopes and aliases', () => {
  it('query answers {services, pagingMetadata} on every alias, with a unique request id each time', async () => {
    const paths = ['/_api/bookings/v2/services/query', '/bookings/v2/services/query', '/v2/services/query'];
    const ids = new Set<string>();
    for (const path of paths) {
      const r = await emu.request('POST', path, { query: { paging: { limit: 5, offset: 2 } } });
      expect(r.status).toBe(200);
      expect(r.body.services).toHaveLength(5);
      expect(r.body.pagingMetadata).toEqual({ count: 5, offset: 2, total: 60, tooManyToCount: false });
      expect(r.requestId).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(r.requestId!);
    }
    expect(ids.size).toBe(3);
  });

  it('GET by id on the SDK path ignores the path param repeated in the query string', async () => {
    const s = await firstService();
    const r = await emu.request('GET', `/_api/bookings/v2/services/${s.id}?serviceId=${s.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ service: s });
  });

  it('bulk calls answer on all four bulk prefixes', async () => {
    const prefixes = ['/bookings/v2/bulk/services', '/bookings/services/v2/bulk/services', '/_api/bookings/v2/bulk/services', '/v2/bulk/services'];
    for (const [i, prefix] of prefixes.entries()) {
      const r = await emu.request('POST', `${prefix}/create`, { services: [newService(`Alias test ${i}`).service], returnEntity: true });
      expect(r.status).toBe(200);
      expect(r.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 0, undetailedFailures: 0 });
      expect(r.body.results[0].item.name).toBe(`Alias test ${i}`);
    }
  });

  it('an unknown route is a 404 and a delete answers {}', async () => {
    expect((await emu.request('POST', '/v2/nothing-here', {})).status).toBe(404);
    const created = await emu.request('POST', '/v2/services', newService('To delete'));
    const del = await emu.request('DELETE', `/bookings/v2/services/${created.body.service.id}?preserveFutureSessionsWithParticipants=true`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    const again = await emu.request('GET', `/v2/services/${created.body.service.id}`);
    expect(again.status).toBe(404);
    expect(again.body.details.applicationError.code).toBe('SERVICE_NOT_FOUND');
  });

  it('malformed JSON is a 400 validation error', async () => {
    const res = await fetch(emu.url + '/v2/services/query', {
      method: 'POST',
      headers: { authorization: emu.apiKey, 'wix-site-id': emu.siteId, 'content-type': 'application/json' },
      body: '{"query":',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { details: { validationError: { fieldViolations: Array<{ field: string }> } } };
    expect(body.details.validationError.fieldViolations[0].field).toBe('body');
  });
});

describe('request shape', () => {
  it('a body nested deeper than 32 levels is refused, naming where', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { a: deep };
    const r = await emu.request('POST', '/v2/services/query', { query: { filter: deep } });
    expect(r.status).toBe(400);
    const v = r.body.details.validationError.fieldViolations[0];
    expect(v.violatedRule).toBe('MAX_DEPTH');
    expect(v.field).toMatch(/^query\.filter(\.a)+$/);
  });

  it('keys that reach the prototype chain are refused, naming where', async () => {
    const body = JSON.parse('{"services":[{"service":{"id":"x","revision":"1"}},{"service":{"id":"y","revision":"1","__proto__":{"polluted":1}}}]}');
    const r = await emu.request('POST', '/bookings/v2/bulk/services/update', body);
    expect(r.status).toBe(400);
    expect(r.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'services[1].service.__proto__', violatedRule: 'INVALID' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('auth', () => {
  it('401 without credentials, 403 with a wrong key or site id, all with a request id', async () => {
    const none = await raw('POST', '/v2/services/query', {}, {});
    expect(none.status).toBe(401);
    expect(none.body.details.applicationError.code).toBe('UNAUTHENTICATED');
    expect(none.requestId).toBeTruthy();
    const wrongKey = await raw('POST', '/v2/services/query', { authorization: 'IST.wrong', 'wix-site-id': emu.siteId }, {});
    expect(wrongKey.status).toBe(403);
    expect(wrongKey.body.details.applicationError.code).toBe('PERMISSION_DENIED');
    const wrongSite = await raw('POST', '/v2/services/query', { authorization: emu.apiKey, 'wix-site-id': '00000000-0000-4000-8000-000000000000' }, {});
    expect(wrongSite.status).toBe(403);
    const noSite = await raw('POST', '/v2/services/query', { authorization: emu.apiKey }, {});
    expect(noSite.status).toBe(401);
    const control = await raw('GET', '/__emulator/state', {});
    expect(control.status).toBe(401);
  });
});

describe('create and validation', () => {
  it('creates with revision "1", dates, a kebab slug and urls', async () => {
    const r = await emu.request('POST', '/_api/bookings/v2/services', newService('Sunrise Yoga: Level 2!'));
    expect(r.status).toBe(200);
    const s = r.body.service;
    expect(s).toMatchObject({ name: 'Sunrise Yoga: Level 2!', type: 'APPOINTMENT', revision: '1', defaultCapacity: 1, hidden: false });
    expect(s.mainSlug.name).toBe('sunrise-yoga-level-2');
    expect(s.urls.servicePage.url).toContain('/sunrise-yoga-level-2');
    expect(s.createdDate).toBe(s.updatedDate);
    expect(Date.parse(s.createdDate)).not.toBeNaN();
    expect(s.payment.fixed.price).toEqual({ value: '40', currency: 'USD', formattedValue: '$40' });
    const twin = await emu.request('POST', '/v2/services', newService('Sunrise Yoga: Level 2!'));
    expect(twin.body.service.mainSlug.name).toBe('sunrise-yoga-level-2-2');
  });

  it('reports every violation with its field', async () => {
    const r = await emu.request('POST', '/v2/services', { service: { type: 'CLASS', payment: { rateType: 'CHEAP' }, locations: [{ type: 'MOON' }] } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^INVALID_ARGUMENT: /);
    const fields = r.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field).sort();
    // The request schema's rules first (every one of them), then the rules that need the whole service.
    expect(fields).toEqual(['service.locations[0].type', 'service.name', 'service.payment.rateType']);
    const rules = await emu.request('POST', '/v2/services', { service: { name: 'x', type: 'CLASS', payment: { rateType: 'FIXED' }, category: { id: 'nope' } } });
    expect(rules.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field).sort()).toEqual([
      'service.category.id',
      'service.defaultCapacity',
      'service.payment.fixed.price',
    ]);
    const badType = await emu.request('POST', '/v2/services', { service: { name: 'x', type: 'WORKSHOP' } });
    expect(badType.body.details.validationError.fieldViolations).toEqual([
      expect.objectContaining({ field: 'service.type', violatedRule: 'INVALID_ENUM_VALUE' }),
    ]);
    const zero = await emu.request('POST', '/v2/services', { service: { name: 'x', type: 'COURSE', defaultCapacity: 0 } });
    expect(zero.body.details.validationError.fieldViolations[0].field).toBe('service.defaultCapacity');
  });
});

describe('update, revisions and field masks', () => {
  it('requires service.revision', async () => {
    const s = await firstService();
    const r = await emu.request('PATCH', `/v2/services/${s.id}`, { service: { id: s.id, name: 'No revision' } });
    expect(r.status).toBe(400);
    expect(r.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'service.revision' });
  });

  it('a stale revision is a 409 REVISION_MISMATCH and changes nothing', async () => {
    const s = (await emu.request('POST', '/v2/services', newService('Revision check'))).body.service;
    const ok = await emu.request('PATCH', `/v2/services/${s.id}`, { service: { id: s.id, revision: '1', description: 'first' }, mask: 'description' });
    expect(ok.status).toBe(200);
    expect(ok.body.service.revision).toBe('2');
    const stale = await emu.request('PATCH', `/v2/services/${s.id}`, { service: { id: s.id, revision: '1', description: 'second' }, mask: 'description' });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('entity has already changed since the requested revision');
    expect(stale.body.details.applicationError.code).toBe('REVISION_MISMATCH');
    const now = (await emu.request('GET', `/v2/services/${s.id}`)).body.service;
    expect(now).toEqual(ok.body.service);
  });

  it('a mask changes only the masked paths; without one the given fields merge', async () => {
    const s = (await emu.request('POST', '/v2/services', newService('Mask check', { description: 'keep me' }))).body.service;
    const masked = await emu.request('PATCH', `/v2/services/${s.id}`, {
      service: { id: s.id, revision: '1', name: 'ignored', description: 'ignored', payment: { fixed: { price: { value: '55' } } } },
      mask: 'payment.fixed.price.value',
    });
    expect(masked.status).toBe(200);
    const m = masked.body.service;
    expect(m.name).toBe('Mask check');
    expect(m.description).toBe('keep me');
    expect(m.payment.fixed.price).toEqual({ value: '55', currency: 'USD', formattedValue: '$55' });
    expect(m.revision).toBe('2');
    // The mask is one comma-joined string (seed B §9, docs/wire.md §5); the {paths} object is refused.
    const paths = await emu.request('PATCH', `/v2/services/${s.id}`, { service: { id: s.id, revision: '2', name: 'Mask check renamed', hidden: true }, mask: { paths: ['hidden'] } });
    expect(paths.status).toBe(400);
    expect(paths.body.details.validationError.fieldViolations).toEqual([expect.objectContaining({ field: 'mask' })]);
    const joined = await emu.request('PATCH', `/v2/services/${s.id}`, { service: { id: s.id, revision: '2', name: 'Mask check renamed', hidden: true }, mask: 'hidden' });
    expect(joined.body.service).toMatchObject({ name: 'Mask check', hidden: true, revision: '3' });
    const merged = await emu.request('PATCH', `/v2/services/${s.id}`, { service: { id: s.id, revision: '3', onlineBooking: { requireManualApproval: true } } });
    expect(merged.body.service.onlineBooking).toEqual({ enabled: true, requireManualApproval: true, allowMultipleRequests: false });
    expect(merged.body.service.description).toBe('keep me');
    expect(Date.parse(merged.body.service.updatedDate)).toBeGreaterThanOrEqual(Date.parse(s.updatedDate));
  });

  it('the updated service must still be valid: a mask may not clear a required field or leave a partial object', async () => {
    const s = (await emu.request('POST', '/v2/services', newService('Still valid'))).body.service;
    const cleared = await emu.request('PATCH', `/v2/services/${s.id}`, { service: { id: s.id, revision: '1' }, mask: 'name' });
    expect(cleared.status).toBe(400);
    expect(cleared.body.details.validationError.fieldViolations).toContainEqual(expect.objectContaining({ field: 'service.name', violatedRule: 'REQUIRED_FIELD' }));
    const partial = await emu.request('PATCH', `/v2/services/${s.id}`, { service: { id: s.id, revision: '1', payment: { fixed: { price: { value: '5', currency: 'USD' } } } }, mask: 'payment' });
    expect(partial.status).toBe(400);
    expect(partial.body.details.validationError.fieldViolations).toContainEqual(expect.objectContaining({ field: 'service.payment.rateType', violatedRule: 'REQUIRED_FIELD' }));
    expect((await emu.request('GET', `/v2/services/${s.id}`)).body.service.revision).toBe('1');
  });

  it('an unknown id is a 404 SERVICE_NOT_FOUND', async () => {
    const r = await emu.request('PATCH', '/v2/services/nope', { service: { id: 'nope', revision: '1', name: 'x' } });
    expect(r.status).toBe(404);
    expect(r.body.details.applicationError.code).toBe('SERVICE_NOT_FOUND');
  });
});

describe('bulk', () => {
  it('accepts at most 100 items', async () => {
    const services = Array.from({ length: 101 }, (_, i) => newService(`Too many ${i}`).service);
    const r = await emu.request('POST', '/bookings/v2/bulk/services/create', { services });
    expect(r.status).toBe(400);
    expect(r.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'services', violatedRule: 'MAX_SIZE' });
    expect((await emu.request('POST', '/v2/services/count', { filter: { name: { $startsWith: 'Too many' } } })).body.count).toBe(0);
  });

  it('reports per item: a stale revision fails that item only and leaves it unchanged', async () => {
    const created = await emu.request('POST', '/v2/bulk/services/create', {
      services: [newService('Bulk A').service, newService('Bulk B').service, { name: 'Bulk bad', type: 'CLASS' }],
      returnEntity: true,
    });
    expect(created.body.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 1, undetailedFailures: 0 });
    expect(created.body.results[2].itemMetadata).toMatchObject({ originalIndex: 2, success: false, error: { code: 'INVALID_ARGUMENT' } });
    const [a, b] = created.body.results.map((r: { item: unknown }) => r.item);
    const update = await emu.request('POST', '/bookings/v2/bulk/services/update', {
      services: [
        { service: { id: a.id, revision: '1', description: 'A changed' }, mask: 'description' },
        { service: { id: b.id, revision: '7', description: 'B changed' }, mask: 'description' },
        { service: { id: 'missing', revision: '1', description: 'x' }, mask: 'description' },
      ],
    });
    expect(update.status).toBe(200);
    expect(update.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 2, undetailedFailures: 0 });
    expect(update.body.results.map((r: { itemMetadata: unknown }) => r.itemMetadata)).toEqual([
      { id: a.id, originalIndex: 0, success: true },
      { id: b.id, originalIndex: 1, success: false, error: expect.objectContaining({ code: 'REVISION_MISMATCH' }) },
      { id: 'missing', originalIndex: 2, success: false, error: expect.objectContaining({ code: 'SERVICE_NOT_FOUND' }) },
    ]);
    expect(update.body.results[0].item).toBeUndefined();
    expect((await emu.request('GET', `/v2/services/${a.id}`)).body.service).toMatchObject({ description: 'A changed', revision: '2' });
    expect((await emu.request('GET', `/v2/services/${b.id}`)).body.service).toEqual(b);
    const noRevision = await emu.request('POST', '/v2/bulk/services/update', { services: [{ service: { id: a.id, name: 'x' } }] });
    expect(noRevision.status).toBe(400);
    expect(noRevision.body.details.validationError.fieldViolations[0].field).toBe('services[0].service.revision');
    const del = await emu.request('POST', '/v2/bulk/services/delete', { ids: [a.id, 'missing'] });
    expect(del.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 });
  });

  it('update-by-filter and delete-by-filter answer {jobId} and apply to every match', async () => {
    await emu.request('POST', '/v2/bulk/services/create', { services: [1, 2, 3].map((i) => newService(`ByFilter ${i}`).service) });
    const filter = { name: { $startsWith: 'ByFilter' } };
    const upd = await emu.request('POST', '/v2/bulk/services/update-by-filter', { filter, service: { description: 'stamped' }, mask: 'description' });
    expect(upd.status).toBe(200);
    expect(upd.body.jobId).toMatch(/^[0-9a-f-]{36}$/);
    const after = await emu.request('POST', '/v2/services/query', { query: { filter } });
    expect(after.body.services.map((s: { description: string; revision: string }) => [s.description, s.revision])).toEqual([
      ['stamped', '2'],
      ['stamped', '2'],
      ['stamped', '2'],
    ]);
    expect((await emu.request('POST', '/v2/bulk/services/delete-by-filter', { filter })).body.jobId).toBeTruthy();
    expect((await emu.request('POST', '/v2/services/count', { filter })).body.count).toBe(0);
    expect((await emu.request('POST', '/v2/bulk/services/delete-by-filter', {})).status).toBe(400);
  });

  it('update-by-filter over named ids at their revisions changes only those that still match the whole filter', async () => {
    const made = (await emu.request('POST', '/v2/bulk/services/create', { services: [1, 2, 3, 4].map((i) => newService(`Pinned ${i}`).service), returnEntity: true })).body.results.map(
      (r: { item: { id: string; revision: string } }) => r.item,
    );
    const [a, b, c, d] = made;
    // c moves on (another revision), d no longer matches the selection, and a name outside the ids matches too.
    const bump = await emu.request('PATCH', `/v2/services/${c.id}`, { service: { id: c.id, revision: c.revision, description: 'moved' }, mask: 'description' });
    expect(bump.status).toBe(200);
    const rename = await emu.request('PATCH', `/v2/services/${d.id}`, { service: { id: d.id, revision: d.revision, name: 'Renamed' }, mask: 'name' });
    expect(rename.status).toBe(200);
    const outside = (await emu.request('POST', '/v2/bulk/services/create', { services: [newService('Pinned 5').service], returnEntity: true })).body.results[0].item;
    const planned = [a, b, c, d].map((s: { id: string; revision: string }) => ({ id: { $eq: s.id }, revision: { $eq: s.revision } }));
    const filter = { $and: [{ name: { $startsWith: 'Pinned' } }, { $or: [...planned, { id: { $eq: 'no-such-service' } }] }] };
    const upd = await emu.request('POST', '/v2/bulk/services/update-by-filter', { filter, service: { tagLine: 'pinned' }, mask: 'tagLine' });
    expect(upd.status).toBe(200);
    const now = async (id: string) => (await emu.request('GET', `/v2/services/${id}`)).body.service;
    expect((await now(a.id)).tagLine).toBe('pinned');
    expect((await now(b.id)).tagLine).toBe('pinned');
    for (const s of [c, d, outside]) expect((await now(s.id)).tagLine ?? null).toBe(null);
  });
});

describe('slugs, clone, locations, pricing plans', () => {
  it('custom slugs: illegal characters 400, taken 409, validate reports errors', async () => {
    const [a, b] = (await emu.request('POST', '/v2/bulk/services/create', { services: [newService('Slug A').service, newService('Slug B').service], returnEntity: true })).body.results.map((r: { item: { id: string } }) => r.item);
    const set = await emu.request('POST', `/v2/services/${a.id}/slugs/custom`, { slug: 'my-custom-slug' });
    expect(set.status).toBe(200);
    expect(set.body.slug).toMatchObject({ name: 'my-custom-slug' });
    expect(set.body.service.mainSlug.name).toBe('my-custom-slug');
    expect(set.body.service.revision).toBe('2');
    const illegal = await emu.request('POST', `/v2/services/${b.id}/slugs/custom`, { slug: 'Bad Slug!' });
    expect(illegal.status).toBe(400);
    expect(illegal.body.details.applicationError.code).toBe('SLUG_CONTAINS_ILLEGAL_CHARACTERS');
    const taken = await emu.request('POST', `/v2/services/${b.id}/slugs/custom`, { slug: 'my-custom-slug' });
    expect(taken.status).toBe(409);
    expect(taken.body.details.applicationError.code).toBe('SLUG_ALREADY_EXISTS');
    expect((await emu.request('POST', '/v2/services/slugs/validate', { serviceId: b.id, slug: 'my-custom-slug' })).body).toEqual({ valid: false, slug: 'my-custom-slug', errors: ['SLUG_ALREADY_EXISTS'] });
    expect((await emu.request('POST', '/v2/services/slugs/validate', { serviceId: a.id, slug: 'my-custom-slug' })).body.valid).toBe(true);
    expect((await emu.request('POST', '/v2/services/slugs/validate', { slug: 'UPPER' })).body.errors).toEqual(['SLUG_CONTAINS_ILLEGAL_CHARACTERS']);
  });

  it('clone copies under a new id, name and slug with revision "1"', async () => {
    const src = await firstService({ type: 'COURSE' });
    const r = await emu.request('POST', '/v2/services/clone', { sourceServiceId: src.id });
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([]);
    const c = r.body.service;
    expect(c.id).not.toBe(src.id);
    expect(c.name).toBe(`${src.name} (copy)`);
    expect(c.mainSlug.name).not.toBe(src.mainSlug.name);
    expect(c.revision).toBe('1');
    expect(c.payment).toEqual(src.payment);
    expect(c.locations).toEqual(src.locations);
    expect((await emu.request('POST', '/v2/services/clone', { sourceServiceId: 'nope' })).status).toBe(404);
  });

  it('replaces locations; MOVE_TO_LOCATION needs moveToLocationOptions', async () => {
    const locations = (await emu.request('POST', '/v2/services/locations/query', {})).body.businessLocations.locations;
    expect(locations).toHaveLength(3);
    expect(locations[0].address.geocode).toEqual({ latitude: expect.any(Number), longitude: expect.any(Number) });
    const s = (await emu.request('POST', '/v2/services', newService('Location check', { locations: [{ type: 'BUSINESS', business: { id: locations[0].id } }] }))).body.service;
    expect(s.locations[0].business.name).toBe(locations[0].name);
    const move = await emu.request('POST', `/v2/services/${s.id}/locations`, { locations: [{ type: 'BUSINESS', business: { id: locations[1].id } }], removedLocationSessionsAction: { action: 'MOVE_TO_LOCATION' } });
    expect(move.status).toBe(400);
    expect(move.body.details.validationError.fieldViolations[0].field).toBe('removedLocationSessionsAction.moveToLocationOptions');
    const ok = await emu.request('POST', `/_api/bookings/v2/services/${s.id}/locations`, {
      locations: [{ type: 'BUSINESS', business: { id: locations[1].id } }, { type: 'CUSTOM', custom: { address: { formatted: '9 Beach Road' } } }],
      removedLocationSessionsAction: { action: 'MOVE_TO_LOCATION', moveToLocationOptions: { newLocation: { type: 'BUSINESS', business: { id: locations[1].id } } } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.service.revision).toBe('2');
    expect(ok.body.service.locations.map((l: { type: string }) => l.type)).toEqual(['BUSINESS', 'CUSTOM']);
    expect(ok.body.service.locations[1].calculatedAddress.formatted).toBe('9 Beach Road');
    const bad = await emu.request('POST', `/v2/services/${s.id}/locations`, { locations: [{ type: 'BUSINESS', business: { id: 'nope' } }] });
    expect(bad.body.details.validationError.fieldViolations[0].field).toBe('locations[0].business.id');
  });

  it('adds and removes pricing plan ids with set semantics', async () => {
    const s = (await emu.request('POST', '/v2/services', newService('Plans check'))).body.service;
    const [p1, p2, p3] = (await emu.request('GET', '/pricing-plans/v2/plans?archived=ARCHIVED_AND_ACTIVE')).body.plans.map((p: { id: string }) => p.id);
    const add = await emu.request('POST', `/v2/services/${s.id}/pricing-plans/add`, { pricingPlanIds: [p1, p2, p1] });
    expect(add.body.service.payment.pricingPlanIds).toEqual([p1, p2]);
    expect(add.body.service.payment.options.pricingPlan).toBe(true);
    const again = await emu.request('POST', `/v2/services/${s.id}/pricing-plans/add`, { pricingPlanIds: [p2, p3] });
    expect(again.body.service.payment.pricingPlanIds).toEqual([p1, p2, p3]);
    const unknown = await emu.request('POST', `/v2/services/${s.id}/pricing-plans/add`, { pricingPlanIds: [p1, 'no-such-plan'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.applicationError).toMatchObject({ code: 'INVALID_PRICING_PLAN', data: { pricingPlanIds: ['no-such-plan'] } });
    const remove = await emu.request('POST', `/v2/services/${s.id}/pricing-plans/remove`, { pricingPlanIds: [p1, p2, p3] });
    expect(remove.body.service.payment.pricingPlanIds).toEqual([]);
    expect(remove.body.service.payment.options.pricingPlan).toBe(false);
    expect(remove.body.service.revision).toBe('4');
    expect((await emu.request('POST', `/v2/services/${s.id}/pricing-plans/add`, { pricingPlanIds: [] })).status).toBe(400);
  });
});

describe('search, count, listings', () => {
  it('search with text, filter, cursor paging and aggregations', async () => {
    const body = {
      search: {
        search: { expression: 'yoga', fields: ['name'] },
        filter: { hidden: false },
        cursorPaging: { limit: 2 },
        aggregations: [
          { name: 'byType', type: 'VALUE', fieldPath: 'type' },
          { name: 'prices', type: 'RANGE', fieldPath: 'payment.fixed.price.value', range: { buckets: [{ to: 50 }, { from: 50 }] } },
          { name: 'maxPrice', type: 'SCALAR', fieldPath: 'payment.fixed.price.value', scalar: { type: 'MAX' } },
          { name: 'perMonth', type: 'DATE_HISTOGRAM', fieldPath: 'createdDate', dateHistogram: { interval: 'MONTH' } },
        ],
      },
    };
    const r = await emu.request('POST', '/_api/bookings/v2/services/search', body);
    expect(r.status).toBe(200);
    const total = (await emu.request('POST', '/v2/services/count', { filter: { hidden: false, name: { $contains: 'yoga' } } })).body.count;
    expect(total).toBeGreaterThan(2);
    expect(r.body.services).toHaveLength(2);
    expect(r.body.pagingMetadata.hasNext).toBe(true);
    const [byType, prices, maxPrice, perMonth] = r.body.aggregationData.results;
    expect(byType.values.results.reduce((n: number, v: { count: number }) => n + v.count, 0)).toBe(total);
    expect(prices.ranges.results.map((b: { count: number }) => b.count).reduce((a: number, b: number) => a + b)).toBeLessThanOrEqual(total);
    expect(typeof maxPrice.scalar.value).toBe('number');
    expect(perMonth.dateHistogram.results.reduce((n: number, v: { count: number }) => n + v.count, 0)).toBe(total);
    let seen = r.body.services.length;
    let cursor = r.body.pagingMetadata.cursors.next;
    while (cursor) {
      const next = await emu.request('POST', '/v2/services/search', { search: { cursorPaging: { limit: 2, cursor } } });
      seen += next.body.services.length;
      cursor = next.body.pagingMetadata.cursors.next;
    }
    expect(seen).toBe(total);
  });

  it('an unknown operator is a 400 on query.filter', async () => {
    const r = await emu.request('POST', '/v2/services/query', { query: { filter: { name: { $regex: 'x' } } } });
    expect(r.status).toBe(400);
    expect(r.body.details.validationError.fieldViolations[0].field).toBe('query.filter');
  });

  it('policies, booking forms and categories with their connected services', async () => {
    const total = (await emu.request('POST', '/v2/services/count', {})).body.count;
    const policies = await emu.request('POST', '/v2/services/policies/query', { query: {} });
    expect(policies.body.bookingPolicies).toHaveLength(3);
    expect(policies.body.bookingPolicies.reduce((n: number, p: { totalServiceCount: number }) => n + p.totalServiceCount, 0)).toBe(total);
    for (const p of policies.body.bookingPolicies) {
      expect(p.services.length).toBe(Math.min(5, p.totalServiceCount));
      for (const s of p.services) expect(s.bookingPolicy.id).toBe(p.bookingPolicy.id);
    }
    const filtered = await emu.request('POST', '/v2/services/policies/query', { query: { filter: { default: true } } });
    expect(filtered.body.bookingPolicies.map((p: { bookingPolicy: { name: string } }) => p.bookingPolicy.name)).toEqual(['Standard policy']);
    const forms = await emu.request('POST', '/v2/services/booking-forms/query', { query: {} });
    expect(forms.body.bookingForms).toHaveLength(2);
    expect(forms.body.bookingForms[0].connectedServices.length).toBeGreaterThan(0);
    const categories = await emu.request('POST', '/v2/services/categories/query', { filter: { name: { $startsWith: 'Yoga' } } });
    expect(categories.body.categories.map((c: { name: string }) => c.name)).toEqual(['Yoga & Mindfulness']);
  });
});

describe('events', () => {
  it('records created, updated and deleted events with sequence numbers', async () => {
    const before = (await emu.request('GET', '/__emulator/state')).body.events.lastSeq;
    const s = (await emu.request('POST', '/v2/services', newService('Event check'))).body.service;
    await emu.request('PATCH', `/v2/services/${s.id}`, { service: { id: s.id, revision: '1', name: 'Event check 2' }, mask: 'name' });
    await emu.request('DELETE', `/v2/services/${s.id}`);
    const r = await emu.request('GET', `/__emulator/events?after=${before}&limit=10`);
    expect(r.body.events.map((e: { type: string; entityId: string; seq: number }) => [e.type, e.entityId, e.seq])).toEqual([
      ['service.created', s.id, before + 1],
      ['service.updated', s.id, before + 2],
      ['service.deleted', s.id, before + 3],
    ]);
    expect(r.body.events[1].entity.name).toBe('Event check 2');
  });
});
