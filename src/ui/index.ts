/**
 * The UI facade (docs/architecture.md "Layout and dependency direction": the only place that imports ink and react). Commands load it with
 * `await import('../../ui/index.js')` and only on a TTY, so non-interactive runs never load Ink or React.
 *
 * Every function takes plain data and returns plain results; nothing here calls the API.
 */
import { createElement, type ReactElement } from 'react';
import { render, renderToString } from 'ink';
import { CancelError } from '../core/errors.js';
import { Browser } from './browser.js';
import type { PaneSpec, SourceLink, ViewJump } from './browser-spec.js';
import { Confirm } from './confirm.js';
import { Progress } from './progress.js';
import { Secret } from './secret.js';
import { Table } from './table.js';
import { initialProgressState, progressReducer, type ProgressState, type ProgressUpdate } from './progress-state.js';
import type { TableColumn, TableRow } from './table-layout.js';

export type { TableColumn, TableRow } from './table-layout.js';
export type { ProgressUpdate } from './progress-state.js';

type TtyOut = NodeJS.WriteStream;

export interface RenderConfirmOptions {
  message: string;
  /** The answer Enter gives without moving the highlight. */
  defaultValue: boolean;
  /** Where the prompt is drawn (default stderr, so stdout stays data-only). Must be a TTY. */
  stdout?: TtyOut;
  stdin?: NodeJS.ReadStream;
  /** Ends the question as Ctrl-C does (the terminal closed: SIGHUP). */
  signal?: AbortSignal;
}

/**
 * Asks a yes/no question on the terminal. Call only when `io.canPrompt()` is true.
 *
 * @returns true for yes, false for no (or Esc)
 * @throws CancelError (exit 130) when the user presses Ctrl-C, or `signal` aborts
 */
export async function renderConfirm(opts: RenderConfirmOptions): Promise<boolean> {
  return ask<boolean>((onDone) => createElement(Confirm, { message: opts.message, defaultValue: opts.defaultValue, onDone }), opts);
}

export interface RenderSecretOptions {
  message: string;
  /** Where the prompt is drawn (default stderr). Must be a TTY. */
  stdout?: TtyOut;
  stdin?: NodeJS.ReadStream;
  /** Ends the entry as Ctrl-C does. */
  signal?: AbortSignal;
}

/**
 * Reads a secret (an API key) typed or pasted on the terminal, without echoing it; Enter ends the entry.
 * Call only when `io.canPrompt()` is true.
 * @returns what was entered, trimmed (may be empty)
 * @throws CancelError (exit 130) on Esc or Ctrl-C, or when `signal` aborts
 */
export async function renderSecret(opts: RenderSecretOptions): Promise<string> {
  return (await ask<string>((onDone) => createElement(Secret, { message: opts.message, onDone }), opts)).trim();
}

/**
 * Draws a prompt that reports once through `onDone` (undefined = cancelled) and waits for it to unmount; an aborted
 * `signal` unmounts it unanswered.
 * @throws CancelError (exit 130) when it was cancelled
 */
async function ask<T>(
  element: (onDone: (answer: T | undefined) => void) => ReactElement,
  opts: { stdout?: TtyOut; stdin?: NodeJS.ReadStream; signal?: AbortSignal },
): Promise<T> {
  if (opts.signal?.aborted) throw new CancelError('Canceled');
  let answer: T | undefined;
  const instance = render(
    element((a) => {
      answer = a;
    }),
    { stdout: opts.stdout ?? process.stderr, stdin: opts.stdin ?? process.stdin, exitOnCtrlC: false, patchConsole: false },
  );
  const onAbort = () => instance.unmount();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await instance.waitUntilExit();
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
  if (answer === undefined || opts.signal?.aborted) throw new CancelError('Canceled');
  return answer;
}

export interface RenderProgressOptions {
  title: string;
  total: number;
  /** Where the bar is drawn (default stderr). Must be a TTY. */
  stdout?: TtyOut;
}

/** A live progress bar: `update` as the engine reports, `done` once at the end (leaves the last frame shown). */
export interface ProgressHandle {
  update(p: ProgressUpdate): void;
  done(): Promise<void>;
}

/** Draws a progress bar (done/total, rate, ETA, failures) that redraws in place at most 30 times a second. */
export function renderProgress(opts: RenderProgressOptions): ProgressHandle {
  const stdout = opts.stdout ?? process.stderr;
  let state: ProgressState = initialProgressState(opts.title, opts.total);
  const view = () => createElement(Progress, { state, columns: stdout.columns || 80 });
  const instance = render(view(), { stdout, exitOnCtrlC: false, patchConsole: false });
  let finished = false;
  return {
    update(p) {
      if (finished) return;
      state = progressReducer(state, p);
      instance.rerender(view());
    },
    async done() {
      if (finished) return;
      finished = true;
      state = progressReducer(state, { type: 'finish' });
      instance.rerender(view());
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}

export interface RenderTableOptions {
  columns: TableColumn[];
  rows: TableRow[];
  /** Where the table is written (default stderr). */
  stdout?: NodeJS.WritableStream & { columns?: number };
  /** Width to fit (default the stream's columns, else 80). */
  width?: number;
}

/** Writes a table once (no live redraw): bold header, columns fitted to the width. */
export function renderTable(opts: RenderTableOptions): void {
  const stdout = opts.stdout ?? process.stderr;
  const width = opts.width ?? (stdout.columns || 80);
  const text = renderToString(createElement(Table, { columns: opts.columns, rows: opts.rows, width }), { columns: width });
  stdout.write(`${text}\n`);
}

export type { ActionIO, ColumnSort, JumpView, PageReader, PaneSpec, SourceLink, UiAction, UiPage, ViewJump } from './browser-spec.js';
export type { UiRow } from './browser-state.js';

export interface RenderBrowserOptions {
  /** Shown first in the title bar (`sitectl bookings`, `sitectl dashboard`). */
  title: string;
  panes: PaneSpec[];
  /** Colour and inverse video; false for NO_COLOR and TERM=dumb (the cursor and marks are `>` and `*`). */
  color: boolean;
  /** Read every pane again this often (ms); 0 or absent = only on `r`, actions and `live` notices. */
  intervalMs?: number;
  /** Subscribes to changes made elsewhere (the emulator's events); returns the unsubscribe function. */
  live?(notify: (paneIds?: string[]) => void): () => void;
  /** Reload every pane after an action (the dashboard: a confirmed booking leaves one pane for another). */
  reloadAllAfterAction?: boolean;
  /** A pane also shown as a strip of its newest rows under the active one on a tall terminal (the dashboard's events). */
  strip?: string;
  /** The zone the rows' times are shown in, named in the header. */
  zone?: string;
  /**
   * The source's liveness and address: while it does not answer the view says so within 2 s, marks its rows
   * stale, refuses actions at once and retries, looking the address up again (`r` retries now).
   */
  link?: SourceLink;
  /**
   * `:NOUN`: the words it takes (completed with Tab) and the view each opens in place of this one (the command's
   * noun lists); without it `:` does nothing.
   */
  jump?: ViewJump;
  /** Use the terminal's alternate screen, restored on exit (not for TERM=dumb). */
  alternateScreen: boolean;
  /** Where the screen is drawn (default stderr, so stdout stays data-only). Must be a TTY. */
  stdout?: TtyOut;
  stdin?: NodeJS.ReadStream;
  /** Ends the view as Ctrl-C does (the terminal closed: SIGHUP). */
  signal?: AbortSignal;
}

/**
 * Runs the interactive browser (k9s-like: one table or several panes, lazy pages, filter, sort, marks, details,
 * single-key actions with confirmation) until the user quits. Call only when `io.canPrompt()` is true.
 * @returns when the user pressed q
 * @throws CancelError (exit 130) on Ctrl-C, or when `signal` aborts
 */
export async function renderBrowser(opts: RenderBrowserOptions): Promise<void> {
  if (opts.signal?.aborted) throw new CancelError('Interrupted');
  const stdout = opts.stdout ?? process.stderr;
  let code = 0;
  if (opts.alternateScreen) stdout.write('\u001b[?1049h\u001b[H');
  const instance = render(
    createElement(Browser, {
      title: opts.title,
      panes: opts.panes,
      color: opts.color,
      intervalMs: opts.intervalMs,
      live: opts.live,
      strip: opts.strip,
      zone: opts.zone,
      link: opts.link,
      jump: opts.jump,
      afterAction: opts.reloadAllAfterAction ? 'all' : 'pane',
      onExit: (c: number) => {
        code = c;
      },
    }),
    { stdout, stdin: opts.stdin ?? process.stdin, exitOnCtrlC: false, patchConsole: false },
  );
  const onAbort = () => {
    code = 130;
    instance.unmount();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await instance.waitUntilExit();
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    instance.cleanup();
    // Without the alternate screen the last frame stays, its footer unended: what is written next starts below it.
    stdout.write(opts.alternateScreen ? '\u001b[?1049l' : '\n');
  }
  if (code === 130) throw new CancelError('Interrupted');
}
export { flagTerms, flagValueText, whereTerms } from './browser-state.js';
