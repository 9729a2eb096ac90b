/**
 * No silent wait (docs/architecture.md "Output and interaction"): a wait of the API client that lasts more than a
 * few seconds says so on stderr, with what it waits for and how to stop it:
 *
 *   the platform asks to wait 59 s (rate limit, try 2 of 4) - Ctrl-C to stop
 *   waiting for the platform's reply to GET /_api/bookings/v2/services (12 s, try 1 of 4) - Ctrl-C to stop
 *   trying again in 4 s (no reply headers within 30 s, try 3 of 4) - Ctrl-C to stop
 *
 * On a terminal (and without the `--debug` trace, whose lines would run into it) one status line is rewritten in
 * place, once a second, and erased when the wait ends; anywhere else each wait gets one line, written once. The
 * client calls {@link waitNotices}'s observer (api/client.ts `onWait`); the context wires the two together.
 */
import type { Writable } from 'node:stream';
import { oneLine } from './text.js';

/**
 * A wait as the API client tells it (api/client.ts `CallWait`, declared again here: core imports nothing of the
 * client). `attempt` is the try waited for (1-based) of at most `attempts`; `elapsedMs` the time the call has
 * taken before this wait; a `retry` pause lasts `ms`, asked by a `Retry-After` (`asked`) or chosen by the backoff.
 */
export type Wait =
  | { kind: 'reply'; method: string; path: string; attempt: number; attempts: number; elapsedMs: number }
  | { kind: 'retry'; method: string; path: string; attempt: number; attempts: number; elapsedMs: number; ms: number; asked: boolean; reason: string };

/** The default of {@link WaitNoticeOptions.afterMs}: waits are told once they come to 3 s. */
export const WAIT_NOTICE_AFTER_MS = 3000;

export interface WaitNoticeOptions {
  /** Where the notices go (stderr: stdout carries data only). */
  stderr: Writable;
  /**
   * How long a wait lasts before it is told, in ms: a reply once it has been waited for this long; a pause
   * before the next try that is this long, or that comes once the call has taken this long (short pauses of
   * a call that fails fast, such as a refused connection, stay quiet). 0 tells every wait.
   */
  afterMs: number;
  /** One status line rewritten in place (a terminal); otherwise one line per wait, written once. */
  inPlace: boolean;
  /** Terminal width: the in-place line is cut to it, so it never wraps (a wrapped line cannot be erased). */
  columns: number;
  /** False while the notices are held (an interactive view owns the terminal). */
  enabled(): boolean;
  /** A monotonic clock in ms (tests). */
  clock?: () => number;
}

/** Seconds as messages say them: one decimal under 10 s (`0.3 s`, `4 s`), whole seconds above (`59 s`). */
function seconds(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  return `${s < 10 ? Number(s.toFixed(1)) : Math.round(s)} s`;
}

const STOP = ' - Ctrl-C to stop';

/** The notice of `wait`, `waitedMs` into it (a reply's line counts the seconds waited). */
export function waitText(wait: Wait, waitedMs: number): string {
  const tries = `try ${wait.attempt} of ${wait.attempts}`;
  if (wait.kind === 'reply') return `waiting for the platform's reply to ${wait.method} ${oneLine(wait.path)} (${seconds(waitedMs)}, ${tries})${STOP}`;
  const why = `(${oneLine(wait.reason)}, ${tries})`;
  return wait.asked ? `the platform asks to wait ${seconds(wait.ms)} ${why}${STOP}` : `trying again in ${seconds(wait.ms)} ${why}${STOP}`;
}

/** The one status line of a terminal: the latest wait still going, redrawn every second, erased when none is left. */
class StatusLine {
  private readonly shown: { text(): string }[] = [];
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly out: Writable, private readonly columns: number) {}

  add(entry: { text(): string }): void {
    this.shown.push(entry);
    this.draw();
    if (!this.ticker) {
      this.ticker = setInterval(() => this.draw(), 1000);
      this.ticker.unref?.();
    }
  }

  remove(entry: { text(): string }): void {
    const at = this.shown.indexOf(entry);
    if (at < 0) return;
    this.shown.splice(at, 1);
    if (this.shown.length > 0) return this.draw();
    clearInterval(this.ticker);
    this.ticker = undefined;
    this.out.write('\r\u001b[K');
  }

  private draw(): void {
    const entry = this.shown[this.shown.length - 1];
    if (!entry) return;
    const text = entry.text();
    // A terminal that does not say its width (0) is taken as 80 columns.
    const width = Math.max(20, (this.columns > 0 ? this.columns : 80) - 1);
    this.out.write(`\r\u001b[K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
  }
}

/**
 * The observer the API client tells its waits to (api/client.ts `onWait`), printing the waiting notices.
 * @returns a function of one wait that returns what to call when that wait ends (or undefined: nothing to end)
 */
export function waitNotices(opts: WaitNoticeOptions): (wait: Wait) => (() => void) | undefined {
  // process.hrtime, not the global `performance`, whose first use loads perf_hooks (docs/runtime.md).
  const clock = opts.clock ?? (() => Number(process.hrtime.bigint()) / 1e6);
  const line = opts.inPlace ? new StatusLine(opts.stderr, opts.columns) : undefined;
  /** Tells `text` now: on the status line (until `end`) or as a line of its own. */
  const tell = (text: () => string): (() => void) => {
    if (!line) {
      opts.stderr.write(`${text()}\n`);
      return () => {};
    }
    const entry = { text };
    line.add(entry);
    return () => line.remove(entry);
  };

  return (wait) => {
    if (!opts.enabled()) return undefined;
    if (wait.kind === 'retry') {
      if (wait.ms < opts.afterMs && wait.elapsedMs < opts.afterMs) return undefined;
      return tell(() => waitText(wait, 0));
    }
    const started = clock();
    let end: (() => void) | undefined;
    const announce = () => {
      if (opts.enabled()) end = tell(() => waitText(wait, clock() - started));
    };
    if (opts.afterMs <= 0) {
      announce();
      return () => end?.();
    }
    const timer = setTimeout(announce, opts.afterMs);
    timer.unref?.();
    return () => {
      clearTimeout(timer);
      end?.();
    };
  };
}
