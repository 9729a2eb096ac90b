/**
 * `NOUN list --interactive` and `sitectl browse NOUN` (docs/architecture.md "Interactive views"): the list's own query (same filter,
 * sort and parameters as the flags give) read page by page as the user scrolls, shown by the Ink browser
 * (src/ui, loaded here with a dynamic import). `/field=value` sends a server filter in `--where` syntax through
 * the same checks as the flag, and the rest of the typed text is searched by the family's query where it can
 * (EntityView.textSearch), else filters the loaded rows; the noun's single-key actions run its transition verbs
 * (ui-actions.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Sorting } from '../../api/schemas/common.js';
import type { ApiClient } from '../../api/client.js';
import { listPages, type ListOperation } from '../../api/paging.js';
import type { Filter } from '../../api/schemas/common.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import type { ColumnShape } from '../../core/columns.js';
import { parseScalar } from '../../core/filters.js';
import { cellValue, type Column, columnShape, human, plain, ZonedTime } from '../../core/output.js';
import type { ColumnSort, JumpView, PageReader, SourceLink, UiRow, ViewJump } from '../../ui/index.js';
import { NetworkError } from '../../api/errors.js';
import { errorText as transportText } from '../../api/retry.js';
import { uiActions } from './ui-actions.js';
import { shortId } from '../../core/text.js';
import { type EntityView, filterOf, type KeyedVerb, listParamsOf, sortOf, wireFilter } from './entity-view.js';
import { siteZone, tzFlag } from './time.js';

/**
 * Refuses an interactive command without a terminal to draw on and read keys from.
 * @throws UserError (exit 2) naming the command to use instead
 */
export function requireInteractive(ctx: Context, what: string, instead: string): void {
  if (ctx.io.canPrompt() && ctx.io.isStderrTTY) return;
  throw new UserError(`${what} needs a terminal`, `use '${ctx.bin} ${instead}' when the output is piped or there is no terminal`);
}

/** Most time a view's liveness probe waits for an answer (ms): a hung server shows as disconnected within 2 s. */
export const PROBE_TIMEOUT_MS = 1500;

/**
 * The source link of an interactive view (ui/browser-link.ts): the probe is one short read of the site (its
 * locations, one attempt, {@link PROBE_TIMEOUT_MS}) for which any reply counts as an answer, and only a
 * transport failure (refused, unreachable, timed out) as none; `relink` looks the local emulator's address up
 * again (`ctx.relink`), so a restart on another port is picked up. Other profiles keep their address.
 */
export function viewLink(ctx: Context, api: ApiClient): SourceLink {
  return {
    async probe(signal) {
      try {
        await api.request({
          method: 'POST',
          path: '/_api/bookings/v2/services/locations/query',
          body: { filter: {} },
          idempotent: true,
          timeoutMs: PROBE_TIMEOUT_MS,
          retries: 0,
          signal: AbortSignal.any([signal, ctx.signal]),
        });
      } catch (err) {
        if (err instanceof NetworkError) throw new Error(`no answer from ${api.baseUrl}: ${transportText(err.cause)}`);
        // A refusal or a failure reply is an answer: the source is there.
      }
    },
    async relink() {
      await ctx.relink();
    },
  };
}

/**
 * Runs an interactive view with the waiting notices held back (Context.holdWaitNotices): their lines would be
 * drawn into the view. @returns what `view` returns
 */
export async function withNoticesHeld<T>(ctx: Context, view: () => Promise<T>): Promise<T> {
  const release = ctx.holdWaitNotices();
  try {
    return await view();
  } finally {
    release();
  }
}

/** Colour for the UI: off for NO_COLOR and TERM=dumb (the browser then marks rows with `>` and `*`). */
export function uiColor(ctx: Context): boolean {
  return ctx.io.colorEnabled && ctx.env.TERM !== 'dumb';
}

/**
 * One entity as a row of the browser: the text of each column as a terminal table shows it (ids by their first
 * 8 characters, times by the time rule on the clock of `zone`), and, for time columns, the ISO instant to sort
 * by.
 */
export async function uiRowOf<E>(id: string, entity: E, columns: readonly Column<E>[], now: Date, zone: string): Promise<UiRow> {
  const cells: string[] = [];
  const keys: Array<string | undefined> = [];
  for (const c of columns) {
    const value = cellValue(entity, c);
    cells.push(c.id && typeof value === 'string' ? shortId(value) : await human(value, now, { zone }));
    keys.push(value instanceof Date || value instanceof ZonedTime ? plain(value) : undefined);
  }
  return { id, cells, keys };
}

/**
 * How the browser lays out `columns` (core/columns.ts): their headers and shapes; `times` are the keys of the
 * columns whose cells are times (never cut).
 */
export function paneColumns<E>(columns: readonly Column<E>[]): { columns: string[]; shapes: Array<Omit<ColumnShape, 'header'>> } {
  const shapes = columns.map((c) => columnShape(c));
  return { columns: shapes.map((s) => s.header), shapes: shapes.map(({ header: _, ...shape }) => shape) };
}

/** The readable key/value lines of an entity (its `get` view) as text, times in full on the clock of `zone`. */
export async function detailLines<E>(view: EntityView<E>, entity: E, now: Date, zone?: string): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of view.rows(entity)) if (v !== undefined && v !== null && v !== '') out.push([k, await human(v, now, { zone, full: true })]);
  return out;
}

/**
 * A filter (schema form) as the `--where` text of the browser's filter line, so the filter a list was started
 * with (`--where`, `--status`, `--from`) can be seen and edited as a whole: `status=PENDING
 * startDate={"$gte":"2026-11-24T08:00:00.000Z"}`. Undefined when it cannot be written so (`$or`, a value with
 * a space inside an operator).
 */
export function whereText(filter: Filter | undefined): string | undefined {
  if (filter === undefined) return '';
  const terms: Array<[string, unknown]> = [];
  const add = (f: unknown): boolean => {
    if (!f || typeof f !== 'object' || Array.isArray(f)) return false;
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) {
        if (!v.every(add)) return false;
      } else if (k.startsWith('$')) return false;
      else terms.push([k, v]);
    }
    return true;
  };
  if (!add(filter)) return undefined;
  const texts: string[] = [];
  for (const [k, v] of terms) {
    let text: string;
    // A one-value list reads as the value itself (`--status PENDING`).
    const one = v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && Array.isArray((v as { $in?: unknown }).$in) && (v as { $in: unknown[] }).$in.length === 1 ? (v as { $in: unknown[] }).$in[0] : v;
    if (typeof one === 'string') text = /^[^\s"{[]+$/.test(one) && parseScalar(one) === one ? one : JSON.stringify(one);
    else {
      text = JSON.stringify(one);
      if (text === undefined || /\s/.test(text)) return undefined;
    }
    texts.push(`${k}=${text}`);
  }
  return texts.join(' ');
}

/** Both filters (either may be absent): `{$and: [a, b]}`, or the one given. */
export function andFilters(a: Filter | undefined, b: Filter | undefined): Filter | undefined {
  return a && b ? { $and: [a, b] } : (a ?? b);
}

/** One key of a list's sort, as `sortOf` gives it. */
type SortKey = Sorting;

export interface BrowseRequest<E> {
  view: EntityView<E>;
  op: ListOperation;
  columns: Column<E>[];
  /**
   * The filter the flags gave (schema form); with {@link own}, only the `--filter`/`--where` part (the list's own
   * flags are then shown as typed and read again through `own.select`).
   */
  filter?: Filter;
  /** The list's own selection flags as typed, edited on the filter line with the rest of the filter. */
  own?: OwnFlags;
  /** The family's count call: the total of a list whose pages carry none (cursor paging), read with its first page. */
  count?: ListCount;
  sort?: SortKey[];
  params?: Record<string, unknown>;
  /** The non-interactive command, for the refusal off a terminal (`bookings list`). */
  command: string;
  /** `--tz` as given: the zone times are shown in (default: the site's). */
  zone?: string;
  /** The noun's single-key actions, from its verb declarations (none when undefined). */
  keys?(): Promise<KeyedVerb[]>;
  /** What `:NOUN` opens (commands/shared/jump.ts); without it `:` does nothing. */
  jump?: ViewJump;
}

/**
 * A list's own selection flags (`--status`, `--from`, ...) on the filter line: `text` is how they open there, as
 * they were typed (`--status CONFIRMED,PENDING --from today`), never the wire filter they stand for; `select`
 * reads flags edited there the way the command line reads them (same checks, same look-ups).
 */
export interface OwnFlags {
  text: string;
  /**
   * The filter (schema form) and request fields of flags given by name without their dashes (`{status: 'A,B'}`).
   * @throws UserError for a flag the list does not take or a bad value (shown in the pane)
   */
  select(flags: Record<string, string>): Promise<{ filter?: Filter; params?: Record<string, unknown> }>;
}

/** Set while a `:` jump reads the view of another list ({@link viewOf}): `browse` hands it over instead of drawing it. */
const opening = new AsyncLocalStorage<(view: JumpView) => void>();

/**
 * The view `run` (a list command with `--interactive`) would draw, taken instead of drawn: what `:NOUN` shows in
 * place of the current view.
 * @throws whatever `run` throws; Error when it opened no view
 */
export async function viewOf(run: () => Promise<void>): Promise<JumpView> {
  let view: JumpView | undefined;
  await opening.run((v) => {
    view = v;
  }, run);
  if (!view) throw new Error('the list opened no view');
  return view;
}

/** A family's count call (verbs.ts CountCall): how many entities match a wire-form filter. */
export interface ListCount {
  count(api: ApiClient, filter: Filter | undefined, signal: AbortSignal): Promise<number>;
}

/** Whether a page's metadata says more pages follow (a next cursor, or `hasNext`). */
export function hasNext(meta: { hasNext?: boolean | null; cursors?: { next?: string | null } | null } | undefined): boolean {
  return Boolean(meta?.hasNext || meta?.cursors?.next);
}

/**
 * A reader of a list query as pages of rows; entities are kept by id for the detail view.
 * An empty page that is not the last is skipped, so the browser always gets rows or the end.
 */
export function listReader<E>(ctx: Context, api: ApiClient, req: BrowseRequest<E>, filter: Filter | undefined, keep: Map<string, E>, zone: string): PageReader {
  const view = req.view as EntityView<unknown>;
  const selected = listParamsOf(view, filter);
  const params = { ...view.params, ...req.params, ...(selected ?? {}) };
  const pages =
    selected === null
      ? undefined
      : listPages(api, req.op, { filter: wireFilter(view, filter), sort: req.sort, pageSize: req.op.paging.maxLimit, params, signal: ctx.signal });
  let read = 0;
  let counted: number | undefined;
  return {
    async next() {
      if (!pages) return { rows: [], done: true, total: 0 };
      const now = ctx.now();
      for (;;) {
        const step = await pages.next();
        if (step.done) return { rows: [], done: true };
        const page = step.value;
        const items = (req.view.fromItem ? page.items.map((i) => req.view.fromItem!(i)) : page.items) as E[];
        await req.view.prepare?.(api, items, ctx.signal);
        const rows: UiRow[] = [];
        for (const e of items) {
          const id = String((e as { id?: unknown }).id ?? '');
          keep.set(id, e);
          rows.push(await uiRowOf(id, e, req.columns, now, zone));
        }
        const meta = page.pagingMetadata;
        let total = meta && !meta.tooManyToCount ? meta.total : undefined;
        // Pages without a total (cursor paging): the family's count, once, when more pages follow.
        if (total === undefined && req.count && hasNext(meta)) total = counted ??= await req.count.count(api, wireFilter(view, filter), ctx.signal);
        read += items.length;
        // The last page: all the platform counted, or a cursor page with no next cursor (the list then says
        // `71 loaded`, not `71+`); otherwise the next read finds the end.
        const cursorPaged = meta?.cursors !== undefined || meta?.hasNext !== undefined;
        const done = total !== undefined ? read >= total : cursorPaged && !hasNext(meta);
        if (rows.length || done) return { rows, done, total };
      }
    },
  };
}

/** A reader made on its first read (from flags that need the platform to be read: a service's name). */
export function lazyReader(make: () => Promise<PageReader>): PageReader {
  let reader: Promise<PageReader> | undefined;
  return {
    async next() {
      reader ??= make();
      return (await reader).next();
    },
  };
}

/**
 * Per column, the sort field the platform is sent for it (wire form, checked against the schema like `--sort`),
 * from the view's `sortFields`; undefined for a column the server cannot sort by, and for every column of a
 * list the platform returns in its own order.
 * @throws UserError when a view declares a field its schema does not have (a bug the view tests catch)
 */
export function columnSorts<E>(ctx: Context, view: EntityView<E>, op: ListOperation, columns: readonly Column<E>[]): Array<string | undefined> {
  return columns.map((c) => {
    const field = op.paging.unsorted ? undefined : view.sortFields?.[c.key];
    return field === undefined ? undefined : sortOf(ctx, view as EntityView<unknown>, field)![0]!.fieldName;
  });
}

/** The column a list's one-key sort (`--sort startDate`) is, to show as the table's first sort. */
export function sortedColumn(sort: readonly SortKey[] | undefined, fields: ReadonlyArray<string | undefined>): ColumnSort | undefined {
  if (sort?.length !== 1) return undefined;
  const col = fields.indexOf(sort[0]!.fieldName);
  return col < 0 ? undefined : { col, desc: sort[0]!.order === 'DESC' };
}

/**
 * Runs the interactive browser over a list until the user quits (q; Ctrl-C exits 130). The list's filter (its
 * `--where`, `--status`, ...) opens in the filter line as text the user edits as a whole; one that cannot be
 * written there (`$or`) stays under every filter typed, and the title says so. Under {@link viewOf} (a `:` jump)
 * the view is handed over instead.
 */
export async function browse<E>(ctx: Context, req: BrowseRequest<E>): Promise<void> {
  requireInteractive(ctx, `${req.command} --interactive`, `${req.command}`);
  const [ui, api, verbs] = await Promise.all([import('../../ui/index.js'), ctx.api(), req.keys?.() ?? []]);
  const zone = tzFlag(req.zone) ?? (await siteZone(ctx, api));
  const keep = new Map<string, E>();
  const view = req.view as EntityView<unknown>;
  const sorts = columnSorts(ctx, req.view, req.op, req.columns);
  const editable = whereText(req.filter);
  const base = editable === undefined ? req.filter : undefined;
  const typed = [req.own?.text, editable].filter(Boolean).join(' ');
  const name = ctx.bin.split(/[\\/]/).pop()?.replace(/\.js$/, '') ?? 'sitectl';
  const shown: JumpView = {
    title: `${name} ${req.view.noun.many}${base ? ' (within --filter)' : ''}`,
    zone,
    panes: [
      {
        id: req.view.noun.many,
        title: req.view.noun.many,
        ...paneColumns(req.columns),
        server: typed,
        search: view.textSearch?.what,
        searchWhen: view.textSearch?.when,
        sortable: sorts.map((f) => f !== undefined),
        sort: sortedColumn(req.sort, sorts),
        open(server, sort, text) {
          const order: SortKey[] | undefined = sort && sorts[sort.col] ? [{ fieldName: sorts[sort.col]!, order: sort.desc ? 'DESC' : 'ASC' }] : req.sort;
          return lazyReader(async () => {
            let filter = base;
            let params = req.params;
            const flags = ui.flagTerms(server);
            if (req.own) {
              const given: Record<string, string> = {};
              for (const [name, value] of flags) {
                if (value === undefined) throw new UserError(`--${name} needs a value`);
                given[name] = value;
              }
              const own = await req.own.select(given);
              filter = andFilters(filter, own.filter);
              params = own.params;
            } else if (flags.length) throw new UserError(`--${flags[0]![0]}: this list takes field=value terms (as --where) on the filter line, no flags`);
            const where = ui.whereTerms(server);
            if (where.length) filter = andFilters(filter, filterOf(ctx, view, { where }));
            if (text && view.textSearch && (!view.textSearch.when || view.textSearch.when.test(text))) {
              const found = await view.textSearch.query(text, api, ctx.signal);
              filter = andFilters(filter, found.filter);
              params = { ...params, ...found.params };
            }
            return listReader(ctx, api, { ...req, sort: order, params }, filter, keep, zone);
          });
        },
        async detail(id) {
          const entity = keep.get(id);
          if (!entity) return [['id', id]];
          await req.view.prepare?.(api, [entity], ctx.signal);
          return detailLines(req.view, entity, ctx.now(), zone);
        },
        actions: uiActions(ctx, api, verbs),
      },
    ],
  };
  const hand = opening.getStore();
  if (hand) {
    hand(shown);
    return;
  }
  await withNoticesHeld(ctx, () =>
    ui.renderBrowser({
      ...shown,
      color: uiColor(ctx),
      alternateScreen: ctx.env.TERM !== 'dumb',
      stdout: ctx.io.stderr as NodeJS.WriteStream,
      stdin: ctx.io.stdin as NodeJS.ReadStream,
      link: viewLink(ctx, api),
      jump: req.jump,
      signal: ctx.signal,
    }),
  );
}
