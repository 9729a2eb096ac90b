/**
 * The bulk update in a real terminal: tmux runs the built CLI in a 120x40 pane; the test reads the pane
 * (`capture-pane -p`) and types (`send-keys`). It sees the preview, the Ink confirm prompt, answers it, sees
 * the progress bar and the summary; and it interrupts a run with Ctrl-C and sees the resume command.
 * Skipped, with a message, only when tmux is not installed.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runCli, startTestEmulator, type CliSandbox, type TestEmulator } from '../helpers/index.js';
import { hasTmux, openTerminal, type Terminal } from '../helpers/tmux.js';
import { allServices, lastEventSeq, setFaults, updatesPerService } from '../integration/bulk/support.js';

if (!hasTmux) console.warn('tests/e2e/bulk-tty.test.ts: tmux is not installed; skipping the real-terminal tests');

let emu: TestEmulator;
let sandbox: CliSandbox;
let term: Terminal;

beforeAll(async () => {
  if (!hasTmux) return;
  emu = await startTestEmulator({ seed: 'demo', size: 300 });
  sandbox = createCliSandbox();
  term = openTerminal(sandbox, emu);
});
afterAll(async () => {
  if (!hasTmux) return;
  term?.close();
  await emu?.close();
  sandbox?.cleanup();
});

describe.skipIf(!hasTmux)('bulk update in a real terminal (tmux)', () => {
  it('shows the preview and the prompt, takes "y", draws the progress bar and the summary', async () => {
    const seq = await lastEventSeq(emu);
    term.start('confirm', ['services', 'update', '--filter', '{}', '--set', 'description=typed yes']);
    const prompt = await term.waitFor('confirm', /\? Update 300 services\?\s+Yes\s+\/\s+No/);
    expect(prompt).toMatch(/Plan: 300 services to update/);
    expect(prompt).toMatch(/ID\s+NAME\s+description/);
    expect(prompt).toMatch(/-> typed yes/);
    expect(prompt).not.toMatch(/EXIT=/);
    term.send('confirm', 'y');
    const done = await term.waitFor('confirm', /EXIT=\d+/);
    expect(done).toMatch(/✓ Update 300 services\? yes/);
    expect(done).toMatch(/Updating █+ 300\/300\s+100%/);
    expect(done).toMatch(/300 services: 300 updated/);
    expect(done).toMatch(/EXIT=0/);
    const updates = await updatesPerService(emu, seq);
    expect(updates.size).toBe(300);
  });

  it('answering "n" changes nothing', async () => {
    const seq = await lastEventSeq(emu);
    term.start('decline', ['services', 'update', '--filter', '{}', '--set', 'description=typed no']);
    await term.waitFor('decline', /\? Update 300 services\?/);
    term.send('decline', 'n');
    const done = await term.waitFor('decline', /EXIT=\d+/);
    expect(done).toMatch(/Update 300 services\? no/);
    expect(done).toMatch(/canceled: nothing was changed/);
    expect(done).toMatch(/EXIT=1/);
    expect((await updatesPerService(emu, seq)).size).toBe(0);
  });

  it('Ctrl-C stops cleanly, prints the resume command, and --resume finishes the run once', async () => {
    const seq = await lastEventSeq(emu);
    const journal = join(sandbox.stateDir, 'interrupted.ndjson');
    await setFaults(emu, { latencyMs: 150 });
    term.start('interrupt', ['services', 'update', '--filter', '{}', '--set', 'tagLine=after ctrl-c', '--concurrency', '1', '--journal', journal]);
    await term.waitFor('interrupt', /\? Update 300 services\?/);
    term.send('interrupt', 'y');
    await term.waitFor('interrupt', /Updating \S* ?[█░]+ [1-9]\d*\/300/);
    term.send('interrupt', 'C-c');
    const stopped = await term.waitFor('interrupt', /EXIT=\d+/);
    await setFaults(emu, { latencyMs: 0 });
    expect(stopped).toMatch(new RegExp(`resume with: ./bin/sitectl.js services update --resume ${journal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(stopped).toMatch(/EXIT=130/);

    const r = await runCli(['services', 'update', '--resume', journal, '--yes', '--json'], { emulator: emu, sandbox });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).counts.updated).toBe(300);
    const updates = await updatesPerService(emu, seq);
    const services = await allServices(emu);
    expect(updates.size).toBe(300);
    for (const [id, n] of updates) {
      expect(n).toBe(1);
      expect(services.get(id)?.tagLine).toBe('after ctrl-c');
    }
  });
});
