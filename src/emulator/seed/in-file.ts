/**
 * A new store is seeded into a file of its own (`store.sqlite.seeding-<pid>`), which becomes `store.sqlite` only
 * once the seed is complete: a start that fails or is killed half way leaves no store (the next start seeds again),
 * never a half-seeded one.
 *
 * A large seed runs in a child process (`seedNewStoreApart`): SQLite's page cache of a bulk load (384 MiB, see
 * `Store.bulkLoad`) and the seed's garbage are freed by the C allocator back into the process, not to the system,
 * so a server that seeded a million members itself kept about 900 MB. The child's memory goes with it; the server
 * then opens the finished file with SQLite's small default cache. The child is the bundle's `emulator-seed.js`
 * (seed/child.ts); run from the source tree (the tests), where no such file sits beside the module, the seed runs
 * in the process instead. A reset of a running emulator seeds the same way, into a file the store then switches
 * to (`reseedApart`).
 */
import { fork } from 'node:child_process';
import { existsSync, linkSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { isAlive } from '../../api/pid.js';
import type { AdminKey } from '../auth.js';
import { FAMILIES } from '../families.js';
import { Store, STORE_FILE, type StoreCarry } from '../store/store.js';
import { seedStore, type SeedOptions } from './index.js';

/** Prefix of the file a new store is seeded in (then renamed), followed by the seeding process's pid. */
export const SEEDING_PREFIX = `${STORE_FILE}.seeding-`;
/** Prefix of a reset's finished file waiting to become the running store's (see {@link reseedApart}), then the server's pid. */
export const RESET_PREFIX = `${STORE_FILE}.reset-`;

/** What a seed into a file of its own is given (the child gets it as its one IPC message). */
export interface SeedJob {
  dataDir: string;
  key: AdminKey;
  defaultSite: { id: string; name: string };
  seed: SeedOptions;
  /** A reset's: the running store's settings and sites, which the new file starts with. */
  carry?: StoreCarry;
  /** A reset's: the name the finished file is renamed to (instead of being linked as the store). */
  into?: string;
}

/** How the seeding child ends, told over IPC (its progress lines come on its stdout). */
export type SeedMessage = { done: true } | { error: string };

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/** Deletes the files of seeds whose process is gone (killed half way: their data never became the store). */
function removeDeadSeeds(dataDir: string): void {
  for (const name of readdirSync(dataDir)) {
    const prefix = [SEEDING_PREFIX, RESET_PREFIX].find((p) => name.startsWith(p));
    const m = prefix ? /^(\d+)(?:-wal|-shm|-journal)?$/.exec(name.slice(prefix.length)) : null;
    if (m && !isAlive(Number(m[1]))) unlinkQuietly(join(dataDir, name));
  }
}

/**
 * Seeds `job` into `store.sqlite.seeding-<this pid>` and links it as `store.sqlite` once complete (a reset's,
 * `job.into`: renames it to that name), unless `keep` says no by then (the child's parent is gone). When another
 * process made the store meanwhile, its store is kept and this seed dropped. The seeding file is deleted in every case.
 * @throws what the seed throws (e.g. `seed members must be an integer ...`), or Error when `keep` says no
 */
export function seedIntoFile(job: SeedJob, progress?: (line: string) => void, keep: () => boolean = () => true): void {
  const { dataDir, key, defaultSite, seed } = job;
  const name = `${SEEDING_PREFIX}${process.pid}`;
  const file = join(dataDir, name);
  const store = new Store(dataDir, { defaultSite, fileName: name, ...(job.carry ? { carry: job.carry } : {}) });
  try {
    store.tx(() => {
      for (const s of key.sites) if (!store.hasSite(s.id)) store.addSite(s);
    });
    seedStore(store, key, FAMILIES, seed, progress);
    store.closeAsOneFile();
    if (!keep()) throw new Error('the seed was dropped: the process that asked for it is gone');
    if (job.into) {
      renameSync(file, join(dataDir, job.into));
      return;
    }
    try {
      linkSync(file, join(dataDir, STORE_FILE));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  } finally {
    store.close();
    for (const suffix of ['', '-wal', '-shm', '-journal']) unlinkQuietly(file + suffix);
  }
}

/** The seeding child's script beside this module in the bundle (undefined when run from the source tree). */
function childScript(): string | undefined {
  const script = fileURLToPath(new URL('./emulator-seed.js', import.meta.url));
  return import.meta.url.endsWith('.js') && existsSync(script) ? script : undefined;
}

/**
 * Seeds a data dir that has no store yet in a child process when the bundle has the child's script, else in this
 * process; `progress` gets the child's lines as they come (see {@link seedApart}).
 * @throws Error with the seed's own message when the seed fails, or how the child ended when it died
 */
export async function seedNewStoreApart(job: SeedJob, progress?: (line: string) => void): Promise<void> {
  removeDeadSeeds(job.dataDir);
  await seedApart(job, progress);
}

/**
 * Resets a running emulator's store without the seed's memory in the server: the account's settings and sites
 * are read now, the seed runs in the child (seed/child.ts; in this process from the source tree) into a file of
 * its own, renamed `store.sqlite.reset-<pid>` when complete, and only then does the store switch to it
 * ({@link Store.replaceFile}: between two requests, closing and reopening the connection). The server answers
 * from the old data while the child seeds; what is written meanwhile is replaced with the rest. A seed that fails
 * leaves the store as it was. One at a time per store (the control plane refuses a second: control.ts).
 * @throws Error with the seed's message when it fails, or how the child ended when it died
 */
export async function reseedApart(store: Store, key: AdminKey, seed: SeedOptions, progress?: (line: string) => void): Promise<void> {
  const into = `${RESET_PREFIX}${process.pid}`;
  const defaultSite = key.sites.find((s) => s.id === key.siteId) ?? { id: key.siteId, name: 'Downtown' };
  removeDeadSeeds(store.dataDir);
  unlinkQuietly(join(store.dataDir, into));
  await seedApart({ dataDir: store.dataDir, key, defaultSite, seed, carry: store.carry(), into }, progress);
  store.replaceFile(join(store.dataDir, into));
}

/**
 * Runs `job` in a child process when the bundle has the child's script, else in this process. The child ends
 * with its parent (the IPC channel closing stops it once its seed yields, and a seed whose parent went is never
 * linked as the store: the next line it writes fails, or the check before the link stops it) and a killed child
 * leaves only its own seeding file, removed by the next start.
 */
async function seedApart(job: SeedJob, progress?: (line: string) => void): Promise<void> {
  const script = childScript();
  if (!script) return seedIntoFile(job, progress);
  const child = fork(script, [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv: [] });
  createInterface({ input: child.stdout! }).on('line', (line) => progress?.(line));
  await new Promise<void>((resolve, reject) => {
    let outcome: Error | null | undefined;
    child.on('message', (m: SeedMessage) => {
      outcome = 'done' in m ? null : new Error(m.error);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (outcome === null) resolve();
      else reject(outcome ?? new Error(`the seed's process ended (${signal ?? `exit code ${code}`}) before the store was complete`));
    });
    child.send(job);
  });
}
