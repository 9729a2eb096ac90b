/**
 * A noun's work lists (docs/architecture.md "Interactive views"): the panes it puts on the dashboard, declared
 * with the noun (its module's `workLists`, commands/noun-list.ts) and read by the dashboard from the list of
 * nouns, so a noun with a daily job to show is entered in one place. Each pane is read whole on every reload
 * (PANE_LIMIT rows at most; its count is the platform's), shown from its first page on while the rest is read, and
 * names the event kinds that change it, so the live feed reloads only those. A `/field=value` typed in a pane is a server filter ANDed with the pane's own query.
 */
import type { ApiClient } from '../../api/client.js';
import { listPages, type ListOperation } from '../../api/paging.js';
import type { Filter } from '../../api/schemas/common.js';
import type { Context } from '../../context.js';
import type { Column } from '../../core/output.js';
import type { PaneSpec, UiRow } from '../../ui/index.js';
import { andFilters, detailLines, hasNext, type ListCount, paneColumns, uiRowOf } from './browse.js';
import { UserError } from '../../core/errors.js';
import { type EntityView, filterOf, wireFilter } from './entity-view.js';

/** Rows read per pane at most (the panes are work lists, not archives). */
export const PANE_LIMIT = 300;

/** Where the dashboard runs: its client, the zone its times are shown in and the days its first pane covers. */
export interface DeskSetting {
  ctx: Context;
  api: ApiClient;
  /** An IANA zone: the site's, or `--tz`'s. */
  zone: string;
  /** `--days`: the days of bookings from today on (1..60). */
  days: number;
}

/** One pane of the dashboard and what changes it. */
export interface WorkList {
  pane: PaneSpec;
  /** The kinds of event (an event type's first word: `booking` of `booking.confirmed`) after which it is read again. */
  events: readonly string[];
}

/** What a noun's `workLists()` gives: its panes in this setting, in the dashboard's order. */
export type WorkLists = (setting: DeskSetting) => Promise<WorkList[]>;

/** What one query of a pane sends: a filter in the CLI's terms, the operation's own params, the sort. */
export interface PaneQuery {
  filter?: Filter;
  params?: Record<string, unknown>;
  sort?: Array<{ fieldName: string; order: 'ASC' | 'DESC' }>;
  /** The family's count call, for a query whose pages carry no total (cursor paging) and has more than PANE_LIMIT. */
  count?: ListCount;
}

/** What a pane's read gives: its entities (PANE_LIMIT at most) and how many the platform counts in all. */
export interface Collected<E> {
  items: E[];
  /** The query's count over every page (its paging total), when the platform gives one. */
  total?: number;
  /** More pages are on their way: `items` are those read so far (a step of {@link collectPages}). */
  partial?: boolean;
}

/**
 * Reads up to PANE_LIMIT entities of `view` through `op`, by the largest pages the operation allows, and yields
 * after each page every entity read so far (`partial` while more follow), the last step with the platform's
 * count of the whole query: a pane shows its first page while the rest is read.
 * @throws ApiError from the platform; AbortError when `ctx.signal` ends the wait (Ctrl-C)
 */
export async function* collectPages<E>(ctx: Context, api: ApiClient, view: EntityView<E>, op: ListOperation, query: PaneQuery): AsyncGenerator<Collected<E>> {
  const items: E[] = [];
  let total: number | undefined;
  const params = { ...view.params, ...query.params };
  const filter = wireFilter(view, query.filter);
  let more = false;
  for await (const page of listPages(api, op, { filter, sort: query.sort, params, pageSize: op.paging.maxLimit, limit: PANE_LIMIT, signal: ctx.signal })) {
    const meta = page.pagingMetadata;
    if (meta && !meta.tooManyToCount && typeof meta.total === 'number') total = meta.total;
    more = hasNext(meta);
    for (const item of page.items) items.push(view.fromItem ? view.fromItem(item) : (item as E));
    // A page follows (listPages reads on while the platform has more and the limit is not reached).
    if ((more || (total ?? 0) > items.length) && items.length < PANE_LIMIT) yield { items: [...items], total: total === undefined ? undefined : Math.max(total, items.length), partial: true };
  }
  // Cut at PANE_LIMIT with more to read and no total on the pages: the family's count says how many in all.
  if (total === undefined && more && items.length >= PANE_LIMIT && query.count) total = await query.count.count(api, filter, ctx.signal);
  yield { items, total: total === undefined ? undefined : Math.max(total, items.length) };
}

/**
 * Reads up to PANE_LIMIT entities of `view` through `op` at once ({@link collectPages}' last step).
 * @throws ApiError from the platform; AbortError when `ctx.signal` ends the wait (Ctrl-C)
 */
export async function collect<E>(ctx: Context, api: ApiClient, view: EntityView<E>, op: ListOperation, query: PaneQuery): Promise<Collected<E>> {
  let last: Collected<E> = { items: [] };
  for await (const step of collectPages(ctx, api, view, op, query)) last = step;
  return last;
}

/**
 * GET-list parameters of two selections ANDed (orders: `orderStatuses`): a parameter both give keeps the values
 * both allow. Null when they allow nothing together.
 */
export function andParams(a: Record<string, unknown>, b: Record<string, unknown> | undefined): Record<string, unknown> | null {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b ?? {})) {
    const mine = out[k];
    if (mine === undefined) out[k] = v;
    else if (Array.isArray(mine)) {
      const theirs = Array.isArray(v) ? v : [v];
      const both = mine.filter((x) => theirs.includes(x));
      if (!both.length) return null;
      out[k] = both;
    } else if (Array.isArray(v) ? !v.includes(mine) : v !== mine) return null;
  }
  return out;
}

/** A work list's declaration: its pane's id and title, the view its rows are entities of, its columns and its read. */
export interface PaneDeclaration<E> {
  id: string;
  title: string;
  view: EntityView<E>;
  columns: Column<E>[];
  /**
   * Reads the pane: its own query, ANDed with `where` (the `/field=value` typed in the pane, in the CLI's terms,
   * checked against the view's schema, and the filter of a text the view's query searches) when given; `params`
   * are the request fields of such a search (members: `search`), to send with the query. Either the whole read
   * at once, or its steps ({@link collectPages}: everything read so far after each page, `partial` until the
   * last), which the pane shows as they come.
   */
  read(where?: Filter, params?: Record<string, unknown>): Promise<Collected<E>> | AsyncIterable<Collected<E>>;
  actions?: PaneSpec['actions'];
}

/**
 * A pane read whole on each reload, with its entities kept for the detail view; times on the clock of `zone`.
 * Its `/field=value` is a server filter ANDed with the pane's own query; free text is searched by the view's query
 * where it can (EntityView.textSearch), else filters the loaded rows.
 * The count is the platform's (`300 of 6,727`), not the rows read. A read in steps is shown from its first page
 * on: each step's rows replace the pane's (UiPage.whole) and the next is read at once; an entity's row is made
 * once per reload.
 */
export function workListPane<E extends { id?: string | null }>(setting: DeskSetting, spec: PaneDeclaration<E>): PaneSpec {
  const { ctx, api, zone } = setting;
  const keep = new Map<string, E>();
  return {
    id: spec.id,
    title: spec.title,
    ...paneColumns(spec.columns),
    search: spec.view.textSearch?.what,
    searchWhen: spec.view.textSearch?.when,
    open(server, _sort, text) {
      let steps: AsyncIterator<Collected<E>> | undefined;
      let finished = false;
      // Rows made in this reload, by entity (a step repeats the entities of the steps before it).
      const made = new Map<E, UiRow>();
      const start = async (): Promise<AsyncIterator<Collected<E>>> => {
        const ui = await import('../../ui/index.js');
        const flag = ui.flagTerms(server)[0];
        if (flag) throw new UserError(`--${flag[0]}: a dashboard pane takes field=value terms (as --where), not flags`);
        let where = server ? filterOf(ctx, spec.view as EntityView<unknown>, { where: ui.whereTerms(server) }) : undefined;
        const search = spec.view.textSearch;
        const found = text && search && (!search.when || search.when.test(text)) ? await search.query(text, api, ctx.signal) : undefined;
        where = andFilters(where, found?.filter);
        const read = spec.read(where, found?.params);
        return Symbol.asyncIterator in read ? read[Symbol.asyncIterator]() : (async function* () { yield await read; })();
      };
      return {
        async next() {
          if (finished) return { rows: [], done: true };
          steps ??= await start();
          const step = await steps.next();
          if (step.done) {
            finished = true;
            return { rows: [], done: true };
          }
          const { items, total, partial } = step.value;
          const fresh = items.filter((e) => !made.has(e));
          await spec.view.prepare?.(api, fresh, ctx.signal);
          const now = ctx.now();
          if (made.size === 0) keep.clear();
          const rows: UiRow[] = [];
          for (const e of items) {
            const id = String(e.id ?? '');
            keep.set(id, e);
            let row = made.get(e);
            if (!row) made.set(e, (row = await uiRowOf(id, e, spec.columns, now, zone)));
            rows.push(row);
          }
          finished = !partial;
          return { rows, done: finished, total: total ?? (partial ? undefined : rows.length), whole: true };
        },
      };
    },
    async detail(id) {
      const e = keep.get(id);
      return e ? detailLines(spec.view, e, ctx.now(), zone) : [['id', id]];
    },
    actions: spec.actions,
  };
}

/**
 * The panes an event of `type` touches (`booking.confirmed` -> the panes whose work list names `booking`), by the
 * ids of `lists`' panes, in their order.
 */
export function eventPanes(lists: readonly WorkList[], type: string): string[] {
  const kind = type.split('.')[0] ?? '';
  return lists.filter((w) => w.events.includes(kind)).map((w) => w.pane.id);
}
