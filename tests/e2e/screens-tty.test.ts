/**
 * Screens a front desk can live in (docs/architecture.md "Interactive views"), captured from a real terminal (tmux
 * runs the built CLI): the dashboard and every browse view at 80x24 and 160x48 show whole booking times, their key
 * columns, every tab and `? help · q quit`; the filter line edits the list's own filter, and two Backspaces sent
 * in one write both count. Skipped, with a message, only when tmux is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, makeStudio, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../helpers/index.js';
import { hasTmux, openTerminal, type Terminal } from '../helpers/tmux.js';

if (!hasTmux) console.warn('tests/e2e/screens-tty.test.ts: tmux is not installed; skipping the real-terminal tests');

let emu: TestEmulator;
let sandbox: CliSandbox;
let term: Terminal;

/** Members made before the one searched for, and that one's last name. */
const FILLERS = 210;
const SEARCHED = 'Żółkiewska';

/** The contact of the file's own booking, whose service and name are longer than any of the demo's. */
const LONG_EMAIL = 'long-names@example.com';
beforeAll(async () => {
  if (!hasTmux) return;
  emu = await startTestEmulator({ seed: 'demo' });
  sandbox = createCliSandbox();
  term = openTerminal(sandbox, emu);
  const studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, sandbox, ...o }), 'screens');
  const long = await studio.appointment({ name: 'Deep Tissue and Hot Stone Massage for Two with Aromatherapy' });
  await studio.book(long.name, { email: LONG_EMAIL, firstName: 'Maximiliana', lastName: 'Featherstonehaugh-Worthington', confirmed: true });
  // More members than the first pages a browse reads (100 a page), then the one searched for: past the loaded rows
  // in the list's order (creation), whatever the demo holds.
  for (let i = 0; i < FILLERS; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, FILLERS - i) }, async (_, j) => {
        const r = await emu.request('POST', '/members/v1/members', { member: { loginEmail: `filler-${i + j}@example.com`, contact: { firstName: 'Filler', lastName: `Number${i + j}` } } });
        expect(r.status).toBe(200);
      }),
    );
  }
  const made = await runInProcess(['members', 'create', '--email', 'hetman@example.com', '--first-name', 'Jadwiga', '--last-name', SEARCHED], { emulator: emu, sandbox });
  expect(made.code, made.stderr).toBe(0);
});
afterAll(async () => {
  if (!hasTmux) return;
  term?.close();
  await emu?.close();
  sandbox?.cleanup();
});

/** A whole time by the time rule: `Thu 22:00`, `11-26 22:00` or `2027-11-12`. */
const TIME = /(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:\d\d|\d\d-\d\d \d\d:\d\d|\d{4}-\d\d-\d\d)(?!\S)/;
const SIZES = [
  [80, 24],
  [160, 48],
] as const;
/** The sizes the searches past the loaded rows are looked at in. */
const SEARCH_SIZES = [
  [80, 24],
  [120, 40],
] as const;

/** The table rows of a screen (cursor `>` or blank, mark `*` or blank, a space), above the events strip. */
function tableRows(screen: string): string[] {
  const lines = screen.split(/^── /m)[0]!.split('\n');
  const header = lines.findIndex((l) => /^ {3}[A-Z]{2,}/.test(l));
  return lines.slice(header + 1).filter((l) => /^[> ][ *] \S/.test(l));
}

/** Checks what every screen must show at any size: lines within the width, the footer's help and quit. */
function checkChrome(screen: string, width: number, height: number): void {
  const lines = screen.replace(/\n+$/, '').split('\n');
  expect(lines.length).toBeLessThanOrEqual(height);
  for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
  expect(screen).toMatch(/\? help · q quit\s*$/m);
}

async function quit(name: string): Promise<void> {
  term.send(name, 'q');
  await term.waitFor(name, /EXIT=0/);
}

describe.skipIf(!hasTmux)('screens at 80x24 and 160x48 (tmux)', () => {
  for (const [width, height] of SIZES) {
    it(`dashboard at ${width}x${height}: whole times, every tab, the active one bracketed, help and quit`, async () => {
      const name = `dash${width}`;
      term.start(name, ['dashboard', '--interval', '60'], { width, height });
      const screen = await term.waitFor(name, /^\[7 days by staff \d+\]│.*Events \d+[\s\S]*^> [\s\S]*\? help · q quit/m);
      checkChrome(screen, width, height);
      expect(screen).toMatch(/times in \S+/);
      // Every pane's tab is on the strip, names shortened rather than tabs lost.
      const strip = screen.split('\n')[1]!;
      expect(strip.split('│')).toHaveLength(5);
      const rows = tableRows(screen);
      expect(rows.length).toBeGreaterThan(3);
      for (const row of rows) expect(row).toMatch(TIME);
      expect(screen).toMatch(/^ {3}STAFF +START +SERVICE +CONTACT +STATUS/m);
      // The last tab is reachable and highlighted when active.
      term.send(name, 'BTab');
      const events = await term.waitFor(name, /\[Events \d+\]/);
      checkChrome(events, width, height);
      term.send(name, 'BTab');
      const orders = await term.waitFor(name, /\[Orders to[^\]]* \d+\]/);
      expect(orders).toMatch(/REASON +BUYER +PLAN +STATUS/);
      for (const row of tableRows(orders)) expect(row).not.toMatch(/\b[0-9a-f]{8}-/);
      term.send(name, '?');
      const help = await term.waitFor(name, /^Keys$/m);
      for (const line of help.split('\n')) expect([...line].length).toBeLessThanOrEqual(width);
      expect(help).toMatch(/ctrl-u/);
      term.send(name, 'Escape');
      await term.waitFor(name, /^(?![\s\S]*^Keys$)[\s\S]*\? help · q quit/m);
      await quit(name);
    });

    it(`every browse view at ${width}x${height}: its key columns shown, times, statuses and prices whole, names cut only with …, help and quit`, async () => {
      // `whole`: the headers of the columns declared never cut (fit: 'whole'); free text (names, e-mails) may be
      // cut with … to fit, never dropped. The last view is the file's own booking, whose names are longer than
      // any the demo has, so a cut is seen at every hour and on every day.
      const views: Array<{ noun: string; args?: string[]; header: RegExp; whole: string[]; time?: boolean }> = [
        { noun: 'bookings', header: /START↑ +SERVICE +CONTACT +STATUS/, whole: ['START↑', 'STATUS'], time: true },
        { noun: 'members', header: /EMAIL +NAME +STATUS/, whole: ['STATUS'] },
        { noun: 'orders', header: /PLAN +BUYER +.*STATUS +.*END/, whole: ['STATUS'] },
        { noun: 'services', header: /NAME +TYPE +PRICE/, whole: ['TYPE', 'PRICE'] },
        { noun: 'plans', header: /NAME +PRICING/, whole: [] },
        { noun: 'bookings', args: ['--contact', LONG_EMAIL], header: /START↑ +SERVICE +CONTACT +STATUS/, whole: ['START↑', 'STATUS'], time: true },
      ];
      for (const view of views) {
        const name = `${view.noun}${width}${view.args ? 'own' : ''}`;
        term.start(name, ['browse', view.noun, ...(view.args ?? [])], { width, height });
        // The whole first frame, down to the key line: a capture taken while the frame is being drawn has the
        // rows and not yet the footer (seen on a loaded machine under faketime).
        const screen = await term.waitFor(name, /^> [\s\S]*\? help · q quit/m);
        checkChrome(screen, width, height);
        expect(screen).toMatch(view.header);
        const rows = tableRows(screen);
        expect(rows.length).toBeGreaterThan(0);
        const header = screen.split('\n').find((l) => view.header.test(l))!;
        if (view.time) for (const row of rows) expect(row).toMatch(TIME);
        for (const column of view.whole) {
          const at = header.indexOf(column);
          const next = header.slice(at + column.length).search(/ {2}\S/);
          const end = next === -1 ? undefined : at + column.length + next + 2;
          for (const row of rows) expect(row.slice(at, end), `${view.noun} ${column}: ${row}`).not.toContain('…');
        }
        if (view.args) {
          // At 80 columns the long names are cut, with …, and the time and the status stay whole.
          if (width === 80) expect(rows[0]).toMatch(/…/);
          expect(rows[0]).toMatch(/CONFIRMED/);
        }
        await quit(name);
      }
    });
  }

  for (const [width, height] of SEARCH_SIZES) {
  it(`browse members at ${width}x${height}: / text is searched on the server, so a member past the loaded rows is found; a mixed filter applies both parts`, async () => {
    const name = `search${width}`;
    term.start(name, ['browse', 'members'], { width, height });
    // The count is the platform's: the first page of all the members.
    const first = await term.waitFor(name, /members · 100 of [\d,]+ loaded[\s\S]*^> [\s\S]*\? help · q quit/m);
    checkChrome(first, width, height);
    expect(first).not.toContain(SEARCHED);
    term.send(name, '/');
    await term.waitFor(name, /^\/▏/m);
    term.send(name, '-l', SEARCHED);
    term.send(name, 'Enter');
    const found = await term.waitFor(name, new RegExp(`members · 1 loaded(?: · times in \\S+)? · search "${SEARCHED}"[\\s\\S]*^> .*${SEARCHED}`, 'm'));
    checkChrome(found, width, height);
    expect(tableRows(found)).toHaveLength(1);
    expect(found).not.toMatch(/loading…/);
    // The / line holds what was typed; a mixed filter sends status=APPROVED and searches the text.
    term.send(name, '/');
    await term.waitFor(name, new RegExp(`^/${SEARCHED}▏`, 'm'));
    term.send(name, 'C-u');
    // The text first, the term after: the term is taken out wherever it stands.
    term.send(name, '-l', 'Żółk status=APPROVED');
    term.send(name, 'Enter');
    const mixed = await term.waitFor(name, new RegExp(`search "Żółk" · where status=APPROVED[\\s\\S]*^> .*${SEARCHED}.*APPROVED`, 'm'));
    expect(tableRows(mixed)).toHaveLength(1);
    term.send(name, '/');
    await term.waitFor(name, /^\/Żółk status=APPROVED▏/m);
    term.send(name, 'C-u');
    term.send(name, '-l', 'status=BLOCKED Żółk');
    term.send(name, 'Enter');
    // Neither part is dropped: the member is APPROVED, so BLOCKED and the name match nobody.
    const none = await term.waitFor(name, /search "Żółk" · where status=BLOCKED[\s\S]*nothing matches the filter/m);
    checkChrome(none, width, height);
    await quit(name);
  });
  }

  for (const [width, height] of SEARCH_SIZES) {
    it(`browse bookings at ${width}x${height}: the flags show as typed; a whole contact e-mail is searched on the server past the loaded rows, a name filters the loaded rows, a mixed filter applies both`, async () => {
      const name = `bsearch${width}`;
      // Latest first over every date: the file's booking, two days ahead, lies past the first page.
      term.start(name, ['browse', 'bookings', '--status', 'CONFIRMED,PENDING', '--from', '2000-01-01', '--sort', 'startDate:desc'], { width, height });
      const first = await term.waitFor(name, /bookings · 100 of [\d,]+ loaded[\s\S]*^> [\s\S]*\? help · q quit/m);
      checkChrome(first, width, height);
      expect(first).not.toContain('Maximiliana');
      // The title shows the flags as typed (cut at 80 columns), never the wire filter they stand for.
      const title = first.split('\n')[0]!;
      expect(title).toMatch(/ · --status CONF/);
      expect(title).not.toMatch(/\$in|startDate|\{/);
      if (width >= 120) expect(title).toMatch(/ · --status CONFIRMED,PENDING --from 2000-01-01$/);
      // The / line holds them as typed, to edit.
      term.send(name, '/');
      await term.waitFor(name, /^\/--status CONFIRMED,PENDING --from 2000-01-01▏/m);
      term.send(name, '-l', ` ${LONG_EMAIL}`);
      term.send(name, 'Enter');
      const found = await term.waitFor(name, new RegExp(`bookings · 1 loaded(?: · times in \\S+)?(?: · sort START ↓)? · search "${LONG_EMAIL}"[\\s\\S]*^> .*Maximil[\\s\\S]*\\? help · q quit`, 'm'));
      checkChrome(found, width, height);
      expect(tableRows(found)).toHaveLength(1);
      expect(found).not.toMatch(/loaded rows only|loading…/);
      // A mixed filter: the flag and the address both apply (the booking is CONFIRMED, not CANCELED).
      term.send(name, '/');
      await term.waitFor(name, new RegExp(`^/--status CONFIRMED,PENDING --from 2000-01-01 ${LONG_EMAIL}▏`, 'm'));
      term.send(name, 'C-u');
      term.send(name, '-l', '--', `--status CANCELED --from 2000-01-01 ${LONG_EMAIL}`);
      term.send(name, 'Enter');
      const none = await term.waitFor(name, /search "long-names@example\.com"[\s\S]*nothing matches the filter/m);
      checkChrome(none, width, height);
      // A name is no address: it filters the loaded rows, which are read on to the last page to find it.
      term.send(name, '/');
      await term.waitFor(name, /^\/--status CANCELED --from 2000-01-01 long-names@example\.com▏/m);
      term.send(name, 'C-u');
      term.send(name, '-l', '--', '--status CONFIRMED --from 2000-01-01 Featherstonehaugh');
      term.send(name, 'Enter');
      const named = await term.waitFor(name, /^sitectl bookings · 1 of [\d,]+ loaded(?: · times in \S+)?(?: · sort START ↓)? · filter "Featherstonehaugh"[\s\S]*^> .*Maximil/m);
      checkChrome(named, width, height);
      expect(tableRows(named)).toHaveLength(1);
      // Once every page is read the title no longer says "loaded rows only" (room for it at 120 columns).
      if (width >= 120) await term.waitFor(name, /^sitectl bookings · 1 of [\d,]+ loaded(?: · times in \S+)?(?: · sort START ↓)? · filter "Featherstonehaugh" · --status CONFIRMED --from 2000-01-01$/m);
      await quit(name);
    });
  }

  it('members --where status=PENDING: / edits the whole filter (no hidden AND), and two Backspaces in one write both erase', async () => {
    term.start('filter', ['members', 'list', '--interactive', '--where', 'status=PENDING'], { width: 80, height: 24 });
    const pending = await term.waitFor('filter', /^> .*PENDING/m);
    expect(pending).toMatch(/where status=PENDING/);
    term.send('filter', '/');
    await term.waitFor('filter', /^\/status=PENDING▏/m);
    term.send('filter', 'C-w');
    await term.waitFor('filter', /^\/▏/m);
    term.send('filter', '-l', 'status=BLOCKEDxx');
    await term.waitFor('filter', /^\/status=BLOCKEDxx▏/m);
    // Both Backspaces (DEL) in one write, as key repeat over a slow link delivers them.
    term.send('filter', '-H', '7f', '7f');
    await term.waitFor('filter', /^\/status=BLOCKED▏/m);
    term.send('filter', 'Enter');
    const blocked = await term.waitFor('filter', /where status=BLOCKED[\s\S]*^> .*BLOCKED/m);
    expect(blocked).not.toMatch(/PENDING/);
    await quit('filter');
  });
});
