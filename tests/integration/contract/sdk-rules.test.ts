/**
 * The specification's rules (docs/wire.md §5, §6) through the official client (`@wix/sdk` `createClient` with the
 * family modules) against a real emulator on port 0: every request the module sends to the platform's host is
 * rewritten to the emulator's loopback origin and recorded (method, path, body), so each test checks both what
 * the official client sent and what the emulator did with it (setup: sdk-client.ts). The long GET is in
 * tests/integration/emulator/long-get.test.ts.
 */
import * as services from '@wix/auto_sdk_bookings_services';
import { describe, expect, it } from 'vitest';
import { apiKeyClient, useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-rules', { size: 10, bookings: 0 });

/** A service of its own (an appointment with a description), made for one test. */
async function freshService(name: string): Promise<{ id: string; revision: string }> {
  const r = await ctx.emu.request('POST', '/_api/bookings/v2/services', {
    service: { name: `${name} ${Date.now()}`, type: 'APPOINTMENT', description: 'kept', payment: { rateType: 'FIXED', fixed: { price: { value: '10', currency: 'USD' } }, options: { inPerson: true } }, schedule: { availabilityConstraints: { durations: [{ minutes: 30 }] } } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { id: r.body.service.id, revision: r.body.service.revision };
}

describe('the field mask', () => {
  it("bulkUpdateServices sends each item's mask as one comma-joined string, and only the masked fields change", async () => {
    const client = apiKeyClient(ctx, { services });
    const s = await freshService('Sdk mask');
    const item = { service: { _id: s.id, revision: s.revision, name: 'not applied', tagLine: 'applied', hidden: true }, mask: ['tagLine', 'hidden'] };
    const reply = await client.services.bulkUpdateServices({ services: [item as never], returnEntity: true });
    expect(ctx.sent.at(-1)).toMatchObject({ method: 'POST', path: '/bookings/v2/bulk/services/update' });
    expect((ctx.sent.at(-1)!.body as { services: Array<{ mask: unknown }> }).services[0]!.mask).toBe('tagLine,hidden');
    expect(reply.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 0 });
    const now = (await ctx.emu.request('GET', `/_api/bookings/v2/services/${s.id}`)).body.service;
    expect(now).toMatchObject({ tagLine: 'applied', hidden: true, description: 'kept' });
    expect(now.name).not.toBe('not applied');
  });
});

describe('NESTED search aggregations', () => {
  it('searchServices with a NESTED aggregation (type, then hidden within each type) answers in the SDK\'s NestedResults shape', async () => {
    const client = apiKeyClient(ctx, { services });
    const prefix = `Sdk nested ${Date.now()}`;
    const payment = { rateType: 'FIXED', fixed: { price: { value: '40', currency: 'USD' } } };
    for (const [n, type, hidden] of [['a', 'CLASS', false], ['b', 'CLASS', true], ['c', 'APPOINTMENT', false], ['d', 'CLASS', true]] as const) {
      expect((await ctx.emu.request('POST', '/v2/services', { service: { name: `${prefix} ${n}`, type, hidden, defaultCapacity: 5, payment } })).status).toBe(200);
    }
    // Fields from the module's ServiceSearchSpec `aggregatable` list.
    const reply = await client.services.searchServices({
      filter: { name: { $startsWith: prefix } },
      cursorPaging: { limit: 1 },
      aggregations: [{ name: 'by type', type: 'NESTED', nested: { nestedAggregations: [{ name: 'type', type: 'VALUE', fieldPath: 'type' }, { name: 'hidden', type: 'VALUE', fieldPath: 'hidden' }] } }],
    });
    expect(ctx.sent.at(-1)).toMatchObject({ method: 'POST', path: '/_api/bookings/v2/services/search' });
    const result = reply.aggregationData!.results![0]!;
    expect(result).toMatchObject({ name: 'by type', type: 'NESTED' });
    expect(result.nested!.results).toEqual([
      { results: { type: { value: { value: 'CLASS', count: 3 } }, hidden: { value: { value: 'true', count: 2 } } } },
      { results: { type: { value: { value: 'CLASS', count: 3 } }, hidden: { value: { value: 'false', count: 1 } } } },
      { results: { type: { value: { value: 'APPOINTMENT', count: 1 } }, hidden: { value: { value: 'false', count: 1 } } } },
    ]);
  });
});
