/**
 * One process at a time on one change (docs/architecture.md "Bulk runs, the journal, history and undo"): `sitectl
 * undo` holds a lock file beside the journals while it undoes a change, so a second undo of the same change waits,
 * then finds the change undone and says so, instead of sending the inverse again and counting it twice. The file
 * holds the holder's pid; one left by a killed process (its pid no longer runs) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { abortableSleep } from './wait.js';

/** How often a waiting process looks at the lock again, in ms. */
const POLL_MS = 100;

/** Whether a process with this pid runs on this machine (one we may not signal runs too). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid a lock file holds, or undefined when it holds none (cut short, or not ours). */
function holderOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock at `path`, waiting while another running process holds it.
 * @param onWait called once, with the holder's pid, when the lock is held by another process
 * @returns a function that releases the lock (idempotent)
 * @throws the abort reason when `signal` aborts while waiting (Ctrl-C); the error of a lock file that cannot be made
 */
export async function holdLock(path: string, opts: { signal?: AbortSignal; onWait?(pid: number): void } = {}): Promise<() => void> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let told = false;
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (fd !== undefined) {
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (holderOf(path) === process.pid) unlinkSync(path);
      };
    }
    const holder = holderOf(path);
    if (holder === undefined || !running(holder)) {
      // Left by a process that was killed (or cut short as it was written): taken over, unless another process
      // took it over meanwhile (then its pid is in it now).
      if (holderOf(path) === holder) {
        try {
          unlinkSync(path);
        } catch {
          // Removed by another process taking it over: try again.
        }
      }
      continue;
    }
    if (!told) {
      told = true;
      opts.onWait?.(holder);
    }
    await abortableSleep(POLL_MS, opts.signal);
  }
}
