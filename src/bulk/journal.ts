/**
 * The append-only NDJSON journal of a bulk run (docs/architecture.md "Bulk runs, the journal, history and undo": every run writes a journal; `--resume`
 * continues after a crash or Ctrl-C without repeating or losing an item).
 *
 * Line 1 is the header, then `planned` lines as the plan streams (and `result` lines for targets that need no
 * change), one `planned-all` line when the selection was read in full, `result` lines as chunks finish (each on
 * disk before the worker that finished the chunk sends its next one), and `end` when the run is complete. A reader
 * ignores a truncated last line (the process was killed mid-write); journal-read.ts reads and checks them.
 */
import { closeSync, existsSync, fchmodSync, fstatSync, fsync, fsyncSync, ftruncateSync, linkSync, mkdirSync, openSync, readSync, truncateSync, unlinkSync, write, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ExitCode, UserError } from '../core/errors.js';

/**
 * An item's outcome: the action's own (`updated`, `deleted`, `created`, `confirmed`, `approved`, ...), or
 * `unchanged` (already as planned), `skipped` (the entity's state does not allow the action), `conflict`
 * (changed by someone else since the plan) or `failed`.
 */
export type Outcome = string;

/** What the run was asked to do; enough to resume it without the original command line. */
export interface JournalArgs {
  filter?: Record<string, unknown>;
  ids?: string[];
  set?: { path: string; value: unknown }[];
  mask?: string;
  /** create: the source entity id and how many copies. */
  sourceId?: string;
  count?: number;
  /** create: the ids of entities that already had the copies' name before the run (never adopted by --resume). */
  existing?: string[];
  /** Action options a family needs to rebuild the action (e.g. a cancellation's `effectiveAt`). */
  options?: Record<string, unknown>;
}

/**
 * Whether a run's args are those of a single form (`NOUN VERB ID`: a one-item plan whose header names neither
 * `ids` nor `filter`), for families with a call of their own for one entity (docs/wire.md "Operations and their verbs").
 */
export function isSingle(args: JournalArgs): boolean {
  return args.ids === undefined && args.filter === undefined;
}

/** Where a run happened and what started it, for `sitectl history` (absent in journals of older versions). */
export interface RunOrigin {
  profile?: string;
  siteId?: string;
  /** The site's name, when the command knew it (a run on another site of the account: `services apply --to-site`). */
  siteName?: string;
  /** The command line as typed (`sitectl services update --where type=CLASS --set ...`). */
  command?: string;
  /** The platform's base URL the run sent its requests to (a resume elsewhere is refused, loopback aside). */
  baseUrl?: string;
  /** The command words that resume the run (`services update`: `sitectl services update --resume JOURNAL`). */
  verb?: string;
}

export interface HeaderLine {
  kind: 'header';
  runId: string;
  origin?: RunOrigin;
  /** The run undoes the change with this id (`sitectl undo`). */
  undoOf?: string;
  /**
   * The change this run is one site's part of: a command that writes to several sites (`services apply --to-site A
   * --to-site B`, `services clone --to-site`, and the undo of either) runs and journals each site on its own, every
   * journal naming the same change id here; `sitectl history` shows them as one change and `sitectl undo` acts on
   * each site. Absent for a run that is a change by itself (its id is its run id).
   */
  partOf?: string;
  /**
   * The run makes what the change's main run needs (`services apply --create-missing`: the categories and booking
   * policies a site lacks, created before its services): a part of the change, never the one it is named by.
   */
  prepares?: boolean;
  /** The entities the run acts on, as the CLI names them (`services`, `bookings`, ...). */
  entity: string;
  /** The action (`update`, `delete`, `clone`, `confirm`, ...). */
  action: string;
  createdAt: string;
  args: JournalArgs;
}
/** A target of the run. `revision` is the one seen at plan time (updates are checked against it). */
export interface PlannedLine {
  kind: 'planned';
  id: string;
  revision?: string;
  after?: unknown;
  /** The entity's label at plan time (name, contact and time), for the preview of a resumed run. */
  name?: string;
  /**
   * The before-image `sitectl undo` restores from: the changed fields and their old values (`{path: value}`) for
   * an update, the whole entity for a delete, the state (`{status}`) for a state change.
   */
  before?: unknown;
}
export interface ResultLine {
  kind: 'result';
  id: string;
  outcome: Outcome;
  revision?: string;
  /** clone: the id of the created service. */
  createdId?: string;
  error?: string;
  /** The failure would happen again on `--resume` (ItemResult.permanent). */
  permanent?: boolean;
  /** The HTTP status of the platform's refusal (ItemResult.httpStatus). */
  httpStatus?: number;
  /** Done partly: what the platform left undone (ItemResult.note). */
  note?: string;
}
/**
 * Written (on disk) just before an item whose action is never repeated automatically (a create) is sent, with what
 * it intends (`{name}` of the entity to be created): an item with a `sending` line and no result may have been
 * created, its reply lost; `--resume` looks for it by that intent before creating it again.
 */
export interface SendingLine {
  kind: 'sending';
  id: string;
  intended?: unknown;
}
/** Written once the selection has been read in full: a resume needs a complete plan. */
export interface PlannedAllLine {
  kind: 'planned-all';
  count: number;
}
export interface EndLine {
  kind: 'end';
  at: string;
  /** `declined` at the confirm prompt, `aborted` when the plan was refused (e.g. unknown ids). */
  status?: 'done' | 'declined' | 'aborted';
}
export type JournalLine = HeaderLine | PlannedLine | PlannedAllLine | ResultLine | SendingLine | EndLine;

/** A journal read back for `--resume`. */
export interface JournalState {
  path: string;
  header: HeaderLine;
  /** Planned targets in plan order (the first `planned` line of an id wins). */
  planned: PlannedLine[];
  /** The last result of each id. */
  results: Map<string, ResultLine>;
  /** What each item sent without a result yet intended (its last `sending` line; see SendingLine). */
  sending: Map<string, unknown>;
  /** The plan was read in full (a `planned-all` line exists). */
  planComplete: boolean;
  ended: boolean;
}

/** `<stateDir>/journals` where stateDir = `$SITECTL_STATE_DIR`, `$XDG_STATE_HOME/sitectl` or `~/.local/state/sitectl`. */
export function defaultJournalDir(env: NodeJS.ProcessEnv): string {
  if (env.SITECTL_STATE_DIR) return join(env.SITECTL_STATE_DIR, 'journals');
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'sitectl', 'journals');
  return join(env.HOME ?? homedir(), '.local', 'state', 'sitectl', 'journals');
}

/** A sortable, unique run id: `20261122T071500Z-<6 hex>`. */
export function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  // globalThis.crypto loads on first use; a top-level node:crypto import cost every services command ~3-8 ms.
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(3));
  return `${stamp}-${Buffer.from(bytes).toString('hex')}`;
}

/**
 * An open journal being appended to. {@link append} writes and fsyncs on the spot (the plan, the end). While
 * chunks run, {@link appendDurable} queues their lines and resolves once they are on disk: one write and one
 * fsync at a time run on libuv's thread pool, each covering every line queued before it started (group commit),
 * so the main thread keeps reading replies and sending chunks while the disk works.
 */
/**
 * The journal could not be written (ENOSPC, EIO, ...): what follows its last complete line was not recorded, so
 * the run stops (exit 1). The file is cut back to its last complete line, so `--resume` can read it.
 */
export class JournalWriteError extends UserError {
  override readonly name = 'JournalWriteError';
  constructor(
    readonly path: string,
    /** The write's, fsync's or close's error. */
    readonly failure: unknown,
    hint = 'nothing after its last complete line was recorded; free space (or pass another --journal) and run again',
  ) {
    super(`cannot write journal ${path}: ${(failure as NodeJS.ErrnoException)?.code ?? (failure as Error)?.message ?? String(failure)}`, hint, ExitCode.Failure);
  }
}

export class JournalWriter {
  private fd: number | undefined;
  /** Bytes of complete lines in the file: where a failed write is cut back to. */
  private size: number;
  /** Set by the first failed write or fsync: nothing more is written, every later append throws it. */
  private broken: JournalWriteError | undefined;
  /** Text queued by appendDurable and not yet handed to a write. */
  private queue: string[] = [];
  /** Batches queued so far, and how many of them are on disk. */
  private queued = 0;
  private durable = 0;
  /** The write + fsync in flight, if any. */
  private flushing: Promise<void> | undefined;

  private constructor(
    private where: string,
    fd: number,
  ) {
    this.fd = fd;
    this.size = fstatSync(fd).size;
  }

  /** The journal's file (its final name once {@link moveTo} gave it one). */
  get path(): string {
    return this.where;
  }

  /**
   * Gives the journal its final name: a plan is spilled to a journal under a temporary name while it is read
   * (bulk/run.ts), which history does not list and a run that finds nothing to do removes. The file is linked
   * at `path` (never over an existing file) and its temporary name removed; this writer keeps appending to it.
   * @throws UserError as {@link create}: `path` exists, or cannot be made
   */
  moveTo(path: string): void {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      linkSync(this.where, path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new UserError(`journal ${path} already exists`, 'pass --resume to continue it, or another --journal path');
      throw new UserError(`cannot create journal ${path}: ${code ?? (err as Error).message}`, 'pass --journal with a path in a writable directory');
    }
    unlinkSync(this.where);
    this.where = path;
  }

  /**
   * Creates a new journal and writes its header (fsynced).
   * @throws UserError when the file already exists (a journal is never overwritten) or cannot be created (its
   *   directory cannot be made, or a part of the path is a file)
   */
  static create(path: string, header: HeaderLine): JournalWriter {
    // The header goes into a temporary file that is then linked into place: a journal never exists without its
    // header, whenever the process is killed, and an existing one is never overwritten (link fails with EEXIST).
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    let fd: number;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      fd = openSync(tmp, 'wx', 0o600);
      // Whatever the umask: a journal records site data.
      fchmodSync(fd, 0o600);
      writeSync(fd, `${JSON.stringify(header)}\n`);
      fsyncSync(fd);
      closeSync(fd);
      try {
        linkSync(tmp, path);
      } finally {
        unlinkSync(tmp);
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && existsSync(path)) throw new UserError(`journal ${path} already exists`, 'pass --resume to continue it, or another --journal path');
      throw new UserError(`cannot create journal ${path}: ${code ?? (err as Error).message}`, 'pass --journal with a path in a writable directory');
    }
    return new JournalWriter(path, openSync(path, 'a'));
  }

  /**
   * Opens an existing journal for appending (`--resume`). A truncated last line (the process was killed while
   * writing it) is cut off first, so the lines appended now start on a line of their own.
   */
  static reopen(path: string): JournalWriter {
    const end = completeLength(path);
    if (end !== undefined) truncateSync(path, end);
    return new JournalWriter(path, openSync(path, 'a'));
  }

  /**
   * Appends lines and fsyncs once for the batch. `sync: false` skips the fsync for lines whose loss is
   * harmless: plan lines are only trusted once the `planned-all` line (written with a sync) follows them.
   * @throws TypeError while appendDurable lines are still being written (the order of lines would be lost)
   */
  append(lines: readonly JournalLine[], opts: { sync?: boolean } = {}): void {
    if (this.broken) throw this.broken;
    if (this.fd === undefined || lines.length === 0) return;
    if (this.flushing || this.queue.length > 0) throw new TypeError('journal append while durable appends are in flight');
    const bytes = Buffer.from(textOf(lines));
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at);
      if (opts.sync !== false) fsyncSync(this.fd);
    } catch (err) {
      throw this.fail(this.fd, err);
    }
    this.size += bytes.length;
  }

  /**
   * Appends lines and resolves once they are on disk (written and fsynced); resolves at once for no lines.
   * @throws JournalWriteError when the write or the fsync failed, now or before (the lines are not recorded), or
   *   the journal was closed (a result must never count as recorded when it was not)
   */
  async appendDurable(lines: readonly JournalLine[]): Promise<void> {
    if (this.broken) throw this.broken;
    if (lines.length === 0) return;
    if (this.fd === undefined) throw new JournalWriteError(this.path, new Error('the journal was closed before these results were written'));
    this.queue.push(textOf(lines));
    const mine = ++this.queued;
    while (this.durable < mine) {
      if (this.broken) throw this.broken;
      if (this.fd === undefined) {
        // Closed while these waited: close() writes what is queued, but nobody can wait for that; say so.
        throw new JournalWriteError(this.path, new Error('the journal was closed before these results were on disk'));
      }
      this.flushing ??= this.flush(this.fd);
      await this.flushing;
    }
  }

  /**
   * Closes the file. A write in flight finishes first, and lines still queued are then written (the
   * descriptor is closed after them).
   */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    const finish = () => {
      try {
        if (this.queue.length > 0 && !this.broken) writeSync(fd, this.queue.splice(0).join(''));
      } finally {
        closeSync(fd);
      }
    };
    if (this.flushing) {
      // Later, outside the caller's try: a failure here cannot reach anyone (the run is over, a --resume sends
      // those chunks again and recognises them), and must not end the process as an unhandled rejection.
      this.flushing.then(finish, finish).catch(() => undefined);
    } else finish();
  }

  /** Writes everything queued, fsyncs, and marks those batches durable. */
  private async flush(fd: number): Promise<void> {
    try {
      if (this.broken) throw this.broken;
      const upTo = this.queued;
      const bytes = Buffer.from(this.queue.splice(0).join(''));
      try {
        for (let at = 0; at < bytes.length; ) at += await writeAsync(fd, bytes, at, bytes.length - at);
        await fsyncAsync(fd);
      } catch (err) {
        throw this.fail(fd, err);
      }
      this.size += bytes.length;
      this.durable = Math.max(this.durable, upTo);
    } finally {
      this.flushing = undefined;
    }
  }

  /**
   * Marks the journal broken by `err` and cuts the file back to its last complete line (best effort: a half
   * line would make the journal unreadable for --resume; a reader also drops a truncated last line).
   */
  private fail(fd: number, err: unknown): JournalWriteError {
    this.broken ??= err instanceof JournalWriteError ? err : new JournalWriteError(this.path, err);
    this.queue = [];
    try {
      ftruncateSync(fd, this.size);
    } catch {
      // The disk refuses even that: the reader drops a truncated last line.
    }
    return this.broken;
  }
}

/**
 * The length of a file's complete lines when its last line has no newline (a kill cut it short), else undefined:
 * read backwards from the end, a block at a time, never the whole file.
 */
function completeLength(path: string): number | undefined {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const block = Buffer.alloc(64 * 1024);
    for (let end = size; end > 0; ) {
      const start = Math.max(0, end - block.length);
      const n = readSync(fd, block, 0, end - start, start);
      const nl = block.subarray(0, n).lastIndexOf(10);
      if (end === size && nl === n - 1) return undefined;
      if (nl !== -1) return start + nl + 1;
      end = start;
    }
    return size === 0 ? undefined : 0;
  } finally {
    closeSync(fd);
  }
}

/** NDJSON text of lines. */
function textOf(lines: readonly JournalLine[]): string {
  let text = '';
  for (const l of lines) text += `${JSON.stringify(l)}\n`;
  return text;
}

function writeAsync(fd: number, bytes: Buffer, offset: number, length: number): Promise<number> {
  return new Promise((resolve, reject) => write(fd, bytes, offset, length, null, (err, n) => (err ? reject(err) : resolve(n))));
}

function fsyncAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
}
