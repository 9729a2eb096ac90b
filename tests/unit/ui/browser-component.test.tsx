/**
 * The Browser component driven through fake terminal streams (what ink-testing-library does, without the
 * dependency): keys are written to a fake stdin, frames read from a fake stdout. Checks what the reducer tests
 * cannot: pages are read lazily as the cursor moves, actions get the marked ids and can ask first, a failing
 * action shows inline and the browser keeps running, q reports exit 0. Waits for frame content, never fixed time.
 */
import '../../helpers/ink-without-ci.js';
import { createElement } from 'react';
import { render } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeStdin, FakeStdout, untilFrame as until } from '../../helpers/ink-streams.js';
import { Browser } from '../../../src/ui/browser.js';
import { chromeRows } from '../../../src/ui/browser-layout.js';
import type { PaneSpec, SourceLink, UiAction, ViewJump } from '../../../src/ui/browser-spec.js';


let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function mount(panes: PaneSpec[], link?: SourceLink, jump?: ViewJump) {
  const stdout = new FakeStdout();
  const stdin = new FakeStdin();
  let exitCode: number | undefined;
  const instance = render(createElement(Browser, { title: 'test', panes, color: false, link, jump, onExit: (c: number) => (exitCode = c) }), {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  cleanup = () => instance.unmount();
  return { stdout, press: (keys: string) => stdin.write(keys), exitCode: () => exitCode, instance };
}

/** A reader over `total` rows in pages of `size`, counting the pages read. */
function pagedPane(total: number, size: number, actions: UiAction[] = []) {
  const reads: number[] = [];
  const pane: PaneSpec = {
    id: 'rows',
    title: 'rows',
    columns: ['ID', 'NAME'],
    open() {
      let offset = 0;
      return {
        async next() {
          reads.push(offset);
          const rows = Array.from({ length: Math.min(size, total - offset) }, (_, i) => ({ id: `r${offset + i}`, cells: [`r${offset + i}`, `Row ${offset + i}`] }));
          offset += rows.length;
          return { rows, done: offset >= total, total };
        },
      };
    },
    actions,
  };
  return { pane, reads };
}

describe('Browser component', () => {
  it('with a source link: a source that stops answering is said within 2 s, its rows stale, an action refused without running; r relinks and reads again', async () => {
    let answering = true;
    let relinks = 0;
    const ran: string[][] = [];
    const link: SourceLink = {
      probe: async () => {
        if (!answering) throw new Error('no answer from http://127.0.0.1:1: connect ECONNREFUSED');
      },
      relink: async () => {
        relinks++;
      },
    };
    const { pane, reads } = pagedPane(5, 100, [{ key: 'c', label: 'Confirm', run: async (ids) => (ran.push(ids), 'done') }]);
    const ui = mount([pane], link);
    await until(ui.stdout, (f) => /^test · rows · 5 loaded/m.test(f), 'the rows');
    answering = false;
    const t0 = Date.now();
    await until(ui.stdout, (f) => /^test · disconnected — retrying \(1s\) · rows · 5 loaded · stale/m.test(f) && /^> {2}r0 /m.test(f), 'disconnected, rows kept');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(ui.stdout.last).toMatch(/^✗ no answer from http:\/\/127\.0\.0\.1:1: connect ECONNREFUSED$/m);
    ui.press('c');
    await until(ui.stdout, (f) => /^✗ confirm: not sent, disconnected \(retrying (in \ds|now); r retries now\)$/m.test(f), 'the refusal');
    expect(ran).toEqual([]);
    // Each retry looks the address up again first.
    await until(ui.stdout, () => relinks > 0, 'a relink');
    answering = true;
    const before = reads.length;
    ui.press('r');
    const back = await until(ui.stdout, (f) => /^test · rows · 5 loaded$/m.test(f), 'back, not stale');
    expect(reads.length).toBeGreaterThan(before);
    // The refusal was about the disconnection: it went with it.
    expect(back).not.toMatch(/not sent, disconnected/);
  });

  it('y copies the selected row\'s full id through OSC 52 and says so', async () => {
    const { pane } = pagedPane(5, 5);
    const { stdout, press } = mount([pane]);
    await until(stdout, (f) => /^> +r0 /m.test(f), 'the first row');
    press('j');
    await until(stdout, (f) => /^> +r1 /m.test(f), 'the cursor on the second row');
    press('y');
    await until(stdout, (f) => /copied r1 to the clipboard \(OSC 52\)/.test(f), 'the message');
    const written = stdout.frames.join('');
    expect(written).toContain(`\u001b]52;c;${Buffer.from('r1').toString('base64')}\u0007`);
  });

  it('reads the first page, then the next ones only as the cursor nears the end', async () => {
    const { pane, reads } = pagedPane(10_000, 100);
    const ui = mount([pane]);
    await until(ui.stdout, (f) => /100 of 10,000 loaded/.test(f), 'the first page');
    expect(reads).toEqual([0]);
    ui.press('G');
    await until(ui.stdout, (f) => /200 of 10,000 loaded/.test(f), 'the second page');
    expect(reads).toEqual([0, 100]);
    ui.press('g');
    await until(ui.stdout, (f) => /^> {2}r0 /m.test(f), 'the first row');
    expect(reads).toEqual([0, 100]);
    const frame = ui.stdout.last;
    expect(frame.split('\n').filter((l) => /^[> ][ *] r\d+/.test(l)).length).toBe(24 - chromeRows(1));
  });

  it('shows a work list read whole from its first page on, reads the rest at once, and keeps the rows shown while a reload reads', async () => {
    // A reader of 250 rows in steps of the whole list so far (UiPage.whole), each step released by the test.
    const steps: Array<() => void> = [];
    let opened = 0;
    const rowsTo = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `w${i}`, cells: [`w${i}`, `Row ${i}`] }));
    const pane: PaneSpec = {
      id: 'work',
      title: 'work',
      columns: ['ID', 'NAME'],
      open() {
        opened++;
        let read = 0;
        return {
          next: () =>
            new Promise((resolve) => {
              steps.push(() => {
                read = Math.min(read + 100, 250);
                resolve({ rows: rowsTo(read), done: read >= 250, total: read >= 250 ? 250 : undefined, whole: true });
              });
            }),
        };
      },
    };
    const ui = mount([pane]);
    const release = async (n: number) => {
      await until(ui.stdout, () => steps.length >= n, `read ${n} asked`);
      steps[n - 1]!();
    };
    await release(1);
    await until(ui.stdout, (f) => /^> {2}w0 /m.test(f) && /100/.test(f.split('\n')[0]!), 'the first step drawn');
    // The next step is asked for at once, with the cursor at the top.
    await release(2);
    await until(ui.stdout, () => steps.length === 3, 'the third step asked');
    ui.press('G');
    await until(ui.stdout, (f) => /^> {2}w199 /m.test(f), 'the last row of the second step');
    await release(3);
    // The rows replaced, the cursor kept on its row.
    await until(ui.stdout, (f) => /250 loaded/.test(f) && /^> {2}w199 /m.test(f), 'every row');
    expect(opened).toBe(1);
    ui.press('G');
    await until(ui.stdout, (f) => /^> {2}w249 /m.test(f), 'the last row');
    // A reload: its first step (100 rows) is shorter than the 250 shown, which stay, the cursor on its row.
    ui.press('r');
    await release(4);
    await until(ui.stdout, () => steps.length === 5, 'the reload read on');
    expect(ui.stdout.last).toMatch(/^> {2}w249 /m);
    await release(5);
    await release(6);
    await until(ui.stdout, (f) => /250 loaded/.test(f) && /^> {2}w249 /m.test(f), 'the reload done, the cursor kept');
    expect(opened).toBe(2);
  });

  it('reads the pane on screen first and the other panes only once its first page is drawn (a busy dashboard\'s first paint)', async () => {
    const opened: string[] = [];
    let releaseFirst: (() => void) | undefined;
    const pane = (id: string, gate: boolean): PaneSpec => ({
      id,
      title: id,
      columns: ['ID', 'NAME'],
      open() {
        opened.push(id);
        return {
          next: () =>
            new Promise((resolve) => {
              const page = { rows: [{ id: `${id}1`, cells: [`${id}1`, `Row of ${id}`] }], done: true, total: 1 };
              if (gate) releaseFirst = () => resolve(page);
              else resolve(page);
            }),
        };
      },
    });
    const ui = mount([pane('first', true), pane('second', false), pane('third', false)]);
    await until(ui.stdout, () => releaseFirst !== undefined, 'the first pane asked');
    // Nothing else is read while the pane on screen waits for its first page.
    await new Promise((r) => setTimeout(r, 50));
    expect(opened).toEqual(['first']);
    releaseFirst!();
    await until(ui.stdout, (f) => /^> {2}first1 /m.test(f), 'the first pane drawn');
    await until(ui.stdout, () => opened.length === 3, 'the other panes read');
    expect(opened).toEqual(['first', 'second', 'third']);
  });

  it('runs an action on the marked rows, asks first through the UI, and shows a failure inline', async () => {
    const calls: string[][] = [];
    let fail = false;
    const { pane } = pagedPane(5, 5, [
      {
        key: 'd',
        label: 'Decline',
        destructive: true,
        async run(ids, io) {
          if (fail) throw new Error('booking r2 cannot be declined: it is CANCELED');
          if (!(await io.confirm(`Decline ${ids.length}?`, ['Plan: 2 to decline']))) return 'canceled: nothing was changed';
          calls.push(ids);
          return `${ids.length} declined`;
        },
      },
    ]);
    const ui = mount([pane]);
    await until(ui.stdout, (f) => /5 loaded/.test(f), 'the rows');
    ui.press(' ');
    await until(ui.stdout, (f) => /1 marked/.test(f), 'one mark');
    ui.press(' ');
    await until(ui.stdout, (f) => /2 marked/.test(f), 'two marks');
    ui.press('d');
    await until(ui.stdout, (f) => /^\? Decline 2\?\n {2}\(y\/n\)$/m.test(f), 'the question');
    ui.press('n');
    await until(ui.stdout, (f) => /canceled: nothing was changed/.test(f) && !/✓ canceled/.test(f) && /2 marked/.test(f), 'declined, marks kept');
    expect(calls).toEqual([]);
    ui.press('d');
    await until(ui.stdout, (f) => /\? Decline 2\?/.test(f), 'the question again');
    ui.press('y');
    await until(ui.stdout, (f) => /✓ 2 declined/.test(f), 'the result');
    expect(calls).toEqual([['r0', 'r1']]);
    fail = true;
    ui.press('d');
    await until(ui.stdout, (f) => /✗ booking r2 cannot be declined: it is CANCELED/.test(f), 'the failure');
    ui.press('j');
    await until(ui.stdout, (f) => /^> {2}r3 /m.test(f), 'the browser still running');
    ui.press('q');
    await ui.instance.waitUntilExit();
    expect(ui.exitCode()).toBe(0);
  });

  it('sorts a lazily paged table on the server: S shows the server\'s first row of every page, not of the loaded ones', async () => {
    // A fake server: 10,000 rows, read 100 a page, sorted by the column asked for.
    const all = Array.from({ length: 10_000 }, (_, i) => ({ id: `r${i}`, cells: [`r${String(i).padStart(5, '0')}`, `Row ${(i * 7919) % 10_000}`] }));
    const opened: Array<{ col: number; desc: boolean } | undefined> = [];
    const pane: PaneSpec = {
      id: 'rows',
      title: 'rows',
      columns: ['ID', 'NAME'],
      sortable: [true, false],
      open(_server, sort) {
        opened.push(sort);
        const rows = sort ? [...all].sort((a, b) => a.cells[sort.col]!.localeCompare(b.cells[sort.col]!) * (sort.desc ? -1 : 1)) : all;
        let offset = 0;
        return {
          async next() {
            const page = rows.slice(offset, offset + 100);
            offset += page.length;
            return { rows: page, done: offset >= rows.length, total: rows.length };
          },
        };
      },
    };
    const ui = mount([pane]);
    await until(ui.stdout, (f) => /^> {2}r00000 /m.test(f), 'the first page');
    ui.press('S');
    const sorted = await until(ui.stdout, (f) => /^> {2}r09999 /m.test(f), "the server's first row");
    expect(sorted).toMatch(/100 of 10,000 loaded · sort ID ↓$/m);
    expect(opened).toEqual([undefined, { col: 0, desc: true }]);
    // NAME is not sortable on the server: the loaded rows are sorted, and the status line says so.
    ui.press('s');
    await until(ui.stdout, (f) => /sort NAME ↑ \(loaded rows\)/.test(f), 'the client-side sort');
    expect(opened).toHaveLength(2);
  });

  it('shows a refused server filter in the pane and keeps running; Ctrl-C reports 130', async () => {
    const pane: PaneSpec = {
      id: 'p',
      title: 'p',
      columns: ['ID'],
      open(server) {
        if (server) throw new Error('--where: unknown field nme');
        return { next: async () => ({ rows: [{ id: 'a', cells: ['a'] }], done: true }) };
      },
    };
    const ui = mount([pane]);
    await until(ui.stdout, (f) => /1 loaded/.test(f), 'the row');
    ui.press('/');
    ui.press('nme=x\r');
    await until(ui.stdout, (f) => /✗ --where: unknown field nme/.test(f), 'the refusal');
    ui.press('\u0003');
    await ui.instance.waitUntilExit();
    expect(ui.exitCode()).toBe(130);
  });

  it(':NOUN replaces the view with the one the jump opens (Tab completes); an unknown word is refused in one line and the view stays', async () => {
    const opened: string[] = [];
    const jump: ViewJump = {
      words: ['rows', 'members', 'member'],
      async open(word) {
        opened.push(word);
        const { pane } = pagedPane(3, 100);
        return { title: `test ${word}`, panes: [{ ...pane, id: 'members', title: 'members', columns: ['ID', 'EMAIL'] }] };
      },
    };
    const ui = mount([pagedPane(5, 100).pane], undefined, jump);
    await until(ui.stdout, (f) => /^test · rows · 5 loaded/m.test(f), 'the rows');
    ui.press(':');
    await until(ui.stdout, (f) => /^:▏$/m.test(f), 'the : line');
    ui.press('nope');
    await until(ui.stdout, (f) => /^:nope▏$/m.test(f) && /no such noun$/m.test(f), 'no completion');
    ui.press('\r');
    await until(ui.stdout, (f) => /^✗ no list named 'nope': rows, members, member$/m.test(f), 'the refusal');
    expect(ui.stdout.last).toMatch(/^test · rows · 5 loaded/m);
    expect(opened).toEqual([]);
    ui.press(':');
    ui.press('me');
    await until(ui.stdout, (f) => /^:me▏$/m.test(f) && /members member$/m.test(f), 'the completions');
    ui.press('\t');
    await until(ui.stdout, (f) => /^:member▏$/m.test(f), 'the common prefix');
    ui.press('\t');
    await until(ui.stdout, (f) => /^:members▏$/m.test(f), 'the next word');
    ui.press('\r');
    const members = await until(ui.stdout, (f) => /^test members · 3 loaded/m.test(f) && /^> {2}r0 /m.test(f), 'the other view');
    expect(members).toMatch(/^ {3}ID +EMAIL$/m);
    expect(opened).toEqual(['members']);
    // The new view's keys work.
    ui.press('j');
    await until(ui.stdout, (f) => /^> {2}r1 /m.test(f), 'the cursor moved');
    // Keys faster than a frame, in one read: each counts, Tab included.
    ui.press(':ro\t\r');
    await until(ui.stdout, (f) => /^test rows · members · 3 loaded/m.test(f), 'the view of the completed word');
    expect(opened).toEqual(['members', 'rows']);
    ui.press('q');
    await ui.instance.waitUntilExit();
    expect(ui.exitCode()).toBe(0);
  });
});
