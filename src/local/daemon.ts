/**
 * Finding, starting and stopping a background emulator from the CLI (contracts.md "Starting the local
 * emulator from the CLI"; docs/architecture.md "Layout and dependency direction": src/local is the CLI side of the emulator, it spawns the server and never
 * imports it). The CLI loads this module on every call against the local profile, so it imports only node
 * builtins: never the emulator store (node:sqlite) or the server.
 *
 * Files in the data dir: `admin-key.json` (written by the emulator at first start), `emulator.pid.json`
 * (`{pid, url, port}`, written by the server process once it listens, removed on a clean stop),
 * `emulator.log` (stdout/stderr of a detached emulator) and `emulator.lock` (held while one CLI process is
 * starting an emulator, so two concurrent first calls do not start two).
 */
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import type * as Http from 'node:http';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isAlive } from '../api/pid.js';
import { UserError } from '../core/errors.js';
import { tryLock } from '../core/lock.js';

export const PID_FILE = 'emulator.pid.json';
export const LOG_FILE = 'emulator.log';
const KEY_FILE = 'admin-key.json';
const LOCK_FILE = 'emulator.lock';
/** Longest a starting emulator may go without listening or telling seed progress before it is given up on. */
const START_TIMEOUT_MS = 30_000;
/** What a starting emulator's seed progress lines begin with in its log (emulator/index.ts). */
const SEED_LINE = '[emulator] seed: ';
const STOP_TIMEOUT_MS = 5_000;

export interface RunningInfo {
  pid: number;
  url: string;
  port: number;
}

/**
 * The emulator data dir when `--data-dir` is not given: `$SITECTL_DATA_DIR/emulator`, else
 * `$XDG_DATA_HOME/sitectl/emulator`, else `~/.local/share/sitectl/emulator` (contracts.md "Files").
 */
export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  if (env.SITECTL_DATA_DIR) return join(resolve(env.SITECTL_DATA_DIR), 'emulator');
  if (env.XDG_DATA_HOME) return join(resolve(env.XDG_DATA_HOME), 'sitectl', 'emulator');
  return join(env.HOME || homedir(), '.local', 'share', 'sitectl', 'emulator');
}

/**
 * Creates the data dir owner-only (0700 whatever the umask: it holds the admin key and the site data).
 * @throws UserError (exit 2) when the path, or a part of it, is a file, or cannot be created
 */
export function ensureDataDir(dataDir: string): void {
  try {
    if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new UserError(`the emulator data dir ${dataDir} is not usable (${code})`, 'pass --data-dir (or set SITECTL_DATA_DIR) to a directory you can write');
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

/** Reads `<dataDir>/emulator.pid.json` and checks the pid is alive; null when not running. */
export function readRunning(dataDir: string): RunningInfo | null {
  const info = readJson(join(dataDir, PID_FILE)) as Partial<RunningInfo> | null;
  if (!info || typeof info.pid !== 'number' || typeof info.url !== 'string' || typeof info.port !== 'number') return null;
  if (!isAlive(info.pid)) return null;
  return { pid: info.pid, url: info.url, port: info.port };
}

/**
 * The emulator's account-level admin key file: `{apiKey, accountId, siteId, clientId, sites:[{id, name,
 * clientId}]}`; `clientId` is the site's default OAuth app (sign-in).
 */
export interface AdminKeyFile {
  apiKey: string;
  accountId?: string;
  /** The default site. */
  siteId: string;
  /** The default site's OAuth app. */
  clientId?: string;
  sites: { id: string; name: string; clientId?: string }[];
}

/** Reads `<dataDir>/admin-key.json`; null before the first start. */
export function readAdminKey(dataDir: string): AdminKeyFile | null {
  const key = readJson(join(dataDir, KEY_FILE)) as Partial<AdminKeyFile> | null;
  if (!key || typeof key.apiKey !== 'string' || typeof key.siteId !== 'string') return null;
  const sites = Array.isArray(key.sites) ? key.sites.filter((s) => typeof s?.id === 'string' && typeof s?.name === 'string') : [];
  return {
    apiKey: key.apiKey,
    accountId: typeof key.accountId === 'string' ? key.accountId : undefined,
    siteId: key.siteId,
    ...(typeof key.clientId === 'string' ? { clientId: key.clientId } : {}),
    sites: sites.length ? sites : [{ id: key.siteId, name: key.siteId }],
  };
}

/** Written by the server process once it listens (atomically, via a temporary file and rename). */
export function writePidFile(dataDir: string, info: RunningInfo): void {
  const file = join(dataDir, PID_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(info) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
}

/** Removes the pid file if it still names `pid` (a newer emulator's file is left alone). */
export function removePidFile(dataDir: string, pid: number = process.pid): void {
  const file = join(dataDir, PID_FILE);
  const info = readJson(file) as Partial<RunningInfo> | null;
  if (info && info.pid !== pid) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/**
 * Path of `bin/sitectl.js`: found by walking up from this module (dist/ sits beside bin/ in the package,
 * src/emulator/ two levels below it), else process.argv[1] when that is the sitectl bin.
 */
export function sitectlBin(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, 'bin', 'sitectl.js');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  const argv1 = process.argv[1];
  if (argv1 && /^sitectl(\.js)?$/.test(basename(argv1))) return argv1;
  throw new Error('cannot find bin/sitectl.js to start the emulator');
}

function tailOfLog(dataDir: string): string {
  try {
    const text = readFileSync(join(dataDir, LOG_FILE), 'utf8').trim().split('\n');
    return text.slice(-5).join('\n');
  } catch {
    return '';
  }
}

/** The lines appended to a file since `offset` (complete lines only), and the offset after them. */
function newLines(file: string, offset: number): { lines: string[]; offset: number } {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    if (size <= offset) return { lines: [], offset };
    const buf = Buffer.alloc(Math.min(size - offset, 1 << 20));
    const n = readSync(fd, buf, 0, buf.length, offset);
    const text = buf.subarray(0, n).toString('utf8');
    const end = text.lastIndexOf('\n');
    if (end < 0) return { lines: [], offset };
    return { lines: text.slice(0, end).split('\n'), offset: offset + Buffer.byteLength(text.slice(0, end + 1)) };
  } catch {
    return { lines: [], offset };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Options of {@link spawnEmulator}. */
export interface SpawnOptions {
  /** Told each seed progress line of the starting emulator (`bookings 40,000 of 100,000`), as it comes. */
  progress?: (line: string) => void;
}

/**
 * Starts `node <bin/sitectl.js> emulator start --data-dir D <args>` detached (stdio to `<dataDir>/emulator.log`,
 * unref'd) and waits for its pid file: as long as the first start's seed goes on (each progress line it logs is
 * passed to `opts.progress`), and up to 30 s without either.
 * @throws Error when the child exits first (its exit code or signal, and the end of its log: the cause), or goes
 *   30 s without listening or progress (then it is stopped: a seed stopped half way leaves no store).
 */
export async function spawnEmulator(dataDir: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env, opts: SpawnOptions = {}): Promise<RunningInfo> {
  ensureDataDir(dataDir);
  const logFile = join(dataDir, LOG_FILE);
  const log = openSync(logFile, 'a', 0o600);
  let offset = fstatSync(log).size;
  let exited: string | null = null;
  try {
    const child = spawn(process.execPath, [sitectlBin(), 'emulator', 'start', '--data-dir', dataDir, ...args], {
      detached: true,
      stdio: ['ignore', log, log],
      env,
    });
    child.once('exit', (code, signal) => {
      exited = signal ? `killed by ${signal}` : `exit code ${code ?? 1}`;
    });
    child.unref();
    let deadline = Date.now() + START_TIMEOUT_MS;
    const relay = () => {
      const read = newLines(logFile, offset);
      offset = read.offset;
      for (const line of read.lines) {
        if (!line.startsWith(SEED_LINE)) continue;
        deadline = Date.now() + START_TIMEOUT_MS;
        opts.progress?.(line.slice(SEED_LINE.length));
      }
    };
    while (Date.now() < deadline) {
      relay();
      const running = readRunning(dataDir);
      if (running && running.pid === child.pid) return running;
      if (exited !== null) break;
      await sleep(50);
    }
    relay();
    // SIGKILL: a seed runs without yielding, so a handled SIGTERM would wait for its end. Killed half way, it leaves no store.
    if (exited === null) child.kill('SIGKILL');
    const tail = tailOfLog(dataDir);
    throw new Error(
      `the emulator did not start${exited !== null ? ` (${exited})` : `: nothing from it for ${START_TIMEOUT_MS / 1000} s, stopped`}; see ${logFile}` +
        (tail ? `:\n${tail}` : ' (empty)'),
    );
  } finally {
    closeSync(log);
  }
}


/**
 * The running emulator for `dataDir`, or a newly started one (`emulator start --data-dir D --port 0`, detached;
 * waits while it seeds, up to 30 s without progress), with its admin key and `started` saying which.
 * @throws Error when the emulator cannot be started.
 */
export async function ensureEmulator(
  dataDir: string,
  opts: { seed?: 'demo' | 'empty' } = {},
): Promise<{ url: string; apiKey: string; accountId?: string; siteId: string; clientId?: string; sites: AdminKeyFile['sites']; started: boolean }> {
  const withKey = (running: RunningInfo, started: boolean) => {
    const key = readAdminKey(dataDir);
    if (!key) throw new Error(`the emulator in ${dataDir} has no admin key file`);
    return { url: running.url, apiKey: key.apiKey, accountId: key.accountId, siteId: key.siteId, clientId: key.clientId, sites: key.sites, started };
  };
  const running = readRunning(dataDir);
  if (running) return withKey(running, false);
  ensureDataDir(dataDir);
  const deadline = Date.now() + START_TIMEOUT_MS + STOP_TIMEOUT_MS;
  // One starter per data dir (core/lock.ts: held by pid, so a killed starter's lock is taken over at once).
  let release: (() => void) | { heldBy: number };
  while (typeof (release = tryLock(join(dataDir, LOCK_FILE))) !== 'function') {
    // Another CLI process is starting it: wait for its pid file.
    const other = readRunning(dataDir);
    if (other) return withKey(other, false);
    if (Date.now() > deadline) throw new Error(`timed out waiting for process ${release.heldBy} to start the emulator in ${dataDir}`);
    await sleep(50);
  }
  try {
    const again = readRunning(dataDir);
    if (again) return withKey(again, false);
    const started = await spawnEmulator(dataDir, ['--port', '0', ...(opts.seed ? ['--seed', opts.seed] : [])]);
    return withKey(started, true);
  } finally {
    release();
  }
}

/**
 * Stops the emulator running for `dataDir`: SIGTERM, then SIGKILL after 5 s. Returns false when none was running.
 */
export async function stopEmulator(dataDir: string): Promise<boolean> {
  const running = readRunning(dataDir);
  if (!running) return false;
  process.kill(running.pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(running.pid)) {
    if (Date.now() > deadline) {
      process.kill(running.pid, 'SIGKILL');
      await sleep(100);
      break;
    }
    await sleep(25);
  }
  removePidFile(dataDir, running.pid);
  return true;
}

/** Longest wait for one control-plane answer (ms). */
const CONTROL_TIMEOUT_MS = 30_000;

/**
 * One JSON request to a running emulator (the control plane, from `sitectl emulator status|reset`), over
 * node:http so the CLI does not load undici for it.
 * @param opts.timeoutMs longest wait for the answer (default 30 s; a reset that seeds a large site takes minutes)
 * @param opts.signal stops waiting (the emulator goes on with what it was asked)
 * @returns the parsed JSON reply. @throws Error with the status and message on a non-200 reply, or when no answer
 *   comes within the timeout; the signal's reason when it aborts.
 */
export function emulatorRequest(
  url: string,
  key: { apiKey: string; siteId: string },
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<unknown> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolvePromise, reject) => {
    // Taken at call time, not imported: an ESM import of node:http loads Node's internal undici (errors.ts).
    const { request } = process.getBuiltinModule('node:http') as typeof Http;
    const req = request(
      new URL(path, url),
      {
        method,
        headers: {
          authorization: key.apiKey,
          'wix-site-id': key.siteId,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = undefined;
          try {
            parsed = text ? JSON.parse(text) : {};
          } catch {
            parsed = undefined;
          }
          if (res.statusCode === 200 && parsed !== undefined) resolvePromise(parsed);
          else {
            const message = (parsed as { message?: string } | undefined)?.message ?? res.statusMessage ?? 'error';
            reject(new Error(`emulator replied ${res.statusCode}: ${message} (request id ${String(res.headers['x-wix-request-id'] ?? '-')})`));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // A control-plane call answers in milliseconds: one that does not within 30 s is not going to.
    const timeoutMs = opts.timeoutMs ?? CONTROL_TIMEOUT_MS;
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`the emulator did not answer ${method} ${path} within ${timeoutMs / 1000} s`)));
    if (opts.signal) {
      const onAbort = () => req.destroy(opts.signal!.reason as Error);
      if (opts.signal.aborted) onAbort();
      else opts.signal.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => opts.signal!.removeEventListener('abort', onAbort));
    }
    req.end(payload);
  });
}
