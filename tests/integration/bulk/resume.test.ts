/**
 * A bulk update killed with SIGKILL in the middle of its run, then `--resume`d from its journal: every service
 * ends up updated exactly once (revision +1, one `service_updated` event), including the chunk that was in
 * flight when the process died (committed by the platform, never journaled).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, cliEnv, createCliSandbox, repoRoot, runCli, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
import { allServices, lastEventSeq, setFaults, updatesPerService } from './support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 2000 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

function resultLines(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.includes('"kind":"result"')).length;
}

/** Polls `check` every 20 ms until it is true; fails after `ms`. */
async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('SIGKILL mid-run, then --resume', () => {
  it('finishes the run with every service updated exactly once', async () => {
    const before = await allServices(emu);
    const seq = await lastEventSeq(emu);
    // Slow replies (after the commit) so the run is still going when it is killed.
    await setFaults(emu, { latencyMs: 120, errorRate: 0, dropRate: 0, rateLimitPerSec: 0 });
    const journal = join(sandbox.stateDir, 'killed.ndjson');
    const child = spawn(
      process.execPath,
      [binPath, 'services', 'update', '--filter', '{}', '--set', 'tagLine=resumed after kill', '--yes', '--concurrency', '2', '--journal', journal],
      { cwd: repoRoot, env: cliEnv(sandbox, emu), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    try {
      await waitFor(() => resultLines(journal) >= 600, 40_000, `600 results in the journal\n${stderr}`);
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');
    await setFaults(emu, { latencyMs: 0 });

    const done = resultLines(journal);
    expect(done).toBeGreaterThanOrEqual(600);
    expect(done).toBeLessThan(2000);
    expect(readFileSync(journal, 'utf8')).not.toContain('"kind":"end"');
    // Committed by the platform >= journaled: the chunks in flight at the kill were applied but not recorded.
    const committed = (await updatesPerService(emu, seq)).size;
    expect(committed).toBeGreaterThanOrEqual(done);

    const r = await runCli(['services', 'update', '--resume', journal, '--yes', '--json'], { emulator: emu, sandbox, timeoutMs: 50_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`resuming journal: ${journal}`);
    const report = JSON.parse(r.stdout);
    expect(report.counts.updated).toBe(2000);
    expect(report.problems).toEqual([]);

    const after = await allServices(emu);
    const updates = await updatesPerService(emu, seq);
    for (const [id, old] of before) {
      const now = after.get(id)!;
      expect(now.tagLine).toBe('resumed after kill');
      expect(Number(now.revision)).toBe(Number(old.revision) + 1);
      expect(updates.get(id) ?? 0).toBe(1);
    }
    // Resuming a finished run changes nothing more.
    const again = await runCli(['services', 'update', '--resume', journal, '--yes', '--json'], { emulator: emu, sandbox });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).counts.updated).toBe(2000);
    expect((await updatesPerService(emu, seq)).size).toBe(2000);
    expect([...(await updatesPerService(emu, seq)).values()].every((n) => n === 1)).toBe(true);
  });
});
