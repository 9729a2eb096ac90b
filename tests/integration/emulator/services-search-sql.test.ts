/**
 * The services search runs in SQLite (services/handlers.ts `searchServices` over SiteCollection.page and
 * `matching`): on a made set of services, every page of a search followed by its cursors, and its aggregations,
 * must be what the in-memory evaluator (query/index.ts `runSearch`, the search's semantics of docs/wire.md §6)
 * gives on the same services in creation order: filters, free-text search in OR, AND and fuzzy mode over the
 * default and named fields, sorts on one and two fields, a filter on an undeclared field (the streamed scan),
 * and VALUE, SCALAR and NESTED aggregations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSearch } from '../../../src/emulator/query/index.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emu: TestEmulator;

/** A deterministic PRNG (mulberry32), so a failing case can be replayed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['Yoga', 'yogi', 'Pilates', 'Ádám', 'massage', 'Deep', 'tissue', 'STRETCH', 'Zoë', 'hot', 'Hot-Stone', '50', 'x\u{1F600}', 'flow'];
const COUNT = 130;

/** Every service of the site in creation order (the in-memory evaluator's input). */
async function everyService(): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let offset = 0; ; offset += 100) {
    const r = await emu.request('POST', '/v2/services/query', { query: { paging: { limit: 100, offset } } });
    expect(r.status).toBe(200);
    out.push(...r.body.services);
    if (r.body.services.length < 100) return out;
  }
}

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  const rnd = prng(7);
  const pick = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const services = Array.from({ length: COUNT }, (_, i) => {
    const name = `${pick()} ${pick()}${rnd() < 0.3 ? ` ${pick()}` : ''}`;
    const service: Record<string, unknown> = {
      name,
      type: 'APPOINTMENT',
      payment: { rateType: 'FIXED', fixed: { price: { value: String(10 + (i % 7) * 5), currency: 'USD' } } },
      hidden: rnd() < 0.25,
      onlineBooking: { enabled: rnd() < 0.7 },
    };
    if (rnd() < 0.7) service.description = `${pick()} and ${pick()} for ${i % 3 === 0 ? 'everyone' : 'Experts'}`;
    if (rnd() < 0.5) service.tagLine = pick();
    return service;
  });
  for (let i = 0; i < services.length; i += 50) {
    const r = await emu.request('POST', '/v2/bulk/services/create', { services: services.slice(i, i + 50) });
    expect(r.status).toBe(200);
    expect(r.body.bulkActionMetadata.totalFailures).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await emu?.close();
});

const SEARCHES: Array<Record<string, unknown>> = [
  {},
  { sort: [{ fieldName: 'name', order: 'ASC' }] },
  { sort: [{ fieldName: 'hidden', order: 'DESC' }, { fieldName: 'name', order: 'DESC' }] },
  { filter: { hidden: false }, sort: [{ fieldName: 'createdDate', order: 'DESC' }] },
  { search: { expression: 'yoga' } },
  { search: { expression: 'YOGA hot' }, sort: [{ fieldName: 'name', order: 'ASC' }] },
  { search: { expression: 'yoga hot', mode: 'AND' } },
  { search: { expression: 'ádám zoë' } },
  { search: { expression: 'experts' } },
  { search: { expression: 'experts', fields: ['name'] } },
  { search: { expression: 'stretch 50', fields: ['name', 'description'], mode: 'AND' } },
  { search: { expression: 'yofa masage', fuzzy: true } },
  { search: { expression: 'x\u{1F600}' } },
  { search: { expression: 'hot stone' }, filter: { 'onlineBooking.enabled': true } },
  // Undeclared fields: the filter and the searched field are scanned, one document at a time.
  { filter: { tagLine: { $in: ['Yoga', 'flow'] } }, sort: [{ fieldName: 'name', order: 'ASC' }] },
  { search: { expression: 'deep', fields: ['tagLine', 'name'] } },
  { search: { expression: '   ' } },
];

const AGGREGATIONS = [
  { name: 'byHidden', type: 'VALUE', fieldPath: 'hidden' },
  { name: 'byName', type: 'VALUE', fieldPath: 'name', value: { limit: 5, sortType: 'VALUE', sortDirection: 'DESC' } },
  { name: 'latest', type: 'SCALAR', fieldPath: 'createdDate', scalar: { type: 'MAX' } },
  { name: 'distinctPrices', type: 'SCALAR', fieldPath: 'payment.fixed.price.value', scalar: { type: 'COUNT_DISTINCT' } },
  { type: 'NESTED', nested: { nestedAggregations: [{ name: 'h', type: 'VALUE', fieldPath: 'hidden' }, { name: 'o', type: 'VALUE', fieldPath: 'onlineBooking.enabled' }] } },
];

const ids = (xs: unknown[]) => xs.map((x) => (x as { id: string }).id);

describe('services search in SQL', () => {
  it('gives the in-memory search results page by page, cursors and totals included', async () => {
    const all = await everyService();
    expect(all).toHaveLength(COUNT);
    for (const search of SEARCHES) {
      let request: Record<string, unknown> = { ...search, cursorPaging: { limit: 7 } };
      let pages = 0;
      for (;;) {
        const got = await emu.request('POST', '/v2/services/search', { search: request });
        expect(got.status, JSON.stringify(search)).toBe(200);
        const want = runSearch(all, request, 'search');
        expect(ids(got.body.services), JSON.stringify(search)).toEqual(ids(want.items));
        expect(got.body.services).toEqual(want.items);
        expect(got.body.pagingMetadata, JSON.stringify(search)).toEqual(want.pagingMetadata);
        pages++;
        if (!want.pagingMetadata.hasNext) break;
        request = { cursorPaging: { limit: 7, cursor: want.pagingMetadata.cursors.next } };
      }
      expect(pages).toBeGreaterThan(0);
    }
  }, 120_000);

  it('finds what the made set holds (the comparison is not between two empty answers)', async () => {
    const yoga = await emu.request('POST', '/v2/services/search', { search: { search: { expression: 'yoga' }, cursorPaging: { limit: 100 } } });
    const both = await emu.request('POST', '/v2/services/search', { search: { search: { expression: 'yoga hot', mode: 'AND' }, cursorPaging: { limit: 100 } } });
    expect(yoga.body.services.length).toBeGreaterThan(both.body.services.length);
    expect(both.body.services.length).toBeGreaterThan(0);
    const fuzzy = await emu.request('POST', '/v2/services/search', { search: { search: { expression: 'yofa', fuzzy: true }, cursorPaging: { limit: 100 } } });
    expect(fuzzy.body.services.length).toBeGreaterThan(0);
  });

  it('aggregates every match as the in-memory search does, the page size aside', async () => {
    const all = await everyService();
    for (const search of SEARCHES.slice(0, 8)) {
      const request = { ...search, aggregations: AGGREGATIONS, cursorPaging: { limit: 3 } };
      const got = await emu.request('POST', '/v2/services/search', { search: request });
      expect(got.status, JSON.stringify(search)).toBe(200);
      const want = runSearch(all, request, 'search');
      expect(got.body.aggregationData, JSON.stringify(search)).toEqual(JSON.parse(JSON.stringify(want.aggregationData)));
      expect(ids(got.body.services)).toEqual(ids(want.items));
    }
  }, 60_000);

  it('pages follow a write made between them', async () => {
    const search = { search: { expression: 'pilates' }, sort: [{ fieldName: 'name', order: 'ASC' }], cursorPaging: { limit: 5 } };
    const first = await emu.request('POST', '/v2/services/search', { search });
    const made = await emu.request('POST', '/v2/services', {
      service: { name: '!! Pilates first', type: 'APPOINTMENT', payment: { rateType: 'FIXED', fixed: { price: { value: '1', currency: 'USD' } } } },
    });
    expect(made.status).toBe(200);
    try {
      const again = await emu.request('POST', '/v2/services/search', { search });
      expect(again.body.services[0].id).toBe(made.body.service.id);
      expect(ids(again.body.services).slice(1)).toEqual(ids(first.body.services).slice(0, 4));
      const all = await everyService();
      const next = { cursorPaging: { limit: 5, cursor: again.body.pagingMetadata.cursors.next } };
      expect(ids((await emu.request('POST', '/v2/services/search', { search: next })).body.services)).toEqual(ids(runSearch(all, next, 'search').items));
    } finally {
      await emu.request('DELETE', `/v2/services/${made.body.service.id}`);
    }
  });
});
