/**
 * Durability: data survives a clean restart and a SIGKILLed emulator process keeps every change it answered.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { repoRoot } from '../../helpers/index.js';

const HOUR = 3_600_000;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'sitectl-emu-persist-'));
  dirs.push(d);
  return d;
}

async function call(emu: { url: string; apiKey: string; siteId: string }, method: string, path: string, body?: unknown) {
  const res = await fetch(emu.url + path, {
    method,
    headers: { authorization: emu.apiKey, 'wix-site-id': emu.siteId, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('persistence', () => {
  it('keeps data, admin key and site id across close and restart, without reseeding', async () => {
    const dataDir = tempDir();
    const first = await startEmulator({ dataDir, quiet: true, size: 12 });
    const created = await call(first, 'POST', '/v2/services', { service: { name: 'Survivor', type: 'APPOINTMENT' } });
    const s = created.body.service;
    await call(first, 'PATCH', `/v2/services/${s.id}`, { service: { id: s.id, revision: '1', description: 'changed' }, mask: 'description' });
    await first.close();
    expect(statSync(join(dataDir, 'admin-key.json')).mode & 0o777).toBe(0o600);

    const second = await startEmulator({ dataDir, quiet: true, size: 99 });
    try {
      expect(second.apiKey).toBe(first.apiKey);
      expect(second.siteId).toBe(first.siteId);
      expect((await call(second, 'POST', '/v2/services/count', {})).body.count).toBe(13);
      expect((await call(second, 'GET', `/v2/services/${s.id}`)).body.service).toMatchObject({ description: 'changed', revision: '2' });
      const events = (await call(second, 'GET', '/__emulator/events?after=0')).body.events;
      expect(events.map((e: { type: string }) => e.type)).toEqual(['service.created', 'service.updated']);
    } finally {
      await second.close();
    }
  });

  it('a SIGKILLed emulator process keeps every change it acknowledged', async () => {
    const dataDir = tempDir();
    const script = join(dataDir, 'child.mts');
    const entry = join(repoRoot, 'src', 'emulator', 'index.ts');
    writeFileSync(
      script,
      `import { startEmulator } from ${JSON.stringify(entry)};\n` +
        `const emu = await startEmulator({ dataDir: ${JSON.stringify(dataDir)}, quiet: true, size: 5 });\n` +
        `process.stdout.write(JSON.stringify({ url: emu.url, apiKey: emu.apiKey, siteId: emu.siteId }) + '\\n');\n`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    });
    const target = JSON.parse(line) as { url: string; apiKey: string; siteId: string };
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await call(target, 'POST', '/v2/services', { service: { name: `Committed ${i}`, type: 'APPOINTMENT' } });
      expect(r.status).toBe(200);
      ids.push(r.body.service.id);
    }
    const bulk = await call(target, 'POST', '/v2/bulk/services/update', {
      services: ids.slice(0, 10).map((id) => ({ service: { id, revision: '1', hidden: true }, mask: 'hidden' })),
    });
    expect(bulk.body.bulkActionMetadata.totalSuccesses).toBe(10);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const reopened = await startEmulator({ dataDir, quiet: true });
    try {
      expect(reopened.apiKey).toBe(target.apiKey);
      const all = await call(reopened, 'POST', '/v2/services/query', { query: { filter: { name: { $startsWith: 'Committed' } } } });
      expect(all.body.pagingMetadata.total).toBe(20);
      const hidden = all.body.services.filter((s: { hidden: boolean; revision: string }) => s.hidden && s.revision === '2');
      expect(hidden.map((s: { id: string }) => s.id).sort()).toEqual(ids.slice(0, 10).sort());
      expect(readFileSync(join(dataDir, 'admin-key.json'), 'utf8')).toContain(target.siteId);
    } finally {
      await reopened.close();
    }
  });
});

describe('seed', () => {
  it('is deterministic: the same size gives the same services', async () => {
    // A seed's dates follow its hour (the services' createdDate, a class's first session): seed both in one hour.
    const toNextHour = HOUR - (Date.now() % HOUR);
    if (toNextHour < 30_000) await sleep(toNextHour);
    const a = await startEmulator({ dataDir: tempDir(), quiet: true });
    const b = await startEmulator({ dataDir: tempDir(), quiet: true });
    try {
      const qa = await call(a, 'POST', '/v2/services/query', { query: { paging: { limit: 100 } } });
      const qb = await call(b, 'POST', '/v2/services/query', { query: { paging: { limit: 100 } } });
      expect(qa.body.pagingMetadata.total).toBe(60);
      expect(qa.body.services).toEqual(qb.body.services);
      const types = new Set(qa.body.services.map((s: { type: string }) => s.type));
      expect([...types].sort()).toEqual(['APPOINTMENT', 'CLASS', 'COURSE']);
      for (const s of qa.body.services) {
        expect(s.locations.length).toBeGreaterThan(0);
        expect(s.media.mainMedia.image.url).toMatch(/^https:\/\//);
        expect(s.schedule.availabilityConstraints.durations[0].minutes).toBeGreaterThan(0);
      }
      const staff = (await call(a, 'GET', '/__emulator/state')).body.sites[0].counts;
      expect(staff).toMatchObject({ services: 60, businessLocations: 3, staffMembers: 8, categories: 6, bookingPolicies: 3, bookingForms: 2 });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("'empty' gives a site without services; reset reseeds with another size", async () => {
    const emu = await startEmulator({ dataDir: tempDir(), quiet: true, seed: 'empty' });
    try {
      expect((await call(emu, 'POST', '/v2/services/count', {})).body.count).toBe(0);
      expect((await call(emu, 'POST', '/v2/services/locations/query', {})).body.businessLocations.locations).toHaveLength(3);
      const reset = await call(emu, 'POST', '/__emulator/reset', { seed: 'demo', size: 250 });
      expect(reset.status).toBe(200);
      expect(reset.body.sites[0].counts.services).toBe(250);
      expect(reset.body.events.count).toBe(0);
      const slugs = (await call(emu, 'POST', '/v2/services/query', { query: { paging: { limit: 100 } } })).body.services.map((s: { mainSlug: { name: string } }) => s.mainSlug.name);
      expect(new Set(slugs).size).toBe(slugs.length);
      expect((await call(emu, 'POST', '/__emulator/reset', { size: -1 })).status).toBe(400);
    } finally {
      await emu.close();
    }
  });
});
