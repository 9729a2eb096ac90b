/**
 * A bulk plan is spilled to its journal as it is read: while the targets stream in, the plan's
 * lines are already on disk under a temporary name that history does not list; the journal takes its own name
 * once the run goes ahead (the confirm sees it complete), a run with nothing to do or declined leaves no file,
 * and a run stopped at the confirm resumes from the spilled journal with every item sent once.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { parseSets } from '../../../src/bulk/changes.js';
import { readJournal } from '../../../src/bulk/journal-read.js';
import type { EntityPort } from '../../../src/bulk/port.js';
import { readRunJournal, runBulk, type BulkRunHooks, type BulkRunRequest } from '../../../src/bulk/run.js';
import { servicesPort, updateServices } from '../../../src/commands/services/shared/bulk.js';
import { SERVICE_VIEW } from '../../../src/commands/services/shared/view.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { lastEventSeq, updatesPerService } from './support.js';

let emu: TestEmulator;
let api: ApiClient;
let dir: string;

beforeAll(async () => {
  // 250 services: three pages of targets (the services query's page is 100).
  emu = await startTestEmulator({ seed: 'demo', size: 250, bookings: 0, members: 0 });
  api = new ApiClient({ baseUrl: emu.url, credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId: emu.siteId }, maxDelayMs: 50 });
  dir = mkdtempSync(join(tmpdir(), 'sitectl-spill-'));
});
afterAll(async () => {
  await api?.close();
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const base = (over: Partial<BulkRunRequest>): BulkRunRequest => ({
  dryRun: false,
  concurrency: 2,
  previewLimit: 5,
  env: {},
  now: new Date(),
  resumeCommand: (j) => `sitectl services update --resume ${j}`,
  selection: { kind: 'filter', filter: {} },
  ...over,
});
const update = (text: string) => updateServices(api, parseSets([`tagLine=${text}`], SERVICE_VIEW), { set: [{ path: 'tagLine', value: text }] });
/** Each file of the journal directory with its line count. */
const files = () => readdirSync(dir).map((f) => ({ f, lines: readFileSync(join(dir, f), 'utf8').trim().split('\n').length }));

/** The services port, telling `seen` what the journal directory holds each time a page of targets is handed on. */
function watchedPort(seen: { f: string; lines: number }[][]): EntityPort {
  const port = servicesPort(api);
  return {
    ...port,
    async *pages(filter, signal, fields) {
      for await (const page of port.pages(filter, signal, fields)) {
        seen.push(files());
        yield page;
      }
    },
  };
}

describe('a bulk plan spilled to its journal', () => {
  it('is on disk while it is read, under a name history does not list, and complete under its own name at the confirm', async () => {
    const path = join(dir, `run${++n}.ndjson`);
    const seen: { f: string; lines: number }[][] = [];
    let atConfirm: { f: string; lines: number }[] = [];
    let planned = 0;
    const hooks: BulkRunHooks = {
      confirm: async () => {
        atConfirm = files();
        planned = readJournal(path).planned.length;
        return true;
      },
    };
    const seq = await lastEventSeq(emu);
    const result = await runBulk(watchedPort(seen), update('spilled'), base({ journalPath: path }), hooks);
    expect(result.kind).toBe('done');
    // Pages 2 and 3 arrive with the lines of the pages before them already written (header + 100 per page).
    expect(seen.length).toBe(3);
    expect(seen[0]).toEqual([]);
    for (const [i, listing] of seen.slice(1).entries()) {
      expect(listing.length).toBe(1);
      expect(listing[0]!.f).toMatch(/^run\d+\.ndjson\.\d+\.planning$/);
      expect(listing[0]!.f.endsWith('.ndjson')).toBe(false);
      expect(listing[0]!.lines).toBe(1 + 100 * (i + 1));
    }
    expect(atConfirm.map((x) => x.f)).toEqual([`run${n}.ndjson`]);
    expect(planned).toBe(250);
    expect(readJournal(path).planComplete).toBe(true);
    const updates = await updatesPerService(emu, seq);
    expect(updates.size).toBe(250);
    for (const count of updates.values()) expect(count).toBe(1);
    rmSync(path);
  });

  it('leaves no file when declined, when nothing matches, or when every target is already as asked (quietIdle)', async () => {
    const no: BulkRunHooks = { confirm: async () => false };
    expect((await runBulk(servicesPort(api), update('declined'), base({ journalPath: join(dir, 'declined.ndjson') }), no)).kind).toBe('declined');
    const none = base({ journalPath: join(dir, 'none.ndjson'), selection: { kind: 'filter', filter: { name: 'no such service anywhere' } } });
    expect((await runBulk(servicesPort(api), update('none'), none, no)).kind).toBe('empty');
    // Every service already has the tag line of the test above.
    const idle = base({ journalPath: join(dir, 'idle.ndjson'), quietIdle: true });
    expect((await runBulk(servicesPort(api), update('spilled'), idle, no)).kind).toBe('idle');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stopped at the confirm, resumes from the spilled journal: every item sent once', async () => {
    const path = join(dir, `run${++n}.ndjson`);
    const crash = new Error('killed at the prompt');
    await expect(
      runBulk(servicesPort(api), update('resumed'), base({ journalPath: path }), {
        confirm: async () => {
          throw crash;
        },
      }),
    ).rejects.toBe(crash);
    expect(readdirSync(dir)).toEqual([`run${n}.ndjson`]);
    const seq = await lastEventSeq(emu);
    const result = await runBulk(servicesPort(api), update('resumed'), base({ resume: readRunJournal(path, 'services'), selection: undefined }), { confirm: async () => true });
    expect(result.kind).toBe('done');
    if (result.kind !== 'done') return;
    expect(result.report.counts.updated).toBe(250);
    const updates = await updatesPerService(emu, seq);
    expect(updates.size).toBe(250);
    for (const count of updates.values()) expect(count).toBe(1);
  });

  it('is read back from the journal a chunk at a time as the run sends it, and the run keeps no result per item', async () => {
    // Five services already as asked: decided at plan time, journaled as unchanged, never sent.
    const dry = await runBulk(servicesPort(api), update('streamed'), base({ dryRun: true }), { confirm: async () => false });
    const all = [...dry.plan.items].map((i) => i.id);
    expect(all).toHaveLength(250);
    const asAsked = all.slice(10, 15);
    await runBulk(servicesPort(api), update('streamed'), base({ selection: { kind: 'ids', ids: asAsked }, journalPath: join(dir, 'first.ndjson') }), { confirm: async () => true });
    const path = join(dir, `run${++n}.ndjson`);
    // Chunks of 10, two in flight: at most 20 items are between the journal and their results at any time.
    const action = { ...update('streamed'), chunkSize: 10 };
    let pulled = 0;
    let done = 0;
    let mostHeld = 0;
    let sent: string[] = [];
    const hooks: BulkRunHooks = {
      onPlan(info) {
        const items = info.plan.items;
        expect(Array.isArray(items)).toBe(false);
        expect(items.length).toBe(245);
        // The items as the plan read them back from the journal, in plan order, the unchanged ones left out.
        sent = [...items].map((i) => i.id);
        const read = items[Symbol.iterator].bind(items);
        Object.defineProperty(items, Symbol.iterator, {
          value: function* () {
            const it = read();
            for (let step = it.next(); !step.done; step = it.next()) {
              pulled += 1;
              mostHeld = Math.max(mostHeld, pulled - done);
              yield step.value;
            }
          },
        });
      },
      confirm: async () => true,
      progress: () => ({ update: (p) => void (done = p.done), done: async () => undefined }),
    };
    const seq = await lastEventSeq(emu);
    const result = await runBulk(servicesPort(api), action, base({ journalPath: path }), hooks);
    expect(result.kind).toBe('done');
    if (result.kind !== 'done') return;
    expect(sent).toEqual(all.filter((id) => !asAsked.includes(id)));
    expect(pulled).toBe(245);
    expect(mostHeld).toBeGreaterThan(10);
    expect(mostHeld).toBeLessThanOrEqual(20);
    expect(result.results).toBeUndefined();
    expect(result.report.total).toBe(250);
    expect(result.report.counts).toMatchObject({ updated: 245, unchanged: 5, failed: 0 });
    const updates = await updatesPerService(emu, seq);
    expect([...updates.keys()].sort()).toEqual([...sent].sort());
    for (const count of updates.values()) expect(count).toBe(1);
  });
});
