/**
 * The execute step of a bulk run (design.md "Bulk actions"; issue 2 §5 "Execute"): items go out in chunks of
 * at most the platform's bulk limit (100, wire §7) with bounded concurrency; each finished chunk is journaled
 * (one fsync) before its progress is reported; a chunk that fails as a whole with a retryable error (network,
 * 429, 5xx, after the client's own retries) is sent again with backoff, which is safe because every action
 * recognises its own earlier attempt (see actions.ts). Ctrl-C stops new chunks; in-flight ones finish and are
 * journaled, then {@link CancelError} is thrown.
 */
import { CancelError } from '../core/errors.js';
import type { JournalWriter, Outcome, ResultLine } from './journal.js';

/** One target of the run as planned: its id and the revision the change was planned against. */
export interface WorkItem {
  id: string;
  revision?: string;
}

/** The outcome of one item, as it is journaled. */
export interface ItemResult {
  id: string;
  outcome: Outcome;
  revision?: string;
  createdId?: string;
  error?: string;
}

/** Progress as reported to the command after every chunk: counts of items, rate in items/s, ETA in ms. */
export interface BulkProgress {
  done: number;
  total: number;
  failed: number;
  ratePerSec: number;
  etaMs?: number;
}

/** Sends one chunk and returns one result per item (any order). Throws when the chunk failed as a whole. */
export type ChunkRunner = (chunk: WorkItem[], info: { attempt: number }) => Promise<ItemResult[]>;

export interface ExecuteOptions {
  items: readonly WorkItem[];
  run: ChunkRunner;
  /** Items per request, at most 100 (wire §7). */
  chunkSize: number;
  /** Chunks in flight at once (`--concurrency`, default 4). */
  concurrency: number;
  /** Whole-chunk attempts before its items are reported failed (default 4; 1 = no engine retries). */
  maxAttempts?: number;
  /** Aborted on Ctrl-C: no new chunk starts; in-flight ones finish. */
  signal?: AbortSignal;
  journal?: JournalWriter;
  onProgress?: (p: BulkProgress) => void;
  /** The command that resumes the run, for the CancelError hint. */
  resumeCommand?: string;
  /** Test seams. */
  sleep?: (ms: number) => Promise<void>;
  clock?: () => number;
}

export interface ExecuteResult {
  results: ItemResult[];
}

/** A failure worth another attempt: no reply, 429, or a 5xx (same rule as the client's retries, spec 001 §9). */
export function isRetryable(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return status === 0 || status === 429 || status >= 500;
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'NetworkError' || name === 'SystemError';
}

/** A one-line reason for a failed item. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message.replace(/\s*\n\s*/g, ' ');
  return String(err);
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Runs `items` through `run` in chunks with bounded concurrency and journals every finished chunk.
 *
 * @returns every item's result, in completion order
 * @throws CancelError (exit 130, hint = the resume command) when `signal` aborted before every chunk started;
 *   the chunks that were in flight are finished and journaled first
 */
export async function executeChunks(opts: ExecuteOptions): Promise<ExecuteResult> {
  const chunkSize = Math.max(1, Math.min(100, opts.chunkSize));
  const concurrency = Math.max(1, opts.concurrency);
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 4);
  const sleep = opts.sleep ?? defaultSleep;
  const clock = opts.clock ?? (() => Date.now());
  const chunks: WorkItem[][] = [];
  for (let i = 0; i < opts.items.length; i += chunkSize) chunks.push(opts.items.slice(i, i + chunkSize));

  const results: ItemResult[] = [];
  const total = opts.items.length;
  const started = clock();
  let failed = 0;
  let next = 0;
  let stoppedEarly = false;

  const report = () => {
    if (!opts.onProgress) return;
    const elapsedSec = Math.max(1e-3, (clock() - started) / 1000);
    const ratePerSec = results.length / elapsedSec;
    const left = total - results.length;
    opts.onProgress({
      done: results.length,
      total,
      failed,
      ratePerSec,
      etaMs: ratePerSec > 0 ? (left / ratePerSec) * 1000 : undefined,
    });
  };

  const finish = (chunkResults: ItemResult[]) => {
    opts.journal?.append(chunkResults.map((r): ResultLine => ({ kind: 'result', ...r })));
    for (const r of chunkResults) {
      results.push(r);
      if (r.outcome === 'failed' || r.outcome === 'conflict') failed += 1;
    }
    report();
  };

  const runChunk = async (chunk: WorkItem[]): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        finish(await opts.run(chunk, { attempt }));
        return;
      } catch (err) {
        if (!isRetryable(err) || attempt >= maxAttempts) {
          finish(chunk.map((it) => ({ id: it.id, outcome: 'failed', error: errorText(err) })));
          return;
        }
        // The chunk may have been applied already; leaving it unjournaled lets --resume recognise it.
        if (opts.signal?.aborted) {
          stoppedEarly = true;
          return;
        }
        const retryAfterMs = Number((err as { retryAfterMs?: unknown }).retryAfterMs);
        await sleep(Number.isFinite(retryAfterMs) && retryAfterMs > 0 ? retryAfterMs : Math.min(8000, 500 * 2 ** (attempt - 1)));
      }
    }
  };

  const worker = async () => {
    while (next < chunks.length) {
      if (opts.signal?.aborted) {
        stoppedEarly = true;
        return;
      }
      await runChunk(chunks[next++]);
    }
  };

  report();
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
  if (stoppedEarly) {
    throw new CancelError(
      `Interrupted after ${results.length} of ${total} items`,
      130,
      opts.resumeCommand ? `resume with: ${opts.resumeCommand}` : undefined,
    );
  }
  return { results };
}
