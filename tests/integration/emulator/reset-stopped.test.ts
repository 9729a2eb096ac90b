/**
 * `sitectl emulator reset` with no emulator running seeds the way a running emulator's reset does (seed/in-file.ts
 * `reseedApart`): in a child process of the built CLI, into a file of its own that replaces the store only once
 * complete. The sites, the clock and the settings carry over, the old data goes, the progress lines and the
 * closing line are as before, no seeding file is left, and a reset killed half way leaves the data as it was.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { binPath, cliEnv, createCliSandbox, runCli } from '../../helpers/index.js';

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

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('emulator reset with no emulator running', () => {
  const sandbox = createCliSandbox();
  afterAll(() => sandbox.cleanup());

  it('seeds apart and swaps the file: sites, clock and settings kept, old data gone, output as before', async () => {
    const dataDir = join(sandbox.root, 'stopped');
    const frozen = '2031-05-06T07:30:00.000Z';
    const emu = await startEmulator({ dataDir, quiet: true, size: 3, bookings: 5, members: 4 });
    let made: string;
    let sitesBefore: unknown;
    try {
      expect((await call(emu, 'PUT', '/__emulator/clock', { now: frozen, frozen: true })).status).toBe(200);
      expect((await call(emu, 'POST', '/__emulator/sites', { name: 'Reset Harbour' })).status).toBe(200);
      const created = await call(emu, 'POST', '/v2/services', { service: { name: 'Before the reset', type: 'APPOINTMENT' } });
      expect(created.status).toBe(200);
      made = created.body.service.id as string;
      sitesBefore = (await call(emu, 'GET', '/__emulator/sites')).body.sites;
    } finally {
      await emu.close();
    }

    const r = await runCli(['emulator', 'reset', '--data-dir', dataDir, '--size', '7', '--bookings', '0', '--members', '9', '--yes'], { sandbox });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^ {2}seed: /m);
    expect(r.stderr).toContain(`Reset ${dataDir}: 7 services, 0 bookings, `);
    expect(r.stderr).toContain(' 9 members.');
    expect(leftovers(dataDir)).toEqual([]);

    const again = await startEmulator({ dataDir, quiet: true });
    try {
      const state = (await call(again, 'GET', '/__emulator/state')).body;
      expect(state.sites[0].counts).toMatchObject({ services: 7, bookings: 0, members: 9 });
      expect(state.seed).toEqual({ kind: 'demo', size: 7 });
      expect(state.clock).toMatchObject({ now: frozen, frozen: true });
      expect((await call(again, 'GET', '/__emulator/sites')).body.sites).toEqual(sitesBefore);
      expect((await call(again, 'GET', `/v2/services/${made}`)).status).toBe(404);
      // Seeded from the carried clock (2031), not the real time.
      const services = (await call(again, 'POST', '/v2/services/query', { query: { paging: { limit: 100 } } })).body.services;
      expect(Math.max(...services.map((s: { createdDate: string }) => Date.parse(s.createdDate)))).toBeLessThanOrEqual(Date.parse(frozen));
    } finally {
      await again.close();
    }
  }, 120_000);

  it('killed half way, leaves the store as it was (the child drops its file when it ends)', async () => {
    const dataDir = join(sandbox.root, 'killed');
    expect((await runCli(['emulator', 'reset', '--data-dir', dataDir, '--size', '2', '--bookings', '0', '--members', '3', '--yes'], { sandbox })).code).toBe(0);
    const cli = spawn(process.execPath, [binPath, 'emulator', 'reset', '--data-dir', dataDir, '--size', '6', '--bookings', '20000', '--staff', '40', '--yes'], {
      env: cliEnv(sandbox),
      stdio: 'ignore',
    });
    try {
      // The child's file appears: the seed runs in another process than the CLI's.
      await until(() => leftovers(dataDir).some((f) => f.startsWith('store.sqlite.seeding-') && !f.endsWith(`-${cli.pid}`)), 60_000, 'the seeding file');
    } finally {
      cli.kill('SIGKILL');
    }
    await until(() => cli.exitCode !== null || cli.signalCode !== null, 10_000, 'the CLI to end');
    // The orphaned child finishes, sees its parent gone and removes its file instead of linking it.
    await until(() => leftovers(dataDir).length === 0, 110_000, 'the orphaned seed to end');
    expect(existsSync(join(dataDir, 'store.sqlite'))).toBe(true);
    const emu = await startEmulator({ dataDir, quiet: true });
    try {
      const state = (await call(emu, 'GET', '/__emulator/state')).body;
      expect(state.sites[0].counts).toMatchObject({ services: 2, bookings: 0, members: 3 });
    } finally {
      await emu.close();
    }
  }, 240_000);
});
