/**
 * Bulk confirm of bookings by filter through the built CLI
 * (docs/architecture.md "Bulk runs, the journal, history and undo"): under about 20 % injected faults (5xx before
 * or after the commit, dropped connections, 429), and killed with SIGKILL mid-run then `--resume`d. The targets
 * are bookings awaiting confirmation (CREATED) that the file makes among the demo data's, selected by their
 * service or their contact: every targeted booking ends CONFIRMED with exactly one `booking.confirmed` event;
 * nothing else is touched.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, cliEnv, createCliSandbox, repoRoot, runCli, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';
import { eventsAfter, lastEventSeq, setFaults } from './support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
/** The file's own staff and services: the bookings confirmed here are made here, at any hour. */
let studio: Studio;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  sandbox = createCliSandbox();
  // Made in process: quicker than the built CLI, and the same emulator.
  studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, sandbox, ...o }), 'bulk-confirm');
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

/** `n` new CREATED bookings of the studio's `service` for `email`: their ids. */
async function created(service: string, n: number, email: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await studio.book(service, { email })).id);
  return ids;
}

/** Ids of the bookings `bookings list` selects with `select`, read in process. */
async function listed(select: string[]): Promise<string[]> {
  const r = await runInProcess(['bookings', 'list', ...select, '--all', '--json', 'id'], { emulator: emu, sandbox });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ id: string }>).map((b) => b.id);
}

/** `booking.confirmed` events per booking id since `seq`, and every booking any event touched. */
async function confirmations(seq: number): Promise<{ confirmed: Map<string, number>; touched: Set<string> }> {
  const confirmed = new Map<string, number>();
  const touched = new Set<string>();
  for (const e of await eventsAfter(emu, seq)) {
    if (!e.type.startsWith('booking.')) continue;
    touched.add(e.entityId);
    if (e.type === 'booking.confirmed') confirmed.set(e.entityId, (confirmed.get(e.entityId) ?? 0) + 1);
  }
  return { confirmed, touched };
}

function resultLines(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.includes('"kind":"result"')).length;
}

describe('bookings confirm by filter', () => {
  it('confirms every CREATED booking of a service exactly once under 20 % faults', async () => {
    const { name, id: service } = await studio.appointment();
    const targets = await created(name, 40, 'faults@example.com');
    // One of the service's bookings already confirmed: the status leaves it out.
    await studio.book(name, { email: 'faults@example.com', confirmed: true });
    expect((await listed(['--service', service, '--status', 'CREATED'])).sort()).toEqual([...targets].sort());
    const seq = await lastEventSeq(emu);
    await setFaults(emu, { errorRate: 0.15, errorPhase: 'random', dropRate: 0.05, rateLimitPerSec: 80, retryAfterSec: 1, seed: 7 });
    const journal = join(sandbox.stateDir, 'confirm-faults.ndjson');
    const r = await runCli(['--debug', 'bookings', 'confirm', '--service', service, '--status', 'CREATED', '--yes', '--json', '--journal', journal], { emulator: emu, sandbox, timeoutMs: 80_000 });
    await setFaults(emu, { errorRate: 0, dropRate: 0, rateLimitPerSec: 0 });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.stderr).toMatch(/^debug: < POST \S+ 50[03] /m);
    const report = JSON.parse(r.stdout);
    expect(report.counts.confirmed).toBe(targets.length);
    const { confirmed, touched } = await confirmations(seq);
    for (const id of targets) expect(confirmed.get(id), id).toBe(1);
    expect([...touched].filter((id) => !targets.includes(id))).toEqual([]);
    expect(await listed(['--service', service, '--status', 'CREATED'])).toEqual([]);
  });

  it('killed mid-run with SIGKILL, then --resume: every target confirmed exactly once', async () => {
    // A contact's bookings of two services: the run selects by the contact, not by a service.
    const [first, second] = [(await studio.appointment()).name, (await studio.appointment({ minutes: 30 })).name];
    const targets = [...(await created(first, 20, 'killed@example.com')), ...(await created(second, 20, 'killed@example.com'))];
    expect((await listed(['--contact', 'killed@example.com', '--status', 'CREATED'])).sort()).toEqual([...targets].sort());
    const seq = await lastEventSeq(emu);
    await setFaults(emu, { latencyMs: 80 });
    const journal = join(sandbox.stateDir, 'confirm-killed.ndjson');
    const child = spawn(process.execPath, [binPath, 'bookings', 'confirm', '--contact', 'killed@example.com', '--status', 'CREATED', '--yes', '--concurrency', '2', '--journal', journal], {
      cwd: repoRoot,
      env: cliEnv(sandbox, emu),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    try {
      const deadline = Date.now() + 40_000;
      while (resultLines(journal) < 20 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');
    await setFaults(emu, { latencyMs: 0 });
    const done = resultLines(journal);
    expect(done).toBeGreaterThanOrEqual(20);
    expect(done).toBeLessThan(targets.length);

    const r = await runCli(['bookings', 'confirm', '--resume', journal, '--yes', '--json'], { emulator: emu, sandbox, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).counts.confirmed).toBe(targets.length);
    const { confirmed } = await confirmations(seq);
    for (const id of targets) expect(confirmed.get(id), id).toBe(1);
    expect(confirmed.size).toBe(targets.length);
  });
});
