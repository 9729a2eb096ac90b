/**
 * The execute step of a bulk run (docs/architecture.md "Bulk runs, the journal, history and undo"), for any action: items
 * go out in chunks of at most the action's limit with bounded concurrency; each finished chunk is journaled and
 * on disk (an fsync off the main thread, shared by the chunks that finish meanwhile) before its progress is
 * reported and before its worker sends the next chunk. A chunk that fails as a whole with a retryable error (network,
 * 429, 5xx, after the client's own retries) is sent again with backoff, which is safe because every action
 * recognises its own earlier attempt (actions.ts). An item the platform refused, or whose outcome a by-filter
 * job leaves open, is settled by reading its current state back; a runner with `readBack` (a job over the planned
 * items at their planned revisions) has its chunk read back after a failed call too, and only the items still as
 * planned are sent again. Ctrl-C stops new chunks and ends every wait at
 * once; chunks in flight are given up (their requests aborted, left out of the journal: `--resume` recognises them
 * if they were applied), then {@link CancelError} is thrown with the resume command. Any other failure (the journal
 * cannot be written: ENOSPC, EIO) stops every worker from taking another chunk; the run ends with that error once
 * the chunks in flight are over, and a journal failure names the resume command.
 */
import { ApiError, withTries } from '../api/errors.js';
import { CancelError } from '../core/errors.js';
import { JournalWriteError, type JournalWriter, type Outcome, type ResultLine, type SendingLine } from './journal.js';
import { abortableSleep } from './wait.js';

/** One target of the run as planned: its id and the revision the change was planned against. */
export interface WorkItem {
  id: string;
  revision?: string;
}

/**
 * The items of a run, in plan order, and how many: an array, or the plan read back from its journal as the run
 * goes (bulk/spill.ts JournalItems), so a run of 100,000 items never holds them all.
 */
export type WorkItems = Iterable<WorkItem> & { readonly length: number };

/** The outcome of one item, as it is journaled. */
export interface ItemResult {
  id: string;
  outcome: Outcome;
  revision?: string;
  createdId?: string;
  error?: string;
  /**
   * A failure the platform will give again (a policy, a validation, the entity's state: 4xx), so `--resume`
   * would fail the same way; absent for a transient one (network, 5xx, 429) that a resume may get past.
   */
  permanent?: boolean;
  /** The HTTP status of the platform's refusal, when it gave one (400: the request was wrong for this item). */
  httpStatus?: number;
  /**
   * Done, but partly: what the platform says it left undone for this item (a clone's `errors`: `FORM not
   * copied`). The report lists it and the run exits 3, as a partly done run (report.ts assertComplete).
   */
  note?: string;
}

/**
 * True for an HTTP status that refuses the item itself (4xx other than 408 and 429), or none (a bulk reply's
 * per-item refusal): sending it again would be refused again.
 */
export function isPermanentRefusal(httpStatus: number | undefined): boolean {
  return httpStatus === undefined || (httpStatus >= 400 && httpStatus < 500 && httpStatus !== 408 && httpStatus !== 429);
}

/** The result of an item that failed as `sent` says (its reason, and whether a resume could get past it). */
export function failedResult(id: string, sent: SentOutcome): ItemResult {
  return sent.status === 'refused'
    ? { id, outcome: 'failed', error: sent.error, ...(isPermanentRefusal(sent.httpStatus) ? { permanent: true } : {}), ...(sent.httpStatus ? { httpStatus: sent.httpStatus } : {}) }
    : { id, outcome: 'failed', error: 'the platform did not confirm it' };
}

/** What sending a chunk says about one item. `settle` means "read it back to know" (a by-filter job). */
export type SentOutcome =
  | { id: string; status: 'done'; revision?: string; createdId?: string; outcome?: Outcome; note?: string }
  | { id: string; status: 'refused'; error: string; code?: string; httpStatus?: number }
  | { id: string; status: 'settle' };

/** How an action sends chunks and settles the items the platform did not confirm. */
export interface ChunkRunner {
  /** The outcome a confirmed item gets (`updated`, `deleted`, `confirmed`, ...). */
  done: Outcome;
  /** Sends one chunk; one outcome per item (any order). Throws when the chunk failed as a whole. */
  send(chunk: WorkItem[], info: { attempt: number; signal?: AbortSignal }): Promise<SentOutcome[]>;
  /**
   * Decides refused and unsettled items from their current state: our earlier attempt was applied after all
   * (done), someone else changed it (conflict), or it failed. Without it they fail with the platform's reason.
   */
  settle?(items: { item: WorkItem; sent: SentOutcome }[], signal?: AbortSignal): Promise<ItemResult[]>;
  /**
   * For a call whose reply says nothing per item (a by-filter job over the planned items, each at its planned
   * revision): reads `items` back and returns a result for each whose outcome shows (our change is there: done;
   * someone else's, or gone: conflict) and none for an item still as planned, which the call did not touch. The
   * engine calls it for the items sent `settle` after the call succeeded, and for the whole rest of the chunk after
   * the call failed with a retryable error (a 5xx, a lost reply, a timeout, a Retry-After past the budget); the
   * untouched ones are sent again, alone, within the chunk's attempts, then fail with the call's error. So a chunk
   * whose every reply is lost still counts what each attempt applied. When set, `settle` is not used for `settle` items.
   */
  readBack?(items: WorkItem[], signal?: AbortSignal): Promise<ItemResult[]>;
  /**
   * What a create intends (e.g. the name the platform gives a copy), journaled as a `sending` line, on disk before
   * the item is sent, so `--resume` can adopt an entity created by a send whose reply was lost instead of creating
   * it again. Only for actions that are never repeated automatically (creates).
   */
  intent?(item: WorkItem): unknown;
}

/** Progress as reported to the command after every chunk: counts of items, rate in items/s, ETA in ms. */
export interface BulkProgress {
  done: number;
  total: number;
  failed: number;
  ratePerSec: number;
  etaMs?: number;
}

export interface ExecuteOptions {
  /** Read once, a chunk at a time, as workers take chunks. */
  items: WorkItems;
  runner: ChunkRunner;
  /** Items per request (the operation's bulk limit, or 1 for per-item calls). */
  chunkSize: number;
  /** Chunks in flight at once (`--concurrency`, default 4). */
  concurrency: number;
  /** Whole-chunk attempts before its items are reported failed (default 4; 1 = no engine retries). */
  maxAttempts?: number;
  /** Aborted on Ctrl-C: no new chunk starts, waits end; in-flight requests finish. */
  signal?: AbortSignal;
  journal?: JournalWriter;
  onProgress?: (p: BulkProgress) => void;
  /** Receives each finished chunk's results once they are journaled (before its progress is reported). */
  onResults?: (results: readonly ItemResult[]) => void;
  /**
   * Keep every result and return them (default true); false returns none, for a caller that takes them from
   * {@link onResults}: a run of 100,000 items then holds only the chunks in flight.
   */
  keepResults?: boolean;
  /** The command that resumes the run, for the CancelError hint. */
  resumeCommand?: string;
  /** Test seams. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  clock?: () => number;
}

/** A failure worth another attempt: no reply, 429, or a 5xx (same rule as the client's retries, docs/wire.md §12). */
export function isRetryable(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return status === 0 || status === 429 || status >= 500;
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'NetworkError' || name === 'SystemError';
}

/**
 * A retryable failure worth sending again now: not one whose call ended because the platform asked to wait
 * longer than the call's budget allowed (ApiError.waitAskedMs), which it would refuse again at once. Such a
 * failure is still transient: `--resume` (later) may get past it.
 */
export function mayRetryNow(err: unknown): boolean {
  return isRetryable(err) && (err as { waitAskedMs?: unknown } | null)?.waitAskedMs === undefined;
}

/** A one-line reason for a failed item. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message.replace(/\s*\n\s*/g, ' ');
  return String(err);
}

function isAbort(err: unknown): boolean {
  return (err as { name?: unknown } | null)?.name === 'AbortError';
}

/**
 * Runs `items` through the runner in chunks with bounded concurrency and journals every finished chunk.
 *
 * @returns every item's result, in completion order (none with `keepResults: false`)
 * @throws CancelError (exit 130, hint = the resume command) when `signal` aborted before every chunk finished;
 *   the chunks that were in flight are finished and journaled first
 */
export async function executeChunks(opts: ExecuteOptions): Promise<ItemResult[]> {
  const chunkSize = Math.max(1, opts.chunkSize);
  const concurrency = Math.max(1, opts.concurrency);
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 4);
  const sleep = opts.sleep ?? abortableSleep;
  const clock = opts.clock ?? (() => Date.now());
  const { runner, signal } = opts;
  // Chunks are cut from the items as workers take them: the items are never all in memory at once.
  const source = opts.items[Symbol.iterator]();
  let exhausted = false;
  const nextChunk = (): WorkItem[] | undefined => {
    if (exhausted) return undefined;
    const chunk: WorkItem[] = [];
    while (chunk.length < chunkSize) {
      const step = source.next();
      if (step.done) {
        exhausted = true;
        break;
      }
      chunk.push(step.value);
    }
    return chunk.length ? chunk : undefined;
  };
  const keep = opts.keepResults ?? true;
  const results: ItemResult[] = [];
  /** Items with a result so far. */
  let finished = 0;
  const total = opts.items.length;
  const started = clock();
  let failed = 0;
  let stoppedEarly = false;
  /** The first failure that is not an interruption: no worker takes another chunk after it. */
  let failure: { err: unknown } | undefined;

  const report = () => {
    if (!opts.onProgress) return;
    const elapsedSec = Math.max(1e-3, (clock() - started) / 1000);
    const ratePerSec = finished / elapsedSec;
    const left = total - finished;
    opts.onProgress({ done: finished, total, failed, ratePerSec, etaMs: ratePerSec > 0 ? (left / ratePerSec) * 1000 : undefined });
  };

  /** Journals a finished chunk and waits until it is on disk (the worker's next chunk goes after that), then reports it. */
  const finish = async (chunkResults: ItemResult[]) => {
    await opts.journal?.appendDurable(chunkResults.map((r): ResultLine => ({ kind: 'result', ...r })));
    for (const r of chunkResults) {
      if (keep) results.push(r);
      if (r.outcome === 'failed' || r.outcome === 'conflict') failed += 1;
    }
    finished += chunkResults.length;
    opts.onResults?.(chunkResults);
    report();
  };

  /**
   * Sends one chunk and turns its outcomes into results (settling what the platform did not confirm); with a
   * runner that reads back, the items sent `settle` are left `unread` for {@link ChunkRunner.readBack}.
   */
  const attemptChunk = async (chunk: WorkItem[], attempt: number): Promise<{ results: ItemResult[]; unread: WorkItem[] }> => {
    if (runner.intent) await opts.journal?.appendDurable(chunk.map((it): SendingLine => ({ kind: 'sending', id: it.id, intended: runner.intent!(it) })));
    const sent = await runner.send(chunk, { attempt, signal });
    const byId = new Map(sent.map((s) => [s.id, s]));
    const out: ItemResult[] = [];
    const open: { item: WorkItem; sent: SentOutcome }[] = [];
    const unread: WorkItem[] = [];
    for (const item of chunk) {
      const s = byId.get(item.id);
      if (!s) out.push({ id: item.id, outcome: 'failed', error: 'no result for this item in the reply' });
      else if (s.status === 'done') out.push({ id: item.id, outcome: s.outcome ?? runner.done, revision: s.revision, createdId: s.createdId, ...(s.note ? { note: s.note } : {}) });
      else if (s.status === 'settle' && runner.readBack) unread.push(item);
      else if (runner.settle) open.push({ item, sent: s });
      else out.push(s.status === 'refused' ? failedResult(item.id, s) : { id: item.id, outcome: 'failed', error: 'outcome unknown' });
    }
    if (open.length && runner.settle) out.push(...(await runner.settle(open, signal)));
    return { results: out, unread };
  };

  const runChunk = async (whole: WorkItem[]): Promise<void> => {
    // What the chunk's sends went through, over every attempt: the final error says the real counts.
    const chunkStarted = clock();
    const tried = { attempts: 0, rateLimited: 0 };
    /** The items not decided yet: a read-back decides some after each attempt, the rest go again. */
    let chunk = whole;
    for (let attempt = 1; ; attempt++) {
      /** Why the items still open are open: the call's error, or (undefined) a reply that left them unconfirmed. */
      let err: unknown;
      let failedCall = false;
      let unread: WorkItem[] = [];
      try {
        const sent = await attemptChunk(chunk, attempt);
        if (sent.unread.length === 0) {
          await finish(sent.results);
          return;
        }
        if (sent.results.length) await finish(sent.results);
        unread = sent.unread;
      } catch (e) {
        // The chunk may have been applied already; leaving it unjournaled lets --resume recognise it.
        if (signal?.aborted || isAbort(e)) {
          stoppedEarly = true;
          return;
        }
        err = e;
        failedCall = true;
        const tries = e instanceof ApiError ? e.tries : undefined;
        tried.attempts += tries?.attempts ?? 1;
        tried.rateLimited += tries?.rateLimited ?? 0;
        // A 429 was refused before anything was done (docs/wire.md §7): nothing of this call to read back.
        unread = runner.readBack && isRetryable(e) && (e as { status?: unknown }).status !== 429 ? chunk : [];
      }
      if (unread.length) {
        // A reply that says nothing per item, or none at all: what the call applied shows on the items themselves.
        try {
          const known = await runner.readBack!(unread, signal);
          if (known.length) await finish(known);
          const decided = new Set(known.map((r) => r.id));
          unread = unread.filter((i) => !decided.has(i.id));
        } catch (readErr) {
          if (signal?.aborted || isAbort(readErr)) {
            stoppedEarly = true;
            return;
          }
          if (!failedCall) {
            err = readErr;
            failedCall = true;
          }
        }
        const open = new Set(unread.map((i) => i.id));
        chunk = chunk.filter((i) => open.has(i.id));
        if (chunk.length === 0) return;
      }
      if (!failedCall) {
        // The call succeeded and left these as planned (a job the platform has not run yet): sent again below.
        if (attempt >= maxAttempts) {
          await finish(chunk.map((it): ItemResult => ({ id: it.id, outcome: 'failed', error: 'the platform did not confirm it' })));
          return;
        }
      } else if (!mayRetryNow(err) || attempt >= maxAttempts) {
        const tries = err instanceof ApiError ? err.tries : undefined;
        if (tries && attempt > 1) withTries(err as ApiError, { ...tried, elapsedMs: clock() - chunkStarted });
        const permanent = !isRetryable(err);
        await finish(chunk.map((it): ItemResult => ({ id: it.id, outcome: 'failed', error: errorText(err), ...(permanent ? { permanent } : {}) })));
        return;
      }
      const retryAfterMs = Number((err as { retryAfterMs?: unknown } | undefined)?.retryAfterMs);
      try {
        await sleep(Number.isFinite(retryAfterMs) && retryAfterMs > 0 ? retryAfterMs : Math.min(8000, 500 * 2 ** (attempt - 1)), signal);
      } catch (waitErr) {
        if (signal?.aborted || isAbort(waitErr)) {
          stoppedEarly = true;
          return;
        }
        throw waitErr;
      }
    }
  };

  const worker = async () => {
    while (!failure) {
      const chunk = nextChunk();
      if (!chunk) return;
      if (signal?.aborted) {
        // Stopped with items left: those not taken yet are what a resume sends.
        stoppedEarly = true;
        return;
      }
      try {
        await runChunk(chunk);
      } catch (err) {
        failure ??= { err };
        return;
      }
    }
  };

  report();
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, Math.ceil(total / chunkSize))) }, worker));
  } finally {
    // A run that stopped early closes what the items are read from (a journal read back).
    source.return?.();
  }
  if (failure) {
    const { err } = failure;
    if (err instanceof JournalWriteError && opts.resumeCommand) {
      throw new JournalWriteError(
        err.path,
        err.failure,
        `${finished} of ${total} items are recorded; the ones sent since are recognised on resume: free space, then ${opts.resumeCommand}`,
      );
    }
    throw err;
  }
  if (stoppedEarly) {
    throw new CancelError(
      `Interrupted after ${finished} of ${total} items`,
      130,
      opts.resumeCommand ? `resume with: ${opts.resumeCommand}` : undefined,
    );
  }
  return results;
}
