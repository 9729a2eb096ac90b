/**
 * The interactive browser: input hook (keys -> reducer actions in browser-state.ts) and views. One component
 * serves `NOUN list --interactive` (one pane) and the dashboard (several panes and live refresh), as k9s's one
 * Browser shows every resource. It gets plain rows and callbacks; it never calls the API.
 */
import { type ReactNode, useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { Box, Text, useApp, useInput, useStdout } from 'ink';
import {
  actionTargets,
  browserKey,
  browserReducer,
  currentRow,
  initialBrowserState,
  initialPane,
  type BrowserAction,
  type BrowserState,
  type PaneState,
  type UiRow,
  viewedRows,
} from './browser-state.js';
import { truncate } from './table-layout.js';

/** One page of rows from the command's reader. */
export interface UiPage {
  rows: UiRow[];
  /** No page follows. */
  done: boolean;
  total?: number;
}

/** Reads a pane's rows page by page; `open` starts again from the first page. */
export interface PageReader {
  next(): Promise<UiPage>;
}

/** What an action may ask of the UI while it runs: a yes/no question with preview lines, and progress. */
export interface ActionIO {
  confirm(question: string, lines?: string[]): Promise<boolean>;
  progress(title: string, done: number, total: number, failed: number): void;
}

/** A single-key action of a pane (`c` confirm). `run` gets the marked ids (or the row's) and says what happened. */
export interface UiAction {
  key: string;
  label: string;
  /** Confirmed before anything is sent, even for one row. */
  destructive?: boolean;
  run(ids: string[], io: ActionIO): Promise<string>;
}

/** A pane as the command describes it. */
export interface PaneSpec {
  id: string;
  title: string;
  columns: string[];
  /** Per column: dropped first on a narrow terminal, highest number first; 0 (the default) is always shown. */
  priorities?: number[];
  /**
   * A reader of the pane's rows for a server filter in `--where` syntax ('' for none).
   * @throws Error with a one-line message when the filter is refused (shown in the pane)
   */
  open(server: string): PageReader;
  /** The readable key/value lines of one row's entity (the `get` view). */
  detail?(id: string): Promise<Array<[string, string]>>;
  actions?: UiAction[];
}

export interface BrowserProps {
  title: string;
  panes: PaneSpec[];
  /** Draw with colour and inverse (false for NO_COLOR and TERM=dumb: markers only). */
  color: boolean;
  /** Read every pane again this often (ms); 0 = never. */
  intervalMs?: number;
  /** Subscribes to changes made elsewhere: `notify(paneIds)` reloads those panes (all when omitted). */
  live?(notify: (paneIds?: string[]) => void): () => void;
  /** After an action, reload these panes (default: the pane acted on). */
  afterAction?: 'all' | 'pane';
  /** Called once when the user leaves: 0 for q, 130 for Ctrl-C. */
  onExit(code: number): void;
  /**
   * A pane whose newest rows also show in a strip under the active one when the terminal is tall enough
   * (the dashboard's events: what happens stays in view while you work in another pane).
   */
  strip?: string;
}

/** Rows of the screen that are not table body: title, header, flash, footer, and the tab bar with several panes. */
export function chromeRows(panes: number): number {
  return 4 + (panes > 1 ? 1 : 0) + 1;
}

/** Lines of the strip (its title included) on a terminal `rows` tall: 7 from 30 rows up, else none. */
export function stripRows(rows: number, strip: boolean): number {
  return strip && rows >= 30 ? 7 : 0;
}

/** The output stream's size, followed on resize. */
function useTerminalSize() {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 }));
  useEffect(() => {
    const onResize = () => setSize({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

/** The live browser component. */
export function Browser(props: BrowserProps) {
  const size = useTerminalSize();
  const bodyHeight = Math.max(1, size.rows - chromeRows(props.panes.length) - stripRows(size.rows, props.strip !== undefined));
  const [state, dispatch] = useReducer(browserReducer, undefined, () =>
    initialBrowserState(
      props.panes.map((p) => initialPane(p.id, p.title, p.columns)),
      bodyHeight,
    ),
  );
  const { exit } = useApp();
  const readers = useRef(new Map<string, { reader: PageReader; generation: number }>());
  const answer = useRef<((yes: boolean) => void) | undefined>(undefined);
  const seenReload = useRef(new Map<string, number>());
  const inflight = useRef(new Set<string>());
  const specOf = useCallback((id: string) => props.panes.find((p) => p.id === id)!, [props.panes]);

  useEffect(() => {
    dispatch({ type: 'resize', height: bodyHeight });
  }, [bodyHeight]);

  const load = useCallback(
    async (id: string, fresh: boolean, server: string) => {
      let entry = readers.current.get(id);
      if (fresh || !entry) {
        const generation = (entry?.generation ?? 0) + 1;
        try {
          entry = { reader: specOf(id).open(server), generation };
        } catch (err) {
          readers.current.set(id, { reader: { next: () => Promise.reject(err) }, generation });
          dispatch({ type: 'load-failed', pane: id, error: messageOf(err) });
          return;
        }
        readers.current.set(id, entry);
      }
      const { reader, generation } = entry;
      const slot = `${id}#${generation}`;
      if (inflight.current.has(slot)) return;
      inflight.current.add(slot);
      dispatch({ type: 'loading', pane: id });
      try {
        const page = await reader.next();
        if (readers.current.get(id)?.generation !== generation) return;
        dispatch({ type: 'loaded', pane: id, rows: page.rows, done: page.done, total: page.total, replace: fresh });
      } catch (err) {
        if (readers.current.get(id)?.generation !== generation) return;
        dispatch({ type: 'load-failed', pane: id, error: messageOf(err) });
      } finally {
        inflight.current.delete(slot);
      }
    },
    [specOf],
  );

  // A pane is read from its first page at start, on `r`, on a new server filter and when told of a change.
  const reloadKey = state.panes.map((p) => `${p.id}:${p.reload}`).join(',');
  useEffect(() => {
    for (const p of state.panes) {
      const seen = seenReload.current.get(p.id);
      if (seen === p.reload) continue;
      seenReload.current.set(p.id, p.reload);
      void load(p.id, true, p.server);
    }
  }, [reloadKey, load]);

  // Lazy paging: the next page is read once the cursor comes within two screens of the last loaded row.
  const active = state.panes[state.active]!;
  const viewedCount = viewedRows(active).length;
  useEffect(() => {
    if (active.loading || active.done || active.error || active.rows.length === 0) return;
    if (active.cursor + 2 * state.height >= viewedCount) void load(active.id, false, active.server);
  }, [active.id, active.cursor, active.loading, active.done, active.error, active.server, viewedCount, state.height, load]);

  useEffect(() => {
    if (!props.intervalMs) return;
    const timer = setInterval(() => dispatch({ type: 'refresh' }), props.intervalMs);
    return () => clearInterval(timer);
  }, [props.intervalMs]);

  useEffect(() => {
    if (!props.live) return;
    return props.live((ids) => {
      if (!ids) dispatch({ type: 'refresh' });
      else for (const id of ids) dispatch({ type: 'refresh', pane: id });
    });
  }, [props.live]);

  const runAction = useCallback(
    async (key: string, snapshot: BrowserState) => {
      const pane = snapshot.panes[snapshot.active]!;
      const action = specOf(pane.id).actions?.find((a) => a.key === key);
      if (!action) return;
      const ids = actionTargets(snapshot);
      if (ids.length === 0) {
        dispatch({ type: 'flash', text: `nothing to ${action.label.toLowerCase()}`, error: true });
        return;
      }
      // Marks stay when the question is answered no, so the same rows can be acted on otherwise.
      let declined = false;
      const io: ActionIO = {
        confirm: (question, lines = []) =>
          new Promise<boolean>((resolve) => {
            answer.current = (yes) => {
              declined ||= !yes;
              resolve(yes);
            };
            dispatch({ type: 'confirm', question, lines });
          }),
        progress: (title, done, total, failed) => {
          dispatch(done === 0 ? { type: 'busy', title, total } : { type: 'progress', done, total, failed });
        },
      };
      dispatch({ type: 'busy', title: `${action.label}…`, total: 0 });
      try {
        const text = await action.run(ids, io);
        dispatch({ type: 'idle' });
        dispatch({ type: 'flash', text });
        if (pane.selected.length && !declined) dispatch({ type: 'clear-selection' });
      } catch (err) {
        dispatch({ type: 'idle' });
        dispatch({ type: 'flash', text: messageOf(err), error: true });
      }
      dispatch(props.afterAction === 'all' ? { type: 'refresh' } : { type: 'refresh', pane: pane.id });
    },
    [specOf, props.afterAction],
  );

  // Keys may come faster than frames: each press is read against the state the previous one left, not the last drawn.
  const latest = useRef(state);
  latest.current = state;
  useInput((input, key) => {
    let now = latest.current;
    const actionKeys = (specOf(now.panes[now.active]!.id).actions ?? []).map((a) => a.key);
    // Keys typed faster than a frame (or sent by a script) arrive as one string: each is its own key press.
    const presses = input.length > 1 && now.mode !== 'filter' && !key.ctrl && !key.meta ? [...input] : [input];
    for (const press of presses) {
      const outcome = browserKey(now, press, presses.length > 1 ? { return: press === '\r' || press === '\n', tab: press === '\t' } : key, actionKeys);
      switch (outcome.kind) {
        case 'actions':
          for (const a of outcome.actions) {
            now = browserReducer(now, a);
            dispatch(a);
          }
          latest.current = now;
          break;
        case 'quit':
          answer.current?.(false);
          props.onExit(outcome.interrupted ? 130 : 0);
          exit();
          return;
        case 'answer': {
          const resolve = answer.current;
          answer.current = undefined;
          dispatch({ type: 'confirm-done' });
          resolve?.(outcome.yes);
          return;
        }
        case 'run':
          void runAction(outcome.key, now);
          return;
        case 'none':
          break;
      }
    }
  });

  // The detail view of the row under the cursor, read when it opens.
  const [detail, setDetail] = useState<{ id: string; lines: Array<[string, string]> } | undefined>();
  const detailRow = state.mode === 'detail' ? currentRow(state) : undefined;
  const detailOf = detailRow ? specOf(active.id).detail : undefined;
  useEffect(() => {
    if (!detailRow || !detailOf) return;
    let live = true;
    detailOf(detailRow.id).then(
      (lines) => live && setDetail({ id: detailRow.id, lines }),
      (err: unknown) => live && setDetail({ id: detailRow.id, lines: [['error', messageOf(err)]] }),
    );
    return () => {
      live = false;
    };
  }, [detailRow, detailOf]);

  return (
    <BrowserView
      state={state}
      spec={props}
      columns={size.columns}
      detail={detail && detail.id === detailRow?.id ? detail.lines : undefined}
      strip={stripRows(size.rows, props.strip !== undefined) ? props.strip : undefined}
    />
  );
}

function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const hint = err && typeof err === 'object' && 'hint' in err && typeof err.hint === 'string' ? ` (${err.hint})` : '';
  return `${text}${hint}`.replace(/\s*\n\s*/g, ' ');
}

/** Column widths for `columns` wide: each column as wide as its widest sampled cell, the widest cut first. */
export function fitColumns(headers: readonly string[], rows: readonly UiRow[], width: number): number[] {
  const widths = headers.map((h, i) => {
    let w = h.length;
    for (const r of rows) w = Math.max(w, (r.cells[i] ?? '').length);
    return Math.min(w, 60);
  });
  const gap = 2 * Math.max(0, headers.length - 1);
  let over = widths.reduce((a, b) => a + b, 0) + gap - width;
  while (over > 0) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i;
    if (widths[widest]! <= 3) break;
    widths[widest]! -= 1;
    over -= 1;
  }
  return widths;
}

/**
 * The columns shown in `width`: while the natural widths do not fit, the column with the highest priority
 * number (> 0) is dropped, as the non-interactive table does. @returns the kept column indexes, in order
 */
export function keptColumns(headers: readonly string[], rows: readonly UiRow[], priorities: readonly number[], width: number): number[] {
  const natural = headers.map((h, i) => {
    let w = h.length;
    for (const r of rows) w = Math.max(w, (r.cells[i] ?? '').length);
    return Math.min(w, 60);
  });
  const kept = headers.map((_, i) => i);
  const total = () => kept.reduce((a, i) => a + natural[i]!, 0) + 2 * Math.max(0, kept.length - 1);
  while (total() > width) {
    let drop = -1;
    for (let k = 0; k < kept.length; k++) if ((priorities[kept[k]!] ?? 0) > 0 && (drop < 0 || priorities[kept[k]!]! > priorities[kept[drop]!]!)) drop = k;
    if (drop < 0) break;
    kept.splice(drop, 1);
  }
  return kept;
}

/** One table line: cells padded and cut to the widths. */
export function lineOf(cells: readonly string[], widths: readonly number[]): string {
  return widths.map((w, i) => truncate(cells[i] ?? '', w).padEnd(w)).join('  ').trimEnd();
}

/** The status text of the title bar: counts, sort, filters, marks. */
export function paneStatus(pane: PaneState): string {
  const shown = viewedRows(pane).length;
  const parts = [pane.filter ? `${shown} of ${pane.rows.length} loaded` : `${pane.rows.length}${pane.done ? '' : '+'} loaded`];
  if (pane.total !== undefined) parts.push(`${pane.total} in all`);
  if (pane.loading) parts.push('loading…');
  // Sorting is client-side: until every page is read it orders the loaded rows only, and says so.
  if (pane.sort) parts.push(`sort ${pane.columns[pane.sort.col] ?? ''} ${pane.sort.desc ? '↓' : '↑'}${pane.done ? '' : ' (loaded rows)'}`);
  if (pane.filter) parts.push(`filter "${pane.filter}"`);
  if (pane.server) parts.push(`where ${pane.server}`);
  if (pane.selected.length) parts.push(`${pane.selected.length} marked`);
  return parts.join(' · ');
}

/** The footer: the keys of the mode and pane. */
export function footerText(state: BrowserState, actions: readonly UiAction[], panes: number): string {
  switch (state.mode) {
    case 'filter':
      return 'enter apply · esc cancel · text filters loaded rows; field=value filters on the server';
    case 'confirm':
      return 'y yes · n no';
    case 'detail':
      return `esc back${actions.length ? ` · ${actions.map((a) => `${a.key} ${a.label.toLowerCase()}`).join(' · ')}` : ''}`;
    case 'help':
      return 'esc close';
    case 'busy':
      return 'working…  ctrl-c quits';
    case 'list':
      break;
  }
  const own = actions.map((a) => `${a.key} ${a.label.toLowerCase()}`);
  return [...own, ...(panes > 1 ? ['tab pane'] : []), 'space mark', 'enter details', '/ filter', 's sort', 'r refresh', '? help', 'q quit'].join(' · ');
}

/** The help overlay's lines. */
export function helpLines(actions: readonly UiAction[], panes: number): string[] {
  return [
    'Keys',
    '  ↑ ↓ j k        move            pgup pgdn   page',
    '  g G home end   first, last     space       mark / unmark a row',
    '  enter          details         esc         clear marks, back',
    '  /              filter: text filters the loaded rows; field=value (as --where) asks the server',
    '  s S            sort by the next column, reverse the sort (loaded rows)',
    ...(panes > 1 ? ['  tab shift-tab  next, previous pane'] : []),
    '  r              refresh         q ctrl-c    quit',
    ...(actions.length ? ['', 'Actions (on the marked rows, else the row under the cursor)'] : []),
    ...actions.map((a) => `  ${a.key}              ${a.label.toLowerCase()}${a.destructive ? ' (asks first)' : ''}`),
  ];
}

/** Draws the whole screen from the state (no hooks: rendered to a string in tests). */
export function BrowserView({
  state,
  spec,
  columns,
  detail,
  strip,
}: {
  state: BrowserState;
  spec: Pick<BrowserProps, 'title' | 'panes' | 'color'>;
  columns: number;
  /** The detail lines of the row under the cursor, once read. */
  detail?: Array<[string, string]>;
  /** The pane drawn as a strip under the active one (also while it is the active one). */
  strip?: string;
}) {
  const pane = state.panes[state.active]!;
  const paneSpec = spec.panes[state.active]!;
  const actions = paneSpec.actions ?? [];
  const color = spec.color;
  const width = Math.max(20, columns - 1);
  const rows = viewedRows(pane);
  const visible = rows.slice(pane.top, pane.top + state.height);
  const sample = rows.length > 200 ? [...rows.slice(0, 200), ...visible] : rows;
  const kept = keptColumns(pane.columns, sample, paneSpec.priorities ?? [], width - 3);
  const pick = (cells: readonly string[]) => kept.map((i) => cells[i] ?? '');
  const shownRows = kept.length === pane.columns.length ? sample : sample.map((r) => ({ id: r.id, cells: pick(r.cells) }));
  const widths = fitColumns(pick(pane.columns), shownRows, width - 3);
  const body: ReactNode[] = [];

  if (state.mode === 'help') {
    for (const line of helpLines(actions, spec.panes.length).slice(0, state.height)) body.push(<Text key={body.length}>{truncate(line, width)}</Text>);
  } else if (state.mode === 'confirm' && state.confirm) {
    body.push(
      <Text key="q" bold={color} color={color ? 'yellow' : undefined}>
        {truncate(`? ${state.confirm.question}  (y/n)`, width)}
      </Text>,
    );
    for (const line of state.confirm.lines.slice(0, state.height - 1)) body.push(<Text key={body.length}>{truncate(line, width)}</Text>);
  } else if (state.mode === 'detail') {
    const row = currentRow(state);
    const lines = detail ?? (row && !paneSpec.detail ? pane.columns.map((c, i) => [c, row.cells[i] ?? ''] as [string, string]) : [['', 'loading…'] as [string, string]]);
    const keyWidth = Math.min(24, Math.max(0, ...lines.map(([k]) => k.length)));
    for (const [k, v] of lines.slice(0, state.height)) body.push(<Text key={body.length}>{truncate(`${k.padEnd(keyWidth)}  ${v}`, width)}</Text>);
  } else if (pane.error && rows.length === 0) {
    body.push(
      <Text key="e" color={color ? 'red' : undefined}>
        {truncate(`✗ ${pane.error}`, width)}
      </Text>,
    );
  } else if (rows.length === 0) {
    body.push(
      <Text key="empty" dimColor={color}>
        {pane.loading || (!pane.done && !pane.error) ? 'loading…' : pane.filter || pane.server ? 'nothing matches the filter' : 'nothing here'}
      </Text>,
    );
  } else {
    const marked = new Set(pane.selected);
    visible.forEach((row, i) => {
      const index = pane.top + i;
      const isCursor = index === pane.cursor;
      const mark = `${isCursor ? '>' : ' '}${marked.has(row.id) ? '*' : ' '} `;
      body.push(
        <Text key={row.id + index} inverse={color && isCursor} color={color && marked.has(row.id) ? 'cyan' : undefined}>
          {truncate(`${mark}${lineOf(pick(row.cells), widths)}`, width)}
        </Text>,
      );
    });
  }
  while (body.length < state.height) body.push(<Text key={`pad${body.length}`}> </Text>);

  const title = `${spec.title} · ${pane.title} · ${paneStatus(pane)}`;
  const flash =
    state.mode === 'filter'
      ? `/${state.input}▏`
      : state.mode === 'busy' && state.progress
        ? `${state.progress.title} ${state.progress.total ? `${state.progress.done}/${state.progress.total}${state.progress.failed ? `, ${state.progress.failed} failed` : ''}` : ''}`
        : state.flash
          ? `${state.flash.error ? '✗' : '✓'} ${state.flash.text}`
          : pane.error
            ? `✗ ${pane.error}`
            : '';
  const flashError = state.mode !== 'filter' && ((state.flash?.error ?? false) || (!state.flash && Boolean(pane.error)));
  return (
    <Box flexDirection="column">
      <Text bold={color}>{truncate(title, width)}</Text>
      {spec.panes.length > 1 ? <Text>{truncate(tabBar(state), width)}</Text> : null}
      <Text bold={color} underline={color}>
        {truncate(`   ${lineOf(pick(pane.columns), widths)}`, width)}
      </Text>
      {body}
      {strip ? <Strip state={state} id={strip} width={width} color={color} /> : null}
      <Text color={color ? (flashError ? 'red' : 'green') : undefined}>{truncate(flash, width) || ' '}</Text>
      <Text dimColor={color}>{truncate(footerText(state, actions, spec.panes.length), width)}</Text>
    </Box>
  );
}

/** The strip: a pane's title and its first six rows (the newest events), under the active pane. */
function Strip({ state, id, width, color }: { state: BrowserState; id: string; width: number; color: boolean }) {
  const pane = state.panes.find((p) => p.id === id);
  if (!pane) return null;
  const rows = pane.rows.slice(0, 6);
  const widths = fitColumns(pane.columns, rows, width - 3);
  const lines = rows.map((r) => truncate(`   ${lineOf(r.cells, widths)}`, width));
  while (lines.length < 6) lines.push(' ');
  return (
    <Box flexDirection="column">
      <Text bold={color}>{truncate(`── ${pane.title} ${'─'.repeat(Math.max(0, width - pane.title.length - 4))}`, width)}</Text>
      {lines.map((l, i) => (
        <Text key={i} dimColor={color}>
          {l}
        </Text>
      ))}
    </Box>
  );
}

/** `[Today & upcoming 12] Awaiting confirmation 3 | ...`: every pane with its count, the active one bracketed. */
export function tabBar(state: BrowserState): string {
  return state.panes
    .map((p, i) => {
      const count = `${viewedRows(p).length}${p.done || p.loading ? '' : '+'}`;
      const text = `${p.title} ${p.error ? '!' : p.rows.length === 0 && !p.done ? '…' : count}`;
      return i === state.active ? `[${text}]` : ` ${text} `;
    })
    .join('│');
}

export type { BrowserAction };
