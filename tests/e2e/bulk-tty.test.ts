/**
 * The bulk update in a real terminal: tmux runs the built CLI in a 120x40 pane; the test reads the pane
 * (`capture-pane -p`) and types (`send-keys`). It sees the preview, the Ink confirm prompt, answers it, sees
 * the progress bar and the summary; and it interrupts a run with Ctrl-C and sees the resume command.
 * Skipped, with a message, only when tmux is not installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, cliEnv, createCliSandbox, repoRoot, runCli, startTestEmulator, type CliSandbox, type TestEmulator } from '../helpers/index.js';
import { allServices, lastEventSeq, setFaults, updatesPerService } from '../integration/bulk/support.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
if (!hasTmux) console.warn('tests/e2e/bulk-tty.test.ts: tmux is not installed; skipping the real-terminal tests');

/** A private tmux server, so the tests never touch the user's sessions. */
const socket = `sitectl-e2e-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });

let emu: TestEmulator;
let sandbox: CliSandbox;

beforeAll(async () => {
  if (!hasTmux) return;
  emu = await startTestEmulator({ seed: 'demo', size: 300 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  if (!hasTmux) return;
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  await emu?.close();
  sandbox?.cleanup();
});

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Starts `sitectl ARGS` in a new detached session; the shell prints EXIT=<code> when it ends. */
function startInPane(session: string, args: string[]): void {
  const env = cliEnv(sandbox, emu, { CI: undefined, NO_COLOR: undefined, TERM: 'xterm-256color' });
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v ?? '')}`);
  const command = `env -i ${assignments.join(' ')} ${shellQuote(process.execPath)} ${shellQuote(binPath)} ${args.map(shellQuote).join(' ')}; echo EXIT=$?; sleep 600`;
  tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '40', '-c', repoRoot, command);
}

const pane = (session: string) => tmux('capture-pane', '-p', '-t', session);

/** Polls the pane until `pattern` shows up; fails with the pane's text after `ms`. */
async function waitForPane(session: string, pattern: RegExp, ms = 20_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = pane(session);
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`pane never showed ${pattern}:\n${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!hasTmux)('bulk update in a real terminal (tmux)', () => {
  it('shows the preview and the prompt, takes "y", draws the progress bar and the summary', async () => {
    const seq = await lastEventSeq(emu);
    startInPane('confirm', ['services', 'update', '--filter', '{}', '--set', 'description=typed yes']);
    const prompt = await waitForPane('confirm', /\? Update 300 services\?\s+Yes\s+\/\s+No/);
    expect(prompt).toMatch(/Plan: 300 services to update/);
    expect(prompt).toMatch(/ID\s+NAME\s+description/);
    expect(prompt).toMatch(/-> typed yes/);
    expect(prompt).not.toMatch(/EXIT=/);
    tmux('send-keys', '-t', 'confirm', 'y');
    const done = await waitForPane('confirm', /EXIT=\d+/);
    expect(done).toMatch(/✓ Update 300 services\? yes/);
    expect(done).toMatch(/Updating █+ 300\/300\s+100%/);
    expect(done).toMatch(/300 services: 300 updated/);
    expect(done).toMatch(/EXIT=0/);
    const updates = await updatesPerService(emu, seq);
    expect(updates.size).toBe(300);
  });

  it('answering "n" changes nothing', async () => {
    const seq = await lastEventSeq(emu);
    startInPane('decline', ['services', 'update', '--filter', '{}', '--set', 'description=typed no']);
    await waitForPane('decline', /\? Update 300 services\?/);
    tmux('send-keys', '-t', 'decline', 'n');
    const done = await waitForPane('decline', /EXIT=\d+/);
    expect(done).toMatch(/Update 300 services\? no/);
    expect(done).toMatch(/Nothing was changed/);
    expect(done).toMatch(/EXIT=1/);
    expect((await updatesPerService(emu, seq)).size).toBe(0);
  });

  it('Ctrl-C stops cleanly, prints the resume command, and --resume finishes the run once', async () => {
    const seq = await lastEventSeq(emu);
    const journal = join(sandbox.stateDir, 'interrupted.ndjson');
    await setFaults(emu, { latencyMs: 150 });
    startInPane('interrupt', ['services', 'update', '--filter', '{}', '--set', 'tagLine=after ctrl-c', '--concurrency', '1', '--journal', journal]);
    await waitForPane('interrupt', /\? Update 300 services\?/);
    tmux('send-keys', '-t', 'interrupt', 'y');
    await waitForPane('interrupt', /Updating \S* ?[█░]+ [1-9]\d*\/300/);
    tmux('send-keys', '-t', 'interrupt', 'C-c');
    const stopped = await waitForPane('interrupt', /EXIT=\d+/);
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
