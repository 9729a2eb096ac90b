/**
 * Terminal policy in one place (GitHub CLI's iostreams): which streams are TTYs, whether colour is on,
 * whether we may prompt, and the terminal width. Commands never look at process.stdout directly.
 */
import type { Readable, Writable } from 'node:stream';

export interface IOStreams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  /** stdout is a terminal: tables aligned, colour allowed. */
  isStdoutTTY: boolean;
  isStdinTTY: boolean;
  isStderrTTY: boolean;
  /** Colour on stdout/stderr (NO_COLOR, FORCE_COLOR, TERM=dumb honoured). */
  colorEnabled: boolean;
  /** Terminal width in columns (80 when unknown). */
  columns: number;
  /**
   * Prompts are allowed only when stdin and stdout are TTYs, CI is unset and --no-input is absent
   * (docs/architecture.md "Output and interaction").
   */
  canPrompt(): boolean;
}

export interface IOStreamsOptions {
  stdin?: IOStreams['stdin'];
  stdout?: IOStreams['stdout'];
  stderr?: IOStreams['stderr'];
  env?: NodeJS.ProcessEnv;
  noInput?: boolean;
}

/** Builds the IOStreams for this process (or for a test, from the given streams and environment). */
export function createIOStreams(opts: IOStreamsOptions = {}): IOStreams {
  const env = opts.env ?? process.env;
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  const isStdoutTTY = Boolean(stdout.isTTY);
  const isStdinTTY = Boolean(stdin.isTTY);
  const isStderrTTY = Boolean(stderr.isTTY);
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  const colorEnabled =
    env.NO_COLOR === undefined || env.NO_COLOR === ''
      ? forced || (isStdoutTTY && env.TERM !== 'dumb')
      : false;
  // A pseudo-terminal may report 0 columns (before its size is set): treated as unknown, like a pipe.
  const columns = [Number(env.COLUMNS), stdout.columns, stderr.columns].find((c): c is number => typeof c === 'number' && c > 0) ?? 80;
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false';
  return {
    stdin,
    stdout,
    stderr,
    isStdoutTTY,
    isStdinTTY,
    isStderrTTY,
    colorEnabled,
    columns,
    canPrompt: () => isStdinTTY && isStdoutTTY && !ci && !opts.noInput,
  };
}
