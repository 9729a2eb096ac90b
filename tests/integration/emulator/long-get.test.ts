/**
 * The long-GET fallback (docs/wire.md §5): a GET whose parameters exceed 4,000 characters goes out as a POST of
 * the same request to the same path, and the emulator serves that form. The categories query
 * (`@wix/auto_sdk_bookings_categories-v-2` queryCategories, the one operation of our families whose SDK module
 * defines the fallback) through sitectl's client and through the official SDK.
 */
import * as categories from '@wix/auto_sdk_bookings_categories-v-2';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { categories as calls } from '../../../src/api/service-furniture.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';

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

  it('a GET operation without the fallback takes no POST', async () => {
    const r = await fetch(`${emu.url}/pricing-plans/v2/plans/stats`, { method: 'POST', headers: { authorization: emu.apiKey, 'wix-site-id': emu.siteId, 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(404);
  });
});
