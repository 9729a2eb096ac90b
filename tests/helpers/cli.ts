/**
 * Run the BUILT CLI (`node bin/sitectl.js ...`, i.e. `dist/`) as a child process with an isolated environment.
 *
 * Every run gets its own config, data and state directories (a {@link CliSandbox}) unless one is passed in, so
 * tests never read or write the user's real profiles, emulator or journals. `npm run build` must have run first
 * (`npm test` does it through `pretest`); {@link runCli} throws a clear error when `dist/main.js` is missing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** Absolute path of the repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * Absolute path of the CLI entry: `bin/sitectl.js`, or `$SITECTL_TEST_BIN` when set: a private build outside
 * the repository, so a parallel `npm run build` (which empties dist/) cannot break a running test, e.g.
 * `B=/tmp/sitectl-build; mkdir -p $B/bin; cp bin/sitectl.js $B/bin; ln -sfn $PWD/node_modules $B/node_modules;
 * npx rolldown -c rolldown.config.ts --dir $B/dist` then `SITECTL_TEST_BIN=$B/bin/sitectl.js npx vitest run ...`.
 */
export const binPath = process.env.SITECTL_TEST_BIN ? resolve(process.env.SITECTL_TEST_BIN) : join(repoRoot, 'bin', 'sitectl.js');
const distMain = join(dirname(dirname(binPath)), 'dist', 'main.js');

/** What a CLI run produced. `stdout`/`stderr` are UTF-8 text; under `tty: true` both arrive merged in `stdout`. */
export interface CliResult {
  /** Exit code (the child's `process.exitCode`); 128 + n when killed by signal n. */
  code: number;
  stdout: string;
  stderr: string;
}

/** Temp directories standing in for the user's config/data/state dirs (and HOME). */
export interface CliSandbox {
  root: string;
  /** SITECTL_CONFIG_DIR: conf writes `config.json` here. */
  configDir: string;
  /** SITECTL_DATA_DIR: the default local emulator lives in `<dataDir>/emulator`. */
  dataDir: string;
  /** SITECTL_STATE_DIR: bulk journals go to `<stateDir>/journals`. */
  stateDir: string;
  /** The environment variables that point the CLI at this sandbox. */
  env: Record<string, string>;
  /** Removes the directories (idempotent). Stop any emulator started inside `dataDir` first. */
  cleanup(): void;
}

/** Connection details for an emulator the CLI should talk to (a `TestEmulator` fits). */
export interface CliTarget {
  url: string;
  apiKey: string;
  siteId: string;
  /** Sets SITECTL_ACCOUNT_ID too (account-level calls: `sites list`, `--site NAME`). */
  accountId?: string;
}

export interface RunCliOptions {
  /** Sets SITECTL_BASE_URL / SITECTL_SITE_ID / SITECTL_API_KEY to this emulator. */
  emulator?: CliTarget;
  /** Reuse directories across runs (e.g. `profile add` then `profile list`); default: a fresh one, removed after. */
  sandbox?: CliSandbox;
  /** Extra environment; a value of `undefined` removes the variable (e.g. `{ NO_COLOR: undefined }`). */
  env?: Record<string, string | undefined>;
  /** Written to the child's stdin, then stdin is closed. Without it stdin is empty (closed at once). */
  input?: string | Buffer;
  /**
   * Run under a real pseudo-terminal (`script -qec ... /dev/null`, util-linux): stdin, stdout and stderr are all
   * TTYs, so stdout and stderr come back merged in `stdout` with `\r\n` line ends normalised to `\n`. `CI` and
   * `NO_COLOR` are removed from the environment unless `env` sets them. `input` is not supported here.
   */
  tty?: boolean;
  /** Terminal width passed as COLUMNS (default 120 under `tty`, unset otherwise). */
  columns?: number;
  /**
   * Sends `interruptSignal` (default SIGINT, i.e. Ctrl-C) to the child once, the first time this returns true.
   * Checked whenever the child writes; e.g. `({ stderr }) => stderr.includes('Journal:')`. Not with `tty`.
   */
  interruptWhen?: (output: { stdout: string; stderr: string }) => boolean;
  interruptSignal?: NodeJS.Signals;
  /** Kill the child after this many ms (default 30_000) and reject. */
  timeoutMs?: number;
  cwd?: string;
}

/** Creates a fresh {@link CliSandbox} under the OS temp dir. */
export function createCliSandbox(): CliSandbox {
  const root = mkdtempSync(join(tmpdir(), 'sitectl-cli-'));
  const configDir = join(root, 'config');
  const dataDir = join(root, 'data');
  const stateDir = join(root, 'state');
  const home = join(root, 'home');
  for (const d of [configDir, dataDir, stateDir, home]) mkdirSync(d, { recursive: true });
  return {
    root,
    configDir,
    dataDir,
    stateDir,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      SITECTL_CONFIG_DIR: configDir,
      SITECTL_DATA_DIR: dataDir,
      SITECTL_STATE_DIR: stateDir,
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * The clock of the test run, passed on to every process it starts: when the suite runs under Debian's `faketime`
 * (the time spread, .ci/time-spread), its variables make the CLI children, the panes of tmux and the emulators they
 * start see the same time as the test process and its in-process emulator.
 */
function clockEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && (k === 'LD_PRELOAD' || k.startsWith('FAKETIME'))) out[k] = v;
  return out;
}

/**
 * The environment a CLI child gets: PATH (so `node` resolves), the sandbox dirs, `NO_COLOR=1`, `CI=1`, the
 * test run's clock (faketime's variables, when it runs under faketime), the emulator's connection variables when
 * given, then `extra` (undefined deletes). Nothing else of the parent's environment leaks in (no real SITECTL_*
 * or proxy settings).
 */
export function cliEnv(
  sandbox: CliSandbox,
  emulator?: CliTarget,
  extra: Record<string, string | undefined> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    NO_COLOR: '1',
    CI: '1',
    ...clockEnv(),
    ...sandbox.env,
  };
  if (emulator) {
    env.SITECTL_BASE_URL = emulator.url;
    env.SITECTL_SITE_ID = emulator.siteId;
    env.SITECTL_API_KEY = emulator.apiKey;
    if (emulator.accountId) env.SITECTL_ACCOUNT_ID = emulator.accountId;
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `node bin/sitectl.js ...args` and resolves when it exits (never rejects on a non-zero exit code;
 * rejects on timeout or when the build is missing).
 *
 * @example
 *   const r = await runCli(['services', 'list', '--json', 'id,name'], { emulator });
 *   expect(r.code).toBe(0); JSON.parse(r.stdout);
 */
export async function runCli(args: string[], opts: RunCliOptions = {}): Promise<CliResult> {
  if (!existsSync(distMain)) {
    throw new Error(`${distMain} is missing: run \`npm run build\` before the CLI tests`);
  }
  const ownSandbox = opts.sandbox ? undefined : createCliSandbox();
  const sandbox = opts.sandbox ?? ownSandbox!;
  const extra: Record<string, string | undefined> = {};
  if (opts.tty) {
    if (opts.input !== undefined) throw new Error('runCli: `input` is not supported with `tty: true`');
    extra.CI = undefined;
    extra.NO_COLOR = undefined;
    extra.TERM = 'xterm-256color';
    extra.COLUMNS = String(opts.columns ?? 120);
  } else if (opts.columns !== undefined) {
    extra.COLUMNS = String(opts.columns);
  }
  const env = cliEnv(sandbox, opts.emulator, { ...extra, ...opts.env });
  const command = opts.tty ? 'script' : process.execPath;
  const argv = opts.tty
    ? ['-qec', [process.execPath, binPath, ...args].map(shellQuote).join(' '), '/dev/null']
    : [binPath, ...args];
  try {
    return await new Promise<CliResult>((resolvePromise, reject) => {
      const child = spawn(command, argv, {
        cwd: opts.cwd ?? repoRoot,
        env,
        stdio: [opts.tty ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let interrupted = false;
      const check = () => {
        if (interrupted || !opts.interruptWhen || opts.tty) return;
        const output = { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
        if (opts.interruptWhen(output)) {
          interrupted = true;
          child.kill(opts.interruptSignal ?? 'SIGINT');
        }
      };
      child.stdout!.on('data', (b: Buffer) => {
        out.push(b);
        check();
      });
      child.stderr!.on('data', (b: Buffer) => {
        err.push(b);
        check();
      });
      const timeoutMs = opts.timeoutMs ?? 30_000;
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new Error(
            `sitectl ${args.join(' ')} timed out after ${timeoutMs} ms\nstdout: ${Buffer.concat(out)}\nstderr: ${Buffer.concat(err)}`,
          ),
        );
      }, timeoutMs);
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        const signals: Record<string, number> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
        let stdout = Buffer.concat(out).toString('utf8');
        if (opts.tty) stdout = stdout.replace(/\r\n/g, '\n');
        resolvePromise({
          code: code ?? 128 + (signals[signal ?? ''] ?? 0),
          stdout,
          stderr: Buffer.concat(err).toString('utf8'),
        });
      });
      if (!opts.tty) {
        child.stdin!.on('error', () => {
          // The CLI may exit without reading stdin; EPIPE is not the test's concern.
        });
        child.stdin!.end(opts.input ?? '');
      }
    });
  } finally {
    ownSandbox?.cleanup();
  }
}

/** Removes ANSI escape sequences (colour, cursor) from terminal output. */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g, '');
}

/**
 * The JSON a run printed on stdout, after asserting it exited 0 (its stderr is the failure's message). Typed `any`:
 * tests read whatever shape the verb prints.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function okJson(r: CliResult): any {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}
