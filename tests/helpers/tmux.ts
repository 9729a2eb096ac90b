/**
 * The built CLI in a real terminal: a private tmux server (never the user's sessions) runs `sitectl ARGS` in a
 * detached pane of a given size; tests read the pane (`capture-pane -p`) and type into it (`send-keys`). The
 * pane's shell prints `EXIT=<code>` when the CLI ends.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { binPath, cliEnv, repoRoot, type CliSandbox, type CliTarget } from './cli.js';

/** tmux is installed (tests using it skip, with a message, when it is not). */
export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export interface Terminal {
  /** Starts `sitectl ARGS` in a new session `name` (120x40 unless given). */
  start(name: string, args: string[], opts?: { env?: Record<string, string | undefined>; width?: number; height?: number }): void;
  /** The pane's text now. */
  pane(name: string): string;
  /** The pane's text now with its SGR escapes (bold, underline, colour), as `capture-pane -e` gives it. */
  styled(name: string): string;
  /** Polls the pane until `pattern` shows; fails with the pane's text after `ms`. */
  waitFor(name: string, pattern: RegExp, ms?: number): Promise<string>;
  /** Types keys (tmux key names: 'y', 'Enter', 'C-c', or literal text). */
  send(name: string, ...keys: string[]): void;
  /** Sends `signal` to the CLI running in the pane (the pane's shell stays, and prints EXIT=). */
  kill(name: string, signal: NodeJS.Signals): void;
  /** Resizes the session's window (the program gets SIGWINCH). */
  resize(name: string, width: number, height: number): void;
  /** Kills the tmux server and every session in it. */
  close(): void;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A private tmux server whose panes run the CLI with the sandbox's directories (and the emulator's target). */
export function openTerminal(sandbox: CliSandbox, target?: CliTarget): Terminal {
  const socket = `sitectl-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const pane = (name: string) => tmux('capture-pane', '-p', '-t', name);
  return {
    start(name, args, opts = {}) {
      const env = cliEnv(sandbox, target, { CI: undefined, NO_COLOR: undefined, TERM: 'xterm-256color', ...opts.env });
      const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v ?? '')}`);
      const command = `env -i ${assignments.join(' ')} ${shellQuote(process.execPath)} ${shellQuote(binPath)} ${args.map(shellQuote).join(' ')}; echo EXIT=$?; sleep 600`;
      tmux('new-session', '-d', '-s', name, '-x', String(opts.width ?? 120), '-y', String(opts.height ?? 40), '-c', repoRoot, command);
    },
    pane,
    styled(name) {
      return tmux('capture-pane', '-p', '-e', '-t', name);
    },
    async waitFor(name, pattern, ms = 20_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const text = pane(name);
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`pane never showed ${pattern}:\n${text}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    send(name, ...keys) {
      tmux('send-keys', '-t', name, ...keys);
    },
    kill(name, signal) {
      const shell = tmux('display-message', '-p', '-t', name, '#{pane_pid}').trim();
      const cli = execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' }).trim().split('\n')[0];
      if (!cli) throw new Error(`no CLI process under the pane of ${name}`);
      process.kill(Number(cli), signal);
    },
    resize(name, width, height) {
      tmux('resize-window', '-t', name, '-x', String(width), '-y', String(height));
    },
    close() {
      spawnSync('tmux', ['-L', socket, 'kill-server']);
    },
  };
}
