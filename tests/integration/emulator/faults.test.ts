/**
 * Fault injection: replay with the same seed, 'after' commits the change before the 5xx, 'before' does not,
 * drops, 429 with Retry-After, and a control plane that is never faulted.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emu: TestEmulator;
let serviceId: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10 });
  serviceId = (await emu.request('POST', '/v2/services/query', { query: { paging: { limit: 1 } } })).body.services[0].id;
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(async () => {
  const r = await emu.request('PUT', '/__emulator/faults', { faults: { errorRate: 0, dropRate: 0, rateLimitPerSec: 0, latencyMs: 0, errorPhase: 'before', seed: 1 } });
  expect(r.status).toBe(200);
});

const setFaults = async (faults: Record<string, unknown>) => {
  const r = await emu.request('PUT', '/__emulator/faults', faults);
  expect(r.status).toBe(200);
  return r.body.faults;
};

async function statuses(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await emu.request('GET', `/v2/services/${serviceId}`)).status);
  return out;
}

describe('faults', () => {
  it('the same seed replays the same sequence of 5xx replies; another seed gives another one', async () => {
    await setFaults({ errorRate: 0.3, seed: 42 });
    const first = await statuses(60);
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(20);
    expect(first.filter((s) => s === 500 || s === 503).length).toBeGreaterThan(5);
    expect(first.every((s) => s === 200 || s === 500 || s === 503)).toBe(true);
    await setFaults({ seed: 42 });
    expect(await statuses(60)).toEqual(first);
    await setFaults({ seed: 43 });
    expect(await statuses(60)).not.toEqual(first);
  });

  it("'after' commits the change, then answers 5xx with an empty body and a request id", async () => {
    const before = (await emu.request('GET', `/v2/services/${serviceId}`)).body.service;
    await setFaults({ errorRate: 1, errorPhase: 'after' });
    const r = await emu.request('PATCH', `/v2/services/${serviceId}`, { service: { id: serviceId, revision: before.revision, description: 'after-phase' }, mask: 'description' });
    expect([500, 503]).toContain(r.status);
    expect(r.body).toBeUndefined();
    expect(r.requestId).toBeTruthy();
    await setFaults({ errorRate: 0 });
    const now = (await emu.request('GET', `/v2/services/${serviceId}`)).body.service;
    expect(now.description).toBe('after-phase');
    expect(now.revision).toBe(String(Number(before.revision) + 1));
  });

  it("'before' fails without changing anything", async () => {
    const before = (await emu.request('GET', `/v2/services/${serviceId}`)).body.service;
    await setFaults({ errorRate: 1, errorPhase: 'before' });
    const r = await emu.request('PATCH', `/v2/services/${serviceId}`, { service: { id: serviceId, revision: before.revision, description: 'before-phase' }, mask: 'description' });
    expect([500, 503]).toContain(r.status);
    await setFaults({ errorRate: 0 });
    expect((await emu.request('GET', `/v2/services/${serviceId}`)).body.service).toEqual(before);
  });

  it('drops the connection without a reply; with the after phase the change is still committed', async () => {
    const before = (await emu.request('GET', `/v2/services/${serviceId}`)).body.service;
    await setFaults({ dropRate: 1, errorPhase: 'after' });
    await expect(emu.request('PATCH', `/v2/services/${serviceId}`, { service: { id: serviceId, revision: before.revision, description: 'dropped' }, mask: 'description' })).rejects.toThrow();
    await setFaults({ dropRate: 0 });
    expect((await emu.request('GET', `/v2/services/${serviceId}`)).body.service).toMatchObject({ description: 'dropped', revision: String(Number(before.revision) + 1) });
  });

  it('a drop before the commit changes nothing', async () => {
    const before = (await emu.request('GET', `/v2/services/${serviceId}`)).body.service;
    await setFaults({ dropRate: 1, errorPhase: 'before' });
    await expect(emu.request('PATCH', `/v2/services/${serviceId}`, { service: { id: serviceId, revision: before.revision, description: 'never' }, mask: 'description' })).rejects.toThrow();
    await setFaults({ dropRate: 0 });
    expect((await emu.request('GET', `/v2/services/${serviceId}`)).body.service).toEqual(before);
  });

  it("'random' phase commits some failed writes and not others, the same way on a replay", async () => {
    const run = async () => {
      await setFaults({ errorRate: 0, errorPhase: 'random', seed: 7 });
      const created = (await emu.request('POST', '/v2/bulk/services/create', { services: Array.from({ length: 30 }, (_, i) => ({ name: `Random phase ${i}`, type: 'APPOINTMENT' })), returnEntity: true })).body.results.map((r: { item: { id: string } }) => r.item.id as string);
      await setFaults({ errorRate: 1, errorPhase: 'random', seed: 7 });
      for (const id of created) {
        const r = await emu.request('PATCH', `/v2/services/${id}`, { service: { id, revision: '1', description: 'maybe' }, mask: 'description' });
        expect([500, 503]).toContain(r.status);
      }
      await setFaults({ errorRate: 0 });
      const committed: boolean[] = [];
      for (const id of created) committed.push((await emu.request('GET', `/v2/services/${id}`)).body.service.revision === '2');
      await emu.request('POST', '/v2/bulk/services/delete', { ids: created });
      return committed;
    };
    const first = await run();
    expect(first.some(Boolean)).toBe(true);
    expect(first.some((c) => !c)).toBe(true);
    expect(await run()).toEqual(first);
  });

  it('answers 429 with Retry-After above the rate limit', async () => {
    await setFaults({ rateLimitPerSec: 2, retryAfterSec: 7 });
    const replies: Array<{ status: number; retryAfter: string | null }> = [];
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${emu.url}/v2/services/${serviceId}`, { headers: { authorization: emu.apiKey, 'wix-site-id': emu.siteId } });
      await res.arrayBuffer();
      replies.push({ status: res.status, retryAfter: res.headers.get('retry-after') });
    }
    const throttled = replies.filter((r) => r.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    expect(throttled.every((r) => r.retryAfter === '7')).toBe(true);
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(2);
  });

  it('never faults the control plane and validates settings', async () => {
    await setFaults({ errorRate: 1, dropRate: 0 });
    const state = await emu.request('GET', '/__emulator/state');
    expect(state.status).toBe(200);
    expect(state.body.faults).toMatchObject({ errorRate: 1 });
    expect(state.body.sites[0].counts.services).toBeGreaterThan(0);
    const bad = await emu.request('PUT', '/__emulator/faults', { errorRate: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations[0].field).toBe('faults.errorRate');
    expect((await emu.request('PUT', '/__emulator/faults', { errorPhase: 'sometimes' })).status).toBe(400);
    expect((await emu.request('GET', '/__emulator/faults')).body.faults.errorRate).toBe(1);
    // The rule faults (docs/manual/emulator.md "Faults"): only the SDK's clone errors and the two resource errors.
    const clone = await emu.request('PUT', '/__emulator/faults', { cloneErrors: ['FORM', 'RECURRING_EVENTS'] });
    expect(clone.body.details.validationError.fieldViolations[0].field).toBe('faults.cloneErrors');
    const resource = await emu.request('PUT', '/__emulator/faults', { resourceError: 'NOPE' });
    expect(resource.body.details.validationError.fieldViolations[0].field).toBe('faults.resourceError');
    expect((await setFaults({ cloneErrors: ['FORM', 'OPTIONS_AND_VARIANTS', 'FORM'] })).cloneErrors).toEqual(['OPTIONS_AND_VARIANTS', 'FORM']);
    expect((await setFaults({ cloneErrors: [], resourceError: null })).cloneErrors).toEqual([]);
  });
});
