/**
 * The dashboard and the browsable tables in a real terminal: tmux runs the built CLI; the test types keys
 * (`send-keys`), reads the screen (`capture-pane`) and checks the effect through the API. Every wait is for
 * screen content (no fixed sleeps). Skipped, with a message, only when tmux is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, makeStudio, runCli, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../helpers/index.js';
import { hasTmux, openTerminal, type Terminal } from '../helpers/tmux.js';

if (!hasTmux) console.warn('tests/e2e/dashboard-tty.test.ts: tmux is not installed; skipping the real-terminal tests');

let emu: TestEmulator;
let sandbox: CliSandbox;
let term: Terminal;

/** The file's own bookings awaiting confirmation (two days ahead or more, so a cancel is allowed), by contact. */
const own: Record<'confirm' | 'cancel' | 'elsewhere' | 'attended', string> = { confirm: '', cancel: '', elsewhere: '', attended: '' };
const NAMES = { confirm: 'Yolanda', cancel: 'Zebulon', elsewhere: 'Xavier', attended: 'Wilhelmina' } as const;
/** The file's own booking awaiting confirmation that only the server-filter test looks at. */
const FILTERED = { name: 'Valentina', id: '' };
beforeAll(async () => {
  if (!hasTmux) return;
  emu = await startTestEmulator({ seed: 'demo' });
  sandbox = createCliSandbox();
  term = openTerminal(sandbox, emu);
  const studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, sandbox, ...o }), 'dashboard');
  const service = await studio.appointment();
  for (const key of Object.keys(NAMES) as Array<keyof typeof NAMES>) {
    // The one the front desk marks attended is confirmed; the others await confirmation.
    own[key] = (await studio.book(service.name, { firstName: NAMES[key], lastName: 'Owntest', email: `${key}@example.com`, confirmed: key === 'attended' })).id.slice(0, 8);
  }
  FILTERED.id = (await studio.book(service.name, { firstName: FILTERED.name, lastName: 'Owntest', email: 'filtered@example.com' })).id.slice(0, 8);
});
afterAll(async () => {
  if (!hasTmux) return;
  term?.close();
  await emu?.close();
  sandbox?.cleanup();
});

/** The short id on the cursor's line (`>` marks it). */
function cursorId(screen: string): string {
  const m = /^> .*?\b([0-9a-f]{8})\b/m.exec(screen);
  if (!m) throw new Error(`no cursor row with an id:\n${screen}`);
  return m[1]!;
}

/** The short ids of the table's rows (above the dashboard's events strip). */
function rowIds(screen: string): string[] {
  const table = screen.split(/^── /m)[0]!;
  return [...table.matchAll(/^[> ][ *] .*?\b([0-9a-f]{8})\b/gm)].map((m) => m[1]!);
}

async function field(noun: string, id: string, name: string): Promise<unknown> {
  const r = await runCli([noun, 'get', id, '--json', name], { emulator: emu, sandbox });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout)[name];
}

/** Types `text` on the pane's filter line (`/`), clearing what it held, and waits for the rows it leaves. */
async function filterTo(name: string, text: string): Promise<string> {
  term.send(name, '/');
  await term.waitFor(name, /^\/.*▏/m);
  term.send(name, 'C-u');
  if (text) term.send(name, '-l', text);
  term.send(name, 'Enter');
  return term.waitFor(name, text ? new RegExp(`^> .*${text}`, 'm') : /^> /m);
}

describe.skipIf(!hasTmux)('sitectl dashboard in a real terminal (tmux)', () => {
  it('confirms a booking and approves a member with single keys, asks before a cancel, and shows changes made elsewhere', async () => {
    term.start('dash', ['dashboard', '--interval', '60'], { width: 120, height: 32 });
    // Waits for the whole first frame (down to the key line): a capture taken while the frame is being drawn
    // has the rows and not yet the footer.
    const first = await term.waitFor('dash', /\[7 days by staff \d+\]│ To confirm \d+ │ Members to approve \d+ │ Orders to check \d+ │ Events \d+[\s\S]*^> [\s\S]*c confirm · d decline · x cancel · a attended · tab pane/m);
    expect(first).toMatch(/STAFF\s+START\s+SERVICE\s+CONTACT\s+STATUS\s+ID/);

    // The front desk: a marks the booking under the cursor attended (all its participants), as `attendance mark ID --attended`.
    expect(cursorId(await filterTo('dash', NAMES.attended))).toBe(own.attended);
    term.send('dash', 'a');
    await term.waitFor('dash', new RegExp(`✓ marked ${own.attended} `));
    expect(await field('bookings', own.attended, 'attendance')).toMatchObject({ status: 'ATTENDED', numberOfAttendees: 1 });
    await filterTo('dash', '');

    // Awaiting confirmation: c confirms the booking under the cursor, the same call as `bookings confirm ID`. The
    // file's own bookings are found with the filter line, whatever the demo data holds at this hour.
    term.send('dash', 'Tab');
    await term.waitFor('dash', /\[To confirm \d+\][\s\S]*^> /m);
    const awaiting = await filterTo('dash', NAMES.confirm);
    expect(cursorId(awaiting)).toBe(own.confirm);
    term.send('dash', 'c');
    await term.waitFor('dash', new RegExp(`✓ confirmed ${own.confirm} \\(.*revision \\d+`));
    expect(await field('bookings', own.confirm, 'status')).toBe('CONFIRMED');
    const after = await term.waitFor('dash', new RegExp(`^(?![\\s\\S]*[A-Z_]{4,} +${own.confirm}\\s*$)[\\s\\S]*\\[To confirm`, 'm'), 5000);
    expect(rowIds(after)).not.toContain(own.confirm);

    // x (cancel) is destructive: it asks first, and "n" changes nothing.
    expect(cursorId(await filterTo('dash', NAMES.cancel))).toBe(own.cancel);
    term.send('dash', 'x');
    await term.waitFor('dash', new RegExp(`^\\? Cancel booking ${own.cancel} [\\s\\S]*^ {2}\\(y/n\\)$`, 'm'));
    term.send('dash', 'n');
    await term.waitFor('dash', /canceled: nothing was changed/);
    expect(await field('bookings', own.cancel, 'status')).not.toBe('CANCELED');

    // Another process confirms a booking on screen: it leaves the pane within a second or so.
    const other = own.elsewhere;
    expect(rowIds(await filterTo('dash', NAMES.elsewhere))).toContain(other);
    const r = await runCli(['bookings', 'confirm', other], { emulator: emu, sandbox });
    expect(r.code, r.stderr).toBe(0);
    const t0 = Date.now();
    await term.waitFor('dash', new RegExp(`^(?![\\s\\S]*[A-Z_]{4,} +${other}\\s*$)[\\s\\S]*\\[To confirm`, 'm'), 10_000);
    expect(Date.now() - t0).toBeLessThan(4000); // within a second when idle; slack for a loaded CI machine
    await filterTo('dash', '');

    // Members awaiting approval: a approves.
    term.send('dash', 'Tab');
    const members = await term.waitFor('dash', /\[Members to approve \d+\][\s\S]*^> /m);
    expect(members).toMatch(/NAME\s+EMAIL\s+STATUS\s+JOINED\s+ID/);
    const member = cursorId(members);
    term.send('dash', 'a');
    await term.waitFor('dash', new RegExp(`✓ approved ${member}`));
    // The events strip under the pane shows it without leaving the members pane.
    await term.waitFor('dash', /^── Events ─+$[\s\S]*member\.approved/m);
    expect(await field('members', member, 'status')).toBe('APPROVED');

    // The recent events pane lists what happened, newest first; ? opens the help overlay.
    term.send('dash', 'Tab', 'Tab');
    const events = await term.waitFor('dash', /\[Events \d+\][\s\S]*member\.approved/);
    expect(events).toMatch(/booking\.confirmed/);
    term.send('dash', '?');
    await term.waitFor('dash', /tab shift-tab {2}next, previous pane/);
    term.send('dash', 'Escape');
    // The tab strip shows under the overlay too: wait until the overlay is gone, or q lands on it under load.
    await term.waitFor('dash', /^(?![\s\S]*next, previous pane)[\s\S]*\[Events/);
    term.send('dash', 'q');
    await term.waitFor('dash', /EXIT=0/);
  });
});

describe.skipIf(!hasTmux)('dashboard filters on the server (tmux)', () => {
  it('at 80x24, /field=value in a pane is sent with the pane\'s own query (ANDed), with the text typed beside it; the count is the platform\'s', async () => {
    const status = String(await field('bookings', FILTERED.id, 'status'));
    term.start('dfilter', ['dashboard', '--interval', '60'], { width: 80, height: 24 });
    await term.waitFor('dfilter', /^\[7 days by staff[\s\S]*^> [\s\S]*\? help · q quit/m);
    term.send('dfilter', 'Tab');
    await term.waitFor('dfilter', /\[To confirm \d+\][\s\S]*^> /m);
    term.send('dfilter', '/');
    await term.waitFor('dfilter', /^\/▏/m);
    term.send('dfilter', '-l', `status=${status} ${FILTERED.name}`);
    term.send('dfilter', 'Enter');
    // At 80 columns the title keeps the counts and the filter (the pane's name is on its tab); the id column gives way.
    const found = await term.waitFor('dfilter', new RegExp(`^sitectl dashboard · (?:To confirm · )?1 of \\d+ loaded · filter "${FILTERED.name}" · where status=${status}$[\\s\\S]*^> .*${FILTERED.name} Owntest +${status}`, 'm'));
    expect(found).not.toMatch(/filters the loaded rows only/);
    // The table's rows, above the events strip.
    expect(found.split(/^── /m)[0]!.split('\n').filter((l) => /^[> ][ *] +\S+ \d\d:\d\d /.test(l)), found).toHaveLength(1);
    for (const line of found.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    // ANDed with the pane's own query (bookings to confirm): CONFIRMED ones are not among them.
    term.send('dfilter', '/');
    await term.waitFor('dfilter', new RegExp(`^/status=${status} ${FILTERED.name}▏`, 'm'));
    term.send('dfilter', 'C-u');
    term.send('dfilter', '-l', 'status=CONFIRMED');
    term.send('dfilter', 'Enter');
    await term.waitFor('dfilter', /^sitectl dashboard · (?:To confirm · )?0 loaded · where status=CONFIRMED$[\s\S]*nothing matches the filter/m);
    // A field the bookings do not have is refused in the pane, in one line.
    term.send('dfilter', '/');
    await term.waitFor('dfilter', /^\/status=CONFIRMED▏/m);
    term.send('dfilter', 'C-u');
    term.send('dfilter', '-l', 'nosuchfield=1');
    term.send('dfilter', 'Enter');
    await term.waitFor('dfilter', /^✗ .*nosuchfield/m);
    term.send('dfilter', 'q');
    await term.waitFor('dfilter', /EXIT=0/);
  });
});

describe.skipIf(!hasTmux)('browsable tables in a real terminal (tmux)', () => {
  it('marks two pending members and approves them through the bulk engine, with its plan and confirmation in the UI', async () => {
    term.start('members', ['members', 'list', '--interactive', '--status', 'PENDING'], { width: 120, height: 30 });
    // The title names the filter as typed (--status PENDING): wait for the rows themselves.
    const table = await term.waitFor('members', /members · [\d,]+(?:\+| of [\d,]+)? loaded[\s\S]*^> .*PENDING/m);
    const ids = rowIds(table).slice(0, 2);
    expect(ids).toHaveLength(2);
    term.send('members', 'Space');
    await term.waitFor('members', /1 marked/);
    term.send('members', 'Space');
    await term.waitFor('members', /2 marked/);
    term.send('members', 'a');
    const plan = await term.waitFor('members', /^\? Approve 2 members\?.*\n {2}\(y\/n\)$/m);
    expect(plan).toMatch(/Plan: 2 to approve/);
    term.send('members', 'y');
    await term.waitFor('members', /✓ 2 members: 2 approved/);
    for (const id of ids) expect(await field('members', id, 'status')).toBe('APPROVED');

    // enter opens the detail view; / filters the loaded rows.
    term.send('members', 'Enter');
    await term.waitFor('members', /^login e-mail\s+\S+@/m);
    // The table is back before the next key: ESC and / read together would be one alt-/ key.
    term.send('members', 'Escape');
    await term.waitFor('members', /space mark/);
    // The filter the list started with (--status PENDING) is on the filter line, to edit; Ctrl-U clears it.
    term.send('members', '/');
    await term.waitFor('members', /^\/--status PENDING▏/m);
    term.send('members', 'C-u');
    await term.waitFor('members', /^\/▏/m);
    term.send('members', '-l', 'loginEmail=zzz-no-such-member@example.com');
    term.send('members', 'Enter');
    await term.waitFor('members', /nothing matches the filter/);
    term.send('members', 'q');
    await term.waitFor('members', /EXIT=0/);
  });

  it("sorts by a column on the server: S on a table of 500 bookings sorted by ID shows the server's first row, not the loaded rows' first", async () => {
    const r = await runCli(['bookings', 'list', '--sort', 'id:desc', '--limit', '1', '--json', 'id'], { emulator: emu, sandbox });
    expect(r.code, r.stderr).toBe(0);
    const top = (JSON.parse(r.stdout) as Array<{ id: string }>)[0]!.id;
    // From long ago: the interactive table otherwise opens at today, and the top row is of every booking.
    term.start('sort', ['browse', 'bookings', '--sort', 'id', '--from', '2000-01-01'], { width: 120, height: 30 });
    // The bookings' pages carry no total (cursor paging): the count is the family's count call's.
    const first = await term.waitFor('sort', /100 of [\d,]+ loaded.* · sort ID ↑[\s\S]*^> /m);
    expect(rowIds(first)).not.toContain(top.slice(0, 8));
    term.send('sort', 'S');
    const sorted = await term.waitFor('sort', /sort ID ↓(?: ·.*)?$[\s\S]*^> /m);
    expect(cursorId(sorted)).toBe(top.slice(0, 8));
    // CONTACT is a name or an e-mail, not one field: the loaded rows are sorted, and the title says so.
    term.send('sort', 's', 's', 's');
    await term.waitFor('sort', /sort CONTACT ↑ \(loaded rows\)/);
    term.send('sort', 'q');
    await term.waitFor('sort', /EXIT=0/);
  });

  it('works at 80x24 with NO_COLOR and TERM=dumb, filters on the server with field=value, fits a resized window, and Ctrl-C exits 130', async () => {
    term.start('dumb', ['browse', 'bookings'], { width: 80, height: 24, env: { NO_COLOR: '1', TERM: 'dumb' } });
    const screen = await term.waitFor('dumb', /bookings · 100(?:\+| of [\d,]+) loaded/);
    const lines = screen.split('\n');
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    // At 80 columns the id gives way: the start time comes first, whole.
    // The short id first (a key column), then the start on the site's clock.
    expect(screen).toMatch(/^> {2}[0-9a-f]{8} {2}(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:\d\d /m);
    // The filter line holds the table's own filter as a flag (--from today); Ctrl-U clears it before typing another.
    term.send('dumb', '/');
    await term.waitFor('dumb', /^\/--from today▏/m);
    term.send('dumb', 'C-u');
    term.send('dumb', '-l', 'status=CANCELED');
    term.send('dumb', 'Enter');
    // The rows, not only the title: a frame can be caught half drawn, its new title above the old body.
    const filtered = await term.waitFor('dumb', /where status=CANCELED[\s\S]*^> /m);
    const statuses = filtered.split('\n').filter((l) => /^[> ][ *] [0-9a-f]{8} +\S+ \d\d:\d\d /.test(l));
    expect(statuses.length).toBeGreaterThan(0);
    for (const l of statuses) expect(l).toMatch(/CANCELED/);
    // A smaller window: the table is drawn again to fit, dropping the columns that go first.
    // 72 columns: the short id, and a start past the next 7 days as `2026-10-29 08:00` (the one time rule), whole.
    term.resize('dumb', 72, 12);
    const small = await term.waitFor('dumb', /^(?=.{0,72}$) {3}ID\s+START↑?\s+SERVICE\s+CONTACT\s+STATUS/m);
    expect(small.split('\n').every((l) => l.length <= 72)).toBe(true);
    expect(small.split('\n').filter((l) => /^[> ][ *] [0-9a-f]{8} +\S+ \d\d:\d\d /.test(l)).length).toBeLessThanOrEqual(12 - 5);
    term.send('dumb', 'C-c');
    await term.waitFor('dumb', /EXIT=130/);
  });
});
