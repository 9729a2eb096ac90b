/**
 * `sitectl emulator start|stop|status|reset` through the built CLI, and the daemon helpers the CLI uses to
 * start the local emulator on first use.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEmulator, readAdminKey, readRunning, stopEmulator } from '../../../src/local/daemon.js';
import { binPath, createCliSandbox, runCli, type CliSandbox } from '../../helpers/index.js';

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
