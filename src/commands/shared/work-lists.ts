/**
 * A noun's work lists (docs/architecture.md "Interactive views"): the panes it puts on the dashboard, declared
 * with the noun (its module's `workLists`, commands/noun-list.ts) and read by the dashboard from the list of
 * nouns, so a noun with a daily job to show is entered in one place. Each pane is read whole on every reload
 * (PANE_LIMIT rows at most) and names the event kinds that change it, so the live feed reloads only those.
 */
import type { ApiClient } from '../../api/client.js';
import { listPages, type ListOperation } from '../../api/paging.js';
import type { Filter } from '../../api/schemas/common.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import type { Column } from '../../core/output.js';
import type { PaneSpec, UiRow } from '../../ui/index.js';
import { detailLines, paneColumns, uiRowOf } from './browse.js';
import { type EntityView, wireFilter } from './entity-view.js';

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
}

/**
 * Reads up to PANE_LIMIT entities of `view` through `op`, by the largest pages the operation allows.
 * @throws ApiError from the platform; AbortError when `ctx.signal` ends the wait (Ctrl-C)
 */
export async function collect<E>(ctx: Context, api: ApiClient, view: EntityView<E>, op: ListOperation, query: PaneQuery): Promise<E[]> {
  const out: E[] = [];
  const params = { ...view.params, ...query.params };
  for await (const page of listPages(api, op, { filter: wireFilter(view, query.filter), sort: query.sort, params, pageSize: op.paging.maxLimit, limit: PANE_LIMIT, signal: ctx.signal })) {
    for (const item of page.items) out.push(view.fromItem ? view.fromItem(item) : (item as E));
  }
  return out;
}

/** A work list's declaration: its pane's id and title, the view its rows are entities of, its columns and its read. */
export interface PaneDeclaration<E> {
  id: string;
  title: string;
  view: EntityView<E>;
  columns: Column<E>[];
  read(): Promise<E[]>;
  actions?: PaneSpec['actions'];
}

/**
 * A pane read whole on each reload, with its entities kept for the detail view; times on the clock of `zone`.
 * Its `/` filters the loaded rows (a `field=value` filter is refused: the pane's own query is its selection).
 */
export function workListPane<E extends { id?: string | null }>(setting: DeskSetting, spec: PaneDeclaration<E>): PaneSpec {
  const { ctx, api, zone } = setting;
  const keep = new Map<string, E>();
  return {
    id: spec.id,
    title: spec.title,
    ...paneColumns(spec.columns),
    open(server) {
      if (server) throw new UserError('the dashboard filters the loaded rows only: type text without field=');
      let read = false;
      return {
        async next() {
          if (read) return { rows: [], done: true };
          read = true;
          const now = ctx.now();
          const entities = await spec.read();
          await spec.view.prepare?.(api, entities, ctx.signal);
          keep.clear();
          const rows: UiRow[] = [];
          for (const e of entities) {
            const id = String(e.id ?? '');
            keep.set(id, e);
            rows.push(await uiRowOf(id, e, spec.columns, now, zone));
          }
          return { rows, done: true, total: rows.length };
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
