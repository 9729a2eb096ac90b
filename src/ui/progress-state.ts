/**
 * Progress bar state and formatting, pure so it is tested without a terminal. The bulk engine reports
 * `{done, total, failed, ratePerSec, etaMs}` (src/bulk/execute.ts); this turns it into the text of one line.
 */

export interface ProgressState {
  title: string;
  done: number;
  total: number;
  failed: number;
  /** Items per second over the run so far. */
  ratePerSec: number;
  /** Estimated time left in ms; undefined until there is a rate. */
  etaMs?: number;
  /** Said after the counts (a fan-out's items, 429s and request rate). */
  detail?: string;
  finished: boolean;
}

export interface ProgressUpdate {
  done: number;
  total?: number;
  failed?: number;
  ratePerSec?: number;
  etaMs?: number;
  detail?: string;
}

export function initialProgressState(title: string, total: number): ProgressState {
  return { title, done: 0, total, failed: 0, ratePerSec: 0, finished: false };
}

/** Applies an update from the engine; `done` never goes backwards and never passes `total`. */
export function progressReducer(state: ProgressState, update: ProgressUpdate | { type: 'finish' }): ProgressState {
  if ('type' in update) return { ...state, finished: true, etaMs: 0 };
  const total = update.total ?? state.total;
  return {
    ...state,
    total,
    done: Math.min(total, Math.max(state.done, update.done)),
    failed: update.failed ?? state.failed,
    ratePerSec: update.ratePerSec ?? state.ratePerSec,
    etaMs: update.etaMs,
    detail: update.detail ?? state.detail,
  };
}

/** `45s`, `3m 05s`, `1h 02m`; `--` when unknown. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '--';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** The filled and empty parts of a bar `width` cells wide. */
export function barCells(done: number, total: number, width: number): { filled: number; empty: number } {
  const ratio = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(ratio * width);
  return { filled, empty: width - filled };
}

/** Everything the view prints beside the bar: `512/2000  26%  85/s  ETA 17s  3 failed`. */
export function progressLabel(state: ProgressState): string {
  const pct = state.total > 0 ? Math.floor((state.done / state.total) * 100) : 100;
  const parts = [`${state.done}/${state.total}`, `${pct}%`, `${state.ratePerSec.toFixed(state.ratePerSec < 10 ? 1 : 0)}/s`];
  if (!state.finished) parts.push(`ETA ${formatDuration(state.etaMs)}`);
  if (state.failed > 0) parts.push(`${state.failed} failed`);
  if (state.detail) parts.push(state.detail);
  return parts.join('  ');
}

/** Bar width for a terminal of `columns`, leaving room for the title and label. */
export function barWidth(columns: number, state: ProgressState): number {
  const rest = state.title.length + progressLabel(state).length + 6;
  return Math.max(10, Math.min(40, columns - rest));
}
