/**
 * Faults shown, and recovered, in a real terminal: the dashboard on the built-in `local` profile (the emulator
 * started in the sandbox's data dir, not a test target), the emulator stopped under it and started again on
 * another port. tmux runs the built CLI; every wait is for screen content, and the bounds on time are generous
 * ("within a few seconds"). The row watched is the file's own booking (a studio of its own,
 * tests/helpers/studio.ts), picked out with the filter line, so the verdict is the same at any hour. A message
 * about the disconnection (a key refused while it lasted) goes when the source is back. Skipped, with a message,
 * only when tmux is not installed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, makeStudio, runCli, runInProcess, type CliSandbox } from '../helpers/index.js';
import { hasTmux, openTerminal, type Terminal } from '../helpers/tmux.js';

if (!hasTmux) console.warn('tests/e2e/reconnect-tty.test.ts: tmux is not installed; skipping the real-terminal tests');

let sandbox: CliSandbox;
let term: Terminal;

/** The running local emulator's address, from its pid file. */
function emulatorUrl(): string {
  return (JSON.parse(readFileSync(join(sandbox.dataDir, 'emulator', 'emulator.pid.json'), 'utf8')) as { url: string }).url;
}

async function emulator(...args: string[]): Promise<void> {
  const r = await runCli(['emulator', ...args], { sandbox, timeoutMs: 30_000 });
  expect(r.code, r.stderr).toBe(0);
}

/** The contact's first name of the file's own booking: two days ahead or more, inside the dashboard's 7 days, awaiting confirmation. */
const OWN = 'Quillon';
beforeAll(async () => {
  if (!hasTmux) return;
  sandbox = createCliSandbox();
  await emulator('start', '--detach', '--port', '0');
  term = openTerminal(sandbox);
  // On the built-in `local` profile, as the dashboard is.
  const studio = await makeStudio((args, o) => runInProcess(args, { sandbox, ...o }), 'reconnect');
  const service = await studio.appointment();
  await studio.book(service.name, { firstName: OWN, lastName: 'Owntest', email: 'reconnect@example.com' });
});
afterAll(async () => {
  if (!hasTmux) return;
  term?.close();
  await runCli(['emulator', 'stop'], { sandbox }).catch(() => undefined);
  sandbox?.cleanup();
});

/** The first frame of the dashboard, or one read again after a reconnection: rows, a title neither disconnected nor stale. */
const LIVE = /^sitectl dashboard · (?!.*(?:disconnected|stale)).*$\n\[7 days by staff \d+\][\s\S]*^> [\s\S]*\? help · q quit/m;

describe.skipIf(!hasTmux)('the dashboard when the local emulator stops and starts again on another port (tmux)', () => {
  it('shows "disconnected — retrying", marks its rows stale, refuses a key at once, and recovers by itself; r retries now', async () => {
    const firstUrl = emulatorUrl();
    term.start('dash', ['dashboard', '--interval', '60'], { width: 120, height: 32 });
    await term.waitFor('dash', LIVE);
    // The file's own booking under the cursor, whatever the demo data holds at this hour.
    term.send('dash', '/');
    await term.waitFor('dash', /^\/.*▏/m);
    term.send('dash', 'C-u');
    term.send('dash', '-l', OWN);
    term.send('dash', 'Enter');
    const first = await term.waitFor('dash', new RegExp(`^> .*${OWN}`, 'm'));
    expect(first).toMatch(LIVE);
    const row = /^> .*$/m.exec(first)![0].trim();

    // Stopped: said within a few seconds, the rows still shown and marked stale, the reason on one line.
    await emulator('stop');
    let t0 = Date.now();
    const down = await term.waitFor('dash', /disconnected — retrying/, 10_000);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(down).toMatch(/^sitectl dashboard · disconnected — retrying (\(\ds\)|now) · .*stale/m);
    expect(down).toContain(row);
    expect(down).toMatch(/^✗ no answer from http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED.*$/m);
    expect(down).toMatch(/r retry now · \? help · q quit/);

    // A key action fails at once, with its reason on one line: nothing is sent, no "working…".
    term.send('dash', 'c');
    t0 = Date.now();
    const refused = await term.waitFor('dash', /^✗ confirm: not sent, disconnected \(retrying (in \ds|now); r retries now\)$/m, 5000);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(refused).not.toMatch(/working…/);

    // Started again on another port: the dashboard finds it by itself and reads its panes again.
    await emulator('start', '--detach', '--port', '0');
    expect(emulatorUrl()).not.toBe(firstUrl);
    const back = await term.waitFor('dash', LIVE, 20_000);
    expect(back).toContain(row);
    // The refusal was about the disconnection: it goes with it, not left on screen under a live title.
    expect(back).not.toMatch(/not sent, disconnected/);
    expect(back).not.toMatch(/^✗ /m);

    // Once more, and this time r: it looks the address up and reads now, not at the end of the countdown.
    const secondUrl = emulatorUrl();
    await emulator('stop');
    // The retries space out (1, 2, 3, then 5 s): wait for a long one, so r is seen to cut it short.
    await term.waitFor('dash', /disconnected — retrying \(5s\)/, 20_000);
    await emulator('start', '--detach', '--port', '0');
    expect(emulatorUrl()).not.toBe(secondUrl);
    const waiting = /retrying \((\d)s\)/.exec(term.pane('dash'));
    term.send('dash', 'r');
    t0 = Date.now();
    await term.waitFor('dash', LIVE, 20_000);
    // Had the countdown shown 3 s or more when r was pressed, the dashboard came back before it ran out.
    if (waiting && Number(waiting[1]) >= 3) expect(Date.now() - t0).toBeLessThan((Number(waiting[1]) - 1) * 1000);

    term.send('dash', 'q');
    await term.waitFor('dash', /EXIT=0/);
  });
});
