/**
 * Paging as async iterators (docs/wire.md §6, §12).
 *
 * `offsetPages` and `cursorPages` yield one {@link Page} per request; `items` flattens pages into entities;
 * `collect` gathers an iterator into an array with an upper bound. Every iterator stops early when the consumer
 * breaks out of its `for await`, so no page is fetched that nobody reads.
 */
import type { ApiClient } from './client.js';
import { invoke, type ItemOf, type Operation, type PagingSpec } from './family.js';
import type { Filter, PagingMetadata, Sorting } from './schemas/common.js';

/** One page of a list call: the entities plus the reply's `pagingMetadata`. */
export interface Page<T> {
  items: T[];
  pagingMetadata?: PagingMetadata;
}

export interface PagingOptions {
  /** Entities asked per request (the call's `limit`); the platform caps it (100 for services). Default 50. */
  pageSize?: number;
  /** Stop after this many entities in total; the last page is cut to fit. Default: no limit. */
  limit?: number;
}

/** Default page size of the platform's queries (docs/wire.md §12: "Default query page size is 50"). */
export const DEFAULT_PAGE_SIZE = 50;

function checkOptions(opts: PagingOptions): { pageSize: number; limit: number } {
  const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  if (limit !== Number.POSITIVE_INFINITY && (!Number.isInteger(limit) || limit < 0)) {
    throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
  }
  return { pageSize, limit };
}

/**
 * Offset paging: asks `{limit, offset}` starting at `offset` 0 and yields each page.
 * The next offset adds the entities received to the offset (equal to `offset + limit` for a full page; it
 * differs only when the server caps the page below the limit, and then nothing is skipped).
 * Keeps going while the page is not empty and either `offset + count < total` (when the total is known, i.e.
 * not `tooManyToCount`) or, without a usable total, while the page is full.
 *
 * @param fetchPage performs one request, e.g. `({limit, offset}) => queryServices(api, {paging:{limit, offset}})`
 *                  mapped to `{items: services, pagingMetadata}`
 * Reads one page ahead: the next offset is known as soon as a page arrives, so its request is sent before the
 * current page is handed to the consumer, and the server works while the caller parses and plans (a bulk plan
 * over 10,000 services is 100 sequential pages). A consumer that stops early leaves at most one page unread.
 *
 * @throws whatever `fetchPage` throws; RangeError on a bad pageSize/limit
 */
export async function* offsetPages<T>(
  fetchPage: (paging: { limit: number; offset: number }) => Promise<Page<T>>,
  opts: PagingOptions & { offset?: number } = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const { pageSize, limit } = checkOptions(opts);
  let offset = opts.offset ?? 0;
  let remaining = limit;
  if (remaining <= 0) return;
  let asked = Math.min(pageSize, remaining);
  let next: Promise<Page<T>> | undefined = fetchPage({ limit: asked, offset });
  while (next) {
    const page: Page<T> = await next;
    next = undefined;
    const items = page.items.length > remaining ? page.items.slice(0, remaining) : page.items;
    remaining -= items.length;

    const received = page.items.length;
    const meta = page.pagingMetadata;
    const total = meta && !meta.tooManyToCount && typeof meta.total === 'number' ? meta.total : undefined;
    const more = received > 0 && remaining > 0 && (total !== undefined ? offset + received < total : received >= asked);
    if (more) {
      offset += received;
      asked = Math.min(pageSize, remaining);
      next = fetchPage({ limit: asked, offset });
      // Awaited on the next turn; until then a failure must not surface as an unhandled rejection.
      next.catch(() => undefined);
    }
    yield { items, pagingMetadata: page.pagingMetadata };
  }
}

/**
 * Cursor paging: the first request gets `{limit}` (the caller sends its filter and sort with it); each later
 * request gets `{limit, cursor}` and the caller must send only `cursorPaging` (docs/wire.md §6: the SDK sends no
 * filter or sort with a cursor). Keeps going while `pagingMetadata.cursors.next` is set, even past an empty
 * page (stripe-node#2731); stops at `limit` entities or if the server hands back the same cursor again.
 *
 * @param fetchPage performs one request: `cursor` undefined means "first page".
 * @throws whatever `fetchPage` throws; RangeError on a bad pageSize/limit
 */
export async function* cursorPages<T>(
  fetchPage: (paging: { limit: number; cursor?: string }) => Promise<Page<T>>,
  opts: PagingOptions = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const { pageSize, limit } = checkOptions(opts);
  let cursor: string | undefined;
  let remaining = limit;
  while (remaining > 0) {
    const asked = Math.min(pageSize, remaining);
    const page = await fetchPage(cursor === undefined ? { limit: asked } : { limit: asked, cursor });
    const items = page.items.length > remaining ? page.items.slice(0, remaining) : page.items;
    remaining -= items.length;
    yield { items, pagingMetadata: page.pagingMetadata };

    const next = page.pagingMetadata?.cursors?.next;
    if (!next || next === cursor) return;
    cursor = next;
  }
}

/** Flattens an iterator of pages into one of entities. */
export async function* items<T>(pages: AsyncIterable<Page<T>>): AsyncGenerator<T, void, undefined> {
  for await (const page of pages) yield* page.items;
}

/**
 * Gathers up to `limit` values (default: all) from an async iterable into an array, then stops the iterable
 * (its `return()` runs, so no further page is requested).
 */
export async function collect<T>(iterable: AsyncIterable<T>, opts: { limit?: number } = {}): Promise<T[]> {
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const out: T[] = [];
  if (limit <= 0) return out;
  for await (const value of iterable) {
    out.push(value);
    if (out.length >= limit) break;
  }
  return out;
}

/** What {@link listPages} sends besides the paging itself. */
export interface ListOptions extends PagingOptions {
  filter?: Filter;
  sort?: Sorting[];
  /** Other request fields (`fieldsets`, `conditionalFields`, GET list parameters such as `planIds`). */
  params?: Record<string, unknown>;
  signal?: AbortSignal;
  /** Wraps each page request, e.g. to read it again after a retryable failure (the bulk engine's plan). */
  attempt?: <T>(read: () => Promise<T>) => Promise<T>;
  /**
   * Items as the platform sent them, for a caller that passes them on without reading their fields (a list
   * printed as JSON): each reply is checked to be a page (its items a list of objects, the paging metadata's
   * fields of the types the paging reads), but the items are not parsed field by field, so their dates stay ISO
   * text and their keys keep the platform's order. Parsing a 50-service page with the full schema was ~40 % of
   * `services list --json`'s own start-up cost (docs/runtime.md "Start-up"). Default false: items parsed.
   */
  asSent?: boolean;
}

/** A list operation: one whose table entry declares how it pages. */
export type ListOperation = Operation & { paging: PagingSpec };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The problem with `v` as an optional field of type `type` (`key` named in it), or undefined. */
function fieldProblem(v: unknown, key: string, type: 'number' | 'boolean' | 'string'): string | undefined {
  return v === undefined || v === null || typeof v === type ? undefined : `${key}: expected ${type}`;
}

/**
 * The reply check of {@link ListOptions.asSent} for `op`: the reply is an object, its `items` key (absent, null
 * or) a list of objects, its paging metadata (absent, null or) an object whose fields the paging reads have their
 * types (`count`, `offset`, `total` numbers, `tooManyToCount` and `hasNext` booleans, `cursors.next`/`prev`
 * strings): what the {@link PagingMetadata} schema says of them. Plain code, not a schema: building the first
 * zod schema of a process and its first parse cost ~4 ms, a third of a JSON list's own start-up.
 * @returns the problem found, or undefined
 */
function pageCheck(op: ListOperation): (json: unknown) => string | undefined {
  const { items, meta = 'pagingMetadata' } = op.paging;
  return (json) => {
    if (!isRecord(json)) return '(root): expected object';
    const list = json[items];
    if (list !== undefined && list !== null && !(Array.isArray(list) && list.every(isRecord))) return `${items}: expected a list of objects`;
    const m = json[meta];
    if (m === undefined || m === null) return undefined;
    if (!isRecord(m)) return `${meta}: expected object`;
    const cursors = m.cursors;
    if (cursors !== undefined && cursors !== null && !isRecord(cursors)) return `${meta}.cursors: expected object`;
    return (
      fieldProblem(m.count, `${meta}.count`, 'number') ??
      fieldProblem(m.offset, `${meta}.offset`, 'number') ??
      fieldProblem(m.total, `${meta}.total`, 'number') ??
      fieldProblem(m.tooManyToCount, `${meta}.tooManyToCount`, 'boolean') ??
      fieldProblem(m.hasNext, `${meta}.hasNext`, 'boolean') ??
      (isRecord(cursors) ? (fieldProblem(cursors.next, `${meta}.cursors.next`, 'string') ?? fieldProblem(cursors.prev, `${meta}.cursors.prev`, 'string')) : undefined)
    );
  };
}

/**
 * Pages of any list operation of a family table, built from its `paging` declaration (docs/wire.md §6): the
 * filter, sort and paging go inside the declared wrapper (`query`, `search`) or, for GET lists, at the top
 * level as `limit`/`offset`; a cursor page after the first sends only `cursorPaging` (the SDK's rule) beside
 * `params`. `pageSize` is capped at the operation's `maxLimit` (default: that maximum). A `singleSort` list
 * is sent its one sort key as an object (`sorting.fieldName=...` on a GET).
 *
 * @throws whatever the call throws; RangeError on a bad pageSize/limit, more than one sort key for a
 *   `singleSort` list, or a sort for an `unsorted` one
 */
export function listPages<Op extends ListOperation>(api: ApiClient, op: Op, opts: ListOptions = {}): AsyncGenerator<Page<ItemOf<Op>>> {
  const spec = op.paging;
  const pageSize = Math.min(opts.pageSize ?? spec.maxLimit, spec.maxLimit);
  const params = opts.params ?? {};
  // Request fields given for the wrapper itself (the staff search's text, `search.search`) go inside it.
  const own = spec.wrapper && typeof params[spec.wrapper] === 'object' && params[spec.wrapper] !== null ? (params[spec.wrapper] as Record<string, unknown>) : {};
  const wrap = (inner: Record<string, unknown>): Record<string, unknown> =>
    spec.wrapper ? { ...params, [spec.wrapper]: { ...own, ...inner } } : { ...params, ...inner };
  const criteria = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    if (opts.filter !== undefined && spec.filter) out.filter = opts.filter;
    if (opts.sort !== undefined) {
      if (spec.unsorted) throw new RangeError(`${op.name} takes no sort`);
      if (spec.singleSort && opts.sort.length > 1) throw new RangeError(`${op.name} sorts by one field, got ${opts.sort.length}`);
      out[spec.sortKey ?? 'sort'] = spec.singleSort ? opts.sort[0] : opts.sort;
    }
    return out;
  };
  const attempt = opts.attempt ?? (<T>(read: () => Promise<T>) => read());
  const check = opts.asSent ? pageCheck(op) : undefined;
  const fetchPage = async (paging: Record<string, unknown>): Promise<Page<ItemOf<Op>>> => {
    const reply = (await attempt(() => invoke(api, op, paging as never, { signal: opts.signal, check }))) as Record<string, unknown>;
    const items = (reply[spec.items] ?? []) as ItemOf<Op>[];
    return { items, pagingMetadata: reply[spec.meta ?? 'pagingMetadata'] as PagingMetadata | undefined };
  };
  if (spec.kind === 'offset') {
    return offsetPages<ItemOf<Op>>(
      (paging) => fetchPage(wrap(spec.wrapper || spec.offsetIn === 'paging' ? { ...criteria(), paging } : { ...criteria(), ...paging })),
      { pageSize, limit: opts.limit },
    );
  }
  const key = spec.wrapper ? 'cursorPaging' : (spec.cursorIn ?? 'cursorPaging');
  return cursorPages<ItemOf<Op>>(
    (cursorPaging) => fetchPage(wrap(cursorPaging.cursor === undefined ? { ...criteria(), [key]: cursorPaging } : { [key]: cursorPaging })),
    { pageSize, limit: opts.limit },
  );
}
