/**
 * The local emulator of the platform (issue 2 section 3; contracts.md "src/emulator"): an HTTP server on
 * 127.0.0.1 serving the services API on its real paths and aliases, backed by a SQLite store in `dataDir`,
 * with a generated admin key, deterministic demo data, fault injection and a control plane.
 *
 * ```ts
 * const emu = await startEmulator({ dataDir: '/tmp/emu', port: 0 });
 * // emu.url, emu.apiKey, emu.siteId; requests need Authorization: apiKey and wix-site-id: siteId
 * await emu.close();
 * ```
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { apiKeyAuthenticator, loadOrCreateAdminKey } from './auth.js';
import { FaultInjector, type Faults } from './faults.js';
import { resetStore, seedOptions } from './routes/control.js';
import { DEFAULT_SEED_SIZE, seedStore } from './seed/index.js';
import { createEmulatorServer } from './server.js';
import { Store } from './store.js';

export type { Faults } from './faults.js';

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
  faults?: Partial<Faults>;
  /** No log lines on stderr. */
  quiet?: boolean;
}

export interface RunningEmulator {
  url: string;
  port: number;
  apiKey: string;
  siteId: string;
  close(): Promise<void>;
}

/**
 * Opens (or creates and seeds) the store in `opts.dataDir`, creates the admin key on first start and listens.
 * Data already in the store is kept; `seed`/`size` apply only to an empty store.
 * @throws ValidationFailure for bad fault settings; the listen error (e.g. EADDRINUSE) when the port is taken.
 */
export async function startEmulator(opts: EmulatorOptions): Promise<RunningEmulator> {
  mkdirSync(opts.dataDir, { recursive: true });
  const key = loadOrCreateAdminKey(opts.dataDir);
  const faults = new FaultInjector(opts.faults ?? {});
  const store = new Store(opts.dataDir, { backgroundCheckpoints: true });
  try {
    if (store.getMeta('seed') === undefined && store.serviceCount() === 0) seedStore(store, { seed: opts.seed, size: opts.size });
  } catch (err) {
    store.close();
    throw err;
  }
  const log = opts.quiet ? () => {} : (line: string) => process.stderr.write(`[emulator] ${line}\n`);
  let url = '';
  const server = createEmulatorServer({
    store,
    faults,
    authenticators: [apiKeyAuthenticator(key)],
    control: { store, faults, dataDir: opts.dataDir, url: () => url, siteId: key.siteId, startedAt: new Date().toISOString() },
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
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    apiKey: key.apiKey,
    siteId: key.siteId,
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
 * emulator is running). Seed kind and size default to what the store was seeded with. The admin key is kept.
 * @returns the new record counts. @throws ValidationFailure for a bad seed kind or size.
 */
export function resetDataDir(dataDir: string, opts: { seed?: 'demo' | 'empty'; size?: number }): Record<string, number> {
  mkdirSync(dataDir, { recursive: true });
  loadOrCreateAdminKey(dataDir);
  const store = new Store(dataDir);
  try {
    const previous = { seed: store.getMeta('seed') as 'demo' | 'empty' | undefined, size: Number(store.getMeta('seedSize') ?? DEFAULT_SEED_SIZE) };
    resetStore(store, seedOptions(opts, previous));
    return store.counts();
  } finally {
    store.close();
  }
}
