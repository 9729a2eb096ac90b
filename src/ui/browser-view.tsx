/**
 * Draws the browser's whole screen from its state (no hooks, so tests render it to a string): title and status,
 * tab bar, header, the visible rows only (10,000 loaded rows draw as fast as 20), the detail, help and confirm
 * overlays, the events strip, the flash line and the footer. Colour is optional: without it the cursor and
 * marks are `>` and `*`.
 */
import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import { type BrowserState, currentRow, viewedRows } from './browser-state.js';
import type { BrowserProps } from './browser-spec.js';
import { fitColumns, footerText, helpLines, keptColumns, lineOf, paneStatus, tabBar } from './browser-layout.js';
import { truncate } from './table-layout.js';

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
    const top = Math.min(state.detailTop, Math.max(0, lines.length - state.height));
    for (const [k, v] of lines.slice(top, top + state.height)) body.push(<Text key={body.length}>{truncate(`${k.padEnd(keyWidth)}  ${v}`, width)}</Text>);
  } else if (pane.error && rows.length === 0) {
    body.push(
      <Text key="e" color={color ? 'red' : undefined}>
        {truncate(`✗ ${pane.error}`, width)}
      </Text>,
    );
  } else if (rows.length === 0) {
    body.push(
      <Text key="empty" dimColor={color}>
        {truncate(pane.loading || (!pane.done && !pane.error) ? 'loading…' : pane.filter || pane.server ? 'nothing matches the filter' : (paneSpec.empty ?? 'nothing here'), width)}
      </Text>,
    );
  } else {
    const marked = new Set(pane.selected);
    visible.forEach((row, i) => {
      const index = pane.top + i;
      const isCursor = index === pane.cursor;
      const mark = `${isCursor ? '>' : ' '}${marked.has(row.id) ? '*' : ' '} `;
      body.push(
        <Text key={`row:${index}:${row.id}`} inverse={color && isCursor} color={color && marked.has(row.id) ? 'cyan' : undefined}>
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
          ? state.flash.plain
            ? state.flash.text
            : `${state.flash.error ? '✗' : '✓'} ${state.flash.text}`
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
