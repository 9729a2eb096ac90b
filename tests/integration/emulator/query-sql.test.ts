/**
 * The filter language and sort in SQL (src/emulator/query/sql.ts, store/query-table.ts) against a real SQLite
 * file: every operator, nested $and/$or/$not, sorts on several fields, paging that seeks from the previous
 * page's end, the scan fallback, and equivalence with the in-memory evaluator (runQuery) on random filters.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationFailure } from '../../../src/emulator/errors.js';
import { runQuery } from '../../../src/emulator/query/index.js';
import { encodeKey } from '../../../src/emulator/query/sql.js';
import { compareKeys, sortKey } from '../../../src/emulator/query/values.js';
import { defineCollection, type Doc, type SiteCollection } from '../../../src/emulator/store/collection.js';
import { Store } from '../../../src/emulator/store/store.js';

type Thing = Doc & Record<string, unknown>;

const FIELDS = ['name', 'n', 'when', 'flag', 'tag', 'meta.code', 'meta.rank'];
const THINGS = defineCollection<Thing>({
  kind: 'things',
  entity: 'thing',
  notFound: 'THING_NOT_FOUND',
  revisioned: false,
  queryable: { fields: ['id', ...FIELDS], indexed: ['name', 'n', 'when'] },
});

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

// Values of every kind the evaluator tells apart: numbers and numeric strings, ISO dates in two spellings,
// plain strings (case, accents, an astral character, one from U+E000-U+FFFF, the empty string), booleans.
const VALUES: unknown[] = [
  0, 1, 2.5, -3, 10, '10', '2.50', '-3', '007', '1e1',
  '2025-01-06T09:00:00.000Z', '2025-01-06T09:00:00Z', '2025-03-01', '2024-12-31T23:59:59.999Z',
  'Ada', 'ada', 'Ádám', 'Bruno', 'bruno lee', 'Zoë', 'x\u{1F600}', 'x\uFF21', '', 'abc', 'ab',
  true, false,
];

function randomDoc(rnd: () => number, i: number): Thing {
  const pick = () => VALUES[Math.floor(rnd() * VALUES.length)];
  const doc: Thing = { id: `t${String(i).padStart(4, '0')}` };
  for (const f of ['name', 'n', 'when', 'flag', 'tag']) if (rnd() < 0.85) doc[f] = pick();
  if (rnd() < 0.8) {
    const meta: Record<string, unknown> = {};
    if (rnd() < 0.8) meta.code = pick();
    if (rnd() < 0.8) meta.rank = pick();
    doc.meta = meta;
  }
  return doc;
}

const OPS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$hasSome', '$hasAll', '$startsWith', '$endsWith', '$contains', '$isEmpty'];

function randomCondition(rnd: () => number): Record<string, unknown> {
  const field = FIELDS[Math.floor(rnd() * FIELDS.length)]!;
  const pick = () => VALUES[Math.floor(rnd() * VALUES.length)];
  const op = OPS[Math.floor(rnd() * OPS.length)]!;
  let arg: unknown;
  if (op === '$exists' || op === '$isEmpty') arg = rnd() < 0.5;
  else if (op === '$in' || op === '$nin' || op === '$hasSome' || op === '$hasAll') arg = Array.from({ length: Math.floor(rnd() * 3) }, pick);
  else if (op === '$startsWith' || op === '$endsWith' || op === '$contains') arg = ['a', 'AD', 'b', '0', 'ü', '2025', ''][Math.floor(rnd() * 7)];
  else if (op === '$gt' || op === '$gte' || op === '$lt' || op === '$lte') {
    // Ranges with text that is no date are refused when they meet a date: keep them to other values.
    do arg = pick();
    while (typeof arg === 'string' && !/^[-\d.]/.test(arg) && !/^\d{4}-/.test(arg));
  } else arg = pick();
  if (rnd() < 0.15) return { [field]: arg === undefined ? null : { $not: { [op]: arg } } };
  if (op === '$eq' && rnd() < 0.5) return { [field]: arg };
  return { [field]: { [op]: arg } };
}

function randomFilter(rnd: () => number, depth = 0): Record<string, unknown> {
  const r = rnd();
  if (depth < 3 && r < 0.2) return { $and: Array.from({ length: Math.floor(rnd() * 3) + 1 }, () => randomFilter(rnd, depth + 1)) };
  if (depth < 3 && r < 0.4) return { $or: Array.from({ length: Math.floor(rnd() * 3) + 1 }, () => randomFilter(rnd, depth + 1)) };
  if (depth < 3 && r < 0.5) return { $not: randomFilter(rnd, depth + 1) };
  if (r < 0.6) return { ...randomCondition(rnd), ...randomCondition(rnd) };
  return randomCondition(rnd);
}

function randomSort(rnd: () => number): Array<{ fieldName: string; order: 'ASC' | 'DESC' }> {
  return Array.from({ length: Math.floor(rnd() * 4) }, () => ({ fieldName: FIELDS[Math.floor(rnd() * FIELDS.length)]!, order: rnd() < 0.5 ? 'ASC' : 'DESC' }));
}

let dir: string;
let store: Store;
let things: SiteCollection<Thing>;
const docs: Thing[] = [];

/** What the in-memory evaluator answers: the page's ids and the total. */
function expected(filter: unknown, sort: unknown, offset = 0, limit = 100): { ids: string[]; total: number } {
  const page = runQuery(docs, { filter, sort, paging: { offset, limit } });
  return { ids: page.items.map((d) => d.id), total: page.pagingMetadata.total };
}

/** What the collection answers in SQL. */
function actual(filter: unknown, sort: Array<{ fieldName: string; order?: string }> | undefined, offset = 0, limit = 100): { ids: string[]; total: number } {
  const page = things.page({ filter, sort: sort?.length ? sort : undefined, offset, limit });
  return { ids: page.items.map((d) => d.id), total: page.total };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitectl-query-sql-'));
  store = new Store(dir);
  things = store.collection(THINGS).at('site-1');
  const rnd = prng(16);
  store.tx(() => {
    for (let i = 0; i < 400; i++) {
      const doc = randomDoc(rnd, i);
      docs.push(doc);
      things.insert(doc);
    }
  });
});

afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sort keys', () => {
  it('order bytes as compareKeys orders values, and are equal exactly when the values are', () => {
    const values = VALUES.filter((v): v is string | number | boolean => v !== undefined);
    for (const a of values) {
      for (const b of values) {
        const bytes = Buffer.compare(Buffer.from(encodeKey(a)), Buffer.from(encodeKey(b)));
        expect(Math.sign(bytes), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(Math.sign(compareKeys(sortKey(a), sortKey(b))));
      }
    }
  });
});

describe('filters in SQL', () => {
  it.each(OPS)('%s gives what the evaluator gives on every field and argument', (op) => {
    for (const field of FIELDS) {
      for (const v of VALUES) {
        let arg: unknown = v;
        if (op === '$exists' || op === '$isEmpty') arg = v === true;
        else if (op === '$in' || op === '$nin' || op === '$hasSome' || op === '$hasAll') arg = [v, VALUES[(VALUES.indexOf(v) + 3) % VALUES.length]];
        else if (op === '$startsWith' || op === '$endsWith' || op === '$contains') arg = typeof v === 'string' ? v.slice(0, 2) : String(v);
        else if (['$gt', '$gte', '$lt', '$lte'].includes(op) && typeof v === 'string' && !/^[-\d.]/.test(v)) continue;
        const filter = { [field]: { [op]: arg } };
        expect(actual(filter, undefined), JSON.stringify(filter)).toEqual(expected(filter, undefined));
      }
    }
  });

  it('nested $and, $or and $not, implicit equality and null', () => {
    const filters = [
      { $and: [{ name: 'Ada' }, { $or: [{ n: { $gt: 1 } }, { flag: true }] }] },
      { $or: [{ $not: { tag: { $exists: true } } }, { 'meta.code': { $in: ['10', 'abc'] } }] },
      { $not: { $and: [{ n: { $gte: '2' } }, { n: { $lt: 11 } }] } },
      { name: null },
      { 'meta.rank': { $ne: null } },
      { n: { $not: { $in: [10, '2.50'] } }, when: { $gte: '2025-01-01' } },
    ];
    for (const filter of filters) expect(actual(filter, undefined), JSON.stringify(filter)).toEqual(expected(filter, undefined));
    // Empty $and and $or are refused (never read as "all" or "none"), before any of it reaches SQL.
    for (const empty of [{ $and: [] }, { $or: [] }]) expect(() => expected(empty, undefined)).toThrow(/takes at least one filter/);
  });

  it('runs a free-text search (every word in one of the fields, any case) in SQL, numbers and booleans too', () => {
    const fields = ['name', 'tag', 'flag'];
    for (const expression of ['ada', 'ADA br', 'x', '1', 'tru', 'ü', 'zz', 'b 2']) {
      const words = expression.toLowerCase().split(/\s+/).filter(Boolean);
      const test = (d: unknown) => {
        const text = fields.map((f) => String((d as Record<string, unknown>)[f] ?? '')).join(' ').toLowerCase();
        return words.every((w) => text.includes(w));
      };
      const page = things.page({ offset: 0, limit: 100, search: { fields, words, test, key: expression } });
      const want = docs.filter(test);
      expect({ ids: page.items.map((d) => d.id), total: page.total }, expression).toEqual({ ids: want.slice(0, 100).map((d) => d.id), total: want.length });
    }
  });

  it('refuses a range comparing a date with text, as the evaluator does', () => {
    expect(() => actual({ when: { $gt: 'abc' } }, undefined)).toThrow(ValidationFailure);
  });

  it('sorts on several fields, ties in creation order, both directions', () => {
    const sorts = [
      [{ fieldName: 'name', order: 'ASC' as const }],
      [{ fieldName: 'n', order: 'DESC' as const }, { fieldName: 'name', order: 'ASC' as const }],
      [{ fieldName: 'flag', order: 'ASC' as const }, { fieldName: 'meta.rank', order: 'DESC' as const }, { fieldName: 'when', order: 'ASC' as const }],
    ];
    for (const sort of sorts) {
      for (const offset of [0, 100, 350]) expect(actual(undefined, sort, offset), JSON.stringify(sort)).toEqual(expected(undefined, sort, offset));
    }
  });

  it('pages by offset, each page seeking from where the previous one ended, to the same order as one pass', () => {
    const filter = { $or: [{ n: { $exists: true } }, { flag: false }] };
    const sort = [{ fieldName: 'meta.code', order: 'DESC' as const }, { fieldName: 'name', order: 'ASC' as const }];
    const all: string[] = [];
    for (let offset = 0; offset === 0 || offset < expected(filter, sort).total; offset += 100) all.push(...expected(filter, sort, offset).ids);
    const walked: string[] = [];
    for (let offset = 0; offset < all.length; offset += 7) walked.push(...actual(filter, sort, offset, 7).ids);
    expect(walked).toEqual(all);
    const ids = { all };
    // A write between pages: the next page is counted from the start again, not from a stale end.
    store.tx(() => things.update({ ...things.get(ids.all[3]!)!, n: 999 }));
    docs[docs.findIndex((d) => d.id === ids.all[3])] = things.get(ids.all[3]!)!;
    expect(actual(filter, sort, 14, 7)).toEqual(expected(filter, sort, 14, 7));
  });

  it('gives the evaluator\'s answer on 400 random filters and sorts', () => {
    const rnd = prng(2026);
    for (let i = 0; i < 400; i++) {
      const filter = randomFilter(rnd);
      const sort = randomSort(rnd);
      const offset = rnd() < 0.3 ? Math.floor(rnd() * 50) : 0;
      expect(actual(filter, sort, offset, 30), JSON.stringify({ filter, sort, offset })).toEqual(expected(filter, sort, offset, 30));
    }
  });
});

describe('the scan fallback', () => {
  it('answers filters and sorts on undeclared fields, and a site holding an irregular document', () => {
    const other = store.collection(THINGS).at('site-2');
    const local: Thing[] = [];
    store.tx(() => {
      for (const d of docs.slice(0, 50)) local.push(other.insert({ ...d, extra: d.name }));
    });
    const run = (filter: unknown, sort?: Array<{ fieldName: string; order: 'ASC' | 'DESC' }>) => {
      const page = other.page({ filter, sort, offset: 0, limit: 100 });
      return page.items.map((d) => d.id);
    };
    const want = (filter: unknown, sort?: unknown) => runQuery(local, { filter, sort }).items.map((d) => d.id);
    expect(run({ extra: { $exists: true } }, [{ fieldName: 'extra', order: 'DESC' }])).toEqual(want({ extra: { $exists: true } }, [{ fieldName: 'extra', order: 'DESC' }]));
    store.tx(() => local.push(other.insert({ id: 'irregular', name: ['Ada', 'Bruno'], n: null })));
    expect(run({ name: 'Bruno' })).toEqual(want({ name: 'Bruno' }));
    expect(run({ n: null }, [{ fieldName: 'name', order: 'ASC' }])).toEqual(want({ n: null }, [{ fieldName: 'name', order: 'ASC' }]));
    expect(other.matchingIds({ name: 'Ada' })).toEqual(want({ name: 'Ada' }));
  });

  it('rolls a failed transaction back in the query table too', () => {
    const before = actual({ name: 'rolled back' }, undefined);
    expect(() =>
      store.tx(() => {
        things.insert({ id: 'gone', name: 'rolled back' });
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(actual({ name: 'rolled back' }, undefined)).toEqual(before);
    expect(things.get('gone')).toBeUndefined();
  });

  it('rebuilds a missing query table from the documents when the store opens', () => {
    const want = actual({ n: { $gte: 1 } }, [{ fieldName: 'name', order: 'DESC' }]);
    store.close();
    store = new Store(dir);
    store.db.exec('DELETE FROM query_things');
    store.close();
    store = new Store(dir);
    things = store.collection(THINGS).at('site-1');
    expect(actual({ n: { $gte: 1 } }, [{ fieldName: 'name', order: 'DESC' }])).toEqual(want);
  });
});
