/**
 * A reset of a running emulator seeds a new file apart and switches the store to it (seed/in-file.ts
 * `reseedApart`, store.ts `replaceFile`): the sites, the clock and the settings carry over, nothing of the old
 * data or its WAL comes back, the query tables reopen, and no seeding file is left. Through the built CLI the
 * seed runs in a child process, and the server answers while it seeds.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { readAdminKey, readRunning, stopEmulator } from '../../../src/local/daemon.js';
import { createCliSandbox, runCli } from '../../helpers/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'sitectl-emu-reset-'));
  dirs.push(d);
  return d;
}

type Emu = { url: string; apiKey: string; siteId: string };

async function call(emu: Emu, method: string, path: string, body?: unknown) {
  const res = await fetch(emu.url + path, {
    method,
    headers: { authorization: emu.apiKey, 'wix-site-id': emu.siteId, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The files of a data dir a seed or a reset leaves while it runs. */
const leftovers = (dir: string) => readdirSync(dir).filter((f) => /^store\.sqlite\.(seeding|reset)-/.test(f));

describe('reset of a running emulator', () => {
  it('switches to a new file: sites, clock and settings kept; old data, WAL and query tables gone', async () => {
    const dataDir = tempDir();
    const emu = await startEmulator({ dataDir, quiet: true, size: 3, bookings: 5, members: 4 });
    try {
      const frozen = '2031-05-06T07:30:00.000Z';
      expect((await call(emu, 'PUT', '/__emulator/clock', { now: frozen, frozen: true })).status).toBe(200);
      const second = await call(emu, 'POST', '/__emulator/sites', { name: 'Reset Harbour' });
      expect(second.status).toBe(200);
      const made = await call(emu, 'POST', '/v2/services', { service: { name: 'Before the reset', type: 'APPOINTMENT' } });
      expect(made.status).toBe(200);
      // Opens the members query table on the old connection.
      expect((await call(emu, 'POST', '/members/v1/members/query', { query: {} })).body.members).toHaveLength(4);
      const sitesBefore = (await call(emu, 'GET', '/__emulator/sites')).body.sites;

      const reset = await call(emu, 'POST', '/__emulator/reset', { size: 7, bookings: 0, members: 9 });
      expect(reset.status).toBe(200);
      expect(reset.body.sites[0].counts).toMatchObject({ services: 7, bookings: 0, members: 9 });
      expect((await call(emu, 'GET', '/__emulator/sites')).body.sites).toEqual(sitesBefore);
      expect((await call(emu, 'GET', '/__emulator/clock')).body.clock).toMatchObject({ now: frozen, frozen: true });
      expect((await call(emu, 'GET', `/v2/services/${made.body.service.id}`)).status).toBe(404);
      const services = (await call(emu, 'POST', '/v2/services/query', { query: { paging: { limit: 100 } } })).body.services;
      expect(services).toHaveLength(7);
      // Seeded from the carried clock (2031), not the real time: created before it, within the seed's past.
      const created = services.map((s: { createdDate: string }) => Date.parse(s.createdDate));
      expect(Math.max(...created)).toBeLessThanOrEqual(Date.parse(frozen));
      expect(Math.min(...created)).toBeGreaterThan(Date.parse('2030-01-01T00:00:00Z'));
      // The first use of the members' query table in the new file is a write: the table is rebuilt from the
      // documents before the new one goes in (not after, which gave its seq twice: a UNIQUE failure, a 500).
      const joined = await call(emu, 'POST', '/members/v1/members', { member: { loginEmail: 'after-reset@example.com' } });
      expect(joined.status, JSON.stringify(joined.body)).toBe(200);
      expect((await call(emu, 'POST', '/members/v1/members/query', { query: { paging: { limit: 100 } } })).body.members).toHaveLength(10);
      // The second site kept its furniture (seeded again in the new file).
      expect(reset.body.sites.find((s: { id: string }) => s.id === second.body.site.id)).toMatchObject({ id: second.body.site.id, counts: { services: 0 } });
      expect(Object.values(reset.body.sites.at(-1).counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      const after = await call(emu, 'POST', '/v2/services', { service: { name: 'After the reset', type: 'APPOINTMENT' } });
      expect(after.status).toBe(200);
      expect(leftovers(dataDir)).toEqual([]);
    } finally {
      await emu.close();
    }
    // The write after the switch is in the file the next start opens, and the reset's settings with it.
    const again = await startEmulator({ dataDir, quiet: true });
    try {
      const state = (await call(again, 'GET', '/__emulator/state')).body;
      expect(state.sites[0].counts).toMatchObject({ services: 8, members: 10 });
      expect(state.seed).toEqual({ kind: 'demo', size: 7 });
      expect(state.clock).toMatchObject({ now: '2031-05-06T07:30:00.000Z', frozen: true });
    } finally {
      await again.close();
    }
  });
});

describe('reset of an emulator started by the CLI (the seed in a child process)', () => {
  const sandbox = createCliSandbox();
  const dir = join(sandbox.root, 'reset-apart');
  afterAll(async () => {
    await stopEmulator(dir);
    sandbox.cleanup();
  });

  it('answers requests while the child seeds, refuses a second reset and a new site meanwhile, then serves the new data', async () => {
    expect((await runCli(['emulator', 'start', '--detach', '--data-dir', dir, '--size', '4', '--bookings', '10'], { sandbox })).code).toBe(0);
    const running = readRunning(dir)!;
    const key = readAdminKey(dir)!;
    const emu = { url: running.url, apiKey: key.apiKey, siteId: key.siteId };
    const resetting = call(emu, 'POST', '/__emulator/reset', { size: 6, bookings: 10000, staff: 20 });
    // While the child seeds: the old data is served, a second reset and a new site are refused.
    for (let i = 0; i < 200 && leftovers(dir).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(leftovers(dir).length).toBeGreaterThan(0);
    const count = await call(emu, 'POST', '/v2/services/count', {});
    expect(count).toMatchObject({ status: 200, body: { count: 4 } });
    const second = await call(emu, 'POST', '/__emulator/reset', { size: 1 });
    expect(second).toMatchObject({ status: 409, body: { details: { applicationError: { code: 'RESET_IN_PROGRESS' } } } });
    const site = await call(emu, 'POST', '/__emulator/sites', { name: 'Midtown' });
    expect(site).toMatchObject({ status: 409, body: { details: { applicationError: { code: 'RESET_IN_PROGRESS' } } } });
    const reset = await resetting;
    expect(reset.status).toBe(200);
    expect(reset.body.sites[0].counts).toMatchObject({ services: 6, bookings: 10000 });
    expect(reset.body.pid).toBe(running.pid);
    expect((await call(emu, 'POST', '/v2/services/count', {})).body.count).toBe(6);
    expect(leftovers(dir)).toEqual([]);
  }, 240_000);
});
