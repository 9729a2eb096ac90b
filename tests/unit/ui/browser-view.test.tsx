/** The browser's screen rendered to a string (no terminal): 80x24, markers without colour, overlays. */
import { createElement } from 'react';
import { renderToString } from 'ink';
import { describe, expect, it } from 'vitest';
import { askedLines, BrowserView, confirmBox } from '../../../src/ui/browser-view.js';
import { chromeRows, footerText, helpLines, paneTable, tabBar } from '../../../src/ui/browser-layout.js';
import type { PaneSpec } from '../../../src/ui/browser-spec.js';
import { browserReducer, initialBrowserState, initialPane, type BrowserState } from '../../../src/ui/browser-state.js';

const actions = [
  { key: 'c', label: 'Confirm', run: async () => '' },
  { key: 'd', label: 'Decline', destructive: true, run: async () => '' },
];
const spec = (n = 1): { title: string; color: boolean; panes: PaneSpec[] } => ({
  title: 'sitectl bookings',
  color: false,
  panes: Array.from({ length: n }, (_, i) => ({ id: `p${i}`, title: `Pane ${i}`, columns: ['ID', 'NAME', 'STATUS'], shapes: [{ fit: 'whole' as const }, {}, { priority: 1 }], open: () => ({ next: async () => ({ rows: [], done: true }) }), actions })),
});

function screen(state: BrowserState, n = 1, columns = 80): string[] {
  return renderToString(createElement(BrowserView, { state, spec: spec(n), columns }), { columns }).split('\n');
}

function withRows(count: number, height: number, panes = 1): BrowserState {
  let s = initialBrowserState(
    Array.from({ length: panes }, (_, i) => initialPane(`p${i}`, `Pane ${i}`, ['ID', 'NAME', 'STATUS'])),
    height,
  );
  s = browserReducer(s, { type: 'loaded', pane: 'p0', rows: Array.from({ length: count }, (_, i) => ({ id: `id${i}`, cells: [`id${i}`, `Name ${i}`, 'PENDING'] })), done: false, replace: true });
  return s;
}

describe('browser view', () => {
  it('fills an 80x24 screen exactly and draws only the visible rows of 10,000', () => {
    const height = 24 - chromeRows(1);
    const lines = screen(browserReducer(withRows(10_000, height), { type: 'move', delta: 5000 }));
    expect(lines).toHaveLength(23);
    expect(lines[0]).toMatch(/^sitectl bookings · Pane 0 · 10,000\+ loaded$/);
    expect(lines[1]).toMatch(/^ {3}ID\s+NAME\s+STATUS$/);
    const body = lines.slice(2, 2 + height);
    expect(body.filter((l) => l.startsWith('>'))).toEqual([expect.stringMatching(/^> {2}id5000\s+Name 5000\s+PENDING$/)]);
    expect(body.every((l) => /id\d+/.test(l))).toBe(true);
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    // The footer drops what does not fit, never `? help · q quit`.
    expect(lines.at(-1)).toMatch(/^c confirm · d decline · .*\? help · q quit$/);
    expect(footerText(withRows(1, 1), actions, 1)).toMatch(/\? help · q quit$/);
    for (const width of [20, 40, 60]) expect(footerText(withRows(1, 1), actions, 2, width)).toMatch(/^.{0,}\? help · q quit$/);
  });

  it('says when a sort orders only the rows loaded so far', () => {
    const sorted = browserReducer(withRows(3, 5), { type: 'sort-next' });
    expect(screen(sorted)[0]).toMatch(/sort ID ↑ \(loaded rows\)$/);
    const all = browserReducer(sorted, { type: 'loaded', pane: 'p0', rows: [], done: true, replace: false });
    expect(screen(all)[0]).toMatch(/sort ID ↑$/);
  });

  it('marks rows with * and the cursor with > when there is no colour', () => {
    let s = withRows(3, 5);
    s = browserReducer(s, { type: 'select' });
    const lines = screen(s);
    expect(lines[2]).toMatch(/^ \* id0/);
    expect(lines[3]).toMatch(/^> {2}id1/);
  });

  it('shows the tab bar with counts when there are several panes', () => {
    const lines = screen(withRows(4, 5, 3), 3);
    expect(lines[1]).toMatch(/^\[Pane 0 4\+\]│ Pane 1 … │ Pane 2 …$/);
  });

  it('draws the help overlay, the confirmation with its preview, the filter prompt and errors', () => {
    const help = screen(browserReducer(withRows(3, 30), { type: 'help', open: true })).join('\n');
    expect(help).toMatch(/d {14}decline \(asks first\)/);
    expect(helpLines({ actions, panes: 2 }).join('\n')).toMatch(/tab shift-tab/);
    // The question is drawn over the list's last rows: the rows it is about stay in view above it.
    const confirm = screen(browserReducer(withRows(3, 10), { type: 'confirm', question: 'Decline 2 bookings?', lines: ['Plan: 2 to decline'] }));
    expect(confirm[2]).toMatch(/^> {2}id0\s+Name 0\s+PENDING$/);
    expect(confirm[4]).toMatch(/^ {3}id2\s+Name 2\s+PENDING$/);
    expect(confirm[2 + 10 - 4]).toMatch(/^─{20,}$/);
    expect(confirm[2 + 10 - 3]).toBe('? Decline 2 bookings?');
    expect(confirm[2 + 10 - 2]).toBe('  (y/n)');
    expect(confirm[2 + 10 - 1]).toBe('Plan: 2 to decline');
    expect(confirm).toHaveLength(10 + chromeRows(1) - 1);
    // A full list: the question covers its last rows only.
    const full = screen(browserReducer(withRows(30, 10), { type: 'confirm', question: 'Decline 2 bookings?', lines: ['Plan: 2 to decline'] }));
    expect(full.slice(2, 2 + 6).every((l) => /^[> ] {2}id\d\s/.test(l))).toBe(true);
    const filter = screen(browserReducer(browserReducer(withRows(3, 5), { type: 'filter-start' }), { type: 'filter-edit', key: { type: 'insert', text: 'yoga' } }));
    expect(filter.at(-2)).toBe('/yoga▏');
    const moved = screen(browserReducer(browserReducer(browserReducer(withRows(3, 5), { type: 'filter-start' }), { type: 'filter-edit', key: { type: 'insert', text: 'yoga' } }), { type: 'filter-edit', key: { type: 'home' } }));
    expect(moved.at(-2)).toBe('/▏yoga');
    const failed = screen(browserReducer(withRows(0, 5), { type: 'load-failed', pane: 'p0', error: '--where: unknown field nme' }));
    expect(failed[2]).toBe('✗ --where: unknown field nme');
  });

  it('wraps a long question whole on its own lines above its (y/n), at 80 and 50 columns, never cut', () => {
    const question = 'Cancel booking 0841fa2c-7d3e-4b1a-9c55-3f2e8d1a6b70 (Deep Tissue and Hot Stone Massage for Two, Thu 22:00)?';
    for (const columns of [80, 50]) {
      const lines = screen(browserReducer(withRows(30, 12), { type: 'confirm', question, lines: ['Plan: 1 to cancel'] }), 1, columns);
      const rule = lines.findIndex((l) => /^─{20,}$/.test(l));
      const choices = lines.findIndex((l) => l === '  (y/n)');
      expect(rule).toBeGreaterThan(0);
      expect(choices).toBeGreaterThan(rule + 2);
      const asked = lines.slice(rule + 1, choices);
      expect(asked[0]).toMatch(/^\? Cancel booking/);
      for (const line of asked.slice(1)) expect(line).toMatch(/^ {2}\S/);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns);
      expect(asked.map((l) => l.trim()).join(' ')).toBe(`? ${question}`);
      expect(lines.join('\n')).not.toContain('…');
    }
    // A word longer than the line is broken over lines, not cut.
    expect(askedLines(`Delete ${'x'.repeat(60)}?`, 40)).toEqual(['? Delete', `  ${'x'.repeat(38)}`, `  ${'x'.repeat(22)}?`, '  (y/n)']);
    // A body too short for the rule keeps the question first.
    expect(confirmBox({ question, lines: ['Plan'] }, 50, 1)).toEqual(['? Cancel booking']);
  });

  it('says "disconnected — retrying (Ns)" with the reason while the source does not answer, and marks the rows stale until read again', () => {
    const down = browserReducer(withRows(3, 5), { type: 'link-down', reason: 'no answer from http://127.0.0.1:4010: connect ECONNREFUSED 127.0.0.1:4010', retryIn: 3 });
    const lines = screen(down);
    expect(lines[0]).toBe('sitectl bookings · disconnected — retrying (3s) · Pane 0 · 3+ loaded · stale');
    // The rows stay in view, under the stale title.
    expect(lines[2]).toMatch(/^> {2}id0\s+Name 0/);
    expect(lines.at(-2)).toBe('✗ no answer from http://127.0.0.1:4010: connect ECONNREFUSED 127.0.0.1:4010');
    expect(lines.at(-1)).toMatch(/r retry now · \? help · q quit$/);
    expect(screen(browserReducer(down, { type: 'link-down', reason: 'x', retryIn: 0 }))[0]).toMatch(/disconnected — retrying now/);
    // At 80 columns with a long filter the disconnection is still said.
    const narrow = screen(browserReducer(down, { type: 'link-down', reason: 'x', retryIn: 5 }), 1, 40);
    expect(narrow[0]).toMatch(/^sitectl bookings · disconnected — retr/);
    const back = browserReducer(down, { type: 'link-up', refresh: true });
    expect(screen(back)[0]).toBe('sitectl bookings · Pane 0 · 3+ loaded · stale');
    const fresh = browserReducer(back, { type: 'loaded', pane: 'p0', rows: [{ id: 'id0', cells: ['id0', 'Name 0', 'CONFIRMED'] }], done: true, replace: true });
    expect(screen(fresh)[0]).toBe('sitectl bookings · Pane 0 · 1 loaded');
    expect(screen(fresh).at(-2)).toBe('');
  });

  it('draws the strip of another pane under the active one', () => {
    let s = withRows(3, 5, 2);
    s = browserReducer(s, { type: 'loaded', pane: 'p1', rows: [{ id: 'e9', cells: ['9', 'member.approved'] }], done: true, replace: true });
    const text = renderToString(createElement(BrowserView, { state: s, spec: spec(2), columns: 60, strip: 'p1' }), { columns: 60 });
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('── Pane 1 ─'));
    expect(at).toBe(2 + 1 + 5);
    expect(lines[at + 1]).toMatch(/^ {3}9\s+member\.approved$/);
    expect(lines).toHaveLength(5 + chromeRows(2) + 7 - 1);
  });

  it('drops the highest-priority columns first on a narrow terminal, then cuts the widest, and marks the sorted column', () => {
    const rows = [{ id: 'a', cells: ['12345678', 'A very long service name indeed', 'CONFIRMED'] }];
    const pane = { ...initialPane('p', 'P', ['ID', 'NAME', 'STATUS']), rows };
    const shapes = [{ fit: 'whole' as const }, {}, { priority: 1 }];
    expect(paneTable(pane, shapes, rows, 100).plan.kept).toEqual([0, 1, 2]);
    const narrow = paneTable(pane, shapes, rows, 30);
    expect(narrow.plan.kept).toEqual([0, 1]);
    expect(narrow.header).toMatch(/^ID {8}NAME +›$/);
    expect(narrow.plan.widths).toEqual([8, 18]);
    const sorted = paneTable({ ...pane, sort: { col: 1, desc: true, server: true } }, shapes, rows, 100);
    expect(sorted.header).toMatch(/NAME↓/);
  });

  it('keeps every tab reachable and the active one whole on a narrow terminal', () => {
    const names = ['Bookings by staff', 'To confirm', 'Members to approve', 'Orders to check', 'Events'];
    let s = initialBrowserState(names.map((t, i) => initialPane(`p${i}`, t, ['ID'])), 5);
    s = browserReducer(s, { type: 'pane', delta: 4 });
    const tabs = tabBar(s, 60);
    expect(tabs.map((t) => t.text).join('│').length).toBeLessThanOrEqual(60);
    expect(tabs.filter((t) => t.active).map((t) => t.text)).toEqual(['[Events …]']);
    expect(tabs.filter((t) => !t.active && t.text !== '‹' && t.text !== '›')).toHaveLength(4);
    // Too narrow for every tab: the bar scrolls and keeps the active one in view.
    const scrolled = tabBar(s, 30);
    expect(scrolled.some((t) => t.active)).toBe(true);
    expect(scrolled[0]!.text).toBe('‹');
  });
});
