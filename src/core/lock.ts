/**
 * One process at a time (docs/architecture.md "Safety rules"): a lock file holding its holder's pid, made with
 * O_EXCL. `sitectl undo` holds one per change it undoes (a second undo of the same change waits, then finds it
 * undone); starting the local emulator holds one per data dir (a second CLI waits for the first one's emulator).
 * A lock whose pid no longer runs was left by a killed process and is taken over. Staleness is judged by the pid,
 * never by the file's time: a file system's clock and the process's may disagree (another machine's NFS, a clock
 * moved under faketime).
 */
import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isAlive } from '../api/pid.js';

/** How often a waiting process looks at the lock again, in ms. */
const POLL_MS = 100;

/** The pid a lock file holds, or undefined when it holds none (cut short as it was written, or not ours). */
function holderOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock at `path` if no running process holds it (one left by a process that no longer runs is taken
 * over), without waiting.
 * @returns the release function (idempotent), or the holder's pid when another running process holds it
 * @throws the error of a lock file that cannot be made (a missing or read-only directory)
 */
export function tryLock(path: string): (() => void) | { heldBy: number } {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  for (;;) {
    // The pid goes into a file of this process's, which is then linked into place (link fails when the lock
    // exists): a lock is never seen without its pid, whenever a process is killed.
    const tmp = `${path}.${process.pid}.tmp`;
    let taken = false;
    try {
      writeFileSync(tmp, `${process.pid}\n`, { mode: 0o600 });
      linkSync(tmp, path);
      taken = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(tmp, { force: true });
    }
    if (taken) {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (holderOf(path) === process.pid) unlinkSync(path);
      };
    }
    const holder = holderOf(path);
    if (holder !== undefined && isAlive(holder)) return { heldBy: holder };
    // Left by a process that no longer runs (or not a lock of ours): taken over, unless another process took it
    // over meanwhile (its pid is in it then).
    if (holderOf(path) === holder) {
      try {
        unlinkSync(path);
      } catch {
        // Removed by another process taking it over: try again.
      }
    }
  }
}

/**
 * Takes the lock at `path`, waiting while another running process holds it.
 * @param onWait called once, with the holder's pid, when the lock is held by another process
 * @returns a function that releases the lock (idempotent)
 * @throws the abort reason when `signal` aborts while waiting (Ctrl-C); the error of a lock file that cannot be made
 */
export async function holdLock(path: string, opts: { signal?: AbortSignal; onWait?(pid: number): void } = {}): Promise<() => void> {
  let told = false;
  for (;;) {
    const got = tryLock(path);
    if (typeof got === 'function') return got;
    if (!told) {
      told = true;
      opts.onWait?.(got.heldBy);
    }
    opts.signal?.throwIfAborted();
    await delay(POLL_MS, undefined, opts.signal ? { signal: opts.signal } : undefined);
  }
}
