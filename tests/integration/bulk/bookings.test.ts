/**
 * Bulk confirm of bookings by filter through the built CLI (issue 6 section 4): under about 20 % injected
 * faults (5xx before or after the commit, dropped connections, 429), and killed with SIGKILL mid-run then
 * `--resume`d. Every targeted booking ends CONFIRMED with exactly one `booking.confirmed` event; nothing else
 * is touched.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, cliEnv, createCliSandbox, repoRoot, runCli, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
import { eventsAfter, lastEventSeq, setFaults } from './support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', bookings: 3000 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

/** Ids of bookings with `status`, optionally starting before `before` (ISO), via the extended query. */
async function idsWith(status: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const r = await emu.request('POST', '/_api/bookings-reader/v2/extended-bookings/query', cursor ? { query: { cursorPaging: { cursor } } } : { query: { filter: { status, ...extra }, cursorPaging: { limit: 100 } } });
    ids.push(...r.body.extendedBookings.map((e: { booking: { id: string } }) => e.booking.id));
    cursor = r.body.pagingMetadata.cursors.next ?? undefined;
  } while (cursor);
  return ids;
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
  it('confirms every CREATED booking of the next 15 days exactly once under 20 % faults', async () => {
    const cut = new Date(Date.now() + 15 * 86_400_000).toISOString();
    const targets = await idsWith('CREATED', { startDate: { $lt: cut } });
    expect(targets.length).toBeGreaterThan(60);
    const seq = await lastEventSeq(emu);
    await setFaults(emu, { errorRate: 0.15, errorPhase: 'random', dropRate: 0.05, rateLimitPerSec: 80, retryAfterSec: 1, seed: 7 });
    const journal = join(sandbox.stateDir, 'confirm-faults.ndjson');
    const r = await runCli(['--debug', 'bookings', 'confirm', '--status', 'CREATED', '--to', cut, '--yes', '--json', '--journal', journal], { emulator: emu, sandbox, timeoutMs: 80_000 });
    await setFaults(emu, { errorRate: 0, dropRate: 0, rateLimitPerSec: 0 });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.stderr).toMatch(/^debug: < POST \S+ 50[03] /m);
    const report = JSON.parse(r.stdout);
    expect(report.counts.confirmed).toBe(targets.length);
    const { confirmed, touched } = await confirmations(seq);
    for (const id of targets) expect(confirmed.get(id), id).toBe(1);
    expect([...touched].filter((id) => !targets.includes(id))).toEqual([]);
    expect(await idsWith('CREATED', { startDate: { $lt: cut } })).toEqual([]);
  });

  it('killed mid-run with SIGKILL, then --resume: every target confirmed exactly once', async () => {
    const targets = await idsWith('CREATED');
    expect(targets.length).toBeGreaterThan(50);
    const seq = await lastEventSeq(emu);
    await setFaults(emu, { latencyMs: 80 });
    const journal = join(sandbox.stateDir, 'confirm-killed.ndjson');
    const child = spawn(process.execPath, [binPath, 'bookings', 'confirm', '--status', 'CREATED', '--yes', '--concurrency', '2', '--journal', journal], {
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
