/**
 * The browser's screen as text, pure (no React): how many rows the chrome takes, which columns fit and how wide,
 * one table line, the status of a pane, the footer, the help overlay and the tab bar. browser-view.tsx draws it.
 */
import { oneLine } from '../core/text.js';
import { type ColumnPlan, type ColumnShape, cutText, displayWidth, planColumns, planHeader, planLine, wrapText } from '../core/columns.js';
import { type BrowserState, type LinkState, type PaneState, searchesText, type UiRow, viewedRows } from './browser-state.js';
import type { PaneSpec, UiAction } from './browser-spec.js';
import { inScope, LIST_KEYS } from './browser-keys.js';
import { completions } from './line-edit.js';

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
  return oneLine(`${text}${hint}`);
}

/** A table of a pane laid out for a width: the plan of the column engine and the shapes it was made with. */
export interface PaneTable {
  plan: ColumnPlan;
  shapes: ColumnShape[];
  /** The header line, the sorted column marked `↑`/`↓`, ending with `›` when columns are hidden. */
  header: string;
}

/**
 * Lays out a pane's columns for `width` display cells with the one column engine (core/columns.ts), from a
 * sample of its rows; the sorted column's header carries its arrow.
 */
export function paneTable(pane: PaneState, shapes: PaneSpec['shapes'], sample: readonly UiRow[], width: number): PaneTable {
  const headers = pane.columns.map((h, i) => (pane.sort?.col === i ? `${h}${pane.sort.desc ? '↓' : '↑'}` : h));
  // A column of times (its rows carry a sort key) is never cut unless its pane says otherwise.
  const all: ColumnShape[] = headers.map((header, i) => ({ ...shapes?.[i], fit: shapes?.[i]?.fit ?? (sample.some((r) => r.keys?.[i] !== undefined) ? 'whole' : 'cut'), header }));
  const cells = sample.map((r) => r.cells);
  const normal = planColumns(all, cells, width);
  const plan = pane.reveal ? planColumns(revealed(all, normal.kept), cells, width) : normal;
  return { plan, shapes: all, header: planHeader(plan, all) };
}

/**
 * The shapes for `o` / `→`: the columns hidden at this width (not in `kept`) are kept now, as key columns are, and
 * the optional ones that fitted give way first, in their own order; the key columns (priority 0) are untouched. A
 * pane with one optional column shows it too: the key columns narrow to their minimum to make room.
 */
export function revealed(shapes: readonly ColumnShape[], kept: readonly number[]): ColumnShape[] {
  const top = Math.max(0, ...shapes.map((s) => s.priority ?? 0));
  return shapes.map((s, i) => {
    if ((s.priority ?? 0) === 0) return s;
    return kept.includes(i) ? { ...s, priority: top + 1 - s.priority! } : { ...s, priority: 0 };
  });
}

/**
 * Where the column sort keys are in the table's header line: per shown column whose header has its key letter
 * in view (not cut off), the offset of that letter in {@link PaneTable.header} (the view underlines them).
 * @param sorts per column of the pane, its sort key (browser-keys.ts sortKeys)
 */
export function headerKeyOffsets(table: PaneTable, sorts: ReadonlyArray<string | undefined>): number[] {
  const out: number[] = [];
  let at = 0;
  table.plan.kept.forEach((i, k) => {
    const width = table.plan.widths[k]!;
    const label = table.shapes[i]!.header;
    const key = sorts[i];
    const size = displayWidth(label);
    const cut = size > width;
    // Headers are ASCII letters (and the sorted one's arrow after them): a letter's index is its cell.
    const index = key ? label.toUpperCase().indexOf(key) : -1;
    const pad = table.shapes[i]!.align === 'right' && !cut ? width - size : 0;
    if (index >= 0 && index < (cut ? width - 1 : size)) out.push(at + pad + index);
    at += width + 2;
  });
  return out;
}

/** One table line of `cells` as the pane's table lays them out. */
export function tableLine(table: PaneTable, cells: readonly string[]): string {
  return planLine(table.plan, table.shapes, cells);
}

/**
 * Parts joined with ` · ` that fit `width`: the `keep` parts always (cut at the edge when even they do not
 * fit), the others in order while they fit, each where it was.
 */
export function fitParts(parts: ReadonlyArray<{ text: string; keep?: boolean }>, width: number): string {
  const sep = ' · ';
  const shown = parts.map((p) => Boolean(p.keep));
  const size = () => parts.reduce((sum, p, i) => sum + (shown[i] ? displayWidth(p.text) + sep.length : 0), -sep.length);
  for (let i = 0; i < parts.length; i++) {
    if (shown[i]) continue;
    shown[i] = true;
    if (size() > width) shown[i] = false;
  }
  return cutText(parts.filter((_, i) => shown[i]).map((p) => p.text).join(sep), width);
}

/** A count with thousands separated: `6,727`. */
const count = (n: number): string => n.toLocaleString('en-US');

/**
 * The parts of a pane's status: counts, sort, filters, marks; what the user set is kept before the counts. The
 * count is the rows read of the platform's count (`300 of 6,727 loaded`), or, under a text filter on the loaded rows,
 * the rows shown of those read; such a filter says it looks at the loaded rows only until every page is read.
 */
function statusParts(pane: PaneState): Array<{ text: string; keep?: boolean }> {
  const searched = searchesText(pane);
  const local = pane.filter !== '' && !searched;
  const read = pane.rows.length;
  const counted = pane.total !== undefined && read < pane.total ? `${count(read)} of ${count(pane.total)} loaded` : `${count(read)}${pane.done ? '' : '+'} loaded`;
  const parts: Array<{ text: string; keep?: boolean }> = [{ text: local ? `${count(viewedRows(pane).length)} of ${count(read)} loaded` : counted, keep: true }];
  // Rows read before the source stopped answering, not read again since.
  if (pane.stale) parts.push({ text: 'stale', keep: true });
  if (local && pane.total !== undefined && pane.total > read) parts.push({ text: `${count(pane.total)} in all` });
  if (pane.loading) parts.push({ text: 'loading…' });
  // A server sort holds over every page; a client-side one orders the loaded rows only until every page is read.
  // The column's header carries the arrow, so a narrow title gives the sort up for the filters, unless it is partial.
  if (pane.sort) {
    const whole = pane.sort.server || pane.done;
    parts.push({ text: `sort ${pane.columns[pane.sort.col] ?? ''} ${pane.sort.desc ? '↓' : '↑'}${whole ? '' : ' (loaded rows)'}`, keep: !whole });
  }
  if (pane.selected.length) parts.push({ text: `${pane.selected.length} marked`, keep: true });
  // The text first (what was typed last, and short), then the server terms as typed: the list's own flags
  // (`--status A,B`) read as themselves, field=value terms after `where`; a narrow title cuts the terms.
  const whole = pane.done && (pane.total === undefined || read >= pane.total);
  if (pane.filter) parts.push({ text: searched ? `search "${pane.filter}"` : `filter "${pane.filter}"${whole ? '' : ' (loaded rows only)'}`, keep: true });
  if (pane.server) parts.push({ text: pane.server.startsWith('--') ? pane.server : `where ${pane.server}`, keep: true });
  return parts;
}

/** The status text of the title bar: counts, sort, filters, marks. */
export function paneStatus(pane: PaneState): string {
  return statusParts(pane)
    .map((p) => p.text)
    .join(' · ');
}

/** What the title says of a source that does not answer: `disconnected — retrying (3s)`; nothing while it does. */
export function linkText(link: LinkState): string | undefined {
  if (link.up) return undefined;
  return `disconnected — retrying ${link.retryIn > 0 ? `(${link.retryIn}s)` : 'now'}`;
}

/**
 * The title bar for `width`: the browser's and the pane's names, a disconnection, the counts, the active filter
 * and sort, marks and the zone times are shown in; the disconnection, filter, sort and marks always, the rest as
 * room allows.
 */
export function titleLine(title: string, pane: PaneState, width: number, zone?: string, panes = 1, link: LinkState = { up: true }): string {
  const down = linkText(link);
  return fitParts(
    [
      { text: title, keep: true },
      ...(down ? [{ text: down, keep: true }] : []),
      // With a tab bar the pane's name is there already; a title that ends with it (`sitectl bookings`) says it too.
      ...(title.endsWith(` ${pane.title}`) ? [] : [{ text: pane.title, keep: panes === 1 }]),
      // The zone is offered before the counts beyond the first, so it is the last to go.
      ...statusParts(pane).slice(0, 1),
      ...(zone ? [{ text: `times in ${zone}` }] : []),
      ...statusParts(pane).slice(1),
    ],
    width,
  );
}

/**
 * The footer for `width`: the keys of the mode and pane; `? help · q quit` always shows in the list. `words` are
 * what `:` takes (undefined: the view has no `:`); on the `:` line the ones the typed text starts are shown.
 */
export function footerText(state: BrowserState, actions: readonly UiAction[], panes: number, width = Infinity, words?: readonly string[], search?: string): string {
  const own = actions.map((a) => ({ text: `${a.key} ${a.label.toLowerCase()}` }));
  switch (state.mode) {
    case 'filter':
      return fitParts([{ text: 'enter apply', keep: true }, { text: 'esc cancel', keep: true }, { text: 'ctrl-u clear' }, { text: `field=value filters on the server; ${textHelp(state.panes[state.active], search)}` }], width);
    case 'command': {
      const found = completions(words ?? [], state.input.text);
      return fitParts([{ text: 'tab complete', keep: true }, { text: 'enter open', keep: true }, { text: 'esc cancel', keep: true }, { text: found.length ? found.join(' ') : 'no such noun' }], width);
    }
    case 'confirm':
      return fitParts([{ text: 'y yes', keep: true }, { text: 'n no', keep: true }], width);
    case 'detail':
      return fitParts([{ text: 'esc back', keep: true }, ...(state.detailLength > state.height ? [{ text: '↑↓ pgup pgdn scroll' }] : []), ...own, { text: 'q back' }], width);
    case 'help':
      return fitParts([{ text: 'esc close', keep: true }, ...(state.detailLength > state.height ? [{ text: '↑↓ pgup pgdn scroll', keep: true }] : [])], width);
    case 'busy':
      return fitParts([{ text: 'working…', keep: true }, { text: 'ctrl-c quits' }], width);
    case 'list':
      break;
  }
  // Marks are for actions: a pane without any (the events table) does not offer them. While the source does not
  // answer, `r` (retry now) is always shown.
  const mark = actions.length ? [{ text: 'space mark' }] : [];
  return fitParts(
    [
      ...own,
      ...(panes > 1 ? [{ text: 'tab pane' }] : []),
      ...mark,
      { text: 'enter details' },
      { text: '/ filter' },
      ...(words ? [{ text: ': noun' }] : []),
      { text: 's sort' },
      state.link.up ? { text: 'r refresh' } : { text: 'r retry now', keep: true }, { text: '? help', keep: true }, { text: 'q quit', keep: true }],
    width,
  );
}

/** Said of a text filter on the loaded rows while the pane has pages left to read (a dashboard pane has none). */
const READS_ON = ', reading on to the last page';

/**
 * What free text after `/` does in a pane, in a few words: searched on the server (in `search`, what the pane's
 * query searches), only some of it (PaneSpec.searchWhen), or filtering the loaded rows.
 */
function textHelp(pane: Pick<PaneState, 'search' | 'searchWhen' | 'done'> | undefined, search?: string): string {
  const rows = `filters the loaded rows${pane?.done ? '' : READS_ON}`;
  if (!pane?.search) return `text ${rows}`;
  if (pane.searchWhen) return `${search ?? 'some text'} is searched there, other text ${rows}`;
  return `text is searched there too${search ? ` (${search})` : ''}`;
}

/** The help overlay's line on the free text of the filter line: the fields the server searches, or the loaded rows. */
function searchHelp(search: HelpKeys['search'], done?: boolean): string {
  const rows = `filters the loaded rows${done ? '' : READS_ON}`;
  if (!search?.what) return `free text ${rows} (this list's query searches no text)`;
  if (search.when) return `free text: ${search.what} is searched on the server; other text ${rows}`;
  return `free text is searched on the server, over every page, in: ${search.what}`;
}

/** What the help overlay lists besides the list's own keys: the active pane's actions and sort keys, the panes, `:`. */
export interface HelpKeys {
  actions: readonly UiAction[];
  panes: number;
  /** The active pane's column headers, and per column its Shift-letter sort key (browser-keys.ts sortKeys). */
  columns?: readonly string[];
  sorts?: ReadonlyArray<string | undefined>;
  /** The view has a `:` jump. */
  jump?: boolean;
  /** The active pane's text search (PaneSpec.search and searchWhen), for what `/` does with free text. */
  search?: { what?: string; when?: RegExp };
  /** The active pane has read every row it will show (a dashboard pane's PANE_LIMIT read): no reading on. */
  done?: boolean;
}

/**
 * The help overlay's lines, wrapped to `width`: every key of the view from the declarations (the list's own keys
 * in scope, browser-keys.ts LIST_KEYS; the column sort keys; the pane's actions), and what it does beside it.
 */
export function helpLines(keys: HelpKeys, width = 100): string[] {
  const scope = { actions: keys.actions.map((a) => a.key), words: keys.jump ? [] : undefined };
  const keyWidth = 15;
  const lines = ['Keys'];
  const add = (k: string, text: string) => {
    const wrapped = wrapText(text, Math.max(10, width - keyWidth - 2), 0);
    wrapped.forEach((line, i) => lines.push(cutText(`  ${(i === 0 ? k : '').padEnd(keyWidth)}${line}`, width)));
  };
  const sorts = (keys.columns ?? []).flatMap((c, i) => (keys.sorts?.[i] ? [`${keys.sorts[i]} ${c}`] : []));
  for (const k of LIST_KEYS) {
    if (!inScope(k, scope, keys.panes)) continue;
    if (!k.columns) add(k.name, k.help);
    else if (sorts.length) add(k.name, `${k.help} ${sorts.join(', ')}`);
    // What the filter line's free text does in this pane: which fields the server searches, or the loaded rows.
    if (k.name === '/') add('', searchHelp(keys.search, keys.done));
  }
  if (keys.actions.length) {
    lines.push(...wrapText('Actions (on the marked rows, else the row under the cursor)', width));
    for (const a of keys.actions) add(a.key, `${a.label.toLowerCase()}${a.destructive ? ' (asks first)' : ''}`);
  }
  return lines;
}

/** One tab of the tab bar. */
export interface Tab {
  text: string;
  active: boolean;
}

/**
 * The tab bar for `width`: every pane with its count, the active one bracketed. When the names do not fit, the
 * inactive ones are shortened (never the active one); when even that does not fit, the bar scrolls to keep the
 * active tab in view, with `‹` `›` saying tabs lie beyond.
 */
export function tabBar(state: BrowserState, width = Infinity): Tab[] {
  const counts = state.panes.map((p) => (p.error ? '!' : p.rows.length === 0 && !p.done ? '…' : `${viewedRows(p).length}${p.done || p.loading ? '' : '+'}`));
  const render = (limit: number): Tab[] =>
    state.panes.map((p, i) => {
      const active = i === state.active;
      const name = active ? p.title : cutText(p.title, limit);
      return { text: active ? `[${name} ${counts[i]}]` : ` ${name} ${counts[i]} `, active };
    });
  const size = (tabs: readonly Tab[]) => tabs.reduce((sum, t) => sum + displayWidth(t.text) + 1, -1);
  const longest = Math.max(...state.panes.map((p) => displayWidth(p.title)));
  for (let limit = longest; limit >= 4; limit--) {
    const tabs = render(limit);
    if (size(tabs) <= width) return tabs;
  }
  // Scrolled: the active tab and as many neighbours as fit, nearest first.
  const tabs = render(4);
  let from = state.active;
  let to = state.active + 1;
  const fits = (a: number, b: number) => size(tabs.slice(a, b)) + (a > 0 ? 2 : 0) + (b < tabs.length ? 2 : 0) <= width;
  for (;;) {
    if (to < tabs.length && fits(from, to + 1)) to++;
    else if (from > 0 && fits(from - 1, to)) from--;
    else break;
  }
  return [...(from > 0 ? [{ text: '‹', active: false }] : []), ...tabs.slice(from, to), ...(to < tabs.length ? [{ text: '›', active: false }] : [])];
}
