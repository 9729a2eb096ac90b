/** The interactive browser's reducer and key map, without a terminal (ink-ui's reducer pattern). */
import { describe, expect, it } from 'vitest';
import {
  actionTargets,
  browserReducer,
  compareCells,
  currentRow,
  flagTerms,
  initialBrowserState,
  initialPane,
  isServerFilter,
  searchesText,
  splitFilter,
  viewedRows,
  whereTerms,
  type BrowserAction,
  type BrowserState,
  type UiRow,
} from '../../../src/ui/browser-state.js';
import { browserKey } from '../../../src/ui/browser-keys.js';
import { paneStatus } from '../../../src/ui/browser-layout.js';

function rows(n: number, offset = 0): UiRow[] {
  return Array.from({ length: n }, (_, i) => ({ id: `id-${i + offset}`, cells: [`row ${i + offset}`, i % 2 ? 'PENDING' : 'CONFIRMED', String((i * 7) % 13)] }));
}

function loaded(n: number, height = 10): BrowserState {
  const s = initialBrowserState([initialPane('p', 'Pane', ['NAME', 'STATUS', 'N'])], height);
  return browserReducer(s, { type: 'loaded', pane: 'p', rows: rows(n), done: false, replace: true });
}

const apply = (s: BrowserState, ...actions: BrowserAction[]) => actions.reduce(browserReducer, s);

describe('browser reducer', () => {
  it('moves the cursor inside the rows and keeps it in the drawn window', () => {
    let s = loaded(50, 10);
    s = apply(s, { type: 'move', delta: -3 });
    expect(s.panes[0]!.cursor).toBe(0);
    s = apply(s, ...Array.from({ length: 12 }, () => ({ type: 'move', delta: 1 }) as const));
    expect(s.panes[0]!.cursor).toBe(12);
    expect(s.panes[0]!.top).toBe(3);
    s = apply(s, { type: 'end' });
    expect(s.panes[0]!.cursor).toBe(49);
    expect(s.panes[0]!.top).toBe(40);
    s = apply(s, { type: 'page', delta: -1 }, { type: 'home' });
    expect(s.panes[0]).toMatchObject({ cursor: 0, top: 0 });
  });

  it('appends a lazily read page and replaces the rows on a reload, dropping marks of rows that left', () => {
    let s = loaded(20);
    s = apply(s, { type: 'select' }, { type: 'select' });
    expect(s.panes[0]!.selected).toEqual(['id-0', 'id-1']);
    s = apply(s, { type: 'loaded', pane: 'p', rows: rows(20, 20), done: true, total: 40, replace: false });
    expect(s.panes[0]!.rows).toHaveLength(40);
    expect(s.panes[0]).toMatchObject({ done: true, total: 40, loading: false });
    s = apply(s, { type: 'loaded', pane: 'p', rows: rows(5, 1), done: true, replace: true });
    expect(s.panes[0]!.selected).toEqual(['id-1']);
  });

  it('space marks and unmarks; actions apply to the marks, else the row under the cursor', () => {
    let s = loaded(5);
    expect(actionTargets(s)).toEqual(['id-0']);
    s = apply(s, { type: 'select' }, { type: 'move', delta: 1 }, { type: 'select' });
    expect(actionTargets(s)).toEqual(['id-0', 'id-2']);
    s = apply(s, { type: 'move', delta: -1 }, { type: 'select' });
    expect(actionTargets(s)).toEqual(['id-0']);
    s = apply(s, { type: 'clear-selection' });
    expect(actionTargets(s)).toEqual([currentRow(s)!.id]);
  });

  it('filters loaded rows by text and sends field=value filters to the server', () => {
    let s = loaded(30);
    s = apply(s, { type: 'filter-start' }, { type: 'filter-edit', key: { type: 'insert', text: 'row 2' } }, { type: 'filter-submit' });
    expect(s.mode).toBe('list');
    expect(viewedRows(s.panes[0]!).map((r) => r.cells[0])).toEqual(['row 2', 'row 20', 'row 21', 'row 22', 'row 23', 'row 24', 'row 25', 'row 26', 'row 27', 'row 28', 'row 29']);
    expect(s.panes[0]!.reload).toBe(0);
    s = apply(s, { type: 'filter-start' });
    expect(s.input).toEqual({ text: 'row 2', cursor: 5 });
    s = apply(s, { type: 'filter-edit', key: { type: 'erase-start' } }, { type: 'filter-edit', key: { type: 'insert', text: 'status=PENDING' } }, { type: 'filter-submit' });
    expect(s.panes[0]).toMatchObject({ filter: '', server: 'status=PENDING', reload: 1 });
    expect(s.panes[0]!.rows).toEqual([]);
    s = apply(s, { type: 'filter-start' }, { type: 'filter-cancel' });
    expect(s.panes[0]!.server).toBe('status=PENDING');
  });

  it('splits a typed filter into its field=value terms and its text, dropping neither', () => {
    expect(splitFilter('status=APPROVED Marí')).toEqual({ server: 'status=APPROVED', text: 'Marí' });
    expect(splitFilter('Marí  de la  status=APPROVED contact.lastName="van Dyke" Cruz')).toEqual({ server: 'status=APPROVED contact.lastName="van Dyke"', text: 'Marí de la Cruz' });
    expect(splitFilter('Żółkiewska')).toEqual({ server: '', text: 'Żółkiewska' });
    // `=` inside a word of text is text: the term starts a word.
    expect(splitFilter('a+b=c')).toEqual({ server: '', text: 'a+b=c' });
  });

  it("takes the list's own flags as typed (--status A,B --from today) as server terms, beside field=value and the text", () => {
    const typed = splitFilter('--status CONFIRMED,PENDING Marí --service "Hot Stone" status=X --from today');
    expect(typed).toEqual({ server: '--status CONFIRMED,PENDING --service "Hot Stone" status=X --from today', text: 'Marí' });
    expect(flagTerms(typed.server)).toEqual([
      ['status', 'CONFIRMED,PENDING'],
      ['service', 'Hot Stone'],
      ['from', 'today'],
    ]);
    // The flags are not --where conditions.
    expect(whereTerms(typed.server)).toEqual(['status=X']);
    // A flag without its value is kept, to be refused with its name, not read as text.
    expect(flagTerms(splitFilter('--from today --status').server)).toEqual([
      ['from', 'today'],
      ['status', undefined],
    ]);
  });

  it('a mixed filter sends its terms to the server and filters the loaded rows by its text; the / line shows what was typed', () => {
    let s = loaded(30);
    s = apply(s, { type: 'filter-start' }, { type: 'filter-edit', key: { type: 'insert', text: 'status=PENDING row 2' } }, { type: 'filter-submit' });
    expect(s.panes[0]).toMatchObject({ server: 'status=PENDING', filter: 'row 2', typed: 'status=PENDING row 2', reload: 1, rows: [] });
    s = apply(s, { type: 'loaded', pane: 'p', rows: rows(30), done: false, total: 302, replace: true });
    expect(viewedRows(s.panes[0]!).map((r) => r.cells[0])).toEqual(['row 2', 'row 20', 'row 21', 'row 22', 'row 23', 'row 24', 'row 25', 'row 26', 'row 27', 'row 28', 'row 29']);
    // The text on this pane looks at the loaded rows only, and the status line says so.
    expect(paneStatus(s.panes[0]!)).toBe('11 of 30 loaded · 302 in all · filter "row 2" (loaded rows only) · where status=PENDING');
    s = apply(s, { type: 'filter-start' });
    expect(s.input.text).toBe('status=PENDING row 2');
    // Only the text changes: the loaded rows stay, no read.
    s = apply(s, { type: 'filter-edit', key: { type: 'insert', text: '1' } }, { type: 'filter-submit' });
    expect(s.panes[0]).toMatchObject({ server: 'status=PENDING', filter: 'row 21', reload: 1 });
  });

  it('on a pane whose server searches only some text (a whole e-mail), that text reads the pane again and other text filters the loaded rows', () => {
    const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
    let s = initialBrowserState([initialPane('p', 'Pane', ['NAME', 'STATUS', 'N'], [], undefined, '', true, email)], 10);
    s = apply(s, { type: 'loaded', pane: 'p', rows: rows(100), done: false, total: 302, replace: true });
    // A name: the loaded rows, no read, and the status line says so.
    s = apply(s, { type: 'filter-start' }, { type: 'filter-edit', key: { type: 'insert', text: 'row 7' } }, { type: 'filter-submit' });
    expect(searchesText(s.panes[0]!)).toBe(false);
    expect(s.panes[0]).toMatchObject({ filter: 'row 7', reload: 0 });
    expect(viewedRows(s.panes[0]!).map((r) => r.cells[0])).toEqual(['row 7', ...Array.from({ length: 10 }, (_, i) => `row ${70 + i}`)]);
    expect(paneStatus(s.panes[0]!)).toBe('11 of 100 loaded · 302 in all · filter "row 7" (loaded rows only)');
    // A whole address: the server searches it, over every page; its match is not looked for again in the cells.
    s = apply(s, { type: 'filter-start' }, { type: 'filter-edit', key: { type: 'erase-start' } }, { type: 'filter-edit', key: { type: 'insert', text: 'ada@example.com' } }, { type: 'filter-submit' });
    expect(searchesText(s.panes[0]!)).toBe(true);
    expect(s.panes[0]).toMatchObject({ filter: 'ada@example.com', reload: 1, rows: [] });
    s = apply(s, { type: 'loaded', pane: 'p', rows: rows(2, 250), done: true, total: 2, replace: true });
    expect(viewedRows(s.panes[0]!)).toHaveLength(2);
    expect(paneStatus(s.panes[0]!)).toBe('2 loaded · search "ada@example.com"');
    // Back to a name: the server's rows do not stand for it, the pane is read again.
    s = apply(s, { type: 'filter-start' }, { type: 'filter-edit', key: { type: 'erase-start' } }, { type: 'filter-edit', key: { type: 'insert', text: 'row' } }, { type: 'filter-submit' });
    expect(s.panes[0]).toMatchObject({ filter: 'row', reload: 2, rows: [] });
  });

  it('on a pane whose server searches text, a new text reads the pane again and the rows are not filtered again here', () => {
    let s = initialBrowserState([initialPane('p', 'Pane', ['NAME', 'STATUS', 'N'], [], undefined, '', true)], 10);
    s = apply(s, { type: 'loaded', pane: 'p', rows: rows(200), done: false, total: 302, replace: true });
    expect(paneStatus(s.panes[0]!)).toBe('200 of 302 loaded');
    s = apply(s, { type: 'filter-start' }, { type: 'filter-edit', key: { type: 'insert', text: 'Żółkiewska' } }, { type: 'filter-submit' });
    expect(s.panes[0]).toMatchObject({ server: '', filter: 'Żółkiewska', reload: 1, rows: [] });
    // The server's match is shown whatever cell it matched in (a nickname not in a column).
    s = apply(s, { type: 'loaded', pane: 'p', rows: rows(1, 250), done: true, total: 1, replace: true });
    expect(viewedRows(s.panes[0]!)).toHaveLength(1);
    expect(paneStatus(s.panes[0]!)).toBe('1 loaded · search "Żółkiewska"');
    // The same text again is no new read.
    s = apply(s, { type: 'filter-start' }, { type: 'filter-submit' });
    expect(s.panes[0]!.reload).toBe(1);
  });

  it('counts with the platform\'s total: 300 of 6,727 loaded', () => {
    let s = loaded(0);
    s = apply(s, { type: 'loaded', pane: 'p', rows: rows(300), done: true, total: 6727, replace: true });
    expect(paneStatus(s.panes[0]!)).toBe('300 of 6,727 loaded');
    s = apply(s, { type: 'filter-start' }, { type: 'filter-edit', key: { type: 'insert', text: 'row 29' } }, { type: 'filter-submit' });
    // Every page read, but not every row: the text still looks at the loaded rows only.
    expect(paneStatus(s.panes[0]!)).toBe('11 of 300 loaded · 6,727 in all · filter "row 29" (loaded rows only)');
  });

  it('sorts loaded rows by column (numbers as numbers), flips, and cycles back to the platform order', () => {
    let s = loaded(13);
    s = apply(s, { type: 'sort-next' }, { type: 'sort-next' }, { type: 'sort-next' });
    expect(viewedRows(s.panes[0]!).map((r) => Number(r.cells[2]))).toEqual([...Array(13).keys()]);
    s = apply(s, { type: 'sort-flip' });
    expect(Number(viewedRows(s.panes[0]!)[0]!.cells[2])).toBe(12);
    s = apply(s, { type: 'sort-next' });
    expect(s.panes[0]!.sort).toBeUndefined();
    expect(viewedRows(s.panes[0]!)[0]!.id).toBe('id-0');
    expect(compareCells('10', '9')).toBeGreaterThan(0);
    expect(compareCells('b', 'a')).toBeGreaterThan(0);
  });

  it('sorts on the server by a column it can sort by: the pane is read again in that order, over every page', () => {
    let s = initialBrowserState([initialPane('p', 'Pane', ['NAME', 'STATUS', 'N'], [true, false, true])], 10);
    s = apply(s, { type: 'loaded', pane: 'p', rows: rows(20), done: false, replace: true });
    s = apply(s, { type: 'sort-flip' });
    expect(s.panes[0]).toMatchObject({ sort: { col: 0, desc: true, server: true }, serverSort: { col: 0, desc: true }, reload: 1, rows: [], done: false });
    // The server's order is kept as it comes: no client-side sort on top of it.
    s = apply(s, { type: 'loaded', pane: 'p', rows: rows(3), done: false, replace: true });
    expect(viewedRows(s.panes[0]!).map((r) => r.id)).toEqual(['id-0', 'id-1', 'id-2']);
    expect(paneStatus(s.panes[0]!)).toMatch(/sort NAME ↓$/);
    // STATUS is not sortable on the server: the loaded rows are sorted, and the status line says so.
    s = apply(s, { type: 'sort-next' });
    expect(s.panes[0]).toMatchObject({ sort: { col: 1, desc: false, server: false }, serverSort: { col: 0, desc: true }, reload: 1 });
    expect(viewedRows(s.panes[0]!).map((r) => r.cells[1])).toEqual(['CONFIRMED', 'CONFIRMED', 'PENDING']);
    expect(paneStatus(s.panes[0]!)).toMatch(/sort STATUS ↑ \(loaded rows\)$/);
    s = apply(s, { type: 'sort-next' });
    expect(s.panes[0]).toMatchObject({ sort: { col: 2, server: true }, serverSort: { col: 2, desc: false }, reload: 2 });
    // Past the last column: back to the command's own order, read again.
    s = apply(s, { type: 'sort-next' });
    expect(s.panes[0]).toMatchObject({ sort: undefined, serverSort: undefined, reload: 3 });
    // The command's --sort shows as the pane's first sort when it is a sortable column.
    expect(initialPane('p', 'P', ['A', 'B'], [false, true], { col: 1, desc: true })).toMatchObject({ sort: { col: 1, desc: true, server: true }, serverSort: { col: 1, desc: true } });
    expect(initialPane('p', 'P', ['A', 'B'], [false, true], { col: 0, desc: true }).sort).toBeUndefined();
  });

  it('keeps the cursor on its row when a reload brings rows above it, and on the first row follows the newest', () => {
    const ev = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ id: String(to - i), cells: [String(to - i)] }));
    let s = initialBrowserState([initialPane('e', 'Events', ['SEQ'])], 5);
    s = apply(s, { type: 'loaded', pane: 'e', rows: ev(0, 10), done: true, replace: true }, { type: 'move', delta: 2 });
    expect(currentRow(s)!.id).toBe('8');
    s = apply(s, { type: 'loaded', pane: 'e', rows: ev(0, 13), done: true, replace: true });
    expect(currentRow(s)!.id).toBe('8');
    expect(s.panes[0]).toMatchObject({ cursor: 5, top: 3 });
    s = apply(s, { type: 'home' }, { type: 'loaded', pane: 'e', rows: ev(0, 14), done: true, replace: true });
    expect(currentRow(s)!.id).toBe('14');
    // While the first row's details are open, it stays the row shown.
    s = apply(s, { type: 'detail', open: true }, { type: 'loaded', pane: 'e', rows: ev(0, 16), done: true, replace: true });
    expect(currentRow(s)!.id).toBe('14');
  });

  it('scrolls a detail view longer than the screen, within its lines', () => {
    let s = apply(loaded(3, 5), { type: 'detail', open: true }, { type: 'detail-loaded', lines: 12 });
    s = apply(s, { type: 'detail-scroll', delta: 3 });
    expect(s.detailTop).toBe(3);
    s = apply(s, { type: 'detail-scroll', delta: Infinity });
    expect(s.detailTop).toBe(7);
    s = apply(s, { type: 'detail-scroll', delta: -Infinity });
    expect(s.detailTop).toBe(0);
    expect(browserKey(s, 'j', {}, { actions: [] })).toEqual({ kind: 'actions', actions: [{ type: 'detail-scroll', delta: 1 }] });
    expect(browserKey(s, '', { pageDown: true }, { actions: [] })).toEqual({ kind: 'actions', actions: [{ type: 'detail-scroll', delta: 5 }] });
    s = apply(s, { type: 'detail', open: false }, { type: 'detail', open: true });
    expect(s).toMatchObject({ detailTop: 0, detailLength: 0 });
  });

  it('keeps 10,000 rows cheap: the viewed rows are computed once per rows, filter and sort', () => {
    let s = loaded(0);
    s = apply(s, { type: 'loaded', pane: 'p', rows: rows(10_000), done: true, replace: true }, { type: 'sort-next' });
    const first = viewedRows(s.panes[0]!);
    const t = performance.now();
    for (let i = 0; i < 1000; i++) s = browserReducer(s, { type: 'move', delta: 1 });
    expect(viewedRows(s.panes[0]!)).toBe(first);
    expect(s.panes[0]!.cursor).toBe(1000);
    expect(performance.now() - t).toBeLessThan(2000);
  });

  it('switches panes with tab and shift-tab, wrapping around', () => {
    let s = initialBrowserState([initialPane('a', 'A', ['X']), initialPane('b', 'B', ['X']), initialPane('c', 'C', ['X'])], 5);
    s = apply(s, { type: 'pane', delta: -1 });
    expect(s.active).toBe(2);
    s = apply(s, { type: 'pane', delta: 1 }, { type: 'pane', delta: 1 });
    expect(s.active).toBe(1);
  });

  it('refresh bumps the reload counter of one pane or all; resize re-places the window', () => {
    let s = initialBrowserState([initialPane('a', 'A', ['X']), initialPane('b', 'B', ['X'])], 5);
    s = apply(s, { type: 'refresh', pane: 'b' });
    expect(s.panes.map((p) => p.reload)).toEqual([0, 1]);
    s = apply(s, { type: 'refresh' });
    expect(s.panes.map((p) => p.reload)).toEqual([1, 2]);
    let t = apply(loaded(40, 20), { type: 'move', delta: 15 });
    t = apply(t, { type: 'resize', height: 5 });
    expect(t.height).toBe(5);
    expect(t.panes[0]!.top).toBe(11);
  });

  it('link down marks every pane stale and keeps its rows; a read failing meanwhile changes nothing shown; link up reads every pane again', () => {
    let s = initialBrowserState([initialPane('a', 'A', ['NAME', 'STATUS', 'N']), initialPane('b', 'B', ['X'])], 10, true);
    s = apply(s, { type: 'loaded', pane: 'a', rows: rows(4), done: true, replace: true });
    expect(s.link).toEqual({ up: true });
    s = apply(s, { type: 'link-down', reason: 'no answer from http://127.0.0.1:4010: connect ECONNREFUSED', retryIn: 2 });
    expect(s.link).toEqual({ up: false, reason: 'no answer from http://127.0.0.1:4010: connect ECONNREFUSED', retryIn: 2 });
    expect(s.panes.map((p) => p.stale)).toEqual([true, true]);
    expect(s.panes[0]!.rows).toHaveLength(4);
    expect(paneStatus(s.panes[0]!)).toBe('4 loaded · stale');
    // The pane's own read fails too while down: the rows stay, stale, with no second error.
    s = apply(s, { type: 'loading', pane: 'a' }, { type: 'load-failed', pane: 'a', error: 'System error occurred (connect ECONNREFUSED)' });
    expect(s.panes[0]).toMatchObject({ loading: false, stale: true, error: undefined });
    expect(s.panes[0]!.rows).toHaveLength(4);
    // A page read while down does not make the rows fresh.
    s = apply(s, { type: 'loaded', pane: 'b', rows: [], done: true, replace: true });
    expect(s.panes[1]!.stale).toBe(true);
    s = apply(s, { type: 'link-down', reason: 'same', retryIn: 1 });
    expect(s.link).toMatchObject({ up: false, retryIn: 1 });
    // Back: every pane is read again; each stays stale until its whole read arrives.
    const reloads = s.panes.map((p) => p.reload);
    s = apply(s, { type: 'link-up', refresh: true });
    expect(s.link).toEqual({ up: true });
    expect(s.panes.map((p) => p.reload)).toEqual(reloads.map((r) => r + 1));
    expect(s.panes.map((p) => p.stale)).toEqual([true, true]);
    s = apply(s, { type: 'loaded', pane: 'a', rows: rows(2), done: true, replace: true });
    expect(s.panes.map((p) => p.stale)).toEqual([false, true]);
    // Up without a forced refresh: nothing to do.
    expect(apply(s, { type: 'link-up', refresh: false })).toBe(s);
    // Up, a read failure shows as it is.
    s = apply(s, { type: 'load-failed', pane: 'b', error: '--where: unknown field nme' });
    expect(s.panes[1]!.error).toBe('--where: unknown field nme');
  });

  it('r on a linked view asks for a relink (the address looked up again, then every pane read); on another view it refreshes', () => {
    const linked = initialBrowserState([initialPane('a', 'A', ['X'])], 5, true);
    expect(browserKey(linked, 'r', {}, { actions: [] })).toEqual({ kind: 'actions', actions: [{ type: 'relink' }] });
    expect(apply(linked, { type: 'relink' }, { type: 'relink' }).relink).toBe(2);
    expect(browserKey(initialBrowserState([initialPane('a', 'A', ['X'])], 5), 'r', {}, { actions: [] })).toEqual({ kind: 'actions', actions: [{ type: 'refresh' }] });
  });

  it('confirm, busy and progress states', () => {
    let s = loaded(3);
    s = apply(s, { type: 'confirm', question: 'Decline 2 bookings?', lines: ['a', 'b'] });
    expect(s.mode).toBe('confirm');
    s = apply(s, { type: 'confirm-done' }, { type: 'busy', title: 'Declining', total: 2 }, { type: 'progress', done: 1, total: 2, failed: 0 });
    expect(s).toMatchObject({ mode: 'busy', progress: { done: 1, total: 2 } });
    s = apply(s, { type: 'idle' }, { type: 'flash', text: 'done' });
    expect(s).toMatchObject({ mode: 'list', flash: { text: 'done', error: false } });
  });
});

describe('browser keys', () => {
  const s = loaded(5);
  it('maps keys per mode', () => {
    expect(browserKey(s, 'j', {}, { actions: [] })).toEqual({ kind: 'actions', actions: [{ type: 'move', delta: 1 }] });
    expect(browserKey(s, '', { upArrow: true }, { actions: [] })).toEqual({ kind: 'actions', actions: [{ type: 'move', delta: -1 }] });
    expect(browserKey(s, '', { tab: true, shift: true }, { actions: [] })).toEqual({ kind: 'actions', actions: [{ type: 'pane', delta: -1 }] });
    expect(browserKey(s, 'c', {}, { actions: ['c', 'd'] })).toEqual({ kind: 'run', key: 'c' });
    expect(browserKey(s, 'c', {}, { actions: [] })).toEqual({ kind: 'none' });
    expect(browserKey(s, 'q', {}, { actions: [] })).toEqual({ kind: 'quit', interrupted: false });
    expect(browserKey(s, 'c', { ctrl: true }, { actions: ['c'] })).toEqual({ kind: 'quit', interrupted: true });
    const confirm = apply(s, { type: 'confirm', question: 'q', lines: [] });
    expect(browserKey(confirm, 'y', {}, { actions: [] })).toEqual({ kind: 'answer', yes: true });
    expect(browserKey(confirm, '', { escape: true }, { actions: [] })).toEqual({ kind: 'answer', yes: false });
    expect(browserKey(confirm, 'j', {}, { actions: [] })).toEqual({ kind: 'none' });
    const busy = apply(s, { type: 'busy', title: 't', total: 1 });
    expect(browserKey(busy, 'q', {}, { actions: [] })).toEqual({ kind: 'none' });
  });

  it('types a pasted filter and submits on a trailing newline', () => {
    const f = apply(s, { type: 'filter-start' });
    expect(browserKey(f, 'status=PENDING\r', {}, { actions: [] })).toEqual({
      kind: 'actions',
      actions: [{ type: 'filter-edit', key: { type: 'insert', text: 'status=PENDING' } }, { type: 'filter-submit' }],
    });
    expect(browserKey(f, 'q', {}, { actions: [] })).toEqual({ kind: 'actions', actions: [{ type: 'filter-edit', key: { type: 'insert', text: 'q' } }] });
  });

  it('applies two Backspaces that arrive in one chunk as two key presses', () => {
    let f = apply(s, { type: 'filter-start' });
    const typed = browserKey(f, 'yogax', {}, { actions: [] });
    if (typed.kind !== 'actions') throw new Error('no actions');
    f = apply(f, ...typed.actions);
    // Ink hands "\x7f\x7f" (two Backspaces in one read) over as one input with no key flag.
    const erased = browserKey(f, '\x7f\x7f', {}, { actions: [] });
    if (erased.kind !== 'actions') throw new Error('no actions');
    f = apply(f, ...erased.actions);
    expect(f.input).toEqual({ text: 'yog', cursor: 3 });
  });

  it('tells server filters from text and splits them into --where terms', () => {
    expect(isServerFilter('status=PENDING')).toBe(true);
    expect(isServerFilter('yoga')).toBe(false);
    expect(isServerFilter('=x')).toBe(false);
    expect(whereTerms('status=PENDING contactDetails.lastName="van Dyke"')).toEqual(['status=PENDING', 'contactDetails.lastName="van Dyke"']);
  });
});
