/**
 * WAL checkpoints off the request path. In WAL mode SQLite copies committed pages back into the database file
 * (a checkpoint, with an fsync) from inside whichever commit crosses `wal_autocheckpoint`; under a bulk run
 * that was ~40% of the time of each bulk request. Here a worker thread with its own connection runs passive
 * checkpoints every {@link INTERVAL_MS}, which never block the writer, while the request connection turns
 * its own automatic checkpoints off. Durability is unchanged: a commit is in the WAL before the reply either
 * way, and checkpoints only move already-committed pages.
 */
import { Worker } from 'node:worker_threads';

const INTERVAL_MS = 100;
/** How long {@link Checkpointer.stop} waits for the worker to close its connection. */
const STOP_WAIT_MS = 5_000;

// CommonJS source of the worker (eval: no separate file to bundle). Its connection is node:sqlite's, built into
// the runtime, so nothing native outlives the worker's environment (better-sqlite3 aborted here on Node 24.19+).
// It drops Node 22's one-time "SQLite is an experimental feature" warning as sqlite.ts does, closes its
// connection and flags the shared word on a stop message, so the main thread can wait for it synchronously.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const emit = process.emitWarning;
process.emitWarning = (w, ...rest) => /SQLite is an experimental feature/.test(String(w && w.message || w)) ? undefined : emit.call(process, w, ...rest);
const { DatabaseSync } = require('node:sqlite');
process.emitWarning = emit;
const done = new Int32Array(workerData.done);
const db = new DatabaseSync(workerData.file);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try { checkpoint.get(); } catch { /* busy or closing: the next tick retries */ }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { db.close(); } catch { /* the data directory may be gone already */ }
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
  parentPort.close();
});
`;

/** A running checkpoint worker for one database file. */
export class Checkpointer {
  private stopped = false;

  private constructor(
    private readonly worker: Worker,
    private readonly done: Int32Array,
  ) {}

  /**
   * Starts a worker checkpointing `file` (which must exist, in WAL mode). `onFailure` runs if the worker dies
   * before {@link stop}, so the caller can turn automatic checkpoints back on.
   * @returns undefined when a worker cannot be started here (the caller keeps SQLite's own checkpoints).
   */
  static start(file: string, onFailure: (err: unknown) => void): Checkpointer | undefined {
    const done = new SharedArrayBuffer(4);
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, done, intervalMs: INTERVAL_MS } });
    } catch {
      return undefined;
    }
    const cp = new Checkpointer(worker, new Int32Array(done));
    worker.unref();
    worker.on('error', (err) => {
      if (!cp.stopped) onFailure(err);
    });
    worker.on('exit', (code) => {
      if (!cp.stopped) onFailure(new Error(`checkpoint worker exited with code ${code}`));
    });
    return cp;
  }

  /** Stops the worker and waits (at most a few seconds) until its connection is closed. Idempotent. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.postMessage('stop');
    Atomics.wait(this.done, 0, 0, STOP_WAIT_MS);
  }
}
