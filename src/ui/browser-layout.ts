/**
 * The browser's screen as text, pure (no React): how many rows the chrome takes, which columns fit and how wide,
 * one table line, the status of a pane, the footer, the help overlay and the tab bar. browser-view.tsx draws it.
 */
import { type BrowserState, type PaneState, type UiRow, viewedRows } from './browser-state.js';
import type { UiAction } from './browser-spec.js';
import { truncate } from './table-layout.js';

/** Rows of the screen that are not table body: title, header, flash, footer, and the tab bar with several panes. */
export function chromeRows(panes: number): number {
  return 4 + (panes > 1 ? 1 : 0) + 1;
}

/** Lines of the strip (its title included) on a terminal `rows` tall: 7 from 30 rows up, else none. */
export function stripRows(rows: number, strip: boolean): number {
  return strip && rows >= 30 ? 7 : 0;
}

/** An error as one line for the pane or the flash line, with its hint. */
export function errorText(err: unknown): string {
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
  // A server sort holds over every page; a client-side one orders the loaded rows only until every page is read.
  if (pane.sort) parts.push(`sort ${pane.columns[pane.sort.col] ?? ''} ${pane.sort.desc ? '↓' : '↑'}${pane.sort.server || pane.done ? '' : ' (loaded rows)'}`);
  if (pane.filter) parts.push(`filter "${pane.filter}"`);
  if (pane.server) parts.push(`where ${pane.server}`);
  if (pane.selected.length) parts.push(`${pane.selected.length} marked`);
  return parts.join(' · ');
}

/** The footer: the keys of the mode and pane. */
export function footerText(state: BrowserState, actions: readonly UiAction[], panes: number): string {
  const own = actions.map((a) => `${a.key} ${a.label.toLowerCase()}`);
  switch (state.mode) {
    case 'filter':
      return 'enter apply · esc cancel · text filters loaded rows; field=value filters on the server';
    case 'confirm':
      return 'y yes · n no';
    case 'detail':
      return ['esc back', ...(state.detailLength > state.height ? ['↑↓ pgup pgdn scroll'] : []), ...own].join(' · ');
    case 'help':
      return 'esc close';
    case 'busy':
      return 'working…  ctrl-c quits';
    case 'list':
      break;
  }
  // Marks are for actions: a pane without any (the events table) does not offer them.
  const mark = actions.length ? ['space mark'] : [];
  return [...own, ...(panes > 1 ? ['tab pane'] : []), ...mark, 'enter details', '/ filter', 's sort', 'r refresh', '? help', 'q quit'].join(' · ');
}

/** The help overlay's lines. */
export function helpLines(actions: readonly UiAction[], panes: number): string[] {
  return [
    'Keys',
    '  ↑ ↓ j k        move            pgup pgdn   page',
    `  g G home end   first, last     ${actions.length ? 'space       mark / unmark a row' : ''}`.trimEnd(),
    '  enter          details (↑ ↓ pgup pgdn scroll them)     esc    clear marks, back',
    '  /              filter: text filters the loaded rows; field=value (as --where) asks the server',
    '  s S            sort by the next column, reverse the sort: by the server over every page when it',
    '                 can sort by that column, else the loaded rows (the status line then says so)',
    ...(panes > 1 ? ['  tab shift-tab  next, previous pane'] : []),
    '  r              refresh         q ctrl-c    quit',
    ...(actions.length ? ['', 'Actions (on the marked rows, else the row under the cursor)'] : []),
    ...actions.map((a) => `  ${a.key}              ${a.label.toLowerCase()}${a.destructive ? ' (asks first)' : ''}`),
  ];
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
