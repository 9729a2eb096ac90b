/**
 * The bulk engine in-process against a real emulator (port 0, temp dir) through the real ApiClient: faults
 * that commit and then fail, the recognition of our own earlier attempt, conflicts, resume from a journal.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { serviceOps } from '../../../src/api/services.js';
import { eachSender, filterJobSender, nextRevision, transitionAction, updateAction } from '../../../src/bulk/actions.js';
import { parseSets, type ChangeSet } from '../../../src/bulk/changes.js';
import { readJournal } from '../../../src/bulk/journal-read.js';
import { fetchByIds } from '../../../src/bulk/port.js';
import { readRunJournal, runBulk, type BulkRunHooks, type BulkRunRequest } from '../../../src/bulk/run.js';
import { servicesPort, updateServices } from '../../../src/commands/services/shared/bulk.js';
import { SERVICE_VIEW } from '../../../src/commands/services/shared/view.js';
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
const sets = (...args: string[]) => parseSets(args, SERVICE_VIEW);
const base = (over: Partial<BulkRunRequest>): BulkRunRequest => ({
  dryRun: false,
  concurrency: 4,
  previewLimit: 5,
  env: {},
  now: new Date(),
  resumeCommand: (j) => `sitectl services update --resume ${j}`,
  ...over,
});
/** The services update action with a smaller chunk (more requests, so more faults meet it). */
// Args of a selection (not the single form, which sends each service's own PATCH): the runs below select by filter.
const update = (change: ChangeSet, chunkSize: number) => ({ ...updateServices(api, change, { set: change.sets, filter: {} }), chunkSize });

describe('bulk engine against the emulator', () => {
  it('recognises its own committed update and reports a concurrent one as a conflict', async () => {
    const services = [...(await allServices(emu)).values()].slice(0, 3);
    const change = sets('description=recognised');
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
    const settle = update(change, 100).runner(servicesPort(api)).settle!;
    const results = await settle(services.map((s) => ({ item: { id: s.id, revision: s.revision }, sent: { id: s.id, status: 'refused', error: '409' } })));
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
      update(sets('description=faulty run'), 25),
      base({ selection: { kind: 'filter', filter: {} }, journalPath: path }),
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
    // The report counts every target, those already as asked (decided at plan time) too.
    expect(result.report.total).toBe(before.size);
    expect(result.report.counts.unchanged).toBe(before.size - changed.length);
    const again = await runBulk(servicesPort(api), update(sets('description=faulty run'), 25), base({ selection: { kind: 'filter', filter: {} }, journalPath: journalPath() }), yes);
    expect(again.kind === 'done' && again.report.total).toBe(before.size);
    expect(again.kind === 'done' && again.report.counts).toMatchObject({ updated: 0, unchanged: before.size });
  });

  it('recognises its own object-valued change that the platform completed (formattedValue) after a lost reply', async () => {
    const seq = await lastEventSeq(emu);
    await setFaults(emu, { errorRate: 0.5, errorPhase: 'after', seed: 11 });
    const result = await runBulk(
      servicesPort(api),
      update(sets('payment.fixed.price={"value":"45","currency":"USD"}'), 20),
      base({ selection: { kind: 'filter', filter: { 'payment.rateType': 'FIXED' } }, journalPath: journalPath(), concurrency: 2 }),
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
    const change = sets('tagLine=resumed');
    // Plan, then "crash" at the confirm prompt: the journal holds the plan and no results.
    const crash = new Error('killed');
    await expect(
      runBulk(servicesPort(api), update(change, 100), base({ selection: { kind: 'filter', filter: {} }, journalPath: path, concurrency: 2 }), {
        confirm: async () => {
          throw crash;
        },
      }),
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
    const result = await runBulk(servicesPort(api), update(change, 100), base({ resume: readRunJournal(path, 'services'), concurrency: 3 }), yes);
    expect(result.kind).toBe('done');
    if (result.kind !== 'done') return;
    expect(result.report.counts.updated).toBe(300);
    expect(result.report.problems).toEqual([]);
    const updates = await updatesPerService(emu, seq);
    for (const p of planned) expect(updates.get(p.id)).toBe(1);
    expect(readFileSync(path, 'utf8').trim().split('\n')[0]).toContain('"kind":"header"');
  });

  it('refuses to resume a run that stopped while planning, or a journal of another entity', async () => {
    const path = journalPath();
    const header = { kind: 'header', runId: 'r', entity: 'services', action: 'update', createdAt: new Date().toISOString(), args: { set: [{ path: 'name', value: 'x' }] } };
    writeFileSync(path, `${JSON.stringify(header)}\n${JSON.stringify({ kind: 'planned', id: 'a', revision: '1' })}\n`);
    await expect(runBulk(servicesPort(api), update(sets('name=x'), 100), base({ resume: readRunJournal(path, 'services') }), yes)).rejects.toThrow(
      /stopped while planning; nothing was changed/,
    );
    expect(() => readRunJournal(path, 'members')).toThrow(/is the journal of a services update run/);
  });

  it('sends per item where no bulk call exists, and settles a by-filter job by reading the planned ids back', async () => {
    const seq = await lastEventSeq(emu);
    const targets = [...(await allServices(emu)).values()].filter((s) => s.hidden !== true).slice(0, 12);
    const ids = targets.map((t) => t.id);
    // A transition "hide" sent one PATCH per item, then the inverse through the by-filter job.
    const hide = transitionAction({
      name: 'hide',
      done: 'hidden',
      title: 'Hiding',
      reached: (s) => (s as { hidden?: boolean }).hidden === true,
      send: eachSender(api, serviceOps.updateService, (item) => ({ service: { id: item.id, revision: item.revision ?? '', hidden: true }, mask: 'hidden' }), (r) => ({ revision: r.service.revision })),
      chunkSize: 1,
      args: {},
    });
    const hidden = await runBulk(servicesPort(api), hide, base({ selection: { kind: 'ids', ids }, journalPath: journalPath() }), yes);
    expect(hidden.kind === 'done' && hidden.report.counts).toMatchObject({ hidden: 12, failed: 0, conflict: 0 });
    const show = updateAction({
      change: sets('hidden=false'),
      chunkSize: 5,
      args: {},
      send: filterJobSender(api, serviceOps.bulkUpdateServicesByFilter, (filter) => ({ filter, service: { hidden: false }, mask: 'hidden' })),
    });
    const shown = await runBulk(servicesPort(api), show, base({ selection: { kind: 'ids', ids }, journalPath: journalPath() }), yes);
    expect(shown.kind === 'done' && shown.report.counts).toMatchObject({ updated: 12, failed: 0, conflict: 0 });
    const after = await allServices(emu);
    for (const t of targets) {
      expect(after.get(t.id)!.hidden).toBe(false);
      expect(after.get(t.id)!.revision).toBe(nextRevision(nextRevision(t.revision)));
    }
    const updates = await updatesPerService(emu, seq);
    for (const id of ids) expect(updates.get(id)).toBe(2);
  });

  it('reads only the fields a run uses: the changed ones for an update, besides id, revision and name', async () => {
    const port = servicesPort(api);
    const firstPage = async (fields?: readonly string[]) => {
      for await (const page of port.pages({}, undefined, fields)) return page as unknown as Record<string, unknown>[];
      throw new Error('no page');
    };
    const full = await firstPage();
    const reads = update(sets('payment.fixed.price.value=45', 'tagLine=x'), 100).reads;
    expect(reads).toEqual(['payment', 'tagLine']);
    const narrow = await firstPage(reads);
    expect(narrow.map((e) => e.id)).toEqual(full.map((e) => e.id));
    expect(Object.keys(full[0]!)).toContain('schedule');
    for (const [i, e] of narrow.entries()) {
      expect(Object.keys(e).every((k) => ['id', 'revision', 'name', 'payment', 'tagLine'].includes(k))).toBe(true);
      const { id, revision, name, payment, tagLine } = full[i]!;
      expect(e).toEqual(JSON.parse(JSON.stringify({ id, revision, name, payment, tagLine })));
    }
    // By ids (the settling read) too.
    const byId = await fetchByIds(port, [full[0]!.id as string], undefined, []);
    expect(Object.keys(byId.get(full[0]!.id as string)!).sort()).toEqual(['id', 'name', 'revision']);
  });

  it('a Ctrl-C during a backoff ends the wait at once and says how to resume', async () => {
    const ids = [...(await allServices(emu)).keys()].slice(0, 3);
    const controller = new AbortController();
    const slowApi = new ApiClient({ baseUrl: emu.url, credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId: emu.siteId }, retries: 0 });
    const action = { ...updateServices(slowApi, sets('tagLine=never'), {}), chunkSize: 100 };
    let started = Date.now();
    const run = runBulk(servicesPort(api), action, base({ selection: { kind: 'ids', ids }, journalPath: journalPath(), signal: controller.signal }), {
      confirm: async () => {
        // Planned; from now on every request fails, so the engine backs off between attempts.
        await setFaults(emu, { errorRate: 1, errorPhase: 'before', seed: 3 });
        started = Date.now();
        setTimeout(() => controller.abort(new DOMException('Interrupted', 'AbortError')), 300);
        return true;
      },
    });
    await expect(run).rejects.toMatchObject({ exitCode: 130, hint: expect.stringMatching(/^resume with: sitectl services update --resume /) });
    // The engine's backoff after the first failed attempt is 500 ms, then 1 s, 2 s: an abort cuts it short.
    expect(Date.now() - started).toBeLessThan(2000);
    await slowApi.close();
  });
});
