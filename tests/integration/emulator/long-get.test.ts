/**
 * The long-GET fallback (docs/wire.md §5): a GET whose parameters exceed 4,000 characters goes out as a POST of
 * the same request to the same path, and the emulator serves that form for every GET route whose POST is no other
 * call. The categories query (`@wix/auto_sdk_bookings_categories-v-2` queryCategories, the one operation of our
 * families whose SDK module defines the fallback) through sitectl's client and through the official SDK; the
 * orders list with 100 buyer ids through the CLI, and the official client's own long GET of it; every GET
 * route's POST form.
 */
import * as categories from '@wix/auto_sdk_bookings_categories-v-2';
import * as orders from '@wix/auto_sdk_pricing-plans_orders';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { FAMILIES } from '../../../src/api/families.js';
import { fillPath, operationsOf } from '../../../src/api/family.js';
import { plans as planCalls } from '../../../src/api/plans.js';
import { categories as calls } from '../../../src/api/service-furniture.js';
import { runInProcess, startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let api: ApiClient;
/** Method and path of every request the emulator's clients sent. */
const seen: Array<{ method: string; path: string; length: number }> = [];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0, members: 0 });
  const dispatcher = new Agent().compose((dispatch) => (opts, handler) => {
    seen.push({ method: opts.method, path: opts.path.split('?')[0]!, length: opts.path.length });
    return dispatch(opts, handler);
  });
  api = new ApiClient({ baseUrl: emu.url, credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId: emu.siteId }, dispatcher });
});
afterAll(async () => {
  await api?.close();
  await emu?.close();
});

/** A filter on the names of the site's categories plus `extra` made-up names: long enough for the fallback. */
async function longFilter(extra: number): Promise<{ names: string[]; filter: { name: { $in: string[] } } }> {
  const names = ((await emu.request('GET', '/bookings/v2/categories/query')).body.categories as Array<{ name: string }>).map((c) => c.name);
  const padding = Array.from({ length: extra }, (_, i) => `no such category ${i} ${'x'.repeat(40)}`);
  return { names, filter: { name: { $in: [...names, ...padding] } } };
}

describe('the POST form of a long GET', () => {
  it('sitectl sends a short categories query as a GET, a long one as a POST, and both answer the same', async () => {
    const { names, filter } = await longFilter(120);
    seen.length = 0;
    const short = await calls.queryCategories(api, { query: { cursorPaging: { limit: 100 } } });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', path: '/bookings/v2/categories/query' });
    const long = await calls.queryCategories(api, { query: { filter, cursorPaging: { limit: 100 } } });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', path: '/bookings/v2/categories/query' });
    expect(long.categories.map((c) => c.name).sort()).toEqual(names.sort());
    expect(short.categories.map((c) => c.id).sort()).toEqual(long.categories.map((c) => c.id).sort());
  });

  it("answers the official SDK's fallback POST", async () => {
    const { names, filter } = await longFilter(120);
    const sent: string[] = [];
    const client = createClient({
      auth: ApiKeyStrategy({ apiKey: emu.apiKey, siteId: emu.siteId }),
      modules: { categories },
      fetch: (async (input: string | URL | Request, init?: RequestInit) => {
        const url = (typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url).replace(/^https:\/\/www\.wixapis\.com/, emu.url);
        sent.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
        return fetch(url, init);
      }) as typeof fetch,
    });
    const reply = await client.categories.queryCategories().in('name', filter.name.$in).limit(100).find();
    expect(sent.at(-1)).toBe('POST /bookings/v2/categories/query');
    expect(reply.items.map((c) => c.name).sort()).toEqual(names.sort());
  });

  it('every GET route of every family answers its POST form, except the two whose POST is a create', async () => {
    const gets = FAMILIES.flatMap((f) => operationsOf(f)).filter((op) => op.method === 'GET');
    expect(gets.filter((op) => !op.longGetFallback).map((op) => `${op.family}.${op.name}`).sort()).toEqual(['members.listMembers', 'plans.listPlans']);
    for (const op of gets.filter((o) => o.longGetFallback)) {
      const path = fillPath(op.url, Object.fromEntries(op.pathParams.map((p) => [p, '00000000-0000-4000-8000-000000000000'])));
      const r = await fetch(`${emu.url}${path}`, { method: 'POST', headers: { authorization: emu.apiKey, 'wix-site-id': emu.siteId, 'content-type': 'application/json' }, body: '{}' });
      const body = (await r.text()) || '{}';
      // Answered by the operation (its reply, or its own refusal of the made-up id or of a visitor-only call), never "no route".
      expect(JSON.parse(body).message ?? '', `${op.family}.${op.name}`).not.toMatch(/^no route for/);
    }
  });

  it('plans stats answers the same to its GET and its POST form', async () => {
    const get = await emu.request('GET', '/pricing-plans/v2/plans/stats');
    const post = await emu.request('POST', '/pricing-plans/v2/plans/stats', {});
    expect(post.status).toBe(200);
    expect(post.body).toEqual(get.body);
  });

  it('a long plans list stays a GET (its POST form would create a plan) and is answered', async () => {
    const stats = await emu.request('GET', '/pricing-plans/v2/plans/stats');
    const planIds = Array.from({ length: 100 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    seen.length = 0;
    const reply = await planCalls.listPlans(api, { planIds });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', path: '/pricing-plans/v2/plans' });
    expect(seen.at(-1)!.length).toBeGreaterThan(4000);
    expect(reply.plans ?? []).toEqual([]);
    expect((await emu.request('GET', '/pricing-plans/v2/plans/stats')).body).toEqual(stats.body);
  });
});

describe('the orders list with 100 buyer ids', () => {
  /** Three buyers with an order each, and 97 made-up member ids: 100 buyer ids, past 4,000 characters as a GET. */
  async function buyers(): Promise<{ ids: string[]; orderIds: string[] }> {
    const plans = (await emu.request('GET', '/pricing-plans/v2/plans?public=PUBLIC')).body.plans as Array<{ id: string }>;
    const real: string[] = [];
    const orderIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const m = await emu.request('POST', '/members/v1/members', { member: { loginEmail: `long-get-${Date.now()}-${i}@example.com` } });
      real.push(m.body.member.id);
      const o = await emu.request('POST', '/pricing-plans/v2/checkout/orders/offline', { planId: plans[0]!.id, memberId: m.body.member.id });
      expect(o.status, JSON.stringify(o.body)).toBe(200);
      orderIds.push(o.body.order.id);
    }
    const madeUp = Array.from({ length: 97 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    return { ids: [...madeUp.slice(0, 50), ...real, ...madeUp.slice(50)], orderIds };
  }

  it('sitectl orders list sends it as a POST of the list and shows those buyers\' orders', async () => {
    const { ids, orderIds } = await buyers();
    const r = await runInProcess(['orders', 'list', '--filter', JSON.stringify({ 'buyer.memberId': { $in: ids } }), '--json', 'id', '--debug'], { emulator: emu });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ id: string }>).map((o) => o.id).sort()).toEqual([...orderIds].sort());
    const sent = r.stderr.split('\n').filter((l) => /^debug: > (GET|POST) .*\/pricing-plans\/v2\/orders/.test(l));
    expect(sent, r.stderr).toEqual([expect.stringMatching(/^debug: > POST http:\/\/[^ ]+\/pricing-plans\/v2\/orders$/)]);
  });

  it("the official client's managementListOrders (no fallback in its module) sends the long GET, answered the same", async () => {
    const { ids, orderIds } = await buyers();
    const sent: Array<{ method: string; length: number }> = [];
    const client = createClient({
      auth: ApiKeyStrategy({ apiKey: emu.apiKey, siteId: emu.siteId }),
      modules: { orders },
      fetch: (async (input: string | URL | Request, init?: RequestInit) => {
        const url = (typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url).replace(/^https:\/\/www\.wixapis\.com/, emu.url);
        sent.push({ method: init?.method ?? 'GET', length: new URL(url).search.length });
        return fetch(url, init);
      }) as typeof fetch,
    });
    const reply = await client.orders.managementListOrders({ buyerIds: ids, limit: 50 });
    expect(sent.at(-1)!.method).toBe('GET');
    expect(sent.at(-1)!.length).toBeGreaterThan(4000);
    expect((reply.orders ?? []).map((o) => o._id).sort()).toEqual([...orderIds].sort());
    const post = await emu.request('POST', '/pricing-plans/v2/orders', { buyerIds: ids, limit: 50 });
    expect((post.body.orders as Array<{ id: string }>).map((o) => o.id).sort()).toEqual([...orderIds].sort());
  });
});
