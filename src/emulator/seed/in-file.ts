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
 * in the process instead (`seedNewStore`).
 */
import { fork } from 'node:child_process';
import { existsSync, linkSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { AdminKey } from '../auth.js';
import { FAMILIES } from '../families.js';
import { Store, STORE_FILE } from '../store/store.js';
import { seedStore, type SeedOptions } from './index.js';

/** Prefix of the file a new store is seeded in (then renamed), followed by the seeding process's pid. */
export const SEEDING_PREFIX = `${STORE_FILE}.seeding-`;

/** What a seed into a file of its own is given (the child gets it as its one IPC message). */
export interface SeedJob {
  dataDir: string;
  key: AdminKey;
  defaultSite: { id: string; name: string };
  seed: SeedOptions;
}

/** How the seeding child ends, told over IPC (its progress lines come on its stdout). */
export type SeedMessage = { done: true } | { error: string };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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
    const m = name.startsWith(SEEDING_PREFIX) ? /^(\d+)(?:-wal|-shm|-journal)?$/.exec(name.slice(SEEDING_PREFIX.length)) : null;
    if (m && !isAlive(Number(m[1]))) unlinkQuietly(join(dataDir, name));
  }
}

/**
 * Seeds `job` into `store.sqlite.seeding-<this pid>` and links it as `store.sqlite` once complete, unless `keep`
 * says no by then (the child's parent is gone). When another process made the store meanwhile, its store is kept
 * and this seed dropped. The seeding file is deleted in every case.
 * @throws what the seed throws (e.g. `seed members must be an integer ...`), or Error when `keep` says no
 */
export function seedIntoFile(job: SeedJob, progress?: (line: string) => void, keep: () => boolean = () => true): void {
  const { dataDir, key, defaultSite, seed } = job;
  const name = `${SEEDING_PREFIX}${process.pid}`;
  const file = join(dataDir, name);
  const store = new Store(dataDir, { defaultSite, fileName: name });
  try {
    store.tx(() => {
      for (const s of key.sites) if (!store.hasSite(s.id)) store.addSite(s);
    });
    seedStore(store, key, FAMILIES, seed, progress);
    store.closeAsOneFile();
    if (!keep()) throw new Error('the seed was dropped: the process that asked for it is gone');
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

/** Seeds a data dir that has no store yet, in this process (see the module's comment). @throws what the seed throws */
export function seedNewStore(job: SeedJob, progress?: (line: string) => void): void {
  removeDeadSeeds(job.dataDir);
  seedIntoFile(job, progress);
}

/** The seeding child's script beside this module in the bundle (undefined when run from the source tree). */
function childScript(): string | undefined {
  const script = fileURLToPath(new URL('./emulator-seed.js', import.meta.url));
  return import.meta.url.endsWith('.js') && existsSync(script) ? script : undefined;
}

/**
 * Seeds a data dir that has no store yet in a child process when the bundle has the child's script, else in this
 * process; `progress` gets the child's lines as they come. The child ends with its parent (the IPC channel closing
 * stops it once its seed yields, and a seed whose parent went is never linked as the store: the next line it
 * writes fails, or the check before the link stops it) and a killed child leaves only its own seeding file,
 * removed by the next start.
 * @throws Error with the seed's own message when the seed fails, or how the child ended when it died
 */
export async function seedNewStoreApart(job: SeedJob, progress?: (line: string) => void): Promise<void> {
  const script = childScript();
  if (!script) return seedNewStore(job, progress);
  removeDeadSeeds(job.dataDir);
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
