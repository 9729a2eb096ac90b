/**
 * Runs the CLI in this process: `run(argv, overrides)` of src/main.ts with in-memory streams and the same
 * sandboxed environment {@link runCli} gives a child. Use it wherever a separate process is not the point
 * (flag validation, output formats, error lines, exit codes); keep {@link runCli} for signals, pseudo-terminals,
 * start-up and the built bundle.
 *
 * @example
 *   const r = await runInProcess(['services', 'list', '--json', 'id'], { emulator: emu });
 *   expect(r.code).toBe(0);
 */
import { PassThrough } from 'node:stream';
import { run } from '../../src/main.js';
import type { Context, Prompter } from '../../src/context.js';
import { DeclinedError } from '../../src/core/errors.js';
import { createIOStreams } from '../../src/core/iostreams.js';
import { cliEnv, createCliSandbox, type CliResult, type CliSandbox, type CliTarget } from './cli.js';

export interface InProcessOptions {
  /** Points SITECTL_BASE_URL / SITECTL_SITE_ID / SITECTL_API_KEY at this emulator. */
  emulator?: CliTarget;
  /** Reuse directories across runs; default: a fresh sandbox, removed afterwards. */
  sandbox?: CliSandbox;
  /** Extra environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** The whole of stdin (ended after it). Default: empty. */
  input?: string;
  /** Present stdin, stdout and stderr as terminals (isTTY) without a real one; set `env: { CI: undefined }` to allow prompts. */
  tty?: boolean;
  /** Present only stderr as a terminal (default: as `tty`): output piped, as in `sitectl ... | wc -l` typed at one. */
  stderrTty?: boolean;
  columns?: number;
  /** Stands for Ctrl-C: aborting it is what the first SIGINT does to a real run. */
  signal?: AbortSignal;
  /** Answers confirm prompts (default: the terminal prompter, which refuses without a terminal). */
  prompter?: Prompter;
  /** The program name hints use (default `sitectl`). */
  bin?: string;
  /** Fixed clock for relative times in tables. */
  now?: () => Date;
}

function capture(tty: boolean, columns: number) {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  stream.isTTY = tty;
  stream.columns = columns;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs `sitectl ...args` in this process and returns its exit code and output. Never rejects on a non-zero code. */
export async function runInProcess(args: string[], opts: InProcessOptions = {}): Promise<CliResult> {
  const ownSandbox = opts.sandbox ? undefined : createCliSandbox();
  const sandbox = opts.sandbox ?? ownSandbox!;
  const tty = opts.tty ?? false;
  const env = cliEnv(sandbox, opts.emulator, { ...(opts.columns !== undefined ? { COLUMNS: String(opts.columns) } : {}), ...opts.env });
  const stdout = capture(tty, opts.columns ?? 120);
  const stderr = capture(opts.stderrTty ?? tty, opts.columns ?? 120);
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = tty;
  stdin.end(opts.input ?? '');
  const io = createIOStreams({ stdin, stdout: stdout.stream, stderr: stderr.stream, env, noInput: args.includes('--no-input') });
  const overrides: Partial<Context> = { io, env, bin: opts.bin ?? 'sitectl' };
  if (opts.signal) overrides.signal = opts.signal;
  if (opts.prompter) overrides.prompter = opts.prompter;
  if (opts.now) overrides.now = opts.now;
  try {
    const code = await run(args, overrides);
    stdout.stream.end();
    stderr.stream.end();
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    ownSandbox?.cleanup();
  }
}

/** A prompter that answers every question with `answer` (and `secret` with `typed`) and records what was asked. */
export function answering(answer: boolean, typed = ''): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const prompter = {
    asked,
    async confirm(question: string) {
      asked.push(question);
      return answer;
    },
    async require(question: string, o: { declined?: string } = {}) {
      asked.push(question);
      if (!answer) throw new DeclinedError(o.declined);
    },
    async secret(question: string) {
      asked.push(question);
      return typed.trim();
    },
  };
  return prompter;
}
