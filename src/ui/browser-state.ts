/**
 * State of the interactive browser (a table over lazily loaded pages, or the dashboard's panes) as a pure
 * reducer, ink-ui's widget pattern: `browserReducer` here, the input hook and the view in browser.tsx. k9s is the
 * model: one generic browser for every resource, `/` filter, column sort, marks, single-key actions.
 *
 * Only plain data lives here: rows arrive as text cells from the command, which alone talks to the API.
 */

/** One row as the command hands it over: the entity id and the text of each column. */
export interface UiRow {
  id: string;
  cells: string[];
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
  /** Column index and direction of the client-side sort of the loaded rows. */
  sort?: { col: number; desc: boolean };
  /** Text every shown row contains (case-insensitive), client-side on the loaded rows. */
  filter: string;
  /** A server filter in `--where` syntax (`status=PENDING`), sent with the query. */
  server: string;
  /** Bumped to make the component read the pane again from its first page. */
  reload: number;
}

export type Mode = 'list' | 'filter' | 'detail' | 'help' | 'confirm' | 'busy';

export interface BrowserState {
  panes: PaneState[];
  active: number;
  mode: Mode;
  /** Text typed after `/`. */
  input: string;
  /** One line under the table: what an action did, or why it failed. */
  flash?: { text: string; error: boolean };
  /** The open confirmation: question and preview lines. */
  confirm?: { question: string; lines: string[] };
  progress?: { title: string; done: number; total: number; failed: number };
  /** Rows of the table body that fit the terminal. */
  height: number;
}

export type BrowserAction =
  | { type: 'move'; delta: number }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'page'; delta: number }
  | { type: 'select' }
  | { type: 'clear-selection' }
  | { type: 'sort-next' }
  | { type: 'sort-flip' }
  | { type: 'pane'; delta: number }
  | { type: 'filter-start' }
  | { type: 'filter-type'; text: string }
  | { type: 'filter-erase' }
  | { type: 'filter-submit' }
  | { type: 'filter-cancel' }
  | { type: 'detail'; open: boolean }
  | { type: 'help'; open: boolean }
  | { type: 'refresh'; pane?: string }
  | { type: 'loading'; pane: string }
  | { type: 'loaded'; pane: string; rows: UiRow[]; done: boolean; total?: number; replace: boolean }
  | { type: 'load-failed'; pane: string; error: string }
  | { type: 'flash'; text: string; error?: boolean }
  | { type: 'confirm'; question: string; lines: string[] }
  | { type: 'confirm-done' }
  | { type: 'busy'; title: string; total: number }
  | { type: 'progress'; done: number; total: number; failed: number }
  | { type: 'idle' }
  | { type: 'resize'; height: number };

/** What a pane starts as. */
export function initialPane(id: string, title: string, columns: string[]): PaneState {
  return { id, title, columns, rows: [], loading: false, done: false, cursor: 0, top: 0, selected: [], filter: '', server: '', reload: 0 };
}

/** The state a browser starts in, with `height` table rows. */
export function initialBrowserState(panes: PaneState[], height: number): BrowserState {
  return { panes, active: 0, mode: 'list', input: '', height: Math.max(1, height) };
}

const viewCache = new WeakMap<readonly UiRow[], Map<string, UiRow[]>>();

/**
 * The rows a pane shows: the loaded rows containing the filter text (any cell, case-insensitive), sorted by the
 * sort column (numbers as numbers, else text). Cached per rows array, filter and sort, so moving the cursor over
 * 10,000 rows recomputes nothing.
 */
export function viewedRows(pane: PaneState): UiRow[] {
  const key = `${pane.filter}\u0000${pane.sort ? `${pane.sort.col}:${pane.sort.desc}` : ''}`;
  let byKey = viewCache.get(pane.rows);
  if (!byKey) viewCache.set(pane.rows, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit) return hit;
  const needle = pane.filter.toLowerCase();
  let rows = needle ? pane.rows.filter((r) => r.cells.some((c) => c.toLowerCase().includes(needle))) : pane.rows;
  if (pane.sort) {
    const { col, desc } = pane.sort;
    rows = [...rows].sort((a, b) => compareCells(a.cells[col] ?? '', b.cells[col] ?? '') * (desc ? -1 : 1));
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

/** Keeps the cursor inside the viewed rows and the drawn window around it. */
function placed(pane: PaneState, height: number): PaneState {
  const n = viewedRows(pane).length;
  const cursor = Math.max(0, Math.min(pane.cursor, n - 1));
  let top = Math.min(pane.top, cursor);
  if (cursor >= top + height) top = cursor - height + 1;
  top = Math.max(0, Math.min(top, Math.max(0, n - height)));
  return cursor === pane.cursor && top === pane.top ? pane : { ...pane, cursor, top };
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
    case 'sort-next':
      return withPane(state, undefined, (p) => {
        const col = p.sort ? p.sort.col + 1 : 0;
        return { ...p, sort: col < p.columns.length ? { col, desc: false } : undefined, cursor: 0 };
      });
    case 'sort-flip':
      return withPane(state, undefined, (p) => ({ ...p, sort: { col: p.sort?.col ?? 0, desc: !(p.sort?.desc ?? false) }, cursor: 0 }));
    case 'pane': {
      const n = state.panes.length;
      return { ...state, active: (((state.active + action.delta) % n) + n) % n, flash: undefined };
    }
    case 'filter-start': {
      const pane = state.panes[state.active];
      return { ...state, mode: 'filter', input: pane ? pane.server || pane.filter : '' };
    }
    case 'filter-type':
      return state.mode === 'filter' ? { ...state, input: state.input + action.text } : state;
    case 'filter-erase':
      return state.mode === 'filter' ? { ...state, input: state.input.slice(0, -1) } : state;
    case 'filter-cancel':
      return { ...state, mode: 'list', input: '' };
    case 'filter-submit': {
      const text = state.input.trim();
      const server = isServerFilter(text);
      const next = withPane({ ...state, mode: 'list', input: '' }, undefined, (p) => {
        const serverText = server ? text : '';
        const base = { ...p, filter: server ? '' : text, server: serverText, cursor: 0, top: 0 };
        if (serverText === p.server) return base;
        // Rows of the old server filter never show under the new one: the pane reads from its first page again.
        return { ...base, reload: p.reload + 1, rows: [], done: false, total: undefined, error: undefined, selected: [] };
      });
      return next;
    }
    case 'detail':
      return { ...state, mode: action.open && currentRow(state) ? 'detail' : 'list' };
    case 'help':
      return { ...state, mode: action.open ? 'help' : 'list' };
    case 'refresh': {
      const panes = state.panes.map((p) => (action.pane === undefined || p.id === action.pane ? { ...p, reload: p.reload + 1 } : p));
      return { ...state, panes };
    }
    case 'loading':
      return withPane(state, action.pane, (p) => ({ ...p, loading: true }));
    case 'loaded':
      return withPane(state, action.pane, (p) => {
        const rows = action.replace ? action.rows : [...p.rows, ...action.rows];
        // Marks of rows that left the pane (confirmed elsewhere, filtered out) are dropped on a reload.
        const ids = action.replace ? new Set(rows.map((r) => r.id)) : undefined;
        return {
          ...p,
          rows,
          loading: false,
          done: action.done,
          total: action.total,
          error: undefined,
          selected: ids ? p.selected.filter((id) => ids.has(id)) : p.selected,
        };
      });
    case 'load-failed':
      return withPane(state, action.pane, (p) => ({ ...p, loading: false, error: action.error }));
    case 'flash':
      return { ...state, flash: { text: action.text, error: Boolean(action.error) } };
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

/** `status=PENDING contactDetails.lastName="van Dyke"` as `--where` conditions (quoted values keep spaces). */
export function whereTerms(text: string): string[] {
  const terms: string[] = [];
  const re = /([A-Za-z_][\w.]*=)("(?:[^"\\]|\\.)*"|\S*)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) terms.push(m[1]! + m[2]!);
  return terms;
}

/** The keys of a key press, in the shape of Ink's `useInput` arguments. */
export interface BrowserKey {
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  tab?: boolean;
  shift?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
}

/** What a key press means besides reducer actions: leave (q or Ctrl-C) or run the pane action bound to a key. */
export type KeyOutcome = { kind: 'actions'; actions: BrowserAction[] } | { kind: 'quit'; interrupted: boolean } | { kind: 'run'; key: string } | { kind: 'answer'; yes: boolean } | { kind: 'none' };

/**
 * Maps a key press to what it does in the current mode. `actionKeys` are the single-key actions of the active
 * pane (c, d, x, a, b, p, u, m), run by the component because they call back into the command.
 */
export function browserKey(state: BrowserState, input: string, key: BrowserKey, actionKeys: readonly string[]): KeyOutcome {
  const acts = (...actions: BrowserAction[]): KeyOutcome => ({ kind: 'actions', actions });
  if (key.ctrl && input === 'c') return { kind: 'quit', interrupted: true };
  switch (state.mode) {
    case 'busy':
      return { kind: 'none' };
    case 'confirm':
      if (input === 'y' || input === 'Y') return { kind: 'answer', yes: true };
      if (input === 'n' || input === 'N' || key.escape) return { kind: 'answer', yes: false };
      return { kind: 'none' };
    case 'filter':
      if (key.escape) return acts({ type: 'filter-cancel' });
      if (key.return) return acts({ type: 'filter-submit' });
      if (key.backspace || key.delete) return acts({ type: 'filter-erase' });
      if (key.ctrl || key.meta || key.tab) return { kind: 'none' };
      {
        // A paste (or keys sent by a script) may end with Enter: the text, then submit.
        const lineEnd = /[\r\n]/.exec(input);
        // eslint-disable-next-line no-control-regex
        const text = (lineEnd ? input.slice(0, lineEnd.index) : input).replace(/[\u0000-\u001f\u007f]/g, '');
        const actions: BrowserAction[] = text ? [{ type: 'filter-type', text }] : [];
        if (lineEnd) actions.push({ type: 'filter-submit' });
        return actions.length ? { kind: 'actions', actions } : { kind: 'none' };
      }
    case 'help':
      return input === 'q' || input === '?' || key.escape || key.return ? acts({ type: 'help', open: false }) : { kind: 'none' };
    case 'detail':
      if (input === 'q' || key.escape || key.return || key.leftArrow) return acts({ type: 'detail', open: false });
      if (actionKeys.includes(input)) return { kind: 'run', key: input };
      return { kind: 'none' };
    case 'list':
      break;
  }
  if (key.upArrow || input === 'k') return acts({ type: 'move', delta: -1 });
  if (key.downArrow || input === 'j') return acts({ type: 'move', delta: 1 });
  if (key.pageUp) return acts({ type: 'page', delta: -1 });
  if (key.pageDown) return acts({ type: 'page', delta: 1 });
  if (key.home || input === 'g') return acts({ type: 'home' });
  if (key.end || input === 'G') return acts({ type: 'end' });
  if (key.tab) return acts({ type: 'pane', delta: key.shift ? -1 : 1 });
  if (key.return) return acts({ type: 'detail', open: true });
  if (key.escape) return acts({ type: 'clear-selection' });
  if (input === ' ') return acts({ type: 'select' });
  if (input === '/') return acts({ type: 'filter-start' });
  if (input === '?') return acts({ type: 'help', open: true });
  if (input === 'r') return acts({ type: 'refresh' });
  if (input === 's') return acts({ type: 'sort-next' });
  if (input === 'S') return acts({ type: 'sort-flip' });
  if (input === 'q') return { kind: 'quit', interrupted: false };
  if (actionKeys.includes(input)) return { kind: 'run', key: input };
  return { kind: 'none' };
}
