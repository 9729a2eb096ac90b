/**
 * An in-process emulator on port 0 in a temp data dir, for integration tests (contracts.md, `src/emulator`).
 *
 * The emulator runs inside the test process; the CLI under test runs as a child process and reaches it over
 * HTTP (see `runCli({ emulator })`). Call `close()` in `afterAll`: it stops the server and removes the dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

export interface TestEmulator {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** The admin API key: send as `Authorization`. */
  apiKey: string;
  /** Send as `wix-site-id`. */
  siteId: string;
  /** The account (`wix-account-id`); its sites are `emulator.sites`. */
  accountId: string;
  /** The emulator's data dir (holds store.sqlite, admin-key.json). */
  dataDir: string;
  /** The running emulator as `startEmulator` returned it. */
  emulator: RunningEmulator;
  /**
   * Calls the emulator with the admin credentials and returns `{ status, body, requestId }` (`body` is the parsed
   * JSON reply, or `undefined` when empty). For seeding, the control plane (`/__emulator/...`) and checking that
   * a failed command changed nothing. Never throws on HTTP errors.
   */
  // `any` on purpose: tests read replies of every shape (`r.body.services[0].id`) and assert on them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; requestId: string | null }>;
  /** Stops the server and removes the temp dir (idempotent). */
  close(): Promise<void>;
}

/**
 * Starts an emulator on 127.0.0.1, port 0, in a fresh temp dir.
 * @param opts passed to `startEmulator` (default `seed: 'demo'`, quiet); `dataDir` and `port` are set here.
 */
export async function startTestEmulator(
  opts: Partial<Omit<EmulatorOptions, 'dataDir' | 'port'>> = {},
): Promise<TestEmulator> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitectl-emu-'));
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator({ seed: 'demo', quiet: true, ...opts, dataDir, port: 0 });
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  let closed = false;
  return {
    url: emulator.url,
    port: emulator.port,
    apiKey: emulator.apiKey,
    siteId: emulator.siteId,
    accountId: emulator.accountId,
    dataDir,
    emulator,
    async request(method, path, body) {
      const res = await fetch(emulator.url + path, {
        method,
        headers: {
          authorization: emulator.apiKey,
          'wix-site-id': emulator.siteId,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: text === '' ? undefined : JSON.parse(text),
        requestId: res.headers.get('x-wix-request-id'),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await emulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
