/**
 * `sitectl emulator start|stop|status|reset` through the built CLI, and the daemon helpers the CLI uses to
 * start the local emulator on first use.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEmulator, readAdminKey, readRunning, stopEmulator } from '../../../src/local/daemon.js';
import { binPath, createCliSandbox, runCli, type CliSandbox } from '../../helpers/index.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let sandbox: CliSandbox;
let dataDir: string;

beforeAll(() => {
  sandbox = createCliSandbox();
  dataDir = join(sandbox.dataDir, 'emulator');
});
afterAll(async () => {
  await stopEmulator(dataDir);
  sandbox.cleanup();
});

const cli = (...args: string[]) => runCli(['emulator', ...args], { sandbox });

async function statusJson() {
  const r = await cli('status', '--json');
  expect(r.code).toBe(0);
  const status = JSON.parse(r.stdout) as { running: boolean; url?: string; siteId?: string; sites?: Array<{ id: string; counts?: Record<string, number> }> };
  return { ...status, counts: status.sites?.find((s) => s.id === status.siteId)?.counts };
}

/** The default site's record counts of the emulator running for `dir`. */
async function countsAt(dir: string): Promise<Record<string, number> | undefined> {
  const status = JSON.parse((await cli('status', '--json', '--data-dir', dir)).stdout) as { siteId: string; sites: Array<{ id: string; counts: Record<string, number> }> };
  return status.sites.find((s) => s.id === status.siteId)?.counts;
}

describe('sitectl emulator', () => {
  it('start --detach, status, reset (needs --yes off a TTY), stop', async () => {
    expect(await statusJson()).toMatchObject({ running: false, dataDir, keyFile: join(dataDir, 'admin-key.json') });

    const start = await cli('start', '--detach', '--size', '15');
    expect(start.code).toBe(0);
    expect(start.stdout).toBe('');
    const running = readRunning(dataDir);
    expect(running).not.toBeNull();
    expect(start.stderr).toContain(running!.url);
    expect(start.stderr).toContain(join(dataDir, 'admin-key.json'));

    const status = await statusJson();
    expect(status).toMatchObject({ running: true, url: running!.url, counts: { services: 15, businessLocations: 3 } });
    const plain = await cli('status');
    expect(plain.stdout).toContain(`url\t${running!.url}`);

    const again = await cli('start', '--detach');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already running');

    const refused = await cli('reset', '--seed', 'empty');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await statusJson()).counts?.services).toBe(15);

    const reset = await cli('reset', '--seed', 'empty', '--yes');
    expect(reset.code).toBe(0);
    expect((await statusJson()).counts?.services).toBe(0);

    const stop = await cli('stop');
    expect(stop.code).toBe(0);
    expect(stop.stderr).toContain('Stopped');
    expect(existsSync(join(dataDir, 'emulator.pid.json'))).toBe(false);
    expect(await statusJson()).toMatchObject({ running: false, dataDir, keyFile: join(dataDir, 'admin-key.json') });
    expect((await cli('stop')).stderr).toContain('No emulator is running');

    // Offline reset works on the store directly; the next start serves it.
    expect((await cli('reset', '--yes', '--seed', 'demo', '--size', '7')).code).toBe(0);
    expect((await cli('start', '--detach', '--error-rate', '0.25', '--error-phase', 'after', '--rate-limit', '50', '--fault-seed', '9')).code).toBe(0);
    const restarted = (await statusJson()) as { counts?: Record<string, number>; faults?: Record<string, unknown> };
    expect(restarted.counts?.services).toBe(7);
    expect(restarted.faults).toMatchObject({ errorRate: 0.25, errorPhase: 'after', rateLimitPerSec: 50, seed: 9, dropRate: 0 });
    expect((await cli('stop')).code).toBe(0);
  });

  it('rejects bad flag values with exit 2', async () => {
    for (const args of [['--error-rate', '2'], ['--port', 'abc'], ['--seed', 'full'], ['--error-phase', 'later']]) {
      const r = await cli('start', ...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(args[0]);
    }
  });

  it('in the foreground: writes the pid file once listening and removes it on SIGTERM', async () => {
    const dir = join(sandbox.root, 'fg');
    const child = spawn(process.execPath, [binPath, 'emulator', 'start', '--data-dir', dir, '--seed', 'empty'], {
      env: { ...process.env, ...sandbox.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let info = readRunning(dir);
    for (let i = 0; i < 200 && !info; i++) {
      await sleep(50);
      info = readRunning(dir);
    }
    expect(info?.pid).toBe(child.pid);
    const key = readAdminKey(dir)!;
    const res = await fetch(`${info!.url}/v2/services/count`, {
      method: 'POST',
      headers: { authorization: key.apiKey, 'wix-site-id': key.siteId, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await res.json()).toEqual({ count: 0 });
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(existsSync(join(dir, 'emulator.pid.json'))).toBe(false);
  });

  it('start --detach tells the seed as it goes, and a start that fails says why (the end of the log)', async () => {
    const dir = join(sandbox.root, 'detach-fails');
    // A port already taken: the background emulator seeds, then cannot listen.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const r = await cli('start', '--detach', '--data-dir', dir, '--port', String(port), '--size', '10', '--busy-week');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/seed: busy week: [\d,]+ appointments placed/);
      expect(r.stderr).toContain('the emulator did not start (exit code 1)');
      expect(r.stderr).toContain(`port ${port} is already in use`);
    } finally {
      taken.close();
    }
    // The seed was complete: the store is there, and the next start serves it.
    expect(existsSync(join(dir, 'store.sqlite'))).toBe(true);
    expect((await cli('start', '--detach', '--data-dir', dir)).code).toBe(0);
    expect(await countsAt(dir)).toMatchObject({ services: 10 });
    expect(await stopEmulator(dir)).toBe(true);
  });

  it('a start stopped while it seeds leaves no store behind: the next one seeds afresh', async () => {
    const dir = join(sandbox.root, 'killed-seed');
    const child = spawn(process.execPath, [binPath, 'emulator', 'start', '--data-dir', dir, '--bookings', '40000', '--staff', '40'], {
      env: { ...process.env, ...sandbox.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exit = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    // Killed as soon as it says the seed has begun (the bookings take seconds more).
    await new Promise<void>((resolve) => {
      let text = '';
      child.stderr.on('data', (d: Buffer) => {
        text += d.toString();
        if (text.includes('[emulator] seed: ')) resolve();
      });
    });
    child.kill('SIGKILL');
    expect(await exit).toBe('SIGKILL');
    // The seed runs in a process of its own (its pid names its file): left without its parent, it stops at its
    // next step and deletes its file, never linking it as the store.
    const seeding = readdirSync(dir).find((f) => /^store\.sqlite\.seeding-\d+$/.test(f));
    expect(seeding).toBeDefined();
    const seedPid = Number(seeding!.slice('store.sqlite.seeding-'.length));
    expect(seedPid).not.toBe(child.pid);
    await waitUntil(() => !isAlive(seedPid), 60_000);
    expect(existsSync(join(dir, 'store.sqlite'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('store.sqlite.seeding-'))).toEqual([]);

    const r = await cli('start', '--detach', '--data-dir', dir, '--size', '5', '--bookings', '20');
    expect(r.code).toBe(0);
    expect(readdirSync(dir).filter((f) => f.startsWith('store.sqlite.seeding-'))).toEqual([]);
    expect(await countsAt(dir)).toMatchObject({ services: 5, bookings: 20 });
    expect(await stopEmulator(dir)).toBe(true);
  });

  it('ensureEmulator starts one in the background once, then reuses it', async () => {
    const dir = join(sandbox.root, 'ensure');
    const [a, b] = await Promise.all([ensureEmulator(dir), ensureEmulator(dir)]);
    expect([a.started, b.started].sort()).toEqual([false, true]);
    expect(a.url).toBe(b.url);
    const c = await ensureEmulator(dir);
    expect(c).toMatchObject({ started: false, url: a.url, apiKey: a.apiKey, siteId: a.siteId });
    const res = await fetch(`${c.url}/v2/services/count`, {
      method: 'POST',
      headers: { authorization: c.apiKey, 'wix-site-id': c.siteId, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await res.json()).toEqual({ count: 60 });
    expect(await stopEmulator(dir)).toBe(true);
    expect(readRunning(dir)).toBeNull();
    expect(await stopEmulator(dir)).toBe(false);
  });
});
