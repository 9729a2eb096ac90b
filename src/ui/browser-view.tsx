/**
 * Draws the browser's whole screen from its state (no hooks, so tests render it to a string): title and status,
 * tab bar, header, the visible rows only (10,000 loaded rows draw as fast as 20), the detail, help and confirm
 * overlays, the events strip, the flash line and the footer. Every line is fitted to the terminal's width in
 * display cells (core/columns.ts). Colour is optional: without it the cursor and marks are `>` and `*`.
 */
import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import { cutText, displayWidth, wrapText } from '../core/columns.js';
import { type BrowserState, currentRow, type PaneState, searchesText, viewedRows } from './browser-state.js';
import type { BrowserProps } from './browser-spec.js';
import { footerText, headerKeyOffsets, helpLines, paneTable, tabBar, tableLine, titleLine } from './browser-layout.js';
import { sortKeys } from './browser-keys.js';
import type { LineState } from './line-edit.js';

/** Cells the cursor and mark take before a row: `>* `. */
const MARK_WIDTH = 3;

/**
 * What a pane without rows to show says: `loading…` while its first page is on the way; under a text filter on
 * the loaded rows, that none of the rows read so far matches while more are read; else that nothing matches the
 * filter, or the pane's own `empty`.
 */
export function emptyText(pane: PaneState, empty = 'nothing here'): string {
  const reading = pane.loading || (!pane.done && !pane.error);
  if (reading && pane.filter && !searchesText(pane) && pane.rows.length) return `no match in the ${pane.rows.length} rows read yet — reading more…`;
  if (reading) return 'loading…';
  return pane.filter || pane.server ? 'nothing matches the filter' : empty;
}

/** The filter line `/text▏more` (or the `:` line) for `width`: the part around the cursor when the text is longer. */
export function filterLine(line: LineState, width: number, prefix = '/'): string {
  const head = line.text.slice(0, line.cursor);
  const tail = line.text.slice(line.cursor);
  const room = Math.max(1, width - 2);
  let shownHead = head;
  while (displayWidth(shownHead) > room - Math.min(displayWidth(tail), Math.floor(room / 3))) shownHead = shownHead.slice(1);
  return cutText(`${prefix}${shownHead}▏${tail}`, width);
}

/**
 * The lines of an open question for `width`, drawn over the last rows of a body `height` rows tall: a rule, the
 * question wrapped whole on its own lines (`? ` and a hanging indent), the choices `(y/n)` on the line below it,
 * then as many preview lines as fit in half the body. A body too short for all that keeps the question's lines
 * first (the footer says `y yes · n no` too).
 */
export function confirmBox(confirm: { question: string; lines: readonly string[] }, width: number, height: number): string[] {
  const asked = askedLines(confirm.question, width);
  if (height < asked.length + 1) return asked.slice(0, Math.max(1, height));
  const room = Math.max(0, Math.floor(height / 2) - 1 - asked.length);
  const preview = confirm.lines.slice(0, room).map((l) => cutText(l, width));
  return ['─'.repeat(width), ...asked, ...preview];
}

/** The question wrapped whole to `width` (`? ` and a hanging indent), then its choices `(y/n)` on their own line. */
export function askedLines(question: string, width: number): string[] {
  return [...wrapText(`? ${question}`, width, QUESTION_INDENT, { whole: true }), `${' '.repeat(QUESTION_INDENT)}(y/n)`];
}

/** Cells a question's second and later lines, and its choices, are indented by: the width of `? `. */
const QUESTION_INDENT = 2;

export function BrowserView({
  state,
  spec,
  columns,
  detail,
  strip,
}: {
  state: BrowserState;
  spec: Pick<BrowserProps, 'title' | 'panes' | 'color' | 'zone' | 'jump'>;
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
  const table = paneTable(pane, paneSpec.shapes, sample, width - MARK_WIDTH);
  const sorts = sortKeys(pane.columns, actions.map((a) => a.key));
  const body: ReactNode[] = [];

  if (state.mode === 'help') {
    const lines = helpLines({ actions, panes: spec.panes.length, columns: pane.columns, sorts, jump: spec.jump !== undefined, search: { what: paneSpec.search, when: paneSpec.searchWhen }, done: pane.done }, width);
    const top = Math.min(state.detailTop, Math.max(0, lines.length - state.height));
    for (const line of lines.slice(top, top + state.height)) body.push(<Text key={body.length}>{line || ' '}</Text>);
  } else if (state.mode === 'detail') {
    const row = currentRow(state);
    const lines = detail ?? (row && !paneSpec.detail ? pane.columns.map((c, i) => [c, row.cells[i] ?? ''] as [string, string]) : [['', 'loading…'] as [string, string]]);
    const keyWidth = Math.min(24, Math.max(0, ...lines.map(([k]) => displayWidth(k))));
    const top = Math.min(state.detailTop, Math.max(0, lines.length - state.height));
    for (const [k, v] of lines.slice(top, top + state.height)) body.push(<Text key={body.length}>{cutText(`${k.padEnd(keyWidth)}  ${v}`, width)}</Text>);
  } else if (pane.error && rows.length === 0) {
    body.push(
      <Text key="e" color={color ? 'red' : undefined}>
        {cutText(`✗ ${pane.error}`, width)}
      </Text>,
    );
  } else if (rows.length === 0) {
    body.push(
      <Text key="empty" dimColor={color}>
        {cutText(emptyText(pane, paneSpec.empty), width)}
      </Text>,
    );
  } else {
    const marked = new Set(pane.selected);
    visible.forEach((row, i) => {
      const index = pane.top + i;
      const isCursor = index === pane.cursor;
      const mark = `${isCursor ? '>' : ' '}${marked.has(row.id) ? '*' : ' '} `;
      body.push(
        <Text key={`row:${index}:${row.id}`} inverse={color && isCursor} dimColor={color && pane.stale} color={color && marked.has(row.id) ? 'cyan' : undefined}>
          {cutText(`${mark}${tableLine(table, row.cells)}`, width) || ' '}
        </Text>,
      );
    });
  }
  while (body.length < state.height) body.push(<Text key={`pad${body.length}`}> </Text>);
  // A question is drawn over the list's last rows, the rest of the list still in view (as lazygit and k9s do).
  if (state.mode === 'confirm' && state.confirm) {
    const box = confirmBox(state.confirm, width, state.height);
    // The question and its choices are drawn bold in yellow: the lines after the rule (when there is one), before the preview.
    const first = box[0] === '─'.repeat(width) ? 1 : 0;
    const askedCount = askedLines(state.confirm.question, width).length;
    const asked = (i: number) => i >= first && i < first + askedCount;
    body.splice(
      state.height - box.length,
      box.length,
      ...box.map((line, i) => (
        <Text key={`confirm:${i}`} bold={color && asked(i)} color={color && asked(i) ? 'yellow' : undefined}>
          {line || ' '}
        </Text>
      )),
    );
  }

  const title = titleLine(spec.title, pane, width, spec.zone, spec.panes.length, state.link);
  const flash =
    state.mode === 'filter' || state.mode === 'command'
      ? filterLine(state.input, width, state.mode === 'command' ? ':' : '/')
      : state.mode === 'busy' && state.progress
        ? `${state.progress.title} ${state.progress.total ? `${state.progress.done}/${state.progress.total}${state.progress.failed ? `, ${state.progress.failed} failed` : ''}` : ''}`
        : state.flash
          ? state.flash.plain
            ? state.flash.text
            : `${state.flash.error ? '✗' : '✓'} ${state.flash.text}`
          : !state.link.up
            ? `✗ ${state.link.reason}`
            : pane.error
              ? `✗ ${pane.error}`
              : '';
  const flashError = state.mode !== 'filter' && state.mode !== 'command' && ((state.flash?.error ?? false) || (!state.flash && (Boolean(pane.error) || !state.link.up)));
  return (
    <Box flexDirection="column">
      <Text bold={color}>{title}</Text>
      {spec.panes.length > 1 ? (
        <Text>
          {tabBar(state, width).map((tab, i) => (
            <Text key={i} bold={color && tab.active} inverse={color && tab.active}>
              {(i > 0 ? '│' : '') + tab.text}
            </Text>
          ))}
        </Text>
      ) : null}
      <Header text={cutText(`${' '.repeat(MARK_WIDTH)}${table.header}`, width)} keys={headerKeyOffsets(table, sorts).map((at) => at + MARK_WIDTH)} color={color} />
      {body}
      {strip ? <Strip state={state} id={strip} width={width} color={color} shapes={spec.panes.find((p) => p.id === strip)?.shapes} /> : null}
      <Text color={color ? (flashError ? 'red' : 'green') : undefined}>{cutText(flash, width) || ' '}</Text>
      <Text dimColor={color}>{footerText(state, actions, spec.panes.length, width, spec.jump?.words, paneSpec.search)}</Text>
    </Box>
  );
}

/**
 * The table's header line, bold, each column's sort key letter (Shift and it sorts by the column) underlined, as
 * a menu underlines its access keys; without colour the line is plain (the help lists the keys).
 */
function Header({ text, keys, color }: { text: string; keys: readonly number[]; color: boolean }) {
  if (!color) return <Text>{text}</Text>;
  const parts: ReactNode[] = [];
  let from = 0;
  for (const at of keys) {
    // Offsets are cells of an ASCII header: string indexes. One past the cut line's end is not drawn.
    if (at >= text.length - (text.endsWith('…') ? 1 : 0)) break;
    parts.push(text.slice(from, at), (
      <Text key={at} underline>
        {text[at]}
      </Text>
    ));
    from = at + 1;
  }
  parts.push(text.slice(from));
  return <Text bold>{parts}</Text>;
}

/** The strip: a pane's title and its first six rows (the newest events), under the active pane. */
function Strip({ state, id, width, color, shapes }: { state: BrowserState; id: string; width: number; color: boolean; shapes: BrowserProps['panes'][number]['shapes'] }) {
  const pane = state.panes.find((p) => p.id === id);
  if (!pane) return null;
  const rows = pane.rows.slice(0, 6);
  const table = paneTable({ ...pane, sort: undefined }, shapes, rows, width - MARK_WIDTH);
  const lines = rows.map((r) => cutText(`${' '.repeat(MARK_WIDTH)}${tableLine(table, r.cells)}`, width));
  while (lines.length < 6) lines.push(' ');
  return (
    <Box flexDirection="column">
      <Text bold={color}>{cutText(`── ${pane.title} ${'─'.repeat(Math.max(0, width - displayWidth(pane.title) - 4))}`, width)}</Text>
      {lines.map((l, i) => (
        <Text key={i} dimColor={color}>
          {l}
        </Text>
      ))}
    </Box>
  );
}
