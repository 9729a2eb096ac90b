/**
 * The browser's keys as declared (browser-keys.ts): no two keys of a view collide, whether the list's own, the
 * Shift-letter column sorts, `:` or the noun's single-key actions, read from the nouns' declarations (bookingKeys,
 * memberKeys, orderKeys) with the columns of their lists and dashboard panes; the key map does what is declared,
 * `?` lists every key bound, `:` completes and jumps, and a message about the disconnection goes on reconnect.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import type { Context } from '../../../src/context.js';
import { paneColumns } from '../../../src/commands/shared/browse.js';
import type { KeyedVerb } from '../../../src/commands/shared/entity-view.js';
import type { ReadSpec } from '../../../src/commands/shared/verbs.js';
import type { WorkLists } from '../../../src/commands/shared/work-lists.js';
import { browsableNouns } from '../../../src/commands/noun-list.js';
import { bookingKeys } from '../../../src/commands/bookings/shared/transitions.js';
import { memberKeys } from '../../../src/commands/members/shared/transitions.js';
import { orderKeys } from '../../../src/commands/orders/shared/transitions.js';
import { BOOKING_READS } from '../../../src/commands/bookings/shared/reads.js';
import { MEMBER_READS } from '../../../src/commands/members/shared/reads.js';
import { ORDER_READS } from '../../../src/commands/orders/shared/reads.js';
import { SERVICE_READS } from '../../../src/commands/services/shared/reads.js';
import { PLAN_READS } from '../../../src/commands/plans/shared/reads.js';
import { STAFF_READS } from '../../../src/commands/staff/shared/reads.js';
import { ATTENDANCE_READS } from '../../../src/commands/attendance/shared/reads.js';
import { workLists as bookingLists } from '../../../src/commands/bookings/shared/work-lists.js';
import { workLists as memberLists } from '../../../src/commands/members/shared/work-lists.js';
import { workLists as orderLists } from '../../../src/commands/orders/shared/work-lists.js';
import { boundKeys, browserKey, inScope, LIST_KEYS, OWN_CHARS, sortKeys, type ViewKeys } from '../../../src/ui/browser-keys.js';
import { footerText, headerKeyOffsets, helpLines, paneTable } from '../../../src/ui/browser-layout.js';
import { browserReducer, initialBrowserState, initialPane, viewedRows, type BrowserAction, type BrowserState } from '../../../src/ui/browser-state.js';
import { completeWord, completions } from '../../../src/ui/line-edit.js';

const apply = (s: BrowserState, ...actions: BrowserAction[]) => actions.reduce(browserReducer, s);

/** The columns `NOUN list --interactive` shows, as the list verb picks them. */
function listHeaders(reads: ReadSpec<never>): string[] {
  const columns = (reads as { columns?(o: object): ReadSpec<never>['view']['columns'] }).columns?.({}) ?? reads.view.columns;
  return paneColumns(columns).columns;
}

/** Every browsable noun's list with the keys its list declares (none for the nouns without transitions). */
async function nounLists(): Promise<Array<{ noun: string; columns: string[]; verbs: KeyedVerb[] }>> {
  const reads: Record<string, [ReadSpec<never>, KeyedVerb[]]> = {
    services: [SERVICE_READS as ReadSpec<never>, []],
    bookings: [BOOKING_READS as ReadSpec<never>, await bookingKeys()],
    attendance: [ATTENDANCE_READS as ReadSpec<never>, []],
    staff: [STAFF_READS as ReadSpec<never>, []],
    members: [MEMBER_READS as ReadSpec<never>, memberKeys()],
    plans: [PLAN_READS as ReadSpec<never>, []],
    orders: [ORDER_READS as ReadSpec<never>, orderKeys()],
  };
  // Every browsable noun is here, so a new one is not left out of the rule.
  expect(Object.keys(reads).sort()).toEqual(browsableNouns().map((n) => n.name).sort());
  return Object.entries(reads).map(([noun, [spec, verbs]]) => ({ noun, columns: listHeaders(spec), verbs }));
}

/** The dashboard's panes as the nouns declare them (their columns and actions), built without a site. */
async function dashboardPanes() {
  const setting = { ctx: { now: () => new Date() } as unknown as Context, api: {} as ApiClient, zone: 'UTC', days: 7 };
  const lists = await Promise.all(([bookingLists, memberLists, orderLists] as WorkLists[]).map((w) => w(setting)));
  return lists.flat().map((w) => w.pane);
}

/** The keys of a view as the browser binds them in its list. */
function viewKeys(columns: readonly string[], actions: readonly string[], jump = true): ViewKeys {
  return { actions, sorts: sortKeys(columns, actions), words: jump ? ['members', 'member'] : undefined };
}

function duplicates(keys: readonly string[]): string[] {
  return keys.filter((k, i) => keys.indexOf(k) !== i);
}

describe('the keys of a view never collide', () => {
  it("the list's own keys, ':' among them, and the nouns' declared verb keys (bookings c/d/x/a, members a/b, orders p/u/m)", async () => {
    const verbs = [...(await bookingKeys()), ...memberKeys(), ...orderKeys()];
    expect(OWN_CHARS).toContain(':');
    expect(duplicates(OWN_CHARS)).toEqual([]);
    for (const v of verbs) expect(OWN_CHARS, `${v.label} (${v.key})`).not.toContain(v.key);
  });

  it("every noun's list: its own keys, ':' and the Shift-letter sort of each column and the noun's verb keys, all distinct", async () => {
    for (const { noun, columns, verbs } of await nounLists()) {
      const actions = verbs.map((v) => v.key);
      const keys = boundKeys(viewKeys(columns, actions), 1);
      expect(duplicates(keys), `${noun}: ${keys.join(' ')}`).toEqual([]);
      expect(keys).toContain(':');
      for (const a of actions) expect(keys).toContain(a);
      // A column sorts by a letter of its header, upper-case (Shift), never one the view's keys already take.
      const sorts = sortKeys(columns, actions);
      sorts.forEach((k, i) => {
        if (k === undefined) return;
        expect(k, `${noun} ${columns[i]}`).toMatch(/^[A-Z]$/);
        expect(columns[i]!.toUpperCase()).toContain(k);
      });
      // Each column whose header has a letter left gets one: the first ones always.
      expect(sorts[0], noun).toBeDefined();
    }
  });

  it("every pane of the dashboard: the same rule with the pane's declared actions", async () => {
    const panes = await dashboardPanes();
    expect(panes.length).toBeGreaterThanOrEqual(4);
    for (const pane of panes) {
      const actions = (pane.actions ?? []).map((a) => a.key);
      const keys = boundKeys(viewKeys(pane.columns, actions), panes.length + 1);
      expect(duplicates(keys), `${pane.title}: ${keys.join(' ')}`).toEqual([]);
    }
  });

  it('takes the first free letter of each header, skipping the view keys G and S and the actions', () => {
    expect(sortKeys(['START', 'SERVICE', 'CONTACT', 'STATUS', 'ID'], ['c', 'd', 'x', 'a'])).toEqual(['T', 'E', 'C', 'A', 'I']);
    expect(sortKeys(['NAME', 'NOTE', 'NN'])).toEqual(['N', 'O', undefined]);
    expect(sortKeys(['SEQ', 'TIME (UTC)', 'TYPE', 'ENTITY'])).toEqual(['E', 'T', 'Y', 'N']);
    // An upper-case action key is taken as well.
    expect(sortKeys(['NAME'], ['N'])).toEqual(['A']);
    expect(sortKeys(['GS', '#'])).toEqual([undefined, undefined]);
  });
});

describe('the key map reads the declarations', () => {
  const columns = ['NAME', 'STATUS', 'N'];
  const state = () => {
    const s = initialBrowserState([initialPane('p', 'P', columns, [true, false, false])], 10);
    return browserReducer(s, { type: 'loaded', pane: 'p', rows: [3, 1, 2].map((n) => ({ id: `r${n}`, cells: [`row ${n}`, n % 2 ? 'PENDING' : 'CONFIRMED', String(n)] })), done: true, replace: true });
  };

  it('each character of each declared key does what is declared, in scope only', () => {
    const s = state();
    const view = viewKeys(columns, ['c']);
    for (const k of LIST_KEYS) for (const [ch, does] of Object.entries(k.chars)) expect(browserKey(s, ch, {}, view), `${k.name} ${ch}`).toEqual(does(s));
    // Out of scope: `:` without a jump, space without actions.
    expect(browserKey(s, ':', {}, viewKeys(columns, ['c'], false))).toEqual({ kind: 'none' });
    expect(browserKey(s, ' ', {}, viewKeys(columns, []))).toEqual({ kind: 'none' });
    expect(LIST_KEYS.filter((k) => inScope(k, { actions: [] }, 1)).map((k) => k.name)).not.toContain(':');
  });

  it('Shift and a column letter sorts by that column ascending, again descending, by the server where the pane can', () => {
    let s = state();
    const view = viewKeys(columns, []);
    expect(view.sorts).toEqual(['N', 'T', undefined]);
    const press = (ch: string) => {
      const out = browserKey(s, ch, { shift: true }, view);
      if (out.kind !== 'actions') throw new Error(`${ch}: ${out.kind}`);
      s = apply(s, ...out.actions);
    };
    press('T');
    expect(s.panes[0]!.sort).toEqual({ col: 1, desc: false, server: false });
    expect(viewedRows(s.panes[0]!).map((r) => r.cells[1])).toEqual(['CONFIRMED', 'PENDING', 'PENDING']);
    press('T');
    expect(s.panes[0]!.sort).toEqual({ col: 1, desc: true, server: false });
    // NAME is sortable on the server: the pane is read again in that order.
    const reload = s.panes[0]!.reload;
    press('N');
    expect(s.panes[0]).toMatchObject({ sort: { col: 0, desc: false, server: true }, serverSort: { col: 0, desc: false }, reload: reload + 1 });
    press('N');
    expect(s.panes[0]).toMatchObject({ sort: { col: 0, desc: true, server: true }, reload: reload + 2 });
    // s still cycles, S still reverses.
    s = apply(s, { type: 'sort-next' });
    expect(s.panes[0]!.sort).toMatchObject({ col: 1, desc: false });
    expect(browserKey(s, 'S', { shift: true }, view)).toEqual({ kind: 'actions', actions: [{ type: 'sort-flip' }] });
  });

  it('marks each column letter in the header: offsets of the letters shown, the sorted column with its arrow', () => {
    const s = apply(state(), { type: 'sort-by', col: 1 });
    const pane = s.panes[0]!;
    const table = paneTable(pane, undefined, pane.rows, 60);
    const sorts = sortKeys(columns);
    expect(table.header).toMatch(/^NAME +STATUS↑ +N$/);
    expect(headerKeyOffsets(table, sorts).map((at) => table.header[at])).toEqual(['N', 'T']);
  });

  it('? lists every key bound in the view: its own keys in scope, each column letter with its column, and the actions', () => {
    const actions = [
      { key: 'c', label: 'Confirm', run: async () => '' },
      { key: 'x', label: 'Cancel', destructive: true, run: async () => '' },
    ];
    const view = viewKeys(columns, ['c', 'x']);
    const text = helpLines({ actions, panes: 2, columns, sorts: view.sorts, jump: true }, 80).join('\n');
    for (const k of LIST_KEYS) expect(text).toContain(`  ${k.name} `);
    expect(text).toMatch(/shift-letter +sort by that column, again reverses: N NAME, T STATUS/);
    expect(text).toMatch(/^ {2}c {14}confirm$/m);
    expect(text).toMatch(/^ {2}x {14}cancel \(asks first\)$/m);
    // Every character key bound is named in the help.
    const named = new Set(text.split('\n').flatMap((l) => (/^ {2}(\S.{0,13})/.exec(l)?.[1] ?? '').trim().split(/\s+/)));
    for (const key of boundKeys(view, 2)) if (!view.sorts!.includes(key)) expect(named.has(key === ' ' ? 'space' : key), JSON.stringify(key)).toBe(true);
    // Without a jump there is no `:`; with one pane no tab.
    const plain = helpLines({ actions: [], panes: 1 }, 80).join('\n');
    expect(plain).not.toMatch(/^ {2}: /m);
    expect(plain).not.toMatch(/tab shift-tab/);
    // What free text after / does: the fields the server searches, the part of the text it can, or the loaded rows.
    expect(plain).toMatch(/free text filters the loaded rows, reading on to the last page/);
    // A pane that has read all it will show (a dashboard pane's capped read) does not promise to read on.
    const capped = helpLines({ actions: [], panes: 1, done: true }, 200).join('\n');
    expect(capped).toMatch(/free text filters the loaded rows \(this list's query searches no text\)/);
    expect(capped).not.toMatch(/reading on/);
    const members = helpLines({ actions: [], panes: 1, search: { what: 'names, nickname and login e-mail' } }, 200).join('\n');
    expect(members).toMatch(/^ {17}free text is searched on the server, over every page, in: names, nickname and login e-mail$/m);
    const bookings = helpLines({ actions: [], panes: 1, search: { what: 'a whole contact e-mail', when: /@/ } }, 200).join('\n');
    expect(bookings).toMatch(/free text: a whole contact e-mail is searched on the server; other text filters the loaded rows/);
  });
});

describe('the help overlay', () => {
  it('scrolls with the overlay keys, G before its length is known included (? G read in one chunk)', () => {
    let s = initialBrowserState([initialPane('p', 'P', ['NAME'])], 5);
    for (const ch of '?G') {
      const out = browserKey(s, ch, {}, { actions: [] });
      if (out.kind !== 'actions') throw new Error(out.kind);
      s = apply(s, ...out.actions);
    }
    expect(s.mode).toBe('help');
    s = apply(s, { type: 'detail-loaded', lines: 30 });
    expect(s.detailTop).toBe(25);
    s = apply(s, { type: 'detail-scroll', delta: -1 });
    expect(s.detailTop).toBe(24);
    expect(footerText(s, [], 1)).toBe('esc close · ↑↓ pgup pgdn scroll');
    expect(browserKey(s, 'q', {}, { actions: [] })).toEqual({ kind: 'actions', actions: [{ type: 'help', open: false }] });
  });
});

describe('the : line', () => {
  const words = ['services', 'service', 'bookings', 'booking', 'staff', 'members', 'member', 'plans', 'plan'];

  it('completes to the common prefix, then the next word; lists the words the text starts', () => {
    expect(completeWord(words, 'me')).toBe('member');
    expect(completeWord(words, 'member')).toBe('members');
    expect(completeWord(words, 'p')).toBe('plan');
    expect(completeWord(words, 'plan')).toBe('plans');
    expect(completeWord(words, 's')).toBe('services');
    expect(completeWord(words, 'xyz')).toBe('xyz');
    expect(completions(words, 'Mem')).toEqual(['members', 'member']);
  });

  it('opens on :, edits, Tab completes, Enter names the word to jump to, Esc closes', () => {
    let s = initialBrowserState([initialPane('p', 'P', ['NAME'])], 5);
    const view: ViewKeys = { actions: [], words };
    const press = (input: string, key = {}) => {
      const out = browserKey(s, input, key, view);
      if (out.kind === 'actions') s = apply(s, ...out.actions);
      return out;
    };
    press(':');
    expect(s.mode).toBe('command');
    press('pl');
    expect(footerText(s, [], 1, 80, words)).toBe('tab complete · enter open · esc cancel · plans plan');
    press('', { tab: true });
    expect(s.input.text).toBe('plan');
    expect(press('', { return: true })).toEqual({ kind: 'jump', word: 'plan' });
    s = apply(s, { type: 'command-cancel' });
    expect(s.mode).toBe('list');
    press(':');
    press('zz');
    expect(footerText(s, [], 1, 80, words)).toMatch(/no such noun$/);
    press('', { escape: true });
    expect(s).toMatchObject({ mode: 'list', input: { text: '' } });
    // Keys typed on the line are text, not the list's keys.
    press(':');
    expect(press('q')).toEqual({ kind: 'actions', actions: [{ type: 'command-edit', key: { type: 'insert', text: 'q' } }] });
  });
});

describe('a message tied to the disconnection', () => {
  it('goes when the source answers again; another message stays', () => {
    const up = initialBrowserState([initialPane('p', 'P', ['NAME'])], 5, true);
    const down = apply(up, { type: 'link-down', reason: 'no answer', retryIn: 2 });
    // The refusal of a key while down, and any failure while down, are about the disconnection.
    const refused = apply(down, { type: 'flash', text: 'confirm: not sent, disconnected (retrying in 2s; r retries now)', error: true, down: true });
    expect(refused.flash).toMatchObject({ down: true });
    expect(apply(refused, { type: 'link-up', refresh: true }).flash).toBeUndefined();
    const failed = apply(down, { type: 'flash', text: 'fetch failed', error: true });
    expect(apply(failed, { type: 'link-up', refresh: true }).flash).toBeUndefined();
    // What an action did, or a failure while the source answered, is not.
    const done = apply(down, { type: 'flash', text: 'confirmed abc' });
    expect(apply(done, { type: 'link-up', refresh: true }).flash).toMatchObject({ text: 'confirmed abc' });
    const refusedUp = apply(up, { type: 'flash', text: 'booking x cannot be confirmed', error: true });
    expect(apply(apply(refusedUp, { type: 'link-down', reason: 'x', retryIn: 1 }), { type: 'link-up', refresh: true }).flash).toMatchObject({ text: 'booking x cannot be confirmed' });
  });
});
