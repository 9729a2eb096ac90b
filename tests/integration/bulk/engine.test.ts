/**
 * The bulk engine in-process against a real emulator (port 0, temp dir) through the real ApiClient: faults
 * that commit and then fail, the recognition of our own earlier attempt, conflicts, resume from a journal.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { servicesPort } from '../../../src/bulk/api-port.js';
import { recognise } from '../../../src/bulk/actions.js';
import { parseSets } from '../../../src/bulk/changes.js';
import { readJournal } from '../../../src/bulk/journal.js';
import { runBulk, type BulkRunHooks } from '../../../src/bulk/run.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { allServices, lastEventSeq, setFaults, updatesPerService } from './support.js';

let emu: TestEmulator;
let api: ApiClient;
let dir: string;
/** Statuses of the failed attempts the client saw (0 = dropped connection), to prove the faults fired. */
const failures: number[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 300 });
  api = new ApiClient({
    baseUrl: emu.url,
    credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId: emu.siteId },
    maxDelayMs: 50,
    onDebug: (line) => {
      const m = /^< \S+ \S+ (?:(\d{3}) |failed after)/.exec(line);
      if (m) failures.push(m[1] ? Number(m[1]) : 0);
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'sitectl-engine-'));
});
afterAll(async () => {
  await api?.close();
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await setFaults(emu, { errorRate: 0, dropRate: 0, latencyMs: 0, rateLimitPerSec: 0 });
});

const yes: BulkRunHooks = { confirm: async () => true };
let journalNo = 0;
const journalPath = () => join(dir, `j${++journalNo}.ndjson`);

describe('bulk engine against the emulator', () => {
  it('recognises its own committed update and reports a concurrent one as a conflict', async () => {
    const services = [...(await allServices(emu)).values()].slice(0, 3);
    const change = parseSets(['description=recognised']);
    // [0]: our update committed (as if the reply was lost); [1]: someone else changed it; [2]: +2 revisions.
    const patch = async (id: string, revision: string, description: string) => {
      const r = await emu.request('PATCH', `/_api/bookings/v2/services/${id}`, { service: { id, revision, description }, mask: 'description' });
      expect(r.status).toBe(200);
      return r.body.service.revision as string;
    };
    await patch(services[0].id, services[0].revision, 'recognised');
    await patch(services[1].id, services[1].revision, 'someone else');
    const mid = await patch(services[2].id, services[2].revision, 'recognised');
    await patch(services[2].id, mid, 'recognised again');
    const results = await recognise(servicesPort(api), services.map((s) => ({ id: s.id, revision: s.revision })), change);
    expect(results.map((r) => r.outcome)).toEqual(['updated', 'conflict', 'conflict']);
    expect(results[1].error).toMatch(/changed by someone else/);
  });

  it('updates every item exactly once under 5xx-after-commit, drops and 429', async () => {
    const before = await allServices(emu);
    const seq = await lastEventSeq(emu);
    await setFaults(emu, { errorRate: 0.2, errorPhase: 'random', dropRate: 0.05, rateLimitPerSec: 8, retryAfterSec: 1, seed: 7 });
    failures.length = 0;
    const path = journalPath();
    const result = await runBulk(
      servicesPort(api),
      {
        action: 'update',
        selection: { kind: 'filter', filter: {} },
        change: parseSets(['description=faulty run']),
        journalPath: path,
        dryRun: false,
        concurrency: 4,
        chunkSize: 25,
        previewLimit: 5,
        env: {},
        now: new Date(),
      },
      yes,
    );
    await setFaults(emu, { errorRate: 0, dropRate: 0, rateLimitPerSec: 0 });
    expect(result.kind).toBe('done');
    if (result.kind !== 'done') return;
    // The faults did fire: 5xx replies, dropped connections and 429s were all met and retried.
    expect(failures.filter((s) => s >= 500).length).toBeGreaterThan(0);
    expect(failures.filter((s) => s === 0).length).toBeGreaterThan(0);
    expect(failures.filter((s) => s === 429).length).toBeGreaterThan(0);
    const after = await allServices(emu);
    const updates = await updatesPerService(emu, seq);
    const changed = [...before.values()].filter((s) => s.description !== 'faulty run');
    expect(result.report.counts.updated).toBe(changed.length);
    expect(result.report.counts.conflict + result.report.counts.failed).toBe(0);
    for (const s of changed) {
      const now = after.get(s.id)!;
      expect(now.description).toBe('faulty run');
      expect(Number(now.revision)).toBe(Number(s.revision) + 1);
      expect(updates.get(s.id)).toBe(1);
    }
    const journal = readJournal(path);
    expect(journal.ended).toBe(true);
    expect(journal.results.size).toBe(before.size);
  });

  it('recognises its own object-valued change that the platform completed (formattedValue) after a lost reply', async () => {
    const seq = await lastEventSeq(emu);
    await setFaults(emu, { errorRate: 0.5, errorPhase: 'after', seed: 11 });
    const result = await runBulk(
      servicesPort(api),
      {
        action: 'update',
        selection: { kind: 'filter', filter: { 'payment.rateType': 'FIXED' } },
        change: parseSets(['payment.fixed.price={"value":"45","currency":"USD"}']),
        journalPath: journalPath(),
        dryRun: false,
        concurrency: 2,
        chunkSize: 20,
        previewLimit: 5,
        env: {},
        now: new Date(),
      },
      yes,
    );
    await setFaults(emu, { errorRate: 0 });
    expect(result.kind).toBe('done');
    if (result.kind !== 'done') return;
    expect(result.report.problems).toEqual([]);
    expect(result.report.counts.updated).toBeGreaterThan(20);
    const updates = await updatesPerService(emu, seq);
    expect(updates.size).toBe(result.report.counts.updated);
    expect([...updates.values()].every((n) => n === 1)).toBe(true);
    const after = await allServices(emu);
    for (const id of updates.keys()) {
      expect((after.get(id)!.payment as { fixed: { price: unknown } }).fixed.price).toMatchObject({ value: '45', currency: 'USD', formattedValue: expect.any(String) });
    }
  });

  it('resumes a journal: finished items stay, unfinished ones (even if already applied) complete once', async () => {
    const seq = await lastEventSeq(emu);
    const path = journalPath();
    const change = parseSets(['tagLine=resumed']);
    // Plan, then "crash" at the confirm prompt: the journal holds the plan and no results.
    const crash = new Error('killed');
    await expect(
      runBulk(
        servicesPort(api),
        {
          action: 'update',
          selection: { kind: 'filter', filter: {} },
          change,
          journalPath: path,
          dryRun: false,
          concurrency: 2,
          previewLimit: 5,
          env: {},
          now: new Date(),
        },
        { confirm: async () => { throw crash; } },
      ),
    ).rejects.toBe(crash);
    const planned = readJournal(path).planned;
    expect(planned.length).toBe(300);
    // The first 40 were applied by the "killed" process with its result lines lost.
    for (const p of planned.slice(0, 40)) {
      const r = await emu.request('PATCH', `/_api/bookings/v2/services/${p.id}`, {
        service: { id: p.id, revision: p.revision, tagLine: 'resumed' },
        mask: 'tagLine',
      });
      expect(r.status).toBe(200);
    }
    const result = await runBulk(
      servicesPort(api),
      { action: 'update', resumePath: path, dryRun: false, concurrency: 3, previewLimit: 5, env: {}, now: new Date() },
      yes,
    );
    expect(result.kind).toBe('done');
    if (result.kind !== 'done') return;
    expect(result.report.counts.updated).toBe(300);
    expect(result.report.problems).toEqual([]);
    const updates = await updatesPerService(emu, seq);
    for (const p of planned) expect(updates.get(p.id)).toBe(1);
    expect(readFileSync(path, 'utf8').trim().split('\n')[0]).toContain('"kind":"header"');
  });

  it('refuses to resume a run that stopped while planning, or a journal of another action', async () => {
    const path = journalPath();
    const header = { kind: 'header', runId: 'r', action: 'update', createdAt: new Date().toISOString(), args: { set: [{ path: 'name', value: 'x' }] } };
    writeFileSync(path, `${JSON.stringify(header)}\n${JSON.stringify({ kind: 'planned', id: 'a', revision: '1' })}\n`);
    const req = { action: 'update' as const, resumePath: path, dryRun: false, concurrency: 1, previewLimit: 5, env: {}, now: new Date() };
    await expect(runBulk(servicesPort(api), req, yes)).rejects.toThrow(/stopped while planning; nothing was changed/);
    await expect(runBulk(servicesPort(api), { ...req, action: 'delete' }, yes)).rejects.toThrow(
      /is a journal of `services update`/,
    );
  });
});
