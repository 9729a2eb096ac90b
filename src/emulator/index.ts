/**
 * The local emulator of the platform (contracts.md "src/emulator"): an HTTP server on 127.0.0.1 serving every
 * family table it knows on the platform's real paths and aliases, backed by a SQLite store in `dataDir`, with an
 * account-level admin key, deterministic demo data, a settable clock, fault injection and a control plane.
 *
 * ```ts
 * const emu = await startEmulator({ dataDir: '/tmp/emu', port: 0 });
 * // emu.url, emu.apiKey, emu.siteId; requests need Authorization: apiKey and wix-site-id: a site of the account
 * await emu.close();
 * ```
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { apiKeyAuthenticator, defaultClientId, loadOrCreateAdminKey, writeAdminKey, type AdminKey } from './auth.js';
import { accessTokenAuthenticator } from './oauth/access.js';
import { oauthOf } from './oauth/state.js';
import { lastSeed, seedOptions } from './control.js';
import { FaultInjector, type Faults } from './faults.js';
import type { ServedOperation } from './serve.js';
import { createEmulatorServer } from './server.js';
import { FAMILIES } from './families.js';
import { seedStore, type SeedOptions } from './seed/index.js';
import { reseedApart, seedNewStoreApart } from './seed/in-file.js';
import { Store, STORE_FILE } from './store/store.js';

export type { Faults } from './faults.js';

/** Every operation the emulator serves, family by family (families.ts). */
export const SERVED: readonly ServedOperation[] = FAMILIES.flatMap((f) => f.served);

export interface EmulatorOptions {
  dataDir: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (default) = any free port. */
  port?: number;
  /** Seed used when the store is empty (first start) and as the default for resets. Default 'demo'. */
  seed?: 'demo' | 'empty';
  /** Services in the demo seed, default 60. */
  size?: number;
  /** Bookings in the demo seed, default 500. */
  bookings?: number;
  /** Days either side of now the seeded bookings cover (default 30, more for large counts; see SeedOptions). */
  window?: number;
  /** Also fill the next 7 days to 90 % of the appointment time, every class full. */
  busyWeek?: boolean;
  /** Staff members per site in the demo seed, default (and at least) 8. */
  staff?: number;
  /** Members of the default site in the demo seed, default 300 (at most 100,000). */
  members?: number;
  faults?: Partial<Faults>;
  /** No log lines on stderr. */
  quiet?: boolean;
  /** Told how the first start's seed goes, a line at a time (default: `[emulator] seed: ...` on stderr unless quiet). */
  progress?: (line: string) => void;
}

export interface RunningEmulator {
  url: string;
  port: number;
  apiKey: string;
  accountId: string;
  /** The default site. */
  siteId: string;
  /** The client id of the default site's default OAuth app (sign-in). */
  clientId: string;
  sites: { id: string; name: string; clientId?: string }[];
  close(): Promise<void>;
}

/** Creates the data dir owner-only (0700, whatever the umask). */
function ownDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}

/**
 * Opens the store of `dataDir` with the account's sites in place and the key file listing them; seeds a new
 * store (seed/in-file.ts, in a child process from the bundle), or an existing one that holds no data. @returns the store and the key (sites
 * as the store has them).
 */
async function openAccount(dataDir: string, seed: SeedOptions, opts: { backgroundCheckpoints?: boolean; progress?: (line: string) => void } = {}) {
  ownDir(dataDir);
  const key = loadOrCreateAdminKey(dataDir);
  const defaultSite = key.sites.find((s) => s.id === key.siteId) ?? { id: key.siteId, name: 'Downtown' };
  if (!existsSync(join(dataDir, STORE_FILE))) await seedNewStoreApart({ dataDir, key, defaultSite, seed }, opts.progress);
  const store = new Store(dataDir, { backgroundCheckpoints: opts.backgroundCheckpoints, defaultSite });
  for (const def of FAMILIES.flatMap((f) => f.collections)) store.collection(def);
  try {
    store.tx(() => {
      for (const s of key.sites) if (!store.hasSite(s.id)) store.addSite(s);
    });
    if (store.getMeta('seed') === undefined && store.counts().events === 0 && isEmpty(store)) seedStore(store, key, FAMILIES, seed, opts.progress);
    const synced: AdminKey = { ...key, sites: store.sites().map((s) => ({ id: s.id, name: s.name })) };
    if (JSON.stringify(synced.sites) !== JSON.stringify(key.sites)) writeAdminKey(dataDir, synced);
    return { store, key: synced };
  } catch (err) {
    store.close();
    throw err;
  }
}

function isEmpty(store: Store): boolean {
  return Object.values(store.counts().sites).every((kinds) => Object.values(kinds).every((n) => n === 0));
}

/**
 * Opens (or creates and seeds) the store in `opts.dataDir`, creates the admin key on first start and listens.
 * Data already in the store is kept; `seed`/`size` apply only to an empty store.
 * @throws ValidationFailure for bad fault settings; the listen error (e.g. EADDRINUSE) when the port is taken;
 *   the file-system error when the data dir cannot be created (e.g. ENOTDIR when it is a file)
 */
export async function startEmulator(opts: EmulatorOptions): Promise<RunningEmulator> {
  const faults = new FaultInjector(opts.faults ?? {});
  const log = opts.quiet ? () => {} : (line: string) => process.stderr.write(`[emulator] ${line}\n`);
  const seed = { seed: opts.seed, size: opts.size, bookings: opts.bookings, window: opts.window, busyWeek: opts.busyWeek, staff: opts.staff, members: opts.members };
  const { store, key } = await openAccount(opts.dataDir, seed, { backgroundCheckpoints: true, progress: opts.progress ?? ((line) => log(`seed: ${line}`)) });
  let url = '';
  const server = createEmulatorServer({
    store,
    faults,
    authenticators: [apiKeyAuthenticator(key, store), accessTokenAuthenticator(store, key.accountId)],
    oauth: { store, key },
    served: SERVED,
    control: {
      store,
      faults,
      dataDir: opts.dataDir,
      url: () => url,
      key,
      startedAt: new Date().toISOString(),
      families: FAMILIES,
      reseed: (seedOpts) => reseedApart(store, key, seedOpts),
    },
    log,
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: unknown) => {
    store.close();
    throw err;
  });
  const port = (server.address() as AddressInfo).port;
  url = `http://${host}:${port}`;
  oauthOf(store, key.accountId).url = url;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    apiKey: key.apiKey,
    accountId: key.accountId,
    siteId: key.siteId,
    clientId: defaultClientId(key.siteId),
    sites: key.sites.map((s) => ({ ...s, clientId: defaultClientId(s.id) })),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          store.close();
          resolve();
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * Deletes all data in `dataDir` and seeds it again, without a server (used by `sitectl emulator reset` when no
 * emulator is running), the way a running emulator resets ({@link reseedApart}): the seed runs in a child process
 * (from the bundle; in this process from the source tree) into a file of its own, which replaces the store only
 * once complete, so the calling process never holds the seed's memory and an interrupted reset leaves the data
 * as it was. Seed options default to what the store was seeded with. The admin key, the sites and the clock are
 * kept. `progress` is told how the seed goes (the child's lines, as a running emulator's reset).
 * @returns the document counts per site. @throws ValidationFailure for a bad seed kind, size, count or window;
 *   Error with the seed's message when the seed fails
 */
export async function resetDataDir(dataDir: string, opts: SeedOptions, progress?: (line: string) => void): Promise<Record<string, Record<string, number>>> {
  const { store, key } = await openAccount(dataDir, { seed: 'empty' });
  try {
    await reseedApart(store, key, seedOptions(opts, lastSeed(store)), progress);
    return store.counts().sites;
  } finally {
    store.close();
  }
}
