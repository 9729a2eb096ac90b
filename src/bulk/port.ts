/**
 * The bulk engine's view of one entity kind (docs/architecture.md "Bulk runs, the journal, history and undo"): how to read the targets of a selection and
 * their current state, built from a family table's query operation. The engine itself never names a family;
 * commands hand it a port and an action (actions.ts).
 */
import type { ApiClient } from '../api/client.js';
import { listPages, type ListOperation } from '../api/paging.js';
import { paramsOfFilter, type ParamFilter } from '../api/list-params.js';
import type { Filter } from '../api/schemas/common.js';
import { pickListItems } from '../api/schemas/introspect.js';
import { abortableSleep } from './wait.js';
import { ApiError, withTries } from '../api/errors.js';
import { mayRetryNow } from './execute.js';

/** What the engine needs of an entity: an id and, for revision-checked actions, its revision. */
export interface Entity {
  id: string;
  revision?: string | null;
}

export interface EntityPort<E extends Entity = Entity> {
  /** `{one: 'service', many: 'services'}`: how reports and previews name the entities. */
  noun: { one: string; many: string };
  /**
   * The entities matching `filter`, in pages, sorted by id so offset pages stay stable while the plan streams.
   * `fields`: the top-level fields the caller reads besides the id, the revision and the label's (undefined: it
   * may read any). A port may then parse and keep only those, and leave the rest of each entity out unchecked.
   */
  pages(filter: Filter, signal?: AbortSignal, fields?: readonly string[]): AsyncIterable<E[]>;
  /** A short label of an entity for previews (its name, title or e-mail). */
  label(entity: E): string | undefined;
  /**
   * The current state of `ids`, by id (missing ones left out), when the list cannot select by id (the orders
   * GET lists): {@link fetchByIds} then reads them one by one.
   */
  byIds?(ids: readonly string[], signal?: AbortSignal): Promise<Map<string, E>>;
}

/** Extra rounds for a read whose client-level retries all failed (a plan must not die on one bad page). */
const READ_ROUNDS = 4;

/**
 * Runs a read again (after the client's own retries) while it fails with a retryable error: reads are safe to
 * repeat, and a 10,000-entity plan makes 100 of them. Waits end at once on abort.
 */
export async function readWithRetries<T>(read: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  // What the rounds went through, so the final error's counts are those of every attempt (errors.ts withTries).
  const started = Date.now();
  const tried = { attempts: 0, rateLimited: 0 };
  for (let round = 1; ; round++) {
    try {
      return await read();
    } catch (err) {
      const tries = err instanceof ApiError ? err.tries : undefined;
      tried.attempts += tries?.attempts ?? 1;
      tried.rateLimited += tries?.rateLimited ?? 0;
      if (round >= READ_ROUNDS || !mayRetryNow(err) || signal?.aborted) {
        if (tries && round > 1 && !signal?.aborted) withTries(err as ApiError, { ...tried, elapsedMs: Date.now() - started });
        throw err;
      }
      await abortableSleep(1000 * round, signal);
    }
  }
}

export interface QueryPortSpec<Op extends ListOperation> {
  query: Op;
  noun: { one: string; many: string };
  /** Other request fields of every query (e.g. `fieldsets: ['FULL']` for members). */
  params?: Record<string, unknown>;
  label?: (entity: Entity & Record<string, unknown>) => string | undefined;
  /**
   * The top-level fields `label` reads (default: `name`, which the default label reads). Without them, when a
   * `label` is given, pages always hold whole entities.
   */
  labelFields?: readonly string[];
  /** The entity of one item of the reply, when items wrap it (extended bookings: `item.booking`). */
  entity?: (item: unknown) => Entity;
  /** The filter as the platform is sent it, when its documented paths differ from the entity's JSON. */
  wire?: (filter: Filter) => Filter;
  /**
   * For a list that takes parameters instead of a filter (`paging.filter` false): which parameter stands for
   * which field (list-params.ts). A filter they cannot express is refused with UnsupportedFilterError.
   */
  listParams?: ParamFilter;
  /** Reads one entity (undefined when it does not exist): how the targets of an ids selection are read when the list cannot select by id. */
  getOne?: (id: string, signal?: AbortSignal) => Promise<Entity | undefined>;
}

/**
 * A port over a family's filterable query operation (`queryServices`, `queryExtendedBookings`, ...): pages of
 * at most the operation's limit, sorted by id, each read retried on retryable failures. Over a list that takes
 * parameters instead of a filter (the orders GET list), the filter is sent as those parameters (`listParams`)
 * and ids are read one by one (`getOne`).
 * @throws UnsupportedFilterError (from pages) for a filter the parameters cannot express
 */
export function queryPort<Op extends ListOperation>(api: ApiClient, spec: QueryPortSpec<Op>): EntityPort {
  const byFilter = spec.query.paging.filter;
  const getOne = spec.getOne;
  const labelFields = spec.labelFields ?? (spec.label ? undefined : ['name']);
  const narrowed = new Map<string, Op>();
  /** The query with its reply narrowed to the fields read (whole entities when that is not possible). */
  const queryFor = (fields: readonly string[] | undefined): Op => {
    if (!fields || !labelFields || spec.entity) return spec.query;
    const keep = [...new Set(['id', 'revision', ...labelFields, ...fields])];
    const key = keep.join(',');
    let op = narrowed.get(key);
    if (!op) {
      const reply = pickListItems(spec.query.reply, spec.query.paging.items, keep);
      // The same operation with the narrower reply schema (the table's entry itself is left as it is).
      op = reply ? (Object.create(spec.query, { reply: { value: reply } }) as Op) : spec.query;
      narrowed.set(key, op);
    }
    return op;
  };
  return {
    noun: spec.noun,
    async *pages(filter, signal, fields) {
      // A parameter list: the filter becomes its parameters (null: the conditions exclude each other).
      const selected = byFilter ? spec.params : paramsOfFilter(filter, spec.listParams ?? {});
      if (selected === null) return;
      const pages = listPages(api, queryFor(fields), {
        filter: byFilter ? (spec.wire ? spec.wire(filter) : filter) : undefined,
        // A list in the platform's own order (the plans list) takes no sort.
        sort: spec.query.paging.unsorted ? undefined : [{ fieldName: 'id', order: 'ASC' }],
        params: byFilter ? spec.params : { ...spec.params, ...selected },
        signal,
        attempt: (read) => readWithRetries(read, signal),
      });
      for await (const page of pages) {
        const items = spec.entity ? page.items.map(spec.entity) : (page.items as Entity[]);
        if (items.length > 0) yield items;
      }
    },
    label: (e) => (spec.label ? spec.label(e as Entity & Record<string, unknown>) : ((e as { name?: string }).name ?? undefined)),
    byIds: getOne
      ? async (ids, signal) => {
          const out = new Map<string, Entity>();
          for (const id of ids) {
            const e = await readWithRetries(() => getOne(id, signal), signal);
            if (e) out.set(id, e);
          }
          return out;
        }
      : undefined,
  };
}

/**
 * The current state of `ids` (at most one page), by id: one `{"id":{"$in":[...]}}` query, or the port's own reads.
 * `fields` as for {@link EntityPort.pages}.
 */
export async function fetchByIds<E extends Entity>(port: EntityPort<E>, ids: readonly string[], signal?: AbortSignal, fields?: readonly string[]): Promise<Map<string, E>> {
  const out = new Map<string, E>();
  if (ids.length === 0) return out;
  if (port.byIds) return port.byIds(ids, signal);
  for await (const page of port.pages({ id: { $in: [...ids] } }, signal, fields)) for (const e of page) out.set(e.id, e);
  return out;
}
