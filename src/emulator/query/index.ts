/**
 * Query, search and count over an in-memory list of documents (docs/wire.md §6):
 * offset paging with a total for queries, cursor paging plus text search and aggregations for search.
 */
import { ValidationFailure } from '../errors.js';
import { aggregationPaths, compileAggregations, type AggregationResult } from './aggregations.js';
import { compileFilter } from './filter.js';
import { compileSort } from './sort.js';
import type { MatchMemo } from './memo.js';
import { parseTextSearch, textPredicate, type TextSearch } from './text.js';
import { projection } from './values.js';

export { compileFilter } from './filter.js';
export { compileSort } from './sort.js';
export { MatchMemo } from './memo.js';

/** Largest page a query or search may ask for, and the default for queries (services: 100). */
export const MAX_LIMIT = 100;
export const DEFAULT_QUERY_LIMIT = 100;
/** Default cursor page size, the SDK's default (docs/wire.md §6). */
export const DEFAULT_SEARCH_LIMIT = 50;

export interface OffsetPage<T> {
  items: T[];
  pagingMetadata: { count: number; offset: number; total: number; tooManyToCount: false };
}

function pageLimit(raw: unknown, field: string, dflt: number, min = 0): number {
  if (raw === undefined || raw === null) return dflt;
  const n = typeof raw === 'string' ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > MAX_LIMIT) {
    throw ValidationFailure.field(field, `must be an integer between ${min} and ${MAX_LIMIT}`, 'MAX');
  }
  return n;
}

function pageOffset(raw: unknown, field: string): number {
  if (raw === undefined || raw === null) return 0;
  const n = typeof raw === 'string' ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    throw ValidationFailure.field(field, 'must be a non-negative integer', 'MIN');
  }
  return n;
}

/**
 * Every document passing `accept`, sorted by `sorter` (or in the store's order), through `memo` when given:
 * the memo key is the request's own filter/sort/search JSON, read only after they compiled without error.
 */
function matches<T>(docs: Iterable<T>, accept: ((d: T) => boolean) | undefined, sorter: ((docs: T[]) => void) | undefined, memo: MatchMemo<T> | undefined, key: unknown[]): readonly T[] {
  const compute = () => {
    const matched: T[] = accept ? [] : [...docs];
    if (accept) for (const d of docs) if (accept(d)) matched.push(d);
    sorter?.(matched);
    return matched;
  };
  return memo ? memo.get(JSON.stringify(key), compute) : compute();
}

function isEmptyFilter(filter: unknown): boolean {
  return filter === undefined || filter === null || (typeof filter === 'object' && !Array.isArray(filter) && Object.keys(filter).length === 0);
}

/**
 * `{filter, sort, paging:{limit, offset}}` -> one page and `pagingMetadata` (total counts every match).
 * Without a sort, documents keep the store's order: creation order, i.e. createdDate ascending as the
 * platform's default. With `memo`, later pages of the same filter and sort reuse the first page's matches
 * until the collection changes.
 * @throws ValidationFailure on a malformed filter (`<field>.filter`), sort, or paging.
 */
export function runQuery<T>(docs: Iterable<T>, query: unknown, field = 'query', memo?: MatchMemo<T>): OffsetPage<T> {
  const q = (query ?? {}) as { filter?: unknown; sort?: unknown; paging?: { limit?: unknown; offset?: unknown } };
  const { predicate, sorter, limit, offset } = checkQuery(q, field);
  const matched = matches(docs, isEmptyFilter(q.filter) ? undefined : predicate, sorter, memo, ['q', q.filter ?? null, q.sort ?? null]);
  const items = matched.slice(offset, offset + limit);
  return { items, pagingMetadata: { count: items.length, offset, total: matched.length, tooManyToCount: false } };
}

/**
 * Validates `{filter, sort, paging:{limit, offset}}` as {@link runQuery} does, in the same order, for a query
 * that runs elsewhere (a queryable collection's SQL: SiteCollection.page).
 * @returns the compiled filter and sorter, and the page's limit (default 100) and offset (default 0)
 * @throws ValidationFailure on a malformed filter (`<field>.filter`), sort (`<field>.sort`) or paging
 */
export function checkQuery(
  query: { filter?: unknown; sort?: unknown; paging?: { limit?: unknown; offset?: unknown } },
  field = 'query',
): { predicate: (doc: unknown) => boolean; sorter: ReturnType<typeof compileSort>; limit: number; offset: number } {
  if (typeof query !== 'object') throw ValidationFailure.field(field, 'must be an object');
  const predicate = compileFilter(query.filter, `${field}.filter`);
  const sorter = compileSort(query.sort, `${field}.sort`);
  const limit = pageLimit(query.paging?.limit, `${field}.paging.limit`, DEFAULT_QUERY_LIMIT);
  const offset = pageOffset(query.paging?.offset, `${field}.paging.offset`);
  return { predicate, sorter, limit, offset };
}

/** `{filter}` -> number of matches. @throws ValidationFailure on a malformed filter (field `filter`). */
export function runCount<T>(docs: Iterable<T>, filter: unknown, field = 'filter'): number {
  const predicate = compileFilter(filter, field);
  let n = 0;
  for (const d of docs) if (predicate(d)) n++;
  return n;
}

interface CursorState {
  o: number;
  filter?: unknown;
  sort?: unknown;
  search?: unknown;
}

function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

function decodeCursor(cursor: string, field: string): CursorState {
  try {
    const state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorState;
    if (typeof state !== 'object' || state === null || !Number.isInteger(state.o) || state.o < 0) throw new Error('bad');
    return state;
  } catch {
    throw ValidationFailure.field(field, 'cursor is not valid', 'INVALID_CURSOR');
  }
}

export interface SearchPage<T> {
  items: T[];
  pagingMetadata: { count: number; cursors: { next: string | null; prev: string | null }; hasNext: boolean };
  aggregationData: { results: AggregationResult[] };
}

/** A search request validated (see {@link checkSearch}): what to match, which page, what to aggregate. */
export interface CheckedSearch {
  /** The cursor's state: the page's offset and the first request's filter, sort and text. */
  state: { o: number; filter?: unknown; sort?: unknown; search?: unknown };
  limit: number;
  predicate: (doc: unknown) => boolean;
  sorter: ReturnType<typeof compileSort>;
  /** The free-text search, undefined when it matches everything. */
  text: TextSearch | undefined;
  textTest: (doc: unknown) => boolean;
  aggregate: (docs: readonly unknown[]) => { results: AggregationResult[] };
  /** The field paths the aggregations read (none: no aggregation asked). */
  aggregationPaths: string[];
  /** The reply's `pagingMetadata` for a page of `count` items out of `total` matches. */
  paging(count: number, total: number): SearchPage<unknown>['pagingMetadata'];
}

/**
 * Validates a search request (`{cursorPaging:{limit, cursor}, filter, sort, aggregations, search:{expression,
 * fields, fuzzy, mode}}`) in the order {@link runSearch} checks it, for a search that runs here or elsewhere (the
 * services' SQL: SiteCollection.page). A cursor carries the offset and the filter, sort and text of the first
 * request, so a follow-up request may send only `{cursorPaging}` as the SDK does.
 * @throws ValidationFailure for a malformed limit, cursor, filter, text search, sort or aggregation
 */
export function checkSearch(search: unknown, field = 'search'): CheckedSearch {
  const s = (search ?? {}) as {
    cursorPaging?: { limit?: unknown; cursor?: unknown };
    filter?: unknown;
    sort?: unknown;
    aggregations?: unknown;
    search?: unknown;
  };
  if (typeof s !== 'object') throw ValidationFailure.field(field, 'must be an object');
  const limit = pageLimit(s.cursorPaging?.limit, `${field}.cursorPaging.limit`, DEFAULT_SEARCH_LIMIT, 1);
  let state: CursorState;
  if (typeof s.cursorPaging?.cursor === 'string' && s.cursorPaging.cursor !== '') {
    state = decodeCursor(s.cursorPaging.cursor, `${field}.cursorPaging.cursor`);
  } else {
    state = { o: 0, filter: s.filter, sort: s.sort, search: s.search };
  }
  const predicate = compileFilter(state.filter, `${field}.filter`);
  const text = parseTextSearch(state.search, `${field}.search`);
  const textTest = text ? textPredicate(text) : () => true;
  const sorter = compileSort(state.sort, `${field}.sort`);
  const aggregate = compileAggregations(s.aggregations, `${field}.aggregations`);
  const base = { filter: state.filter, sort: state.sort, search: state.search };
  return {
    state,
    limit,
    predicate,
    sorter,
    text,
    textTest,
    aggregate,
    aggregationPaths: aggregationPaths(s.aggregations),
    paging(count, total) {
      const nextOffset = state.o + count;
      const hasNext = nextOffset < total;
      return {
        count,
        cursors: {
          next: hasNext ? encodeCursor({ o: nextOffset, ...base }) : null,
          prev: state.o > 0 ? encodeCursor({ o: Math.max(0, state.o - limit), ...base }) : null,
        },
        hasNext,
      };
    },
  };
}

/**
 * Search over an in-memory list: see {@link checkSearch} for the request. Aggregations cover every match, not
 * just the page. With `memo`, follow-up pages reuse the matches until the collection changes.
 * @throws ValidationFailure for a malformed filter/sort/aggregation/search or an invalid cursor.
 */
export function runSearch<T>(docs: Iterable<T>, search: unknown, field = 'search', memo?: MatchMemo<T>): SearchPage<T> {
  const c = checkSearch(search, field);
  const { state } = c;
  const matched = matches(docs, (d) => c.predicate(d) && c.textTest(d), c.sorter, memo, ['s', state.filter ?? null, state.sort ?? null, state.search ?? null]);
  const items = matched.slice(state.o, state.o + c.limit);
  return { items, pagingMetadata: c.paging(items.length, matched.length), aggregationData: c.aggregate(matched) };
}

/**
 * The aggregations of a search over `docs` (every match, in the search's order), each document cut down to the
 * fields the aggregations read as it comes, so a large set is held as small objects, never as whole documents.
 */
export function aggregateMatches(c: CheckedSearch, docs: Iterable<unknown>): { results: AggregationResult[] } {
  if (c.aggregationPaths.length === 0) return c.aggregate([]);
  const view = projection(c.aggregationPaths);
  const cut: unknown[] = [];
  for (const doc of docs) cut.push(view(doc));
  return c.aggregate(cut);
}
