/**
 * A computed plan (PlannedItem[]) kept on disk rather than in memory between its planning and its run: a fan-out
 * (`services apply --to-site`, `services clone --to-site`) plans every site before its one confirmation, and
 * holding every site's items until then made the CLI's memory grow with the number of sites (docs/architecture.md
 * "Bulk runs, the journal, history and undo": memory flat in the number of targets). Each site's items are written
 * here as soon as that site is planned, only its counts and first preview rows stay in memory, and the site's run
 * reads them back (then journals them as its plan, bulk/plan.ts planGiven).
 *
 * The file lives in the journal directory under `<name>.<pid>.planning` (0600, as a journal: it holds site data),
 * which history does not list (it reads `.ndjson` files only); it is removed once read back or when the command
 * ends. Files a killed process left behind are removed by {@link sweepSpills} (their pid is no longer running).
 */
import { closeSync, existsSync, fchmodSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../api/pid.js';
import type { PlannedItem } from './actions.js';
import type { WorkItem, WorkItems } from './execute.js';
import type { JournalLine } from './journal.js';
import { journalLines } from './journal-read.js';

/** The ending of a spilled plan's file name. */
const SUFFIX = '.planning';
/** Items written at once. */
const BATCH = 256;

/** One site's items on disk. */
export class SpilledItems {
  private gone = false;
  private constructor(
    /** The file holding the items, one JSON line each, in plan order. */
    readonly path: string,
    /** How many items it holds. */
    readonly count: number,
  ) {}

  /**
   * Writes `items` to `<dir>/<name>.<pid>.planning` (the directory is made, 0700; the file is new, 0600).
   * @throws Error (ErrnoException) when the file cannot be written (a full disk, a read-only directory)
   */
  static write(dir: string, name: string, items: readonly PlannedItem[]): SpilledItems {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `${name}.${process.pid}${SUFFIX}`);
    const fd = openSync(path, 'wx', 0o600);
    try {
      fchmodSync(fd, 0o600);
      for (let at = 0; at < items.length; at += BATCH) {
        let text = '';
        for (const item of items.slice(at, at + BATCH)) text += `${JSON.stringify(item)}\n`;
        writeSync(fd, text);
      }
    } catch (err) {
      closeSync(fd);
      unlinkSync(path);
      throw err;
    }
    closeSync(fd);
    return new SpilledItems(path, items.length);
  }

  /**
   * The items back, in plan order.
   * @throws TypeError once {@link remove}d
   */
  load(): PlannedItem[] {
    if (this.gone) throw new TypeError(`the spilled plan ${this.path} was removed`);
    const text = readFileSync(this.path, 'utf8');
    const out: PlannedItem[] = [];
    for (const line of text.split('\n')) if (line) out.push(JSON.parse(line) as PlannedItem);
    return out;
  }

  /** Removes the file (idempotent; a file already gone is fine). */
  remove(): void {
    if (this.gone) return;
    this.gone = true;
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to remove.
    }
  }
}

/**
 * Removes the spilled plans in `dir` of processes no longer running (killed with SIGKILL before they removed
 * theirs). Files of running processes, and anything else in the directory, are left alone.
 * @returns how many files were removed
 */
export function sweepSpills(dir: string): number {
  if (!existsSync(dir)) return 0;
  let removed = 0;
  for (const f of readdirSync(dir)) {
    const m = /\.(\d+)\.planning$/.exec(f);
    if (!m || f.endsWith(`.ndjson.${m[1]}${SUFFIX}`) || isAlive(Number(m[1]))) continue;
    try {
      unlinkSync(join(dir, f));
      removed += 1;
    } catch {
      // Gone meanwhile.
    }
  }
  return removed;
}

/** Lines a plan read back never looks at. */
const NOT_PLAN: ReadonlySet<JournalLine['kind']> = new Set(['sending', 'end']);

/**
 * The items to send of a plan spilled to its journal (bulk/plan.ts planTargets), read back from the journal each
 * time they are iterated, in plan order, instead of held: a `planned` line is an item unless the line after it is
 * a result of the same id (a target decided at plan time: unchanged, skipped); the read stops at the
 * `planned-all` line, so the results the run appends meanwhile are never read. The journal's path is asked for
 * when the read starts, since the spilled plan is renamed once the run goes ahead (bulk/run.ts SpilledPlan).
 */
export class JournalItems implements WorkItems {
  constructor(
    /** The journal holding the plan (its current name). */
    private readonly path: () => string | undefined,
    /** How many items the plan holds. */
    readonly length: number,
  ) {}

  *[Symbol.iterator](): Generator<WorkItem> {
    const path = this.path();
    if (this.length === 0 || path === undefined) return;
    let held: WorkItem | undefined;
    for (const line of journalLines(path, undefined, NOT_PLAN)) {
      if (line.kind === 'planned-all') break;
      if (line.kind === 'result') {
        if (held && held.id !== line.id) yield held;
        held = undefined;
        continue;
      }
      if (held) yield held;
      held = line.kind === 'planned' ? { id: line.id, ...(line.revision !== undefined ? { revision: line.revision } : {}) } : undefined;
    }
    if (held) yield held;
  }
}
