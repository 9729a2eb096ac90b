/**
 * The pid lock (core/lock.ts): held once, released by its holder only, taken over from a process that no longer
 * runs whatever the file's time, waited for while its holder runs (and the wait ends at once on abort).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holdLock, tryLock } from '../../../src/core/lock.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A pid no process has: one that ran and ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('tryLock and holdLock', () => {
  it('takes a free lock once; another taker is told the holder; release frees it', () => {
    dir = mkdtempSync(join(tmpdir(), 'sitectl-lock-'));
    const path = join(dir, 'x.lock');
    const release = tryLock(path);
    expect(typeof release).toBe('function');
    expect(readFileSync(path, 'utf8').trim()).toBe(String(process.pid));
    expect(tryLock(path)).toEqual({ heldBy: process.pid });
    (release as () => void)();
    expect(existsSync(path)).toBe(false);
  });

  it("takes over a killed process's lock, even one whose file time is brand new", async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitectl-lock-'));
    const path = join(dir, 'x.lock');
    writeFileSync(path, `${await deadPid()}\n`);
    const now = new Date();
    utimesSync(path, now, now);
    const release = tryLock(path);
    expect(typeof release).toBe('function');
    (release as () => void)();
  });

  it('waits while a running process holds it, telling once, and stops waiting on abort', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitectl-lock-'));
    const path = join(dir, 'x.lock');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(path, `${holder.pid}\n`);
      const told: number[] = [];
      const controller = new AbortController();
      const waiting = holdLock(path, { signal: controller.signal, onWait: (pid) => told.push(pid) });
      await new Promise((r) => setTimeout(r, 250));
      expect(told).toEqual([holder.pid]);
      controller.abort();
      await expect(waiting).rejects.toThrow();
      holder.kill();
      await new Promise((resolve) => holder.on('exit', resolve));
      const release = await holdLock(path);
      release();
    } finally {
      holder.kill();
    }
  });
});
