/**
 * State of the interactive browser (a table over lazily loaded pages, or the dashboard's panes) as a pure
 * reducer, ink-ui's widget pattern: `browserReducer` here, the key map in browser-keys.ts, the input hook in
 * browser.tsx and the drawing in browser-view.tsx. k9s is the model: one generic browser for every resource, `/`
 * filter, column sort, marks, single-key actions.
 *
 * Only plain data lives here: rows arrive as text cells from the command, which alone talks to the API.
 */

import { completeWord, editLine, type LineKey, lineOf, type LineState } from './line-edit.js';

/** One row as the command hands it over: the entity id and the text of each column. */
export interface UiRow {
  id: string;
  cells: string[];
  /** Per column, what the column sorts by when it is not the text shown (a time's ISO instant). */
  keys?: ReadonlyArray<string | undefined>;
}

/** One pane (a table): the rows loaded so far and how they are viewed. */
export interface PaneState {
  id: string;
  title: string;
  columns: string[];
  rows: UiRow[];
  /** A page is being read. */
  loading: boolean;
  /** Every page has been read. */
  done: boolean;
  /** How many the platform says match, when it says. */
  total?: number;
  /** Why the last read failed (shown in the pane; the browser keeps running). */
  error?: string;
  /** Index into the viewed rows (filtered, sorted). */
  cursor: number;
  /** First viewed row drawn. */
  top: number;
  /** Marked row ids (space). */
  selected: readonly string[];
  /** Per column: the server can sort by it (the pane is then read again in that order, over every page). */
  sortable: readonly boolean[];
  /**
   * `o` or `→`: the columns that did not fit are shown instead of the optional ones that did (the key columns
   * stay), as k9s reveals a table's hidden columns; again to go back.
   */
  reveal?: boolean;
  /**
   * Column index and direction of the sort. `server`: the rows come sorted from the server; otherwise the loaded
   * rows are sorted here (and, until every page is read, only those).
   */
  sort?: { col: number; desc: boolean; server: boolean };
  /** The server sort the pane's rows were read with (undefined: the command's own order). */
  serverSort?: { col: number; desc: boolean };
  /**
   * The free text of the filter (what is left of it once the `field=value` terms are taken out): searched on the
   * server when {@link search} is set, else the text every shown row contains (case-insensitive, loaded rows).
   */
  filter: string;
  /** The `field=value` terms of the filter in `--where` syntax (`status=PENDING`), sent with the query. */
  server: string;
  /** The filter as the user typed it (or as the command opened the pane with): the `/` line edits it again. */
  typed: string;
  /** The pane's query searches free text on the server (PaneSpec.search): a new text reads the pane again. */
  search: boolean;
  /** The only text the server can search (PaneSpec.searchWhen); other text filters the loaded rows. */
  searchWhen?: RegExp;
  /** Bumped to make the component read the pane again from its first page. */
  reload: number;
  /** The rows were read before the source stopped answering and not read again since. */
  stale: boolean;
}

/**
 * Whether the view's source answers: `up`, or down with the reason and the seconds until the next try (0: trying
 * now). A view without a source link is always up.
 */
export type LinkState = { up: true } | { up: false; reason: string; retryIn: number };

export type Mode = 'list' | 'filter' | 'command' | 'detail' | 'help' | 'confirm' | 'busy';

export interface BrowserState {
  panes: PaneState[];
  active: number;
  mode: Mode;
  /** The line typed after `/` or `:` (a line editor: line-edit.ts). */
  input: LineState;
  /**
   * One line under the table: what an action did (✓), why it failed (✗, `error`), or a plain notice (`plain`).
   * `down`: it is about the disconnection (an action refused, or failed, while the source did not answer), so it
   * goes when the source answers again.
   */
  flash?: { text: string; error: boolean; plain?: boolean; down?: boolean };
  /** The open confirmation: question and preview lines. */
  confirm?: { question: string; lines: string[] };
  progress?: { title: string; done: number; total: number; failed: number };
  /** Rows of the table body that fit the terminal. */
  height: number;
  /** First line of the open overlay (details, help) drawn, and how many lines it has (details: once read). */
  detailTop: number;
  detailLength: number;
  /** Whether the source answers. */
  link: LinkState;
  /** The view has a source link: `r` then looks the address up again before reading (`relink`). */
  linked: boolean;
  /** Bumped by `r` on a linked view: the link is tried (and the address looked up) now. */
  relink: number;
}

export type BrowserAction =
  | { type: 'move'; delta: number }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'page'; delta: number }
  | { type: 'select' }
  | { type: 'clear-selection' }
  | { type: 'sort-next' }
  | { type: 'reveal' }
  | { type: 'sort-flip' }
  | { type: 'sort-by'; col: number }
  | { type: 'pane'; delta: number }
  | { type: 'filter-start' }
  | { type: 'filter-edit'; key: LineKey }
  | { type: 'filter-submit' }
  | { type: 'filter-cancel' }
  | { type: 'command-start' }
  | { type: 'command-edit'; key: LineKey }
  | { type: 'command-complete'; words: readonly string[] }
  | { type: 'command-cancel' }
  | { type: 'detail'; open: boolean }
  | { type: 'detail-loaded'; lines: number }
  | { type: 'detail-scroll'; delta: number }
  | { type: 'help'; open: boolean }
  | { type: 'refresh'; pane?: string }
  | { type: 'loading'; pane: string }
  | { type: 'loaded'; pane: string; rows: UiRow[]; done: boolean; total?: number; replace: boolean; whole?: boolean }
  | { type: 'load-failed'; pane: string; error: string }
  | { type: 'flash'; text: string; error?: boolean; plain?: boolean; down?: boolean }
  | { type: 'confirm'; question: string; lines: string[] }
  | { type: 'confirm-done' }
  | { type: 'busy'; title: string; total: number }
  | { type: 'progress'; done: number; total: number; failed: number }
  | { type: 'idle' }
  | { type: 'resize'; height: number }
  | { type: 'link-down'; reason: string; retryIn: number }
  | { type: 'link-up'; refresh: boolean }
  | { type: 'relink' };

/**
 * What a pane starts as. `sortable` says per column whether the server can sort by it; `sort` is the server
 * order the command reads first (its `--sort`), when it is one of the columns.
 */
export function initialPane(id: string, title: string, columns: string[], sortable: readonly boolean[] = [], sort?: { col: number; desc: boolean }, server = '', search = false, searchWhen?: RegExp): PaneState {
  const pane: PaneState = { id, title, columns, sortable, rows: [], loading: false, done: false, cursor: 0, top: 0, selected: [], filter: '', server, typed: server, search, searchWhen, reload: 0, stale: false };
  return sort && sortable[sort.col] ? { ...pane, sort: { ...sort, server: true }, serverSort: sort } : pane;
}

/** The state a browser starts in, with `height` table rows; `linked` when the view has a source link. */
export function initialBrowserState(panes: PaneState[], height: number, linked = false): BrowserState {
  return { panes, active: 0, mode: 'list', input: lineOf(''), height: Math.max(1, height), detailTop: 0, detailLength: 0, link: { up: true }, linked, relink: 0 };
}

/**
 * Whether the pane's free text `text` (default: its filter's) is searched on the server: the pane's query
 * searches text (PaneSpec.search) and, where it searches only some (bookings: a whole e-mail address), this is
 * such text. Other text filters the loaded rows.
 */
export function searchesText(pane: Pick<PaneState, 'search' | 'searchWhen' | 'filter'>, text = pane.filter): boolean {
  return pane.search && text !== '' && (pane.searchWhen === undefined || pane.searchWhen.test(text));
}

const viewCache = new WeakMap<readonly UiRow[], Map<string, UiRow[]>>();

/**
 * The rows a pane shows: the loaded rows containing the filter text (any cell, case-insensitive), sorted by the
 * sort column (numbers as numbers, else text). Cached per rows array, filter and sort, so moving the cursor over
 * 10,000 rows recomputes nothing.
 */
export function viewedRows(pane: PaneState): UiRow[] {
  const local = pane.sort && !pane.sort.server ? pane.sort : undefined;
  const key = `${pane.filter}\u0000${local ? `${local.col}:${local.desc}` : ''}`;
  let byKey = viewCache.get(pane.rows);
  if (!byKey) viewCache.set(pane.rows, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit) return hit;
  // Text the server searched is not looked for again in the cells: it may have matched a field not shown.
  const needle = searchesText(pane) ? '' : pane.filter.toLowerCase();
  let rows = needle ? pane.rows.filter((r) => r.cells.some((c) => c.toLowerCase().includes(needle))) : pane.rows;
  if (local) {
    const { col, desc } = local;
    const key = (r: UiRow) => r.keys?.[col] ?? r.cells[col] ?? '';
    rows = [...rows].sort((a, b) => compareCells(key(a), key(b)) * (desc ? -1 : 1));
  }
  byKey.set(key, rows);
  return rows;
}

/** Numbers compare as numbers, anything else as text (ISO dates sort as text). */
export function compareCells(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (a !== '' && b !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a.localeCompare(b);
}

/** The row under the cursor, if any. */
export function currentRow(state: BrowserState): UiRow | undefined {
  const pane = state.panes[state.active];
  return pane ? viewedRows(pane)[pane.cursor] : undefined;
}

/** The ids an action applies to: the marked rows of the active pane, else the row under the cursor. */
export function actionTargets(state: BrowserState): string[] {
  const pane = state.panes[state.active];
  if (!pane) return [];
  if (pane.selected.length) return [...pane.selected];
  const row = currentRow(state);
  return row ? [row.id] : [];
}

/**
 * After a reload, the cursor stays on the row it was on (rows that arrived above it, such as new events, push it
 * down with its row) at the same place on the screen; on the first row it stays on the first row, so a live
 * table newest first follows the newest, except while that row's details are open.
 */
function keptOnRow(before: PaneState, after: PaneState, pinned: boolean): PaneState {
  if (before.cursor === 0 && !pinned) return after;
  const id = viewedRows(before)[before.cursor]?.id;
  const index = id === undefined ? -1 : viewedRows(after).findIndex((r) => r.id === id);
  if (index < 0) return after;
  return { ...after, cursor: index, top: Math.max(0, index - (before.cursor - before.top)) };
}

/** Keeps the cursor inside the viewed rows and the drawn window around it. */
function placed(pane: PaneState, height: number): PaneState {
  const n = viewedRows(pane).length;
  const cursor = Math.max(0, Math.min(pane.cursor, n - 1));
  let top = Math.min(pane.top, cursor);
  if (cursor >= top + height) top = cursor - height + 1;
  top = Math.max(0, Math.min(top, Math.max(0, n - height)));
  return cursor === pane.cursor && top === pane.top ? pane : { ...pane, cursor, top };
}

/**
 * The pane sorted by `sort` (undefined: the command's own order). A column the server can sort by reads the
 * pane again from its first page in that order, so the order holds over every page, not only the loaded ones;
 * another column sorts the loaded rows. Leaving a server sort reads the pane again in the command's order.
 */
function sortedBy(p: PaneState, sort: { col: number; desc: boolean } | undefined): PaneState {
  const server = sort !== undefined && (p.sortable[sort.col] ?? false);
  const serverSort = server ? sort : sort ? p.serverSort : undefined;
  const base: PaneState = { ...p, sort: sort && { ...sort, server }, serverSort, cursor: 0, top: 0 };
  if (serverSort?.col === p.serverSort?.col && serverSort?.desc === p.serverSort?.desc) return base;
  return { ...base, reload: p.reload + 1, rows: [], done: false, total: undefined, error: undefined };
}

function withPane(state: BrowserState, id: string | undefined, change: (p: PaneState) => PaneState): BrowserState {
  const index = id === undefined ? state.active : state.panes.findIndex((p) => p.id === id);
  if (index < 0) return state;
  const panes = state.panes.slice();
  panes[index] = placed(change(panes[index]!), state.height);
  return { ...state, panes };
}

/** Applies one action (pure). */
export function browserReducer(state: BrowserState, action: BrowserAction): BrowserState {
  switch (action.type) {
    case 'move':
      return withPane(state, undefined, (p) => ({ ...p, cursor: p.cursor + action.delta }));
    case 'home':
      return withPane(state, undefined, (p) => ({ ...p, cursor: 0 }));
    case 'end':
      return withPane(state, undefined, (p) => ({ ...p, cursor: viewedRows(p).length - 1 }));
    case 'page':
      return withPane(state, undefined, (p) => ({ ...p, cursor: p.cursor + action.delta * state.height, top: p.top + action.delta * state.height }));
    case 'select': {
      const row = currentRow(state);
      if (!row) return state;
      return withPane(state, undefined, (p) => ({
        ...p,
        selected: p.selected.includes(row.id) ? p.selected.filter((id) => id !== row.id) : [...p.selected, row.id],
        cursor: p.cursor + 1,
      }));
    }
    case 'clear-selection':
      return withPane(state, undefined, (p) => ({ ...p, selected: [] }));
    case 'reveal':
      return withPane(state, undefined, (p) => ({ ...p, reveal: !p.reveal }));
    case 'sort-next':
      return withPane(state, undefined, (p) => {
        const col = p.sort ? p.sort.col + 1 : 0;
        return sortedBy(p, col < p.columns.length ? { col, desc: false } : undefined);
      });
    case 'sort-flip':
      return withPane(state, undefined, (p) => sortedBy(p, { col: p.sort?.col ?? 0, desc: !(p.sort?.desc ?? false) }));
    case 'sort-by':
      // k9s's Shift-letter: by that column, ascending; again, reversed.
      return withPane(state, undefined, (p) => (action.col < p.columns.length ? sortedBy(p, { col: action.col, desc: p.sort?.col === action.col && !p.sort.desc }) : p));
    case 'pane': {
      const n = state.panes.length;
      return { ...state, active: (((state.active + action.delta) % n) + n) % n, flash: undefined };
    }
    case 'filter-start': {
      // The whole filter is edited, the server part (the command's --where/--status among it) included.
      const pane = state.panes[state.active];
      return { ...state, mode: 'filter', input: lineOf(pane ? pane.typed : '') };
    }
    case 'filter-edit':
      return state.mode === 'filter' ? { ...state, input: editLine(state.input, action.key) } : state;
    case 'filter-cancel':
      return { ...state, mode: 'list', input: lineOf('') };
    case 'filter-submit': {
      const typed = state.input.text.trim();
      const { server, text } = splitFilter(typed);
      const next = withPane({ ...state, mode: 'list', input: lineOf('') }, undefined, (p) => {
        const base = { ...p, filter: text, server, typed, cursor: 0, top: 0 };
        if (server === p.server && (text === p.filter || (!searchesText(p, text) && !searchesText(p)))) return base;
        // Rows of the old server filter (or search) never show under the new one: the pane reads from its first page again.
        return { ...base, reload: p.reload + 1, rows: [], done: false, total: undefined, error: undefined, selected: [] };
      });
      return next;
    }
    case 'command-start':
      return { ...state, mode: 'command', input: lineOf('') };
    case 'command-edit':
      return state.mode === 'command' ? { ...state, input: editLine(state.input, action.key) } : state;
    case 'command-complete':
      return state.mode === 'command' ? { ...state, input: lineOf(completeWord(action.words, state.input.text)) } : state;
    case 'command-cancel':
      return state.mode === 'command' ? { ...state, mode: 'list', input: lineOf('') } : state;
    case 'detail':
      return { ...state, mode: action.open && currentRow(state) ? 'detail' : 'list', detailTop: 0, detailLength: 0 };
    case 'detail-loaded':
      return { ...state, detailLength: action.lines, detailTop: Math.min(state.detailTop, Math.max(0, action.lines - state.height)) };
    case 'detail-scroll':
      // Before its length is known (a key read in the same chunk as the one that opened it) the bound waits for it.
      return { ...state, detailTop: Math.max(0, Math.min(state.detailTop + action.delta, state.detailLength ? state.detailLength - state.height : Infinity)) };
    case 'help':
      return { ...state, mode: action.open ? 'help' : 'list', detailTop: 0, detailLength: 0 };
    case 'refresh': {
      const panes = state.panes.map((p) => (action.pane === undefined || p.id === action.pane ? { ...p, reload: p.reload + 1 } : p));
      return { ...state, panes };
    }
    case 'loading':
      return withPane(state, action.pane, (p) => ({ ...p, loading: true }));
    case 'loaded':
      return withPane(state, action.pane, (p) => {
        // A step of a whole read (UiPage.whole) shorter than the rows shown: a reload under way keeps them until
        // it has read as many (a pane does not shrink and grow back on every reload).
        if (action.whole && !action.done && action.rows.length < p.rows.length) return p;
        const rows = action.replace ? action.rows : [...p.rows, ...action.rows];
        // Marks of rows that left the pane (confirmed elsewhere, filtered out) are dropped on a reload.
        const ids = action.replace ? new Set(rows.map((r) => r.id)) : undefined;
        const next: PaneState = {
          ...p,
          rows,
          loading: false,
          done: action.done,
          total: action.total,
          error: undefined,
          // Rows read while the source is down cannot be; a whole read after it is back is fresh.
          stale: state.link.up ? p.stale && !action.replace : p.stale,
          selected: ids ? p.selected.filter((id) => ids.has(id)) : p.selected,
        };
        return action.replace ? keptOnRow(p, next, state.mode === 'detail') : next;
      });
    case 'load-failed':
      // While the source is down the failure is the disconnection already shown: the rows stay, marked stale.
      return withPane(state, action.pane, (p) => (state.link.up ? { ...p, loading: false, error: action.error } : { ...p, loading: false, stale: true }));
    case 'link-down':
      return { ...state, link: { up: false, reason: action.reason, retryIn: action.retryIn }, panes: state.panes.map((p) => (p.stale ? p : { ...p, stale: true })) };
    case 'link-up': {
      if (state.link.up && !action.refresh) return state;
      // Back: every pane is read again (its rows stay, stale, until then), and a failure of the down time is
      // forgotten, a message about the disconnection ("not sent, disconnected") with it.
      const panes = state.panes.map((p) => ({ ...p, reload: p.reload + 1, error: undefined }));
      return { ...state, link: { up: true }, panes, flash: state.flash?.down ? undefined : state.flash };
    }
    case 'relink':
      return { ...state, relink: state.relink + 1 };
    case 'flash': {
      // A failure while the source does not answer is the disconnection's: it goes when the source is back.
      const down = action.down || (Boolean(action.error) && !state.link.up);
      return { ...state, flash: { text: action.text, error: Boolean(action.error), ...(action.plain ? { plain: true } : {}), ...(down ? { down: true } : {}) } };
    }
    case 'confirm':
      return { ...state, mode: 'confirm', confirm: { question: action.question, lines: action.lines } };
    case 'confirm-done':
      return { ...state, mode: state.progress ? 'busy' : 'list', confirm: undefined };
    case 'busy':
      return { ...state, mode: 'busy', progress: { title: action.title, done: 0, total: action.total, failed: 0 } };
    case 'progress':
      return state.progress ? { ...state, progress: { ...state.progress, done: action.done, total: action.total, failed: action.failed } } : state;
    case 'idle':
      return { ...state, mode: 'list', progress: undefined, confirm: undefined };
    case 'resize': {
      const height = Math.max(1, action.height);
      return { ...state, height, panes: state.panes.map((p) => placed(p, height)) };
    }
  }
}

/** A filter is sent to the server when it is in `--where` form: `field=value`, several separated by spaces. */
export function isServerFilter(text: string): boolean {
  return /^[A-Za-z_][\w.]*=/.test(text);
}

/**
 * One server term of a filter line, at the start of a word: `field=value` (`--where` syntax) or one of the list's
 * own flags with its value (`--status CONFIRMED,PENDING`, `--from today`), as typed on the command line; a quoted
 * value keeps its spaces.
 */
const TERM = /(^|\s)(?:(--[a-z][\w-]*)(?:\s+("(?:[^"\\]|\\.)*"|[^\s"]\S*))?(?=\s|$)|([A-Za-z_][\w.]*=)("(?:[^"\\]|\\.)*"|\S*))/g;

/**
 * A typed filter line in its two parts: the server terms (`field=value` in `--where` syntax, and the list's own
 * flags as typed: `--status PENDING`) and the free text between them, spaces collapsed: `status=APPROVED Marí`
 * -> `status=APPROVED` and `Marí`. Neither part is ever dropped.
 */
export function splitFilter(typed: string): { server: string; text: string } {
  const terms: string[] = [];
  const text = typed.replace(TERM, (_, lead: string, flag: string | undefined, flagValue: string | undefined, field: string | undefined, value: string | undefined) => {
    terms.push(flag !== undefined ? (flagValue !== undefined ? `${flag} ${flagValue}` : flag) : field! + value!);
    return lead;
  });
  return { server: terms.join(' '), text: text.trim().replace(/\s+/g, ' ') };
}

/**
 * The flag terms of a filter line's server part, in order: `--status PENDING --service "Hot Stone"` ->
 * `[['status', 'PENDING'], ['service', 'Hot Stone']]` (a flag typed without a value has the value undefined).
 */
export function flagTerms(text: string): Array<[string, string | undefined]> {
  const out: Array<[string, string | undefined]> = [];
  for (const m of text.matchAll(TERM)) {
    if (m[2] === undefined) continue;
    const raw = m[3];
    out.push([m[2].slice(2), raw === undefined ? undefined : raw.startsWith('"') ? (JSON.parse(raw) as string) : raw]);
  }
  return out;
}

/** A flag's value as the filter line writes it: as is, or JSON-quoted when it has a space or starts with a quote. */
export function flagValueText(value: string): string {
  return /^[^\s"]+$/.test(value) ? value : JSON.stringify(value);
}

/** `status=PENDING contactDetails.lastName="van Dyke"` as `--where` conditions (quoted values keep spaces). */
export function whereTerms(text: string): string[] {
  const terms: string[] = [];
  // The list's own flags (`--status A,B`) are not --where conditions: flagTerms reads them.
  for (const m of text.matchAll(TERM)) if (m[4] !== undefined) terms.push(m[4] + m[5]!);
  return terms;
}
