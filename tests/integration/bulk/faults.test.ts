/**
 * `services update --filter` through the built CLI against an emulator with 2,000 services and about 20 % of
 * requests faulted: 500/503 before or after the commit, dropped connections, 429 with Retry-After. Every
 * service must be updated exactly once: revision +1, the value set, one `service_updated` event.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runCli, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
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

describe('bulk update under faults', () => {
  it('updates 2,000 services exactly once with 20 % injected 5xx/429/drops', async () => {
    const before = await allServices(emu);
    expect(before.size).toBe(2000);
    const seq = await lastEventSeq(emu);
    // Six requests a second at most: the plan's page reads alone come faster than that even on a busy machine, so
    // the 429s fire at any speed (at twelve, a loaded machine's run could stay under the limit).
    await setFaults(emu, { errorRate: 0.15, errorPhase: 'random', dropRate: 0.05, rateLimitPerSec: 6, retryAfterSec: 1, seed: 42 });
    const journal = join(sandbox.stateDir, 'faults.ndjson');
    const r = await runCli(
      ['--debug', 'services', 'update', '--filter', '{}', '--set', 'description=Updated under faults', '--yes', '--json', '--journal', journal],
      { emulator: emu, sandbox, timeoutMs: 55_000 },
    );
    await setFaults(emu, { errorRate: 0, dropRate: 0, rateLimitPerSec: 0 });
    expect(r.stderr).toContain(`journal: ${journal}`);
    expect(r.code, r.stderr).toBe(0);
    // The faults fired and were survived (the --debug trace shows each failed attempt).
    expect(r.stderr).toMatch(/^debug: < POST \S+ 50[03] /m);
    expect(r.stderr).toMatch(/^debug: < POST \S+ 429 /m);
    expect(r.stderr).toMatch(/^debug: < POST \S+ failed after/m);
    const report = JSON.parse(r.stdout);
    expect(report.counts.updated).toBe(2000);
    expect(report.counts.conflict + report.counts.failed).toBe(0);

    const after = await allServices(emu);
    const updates = await updatesPerService(emu, seq);
    for (const [id, old] of before) {
      const now = after.get(id)!;
      expect(now.description).toBe('Updated under faults');
      expect(Number(now.revision)).toBe(Number(old.revision) + 1);
      expect(updates.get(id) ?? 0).toBe(1);
    }
    const lines = readFileSync(journal, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ kind: 'header', action: 'update', args: { filter: {}, mask: 'description' } });
    expect(lines.filter((l) => l.kind === 'planned')).toHaveLength(2000);
    expect(new Set(lines.filter((l) => l.kind === 'result' && l.outcome === 'updated').map((l) => l.id)).size).toBe(2000);
    expect(lines[lines.length - 1]).toMatchObject({ kind: 'end', status: 'done' });
  });
});
