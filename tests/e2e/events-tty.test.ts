/**
 * `sitectl events` in a real terminal (tmux runs the built CLI): a live table, newest first. An event made by
 * another process appears in it; enter shows its entity as JSON; q exits 0. With `--forward-to`, each row shows
 * its delivery (a receiver that fails once: retried, then 200); 80x24 with NO_COLOR and TERM=dumb, a resize,
 * Ctrl-C exits 130. The bookings confirmed are the file's own (a studio of its own, tests/helpers/studio.ts), so
 * the verdict is the same at any hour. Every wait is for screen content. Skipped, with a message, only when tmux
 * is not installed.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, makeStudio, runCli, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../helpers/index.js';
import { hasTmux, openTerminal, type Terminal } from '../helpers/tmux.js';
import { lastEventSeq } from '../integration/bulk/support.js';

if (!hasTmux) console.warn('tests/e2e/events-tty.test.ts: tmux is not installed; skipping the real-terminal tests');

let emu: TestEmulator;
let sandbox: CliSandbox;
let term: Terminal;

/** The file's own bookings awaiting confirmation (two days ahead or more), one for each test to confirm. */
const pending: string[] = [];
beforeAll(async () => {
  if (!hasTmux) return;
  emu = await startTestEmulator({ seed: 'demo' });
  sandbox = createCliSandbox();
  term = openTerminal(sandbox, emu);
  const studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, sandbox, ...o }), 'events');
  const service = await studio.appointment();
  for (let i = 0; i < 2; i++) pending.push((await studio.book(service.name)).id);
});
afterAll(async () => {
  if (!hasTmux) return;
  term?.close();
  await emu?.close();
  sandbox?.cleanup();
});

async function confirm(id: string): Promise<void> {
  const r = await runCli(['bookings', 'confirm', id], { emulator: emu, sandbox });
  expect(r.code, r.stderr).toBe(0);
}

describe.skipIf(!hasTmux)('sitectl events in a real terminal (tmux)', () => {
  it('shows an event made by another process in the live table, its entity as JSON on enter, and q exits 0', async () => {
    term.start('follow', ['events', '--follow'], { width: 100, height: 30 });
    await term.waitFor('follow', /events · following · 0 loaded[\s\S]*waiting for events after #\d+/);
    const id = pending[0]!;
    await confirm(id);
    const t0 = Date.now();
    const row = await term.waitFor('follow', new RegExp(`^> {2}\\d+ +\\d+s ago +booking\\.confirmed +${id.slice(0, 8)}`, 'm'));
    expect(Date.now() - t0).toBeLessThan(4000); // about a second when idle; slack for a loaded machine
    expect(row).toMatch(/^ {3}SEQ {2}WHEN +TYPE +ENTITY ID/m);
    term.send('follow', 'Enter');
    const detail = await term.waitFor('follow', /^entity id /m);
    expect(detail).toMatch(new RegExp(`^entity id +${id}`, 'm'));
    // The booking (its slot names the staff member and the location) is longer than the pane: pgdn scrolls to its status.
    term.send('follow', 'NPage');
    await term.waitFor('follow', /^ +"status": "CONFIRMED",/m);
    term.send('follow', 'Escape');
    await term.waitFor('follow', /q quit/);
    term.send('follow', 'q');
    const end = await term.waitFor('follow', /EXIT=0/);
    expect(end).toMatch(/last event shown: #\d+/);
  });

  it('shows each delivery of --forward-to in the table, at 80x24 with NO_COLOR and TERM=dumb, fits a resize, and Ctrl-C exits 130', async () => {
    let calls = 0;
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(++calls === 1 ? 503 : 200).end('ok'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
    try {
      // The events after this one: the booking confirmed here, not the studio's making of its bookings.
      const seq = await lastEventSeq(emu);
      const id = pending[1]!;
      await confirm(id);
      term.start('forward', ['events', '--type', 'booking.*', '--since', String(seq), '--forward-to', url], { width: 80, height: 24, env: { NO_COLOR: '1', TERM: 'dumb' } });
      const screen = await term.waitFor('forward', new RegExp(`^> .*booking\\.confirmed +${id.slice(0, 8)} +200 \\(2 tries\\)`, 'm'));
      expect(screen).toMatch(/^ {3}SEQ {2}WHEN +TYPE +ENTITY ID {2}DELIVERY/m);
      expect(screen.split('\n').every((l) => l.length <= 80)).toBe(true);
      expect(calls).toBe(2);
      term.resize('forward', 50, 12);
      // The time goes first (the column engine keeps what still fits, and › says columns are hidden).
      const small = await term.waitFor('forward', /^ {3}SEQ {2}TYPE +(ENTITY ID +)?DELIVERY +›$/m);
      expect(small.split('\n').every((l) => l.length <= 50)).toBe(true);
      term.send('forward', 'C-c');
      await term.waitFor('forward', /EXIT=130/);
    } finally {
      server.close();
    }
  });
});
