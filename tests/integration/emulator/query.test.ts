import { describe, expect, it } from 'vitest';
import { ValidationFailure } from '../../../src/emulator/errors.js';
import { compileAggregations, truncate } from '../../../src/emulator/query/aggregations.js';
import { compileFilter } from '../../../src/emulator/query/filter.js';
import { runCount, runQuery, runSearch } from '../../../src/emulator/query/index.js';
import { compileSort } from '../../../src/emulator/query/sort.js';
import { compileTextSearch, withinOneEdit } from '../../../src/emulator/query/text.js';

const docs = [
  {
    id: 'a',
    name: 'Hot Yoga',
    description: 'Heated vinyasa flow',
    type: 'CLASS',
    hidden: false,
    createdDate: '2025-01-06T09:00:00.000Z',
    payment: { rateType: 'FIXED', fixed: { price: { value: '25', currency: 'USD' } } },
    category: { id: 'c1', name: 'Yoga' },
    locations: [{ type: 'BUSINESS', business: { id: 'L1' } }, { type: 'BUSINESS', business: { id: 'L2' } }],
    staffMemberIds: ['s1', 's2'],
    tags: [],
  },
  {
    id: 'b',
    name: "Men's Haircut",
    description: 'Classic cut',
    type: 'APPOINTMENT',
    hidden: true,
    createdDate: '2025-02-10T12:30:00.000Z',
    payment: { rateType: 'FIXED', fixed: { price: { value: '9.5', currency: 'USD' } } },
    category: { id: 'c2', name: 'Hair' },
    locations: [{ type: 'BUSINESS', business: { id: 'L2' } }],
    staffMemberIds: ['s3'],
  },
  {
    id: 'c',
    name: 'Pottery Course',
    type: 'COURSE',
    hidden: false,
    createdDate: '2025-02-11T08:00:00.000Z',
    payment: { rateType: 'NO_FEE' },
    category: { id: 'c3', name: 'Arts' },
    locations: [{ type: 'CUSTOM', calculatedAddress: { formatted: '1 Clay Road' } }],
    staffMemberIds: [],
    description: null,
  },
];

const ids = (filter: unknown) => docs.filter(compileFilter(filter)).map((d) => d.id);

function violationOf(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationFailure);
    return (err as ValidationFailure).fieldViolations[0];
  }
  throw new Error('expected a ValidationFailure');
}

describe('filter', () => {
  it('matches everything without a filter', () => {
    expect(ids(undefined)).toEqual(['a', 'b', 'c']);
    expect(ids({})).toEqual(['a', 'b', 'c']);
  });

  it('implicit equality and $eq/$ne, including nested paths', () => {
    expect(ids({ type: 'CLASS' })).toEqual(['a']);
    expect(ids({ 'category.id': { $eq: 'c2' } })).toEqual(['b']);
    expect(ids({ type: { $ne: 'CLASS' } })).toEqual(['b', 'c']);
    expect(ids({ hidden: true })).toEqual(['b']);
    expect(ids({ category: { id: 'c3', name: 'Arts' } })).toEqual(['c']);
  });

  it('compares money strings numerically, against numbers or numeric strings', () => {
    // '9.5' < '25' numerically but not as text.
    expect(ids({ 'payment.fixed.price.value': { $gt: '10' } })).toEqual(['a']);
    expect(ids({ 'payment.fixed.price.value': { $lte: 9.5 } })).toEqual(['b']);
    expect(ids({ 'payment.fixed.price.value': 25 })).toEqual(['a']);
    expect(ids({ 'payment.fixed.price.value': { $gte: 9.5, $lt: 25 } })).toEqual(['b']);
  });

  it('compares dates as dates', () => {
    expect(ids({ createdDate: { $gte: '2025-02-10' } })).toEqual(['b', 'c']);
    expect(ids({ createdDate: { $lt: '2025-02-10T12:30:00Z' } })).toEqual(['a']);
    expect(ids({ createdDate: '2025-01-06T09:00:00Z' })).toEqual(['a']);
  });

  it('refuses a range on a date with text that is no date (it would compare as text)', () => {
    expect(violationOf(() => ids({ createdDate: { $lt: 'notadate' } }))).toMatchObject({ description: expect.stringMatching(/compares a date/) });
    expect(violationOf(() => ids({ createdDate: { $gte: '2025-1-1' } }))).toMatchObject({ description: expect.stringMatching(/ISO-8601/) });
  });

  it('walks arrays on dotted paths', () => {
    expect(ids({ 'locations.business.id': 'L2' })).toEqual(['a', 'b']);
    expect(ids({ 'locations.business.id': { $in: ['L1', 'X'] } })).toEqual(['a']);
    expect(ids({ 'locations.business.id': { $nin: ['L1'] } })).toEqual(['b', 'c']);
    expect(ids({ 'locations.type': 'CUSTOM' })).toEqual(['c']);
  });

  it('$in $nin $hasSome $hasAll', () => {
    expect(ids({ type: { $in: ['CLASS', 'COURSE'] } })).toEqual(['a', 'c']);
    expect(ids({ type: { $nin: ['CLASS', 'COURSE'] } })).toEqual(['b']);
    expect(ids({ staffMemberIds: { $hasSome: ['s2', 's3'] } })).toEqual(['a', 'b']);
    expect(ids({ staffMemberIds: { $hasAll: ['s1', 's2'] } })).toEqual(['a']);
    expect(ids({ staffMemberIds: { $hasAll: ['s1', 's3'] } })).toEqual([]);
  });

  it('$exists and $isEmpty', () => {
    expect(ids({ 'payment.fixed': { $exists: true } })).toEqual(['a', 'b']);
    expect(ids({ 'payment.fixed': { $exists: false } })).toEqual(['c']);
    expect(ids({ description: { $exists: false } })).toEqual(['c']);
  });

  it('sees only own properties: inherited names match nothing', () => {
    expect(ids({ toString: { $exists: true } })).toEqual([]);
    expect(ids({ 'name.constructor': { $exists: true } })).toEqual([]);
    expect(ids(JSON.parse('{"__proto__": {"$exists": true}}'))).toEqual([]);
    expect(ids({ 'locations.constructor': { $exists: true } })).toEqual([]);
    expect(ids({ staffMemberIds: { $isEmpty: true } })).toEqual(['c']);
    expect(ids({ tags: { $isEmpty: true } })).toEqual(['a', 'b', 'c']);
    expect(ids({ staffMemberIds: { $isEmpty: false } })).toEqual(['a', 'b']);
  });

  it('string operators are case-insensitive', () => {
    expect(ids({ name: { $startsWith: 'hot' } })).toEqual(['a']);
    expect(ids({ name: { $endsWith: 'COURSE' } })).toEqual(['c']);
    expect(ids({ description: { $contains: 'CUT' } })).toEqual(['b']);
  });

  it('$and $or $not, at the top and on a field', () => {
    expect(ids({ $or: [{ type: 'CLASS' }, { hidden: true }] })).toEqual(['a', 'b']);
    expect(ids({ $and: [{ hidden: false }, { 'payment.rateType': 'FIXED' }] })).toEqual(['a']);
    expect(ids({ $not: { type: 'CLASS' } })).toEqual(['b', 'c']);
    expect(ids({ name: { $not: { $startsWith: 'hot' } } })).toEqual(['b', 'c']);
    expect(ids({ $or: [{ $and: [{ type: 'COURSE' }, { hidden: false }] }, { 'category.id': 'c1' }] })).toEqual(['a', 'c']);
  });

  it('rejects unknown operators and malformed filters with a query.filter violation', () => {
    expect(violationOf(() => compileFilter({ name: { $like: 'x' } }))).toMatchObject({ field: 'query.filter' });
    expect(violationOf(() => compileFilter({ $nor: [] })).description).toContain('$nor');
    expect(violationOf(() => compileFilter({ type: { $in: 'CLASS' } })).description).toContain('array');
    expect(violationOf(() => compileFilter({ $and: {} })).description).toContain('array');
    expect(violationOf(() => compileFilter('type=CLASS')).field).toBe('query.filter');
    expect(violationOf(() => compileFilter({ name: { $eq: 'a', plain: 1 } })).description).toContain('mixed');
    expect(violationOf(() => compileFilter({ hidden: { $exists: 'yes' } }, 'filter')).field).toBe('filter');
  });
});

describe('sort', () => {
  const sorted = (sort: unknown) => {
    const copy = [...docs];
    compileSort(sort)!(copy);
    return copy.map((d) => d.id);
  };

  it('sorts by one or more fields, ASC and DESC, numbers and dates by value', () => {
    expect(sorted([{ fieldName: 'name' }])).toEqual(['a', 'b', 'c']);
    expect(sorted([{ fieldName: 'createdDate', order: 'DESC' }])).toEqual(['c', 'b', 'a']);
    expect(sorted([{ fieldName: 'payment.fixed.price.value', order: 'DESC' }])).toEqual(['a', 'b', 'c']);
    expect(sorted([{ fieldName: 'hidden', order: 'ASC' }, { fieldName: 'name', order: 'DESC' }])).toEqual(['c', 'a', 'b']);
  });

  it('treats inherited names as missing: the order stays stable', () => {
    expect(sorted([{ fieldName: 'toString' }, { fieldName: 'name', order: 'DESC' }])).toEqual(['c', 'b', 'a']);
  });

  it('rejects more than 50 fields and bad orders', () => {
    const many = Array.from({ length: 51 }, () => ({ fieldName: 'name' }));
    expect(violationOf(() => compileSort(many))).toMatchObject({ field: 'query.sort', violatedRule: 'MAX_SIZE' });
    expect(violationOf(() => compileSort([{ fieldName: 'name', order: 'UP' }])).field).toBe('query.sort[0].order');
    expect(violationOf(() => compileSort([{ order: 'ASC' }])).field).toBe('query.sort[0].fieldName');
  });
});

describe('paging, count and search', () => {
  const many = Array.from({ length: 250 }, (_, i) => ({ id: `s${i}`, n: i, name: i % 2 ? 'odd yoga' : 'even pottery' }));

  it('offset paging: default limit 100, total counts every match, limit above 100 is rejected', () => {
    const first = runQuery(many, {});
    expect(first.items).toHaveLength(100);
    expect(first.pagingMetadata).toEqual({ count: 100, offset: 0, total: 250, tooManyToCount: false });
    const last = runQuery(many, { paging: { limit: 100, offset: 200 } });
    expect(last.items.map((d) => d.n)).toEqual(Array.from({ length: 50 }, (_, i) => 200 + i));
    expect(runQuery(many, { filter: { n: { $lt: 10 } }, sort: [{ fieldName: 'n', order: 'DESC' }], paging: { limit: 3 } }).items.map((d) => d.n)).toEqual([9, 8, 7]);
    expect(violationOf(() => runQuery(many, { paging: { limit: 101 } })).field).toBe('query.paging.limit');
    expect(violationOf(() => runQuery(many, { paging: { offset: -1 } })).field).toBe('query.paging.offset');
  });

  it('count', () => {
    expect(runCount(many, { n: { $gte: 200 } })).toBe(50);
    expect(runCount(many, undefined)).toBe(250);
  });

  it('search pages with opaque cursors that carry the filter, sort and text', () => {
    const seen: number[] = [];
    let page = runSearch(many, { filter: { n: { $lt: 120 } }, sort: [{ fieldName: 'n', order: 'DESC' }], search: { expression: 'yoga' }, cursorPaging: { limit: 25 } });
    seen.push(...page.items.map((d) => d.n));
    expect(page.pagingMetadata.cursors.prev).toBeNull();
    while (page.pagingMetadata.hasNext) {
      // Like the SDK: follow-up requests send only the cursor.
      page = runSearch(many, { cursorPaging: { limit: 25, cursor: page.pagingMetadata.cursors.next } });
      seen.push(...page.items.map((d) => d.n));
    }
    expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => 119 - 2 * i));
    expect(page.pagingMetadata.cursors.next).toBeNull();
    expect(page.pagingMetadata.cursors.prev).not.toBeNull();
    expect(violationOf(() => runSearch(many, { cursorPaging: { cursor: 'not-a-cursor' } })).field).toBe('search.cursorPaging.cursor');
  });

  it('text search: OR / AND modes, chosen fields, fuzzy', () => {
    const t = (search: unknown) => docs.filter(compileTextSearch(search)).map((d) => d.id);
    expect(t({ expression: 'yoga cut' })).toEqual(['a', 'b']);
    expect(t({ expression: 'yoga cut', mode: 'AND' })).toEqual([]);
    expect(t({ expression: 'heated flow', mode: 'AND' })).toEqual(['a']);
    expect(t({ expression: 'heated', fields: ['name'] })).toEqual([]);
    expect(t({ expression: 'poterry' })).toEqual([]);
    expect(t({ expression: 'potery', fuzzy: true })).toEqual(['c']);
    expect(withinOneEdit('yoga', 'yogi')).toBe(true);
    expect(withinOneEdit('yoga', 'toga!')).toBe(false);
    expect(violationOf(() => compileTextSearch({ expression: 'x', mode: 'XOR' })).field).toBe('search.search.mode');
  });
});

describe('aggregations', () => {
  it('VALUE: top values with counts, sorted by count then value, limited', () => {
    const agg = compileAggregations([{ name: 'types', type: 'VALUE', fieldPath: 'locations.business.id', value: { limit: 1 } }])(docs);
    expect(agg.results[0]).toEqual({ name: 'types', type: 'VALUE', fieldPath: 'locations.business.id', values: { results: [{ value: 'L2', count: 2 }] } });
    const all = compileAggregations([{ type: 'VALUE', fieldPath: 'type', value: { sortType: 'VALUE', sortDirection: 'ASC' } }])(docs);
    expect(all.results[0].values?.results.map((r) => r.value)).toEqual(['APPOINTMENT', 'CLASS', 'COURSE']);
  });

  it('RANGE buckets are [from, to) over numeric strings', () => {
    const agg = compileAggregations([{ type: 'RANGE', fieldPath: 'payment.fixed.price.value', range: { buckets: [{ to: 10 }, { from: 10, to: 25 }, { from: 25 }] } }])(docs);
    expect(agg.results[0].ranges?.results).toEqual([{ to: 10, count: 1 }, { from: 10, to: 25, count: 0 }, { from: 25, count: 1 }]);
  });

  it('SCALAR COUNT_DISTINCT, MIN, MAX', () => {
    const agg = compileAggregations([
      { name: 'n', type: 'SCALAR', fieldPath: 'category.id', scalar: { type: 'COUNT_DISTINCT' } },
      { name: 'min', type: 'SCALAR', fieldPath: 'payment.fixed.price.value', scalar: { type: 'MIN' } },
      { name: 'max', type: 'SCALAR', fieldPath: 'payment.fixed.price.value', scalar: { type: 'MAX' } },
      { name: 'first', type: 'SCALAR', fieldPath: 'createdDate', scalar: { type: 'MIN' } },
    ])(docs);
    expect(agg.results.map((r) => r.scalar?.value)).toEqual([3, 9.5, 25, Date.parse('2025-01-06T09:00:00.000Z')]);
  });

  it('DATE_HISTOGRAM per interval', () => {
    const by = (interval: string) =>
      compileAggregations([{ type: 'DATE_HISTOGRAM', fieldPath: 'createdDate', dateHistogram: { interval } }])(docs).results[0].dateHistogram?.results;
    expect(by('MONTH')).toEqual([
      { value: '2025-01-01T00:00:00.000Z', count: 1 },
      { value: '2025-02-01T00:00:00.000Z', count: 2 },
    ]);
    expect(by('DAY')?.map((r) => r.value)).toEqual(['2025-01-06T00:00:00.000Z', '2025-02-10T00:00:00.000Z', '2025-02-11T00:00:00.000Z']);
    expect(by('YEAR')).toEqual([{ value: '2025-01-01T00:00:00.000Z', count: 3 }]);
    // 2025-02-12 is a Wednesday; its week starts Monday 2025-02-10.
    expect(new Date(truncate(Date.parse('2025-02-12T15:00:00Z'), 'WEEK')).toISOString()).toBe('2025-02-10T00:00:00.000Z');
    expect(new Date(truncate(Date.parse('2025-02-12T15:47:13.5Z'), 'MINUTE')).toISOString()).toBe('2025-02-12T15:47:00.000Z');
  });

  it('rejects unknown types and bad settings', () => {
    // NESTED is served (a chain of 2 to 10, docs/wire.md §6): without its chain it is refused there.
    expect(violationOf(() => compileAggregations([{ type: 'NESTED', fieldPath: 'x' }])).field).toBe('search.aggregations[0].nested.nestedAggregations');
    expect(violationOf(() => compileAggregations([{ type: 'GROUP_BY', fieldPath: 'x' }])).field).toBe('search.aggregations[0].type');
    expect(violationOf(() => compileAggregations([{ type: 'SCALAR', fieldPath: 'x', scalar: { type: 'AVG' } }])).field).toBe('search.aggregations[0].scalar.type');
    expect(violationOf(() => compileAggregations([{ type: 'VALUE' }])).field).toBe('search.aggregations[0].fieldPath');
  });
});
