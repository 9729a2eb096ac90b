/**
 * Messages for humans on stderr (docs/architecture.md "Output and interaction": stdout carries data only) and the few
 * ANSI styles the CLI uses. Colour only when `io.colorEnabled` (NO_COLOR, FORCE_COLOR, TERM=dumb honoured in
 * core/iostreams.ts); no dependency, because chalk-like packages cost startup time for four escape codes.
 */
import type { IOStreams } from './iostreams.js';

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';

const CODES: Record<Style, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
};

/** Wraps `text` in the ANSI codes of `style` when colour is enabled; returns it unchanged otherwise. */
export function style(io: Pick<IOStreams, 'colorEnabled'>, s: Style, text: string): string {
  if (!io.colorEnabled) return text;
  const [open, close] = CODES[s];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

/** A neutral notice on stderr, one line (e.g. "Started the local emulator at ..."). */
export function notice(io: IOStreams, message: string): void {
  io.stderr.write(`${message}\n`);
}

/** A warning on stderr: `warning: <message>`. */
export function warn(io: IOStreams, message: string): void {
  io.stderr.write(`${style(io, 'yellow', 'warning:')} ${message}\n`);
}

/** A success line on stderr (e.g. after `profile add`): `✓ <message>` on a TTY, the bare message otherwise. */
export function success(io: IOStreams, message: string): void {
  io.stderr.write(io.isStderrTTY ? `${style(io, 'green', '✓')} ${message}\n` : `${message}\n`);
}
