/**
 * One bulk run end to end, for any entity and action: select -> plan -> confirm (callback) -> execute ->
 * journal -> report (docs/architecture.md "Bulk runs, the journal, history and undo"), or the continuation of a journaled run (`--resume`).
 * Terminal-free: the command supplies the confirm prompt and the progress display as hooks, and the words
 * that name the command (the resume hint).
 *
 * The journal is created once the plan is complete and has at least one target (an empty run, a dry run or a
 * refused one leaves no file behind); a declined run removes its journal, since nothing was changed, and its path
 * is said (onJournal) only once the run goes ahead.
 */
import { existsSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CancelError, UserError } from '../core/errors.js';
import type { EntityAction } from './actions.js';
import { executeChunks, type BulkProgress, type ItemResult, type WorkItem, type WorkItems } from './execute.js';
import { defaultJournalDir, type HeaderLine, type JournalLine, type JournalState, JournalWriter, newRunId, type ResultLine, type RunOrigin } from './journal.js';
import { readJournal } from './journal-read.js';
import { planGiven, planSlots, planTargets, type Plan } from './plan.js';
import type { EntityPort } from './port.js';
import { ResultTally, type BulkReport } from './report.js';
import { selectTargets, type Selection } from './select.js';

export interface BulkRunRequest {
  /** The targets (actions over targets); undefined for create actions and on resume. */
  selection?: Selection;
  /** `--resume`: the journal read back; the command rebuilt `action` from its header. */
  resume?: JournalState;
  /** `--journal PATH`; default `<stateDir>/journals/<runId>.ndjson`. */
  journalPath?: string;
  dryRun: boolean;
  /** Chunks in flight at once. */
  concurrency: number;
  /** Rows of the preview. */
  previewLimit: number;
  /** Keep a preview row for every item (a piped or `--json` dry run prints the whole plan). */
  allRows?: boolean;
  signal?: AbortSignal;
  env: NodeJS.ProcessEnv;
  now: Date;
  /** The command line that resumes the run recorded in `journal` (printed on Ctrl-C and partial failure). */
  resumeCommand(journal: string): string;
  /** Where and by what command the run happens (journaled for `sitectl history`). */
  origin?: RunOrigin;
  /** The id of the change this run undoes (`sitectl undo`). */
  undoOf?: string;
  /** The change of several sites this run is one site's part of (HeaderLine.partOf). */
  partOf?: string;
  /** The run prepares the change's main run (HeaderLine.prepares). */
  prepares?: boolean;
  /**
   * The revision every target is changed at, instead of the one read at plan time (the single form's
   * `--revision N`): a target at another revision is then refused by the platform and settled as a conflict.
   */
  revision?: string;
  /**
   * A run with nothing to send (every target already as asked, or refused) leaves no journal and comes back as
   * `idle`: a one-item change that changes nothing is not a change of the history.
   */
  quietIdle?: boolean;
  /** The error for ids of an ids selection that do not exist (default: a UserError, exit 2, naming them). */
  missingError?(ids: readonly string[]): Error;
  /** Ids of the selection that no longer exist are skipped with this reason instead (PlanOptions.skipMissing). */
  skipMissing?: string;
  /**
   * The `done` result carries every item's result (a one-item run, a create of bodies mapped back to them).
   * Default false: the report's counts and problems only, so a run of 100,000 items holds no result per item.
   */
  keepResults?: boolean;
}

/** What the confirm hook is shown. */
export interface ConfirmInfo {
  action: string;
  plan: Plan;
  /** Items that will be sent now. */
  pending: number;
  /** Resume only: items already finished by the earlier run(s). */
  alreadyDone: number;
  resumed: boolean;
  journal?: string;
  /** Preview columns (the changed paths of an update). */
  columns: string[];
}

export interface BulkRunHooks {
  /** The journal path, as soon as it is created or reopened (print it on stderr). */
  onJournal?(path: string, resumed: boolean): void;
  /** The plan is ready (not called for dry runs): show the count and the preview. */
  onPlan?(info: ConfirmInfo): void | Promise<void>;
  /** Asks to go on; false means declined. Not called for dry runs or when nothing is pending. */
  confirm(info: ConfirmInfo): Promise<boolean>;
  /** Starts a progress display for `total` items. */
  progress?(total: number): { update(p: BulkProgress): void; done(): Promise<void> };
}

export type BulkRunResult =
  | { kind: 'dry-run'; plan: Plan }
  | { kind: 'empty'; plan: Plan }
  | { kind: 'declined'; plan: Plan }
  /** Nothing to send (`quietIdle`): every target unchanged or skipped; no journal was written. */
  | { kind: 'idle'; plan: Plan }
  /**
   * `results` (BulkRunRequest.keepResults only): every target's final result, those decided before this
   * execution (at plan time, or by an earlier run) first, then those sent now.
   */
  | { kind: 'done'; plan: Plan; report: BulkReport; journal: string; results?: ItemResult[] };

/**
 * The plan's journal lines, spilled to the journal as the plan is read (memory flat in the
 * number of targets) rather than held until it is complete. The file is created with the first lines under a
 * temporary name (`<journal>.<pid>.planning`, which history does not list) and given its own name by
 * {@link keep} once the run goes ahead; {@link discard} removes it when the run ends before (nothing to do, ids
 * missing, a failure while selecting). Only the results decided at plan time (unchanged, skipped) are kept.
 */
class SpilledPlan {
  private writer: JournalWriter | undefined;
  /** A `planned-all` line that came before any target (an empty plan): written only if the run is kept. */
  private held: JournalLine[] = [];
  /** The journal directory was made for this plan (removed with it when the run ends before it is kept). */
  private madeDir = false;
  constructor(
    private readonly target: string,
    private readonly header: HeaderLine,
    /** Counts the targets decided at plan time (unchanged, skipped), for the report. */
    readonly tally: ResultTally,
  ) {}

  /** The file the plan is in (its temporary name, then its own), once a line was written. */
  get path(): string | undefined {
    return this.writer?.path;
  }

  private open(): JournalWriter {
    if (!this.writer) {
      this.madeDir = !existsSync(dirname(this.target));
      this.writer = JournalWriter.create(`${this.target}.${process.pid}.planning`, this.header);
      if (this.held.length) this.writer.append(this.held.splice(0));
    }
    return this.writer;
  }

  append(lines: readonly JournalLine[], opts?: { sync?: boolean }): void {
    for (const l of lines) if (l.kind === 'result') this.tally.add(resultOf(l));
    // A plan of no target writes nothing: a run with nothing to do leaves no file (nor a journal directory).
    if (!this.writer && lines.every((l) => l.kind === 'planned-all')) {
      this.held.push(...lines);
      return;
    }
    this.open().append(lines, opts);
  }

  /** The journal under its own name, holding the whole plan. @throws UserError when that name is taken or cannot be made */
  keep(): JournalWriter {
    const writer = this.open();
    try {
      writer.moveTo(this.target);
    } catch (err) {
      this.discard();
      throw err;
    }
    return writer;
  }

  /** Removes the spilled plan (the run ends before it is kept), and the journal directory when it made it. */
  discard(): void {
    if (!this.writer) return;
    this.writer.close();
    try {
      unlinkSync(this.writer.path);
      if (this.madeDir) rmdirSync(dirname(this.target));
    } catch {
      // Already gone, or the directory holds other files: nothing more to remove.
    }
    this.writer = undefined;
  }
}

async function makePlan(port: EntityPort, action: EntityAction, req: BulkRunRequest, sink?: SpilledPlan): Promise<Plan> {
  const opts = { previewLimit: req.previewLimit, allRows: req.allRows, journal: sink, revision: req.revision, skipMissing: req.skipMissing };
  if (action.items.kind === 'slots') return planSlots(port, action.items.source, action.items.count, opts);
  if (action.items.kind === 'planned') return planGiven(action.items.items, opts);
  if (!req.selection) throw new TypeError(`${action.name} needs a selection`);
  return planTargets(port, action, selectTargets(port, req.selection, req.signal, action.reads), opts);
}

/**
 * Runs (or resumes) a bulk action.
 *
 * @returns the plan for a dry run or an empty selection (or, with `quietIdle`, one with nothing to send),
 *   `declined` when the confirm hook said no, else the report of every item
 * @throws UserError for unknown ids in an ids selection (nothing is changed, nothing journaled), an incomplete
 *   plan on resume, or a journal that cannot be created; CancelError on Ctrl-C (with the resume command as hint);
 *   whatever the platform throws while selecting
 */
export async function runBulk(port: EntityPort, action: EntityAction, req: BulkRunRequest, hooks: BulkRunHooks): Promise<BulkRunResult> {
  if (req.resume) return resume(port, action, req, hooks);
  if (req.dryRun) return { kind: 'dry-run', plan: await makePlan(port, action, req) };

  const runId = newRunId(req.now);
  const path = req.journalPath ?? join(defaultJournalDir(req.env), `${runId}.ndjson`);
  const header: HeaderLine = {
    kind: 'header',
    runId,
    entity: port.noun.many,
    action: action.name,
    createdAt: req.now.toISOString(),
    args: action.args,
    ...(req.origin ? { origin: req.origin } : {}),
    ...(req.undoOf ? { undoOf: req.undoOf } : {}),
    ...(req.partOf ? { partOf: req.partOf } : {}),
    ...(req.prepares ? { prepares: true } : {}),
  };
  const sink = new SpilledPlan(path, header, new ResultTally(action.done, req.keepResults));
  let plan: Plan;
  try {
    plan = await makePlan(port, action, req, sink);
  } catch (err) {
    sink.discard();
    throw err;
  }
  if (plan.missing.length > 0) {
    sink.discard();
    if (req.missingError) throw req.missingError(plan.missing);
    const shown = plan.missing.slice(0, 5).join(', ');
    throw new UserError(
      `${plan.missing.length} of the given ids ${plan.missing.length === 1 ? 'does' : 'do'} not exist: ${shown}${plan.missing.length > 5 ? ', ...' : ''}`,
      `nothing was changed; check the ids with the list command`,
    );
  }
  if (plan.targets === 0 || (req.quietIdle && plan.items.length === 0)) {
    sink.discard();
    return { kind: plan.targets === 0 ? 'empty' : 'idle', plan };
  }
  const journal = sink.keep();
  try {
    // The journal's results so far: the targets decided at plan time (unchanged, skipped), counted by the tally.
    return await confirmAndExecute(port, action, req, hooks, journal, runId, plan, plan.items, 0, sink.tally);
  } finally {
    journal.close();
  }
}

async function confirmAndExecute(
  port: EntityPort,
  action: EntityAction,
  req: BulkRunRequest,
  hooks: BulkRunHooks,
  journal: JournalWriter,
  runId: string,
  plan: Plan,
  pending: WorkItems,
  alreadyDone: number,
  tally: ResultTally,
): Promise<BulkRunResult> {
  const info: ConfirmInfo = {
    action: action.name,
    plan,
    pending: pending.length,
    alreadyDone,
    resumed: Boolean(req.resume),
    journal: journal.path,
    columns: action.columns,
  };
  await hooks.onPlan?.(info);
  if (pending.length > 0) {
    // A run declined at the prompt, or stopped there with Ctrl-C (CancelError), changed nothing: a new run leaves
    // no journal. Any other failure there keeps it, as a crash would.
    const forget = () => {
      journal.close();
      if (!req.resume) unlinkSync(journal.path);
    };
    let ok: boolean;
    try {
      ok = await hooks.confirm(info);
    } catch (err) {
      if (err instanceof CancelError) forget();
      throw err;
    }
    if (!ok) {
      forget();
      return { kind: 'declined', plan };
    }
    // Said once the journal is kept: a declined run leaves none, so it names none.
    if (!req.resume) hooks.onJournal?.(journal.path, false);
    const display = hooks.progress?.(pending.length);
    try {
      // Each chunk's results are counted as they are journaled, not kept: the journal holds them.
      await executeChunks({
        items: pending,
        keepResults: false,
        onResults: (results) => {
          for (const r of results) tally.add(r);
        },
        runner: action.runner(port),
        chunkSize: action.chunkSize,
        concurrency: req.concurrency,
        maxAttempts: action.maxAttempts,
        signal: req.signal,
        journal,
        onProgress: display ? (p) => display.update(p) : undefined,
        resumeCommand: req.resumeCommand(journal.path),
      });
    } finally {
      await display?.done();
    }
  }
  else if (!req.resume) hooks.onJournal?.(journal.path, false);
  journal.append([{ kind: 'end', at: new Date().toISOString(), status: 'done' }]);
  // Every target's result, once: those recorded before this execution (decided at plan time, finished in an
  // earlier run), then the ones sent now.
  const report = tally.report({ runId, entity: port.noun.many, action: action.name, journal: journal.path });
  return { kind: 'done', plan, report, journal: journal.path, ...(tally.kept ? { results: tally.kept } : {}) };
}

function resultOf({ id, outcome, revision, createdId, error, permanent, httpStatus, note }: ResultLine): ItemResult {
  return { id, outcome, revision, createdId, error, ...(permanent ? { permanent } : {}), ...(httpStatus ? { httpStatus } : {}), ...(note ? { note } : {}) };
}

async function resume(port: EntityPort, action: EntityAction, req: BulkRunRequest, hooks: BulkRunHooks): Promise<BulkRunResult> {
  const state = req.resume!;
  const { header, path } = state;
  if (!state.planComplete) {
    throw new UserError(`the run in ${path} stopped while planning; nothing was changed`, 'start the action again without --resume');
  }
  // Failed items are retried (updates are revision-checked, a delete of a missing entity counts as done,
  // transitions are recognised, a planned action settles its own creates); a failed create of a slot may have
  // happened after all, so slots are only retried when they have no result.
  const retryFailed = action.items.kind !== 'slots';
  const pending: WorkItem[] = [];
  const prior: ItemResult[] = [];
  // Creates sent without a recorded result (killed, reply lost) may have happened: adopt what they created. So
  // may a planned create whose send failed on the way (retried below unless adopted): its reply may have been
  // lost after the platform made it.
  const adopted = new Map<string, ItemResult>();
  const inFlight = new Map(state.sending);
  if (action.items.kind === 'planned') {
    for (const r of state.results.values()) if (r.outcome === 'failed' && !r.permanent && !inFlight.has(r.id)) inFlight.set(r.id, undefined);
  }
  if (action.adopt && inFlight.size && !req.dryRun) {
    const known = new Set([...state.results.values()].map((r) => r.createdId).filter((id): id is string => Boolean(id)));
    for (const r of await action.adopt(inFlight, known, req.signal)) adopted.set(r.id, r);
  }
  for (const p of state.planned) {
    const r = adopted.get(p.id) ?? state.results.get(p.id);
    // A create the platform refused (permanent) stays refused: its line was reported to be fixed and made again
    // by itself, which a resume sending it too could double.
    const again = r?.outcome === 'failed' && retryFailed && !(action.adopt && r.permanent);
    if (!r || again) pending.push({ id: p.id, revision: p.revision });
    else prior.push(r);
  }
  const names = new Map(state.planned.map((p) => [p.id, p.name]));
  const plan: Plan = {
    items: pending,
    targets: state.planned.length,
    // Everything decided earlier (unchanged and skipped included) is reported as `alreadyDone`.
    unchanged: 0,
    skipped: [],
    missing: [],
    preview: (req.allRows ? pending : pending.slice(0, req.previewLimit)).map((p) => ({ id: p.id, name: names.get(p.id), revision: p.revision, changes: [] })),
  };
  // `--resume --dry-run`: what the resumed run would still do; the journal is only read.
  if (req.dryRun) return { kind: 'dry-run', plan };
  const journal = JournalWriter.reopen(path);
  try {
    hooks.onJournal?.(path, true);
    if (adopted.size) await journal.appendDurable([...adopted.values()].map((r): ResultLine => ({ kind: 'result', ...r })));
    // What the journal recorded before, each id once: the items sent again now are counted by their new result.
    const again = new Set(pending.map((p) => p.id));
    const tally = new ResultTally(action.done, req.keepResults);
    for (const r of state.results.values()) if (!adopted.has(r.id) && !again.has(r.id)) tally.add(resultOf(r));
    for (const r of adopted.values()) if (!again.has(r.id)) tally.add(r);
    return await confirmAndExecute(port, action, { ...req, journalPath: path }, hooks, journal, header.runId, plan, pending, prior.length, tally);
  } finally {
    journal.close();
  }
}

/**
 * Reads a journal for `--resume` and checks it records a run of `entity`.
 * @throws UserError when it cannot be read, is not a journal, or records another entity's run
 */
export function readRunJournal(path: string, entity: string): JournalState {
  const state = readJournal(path);
  if (state.header.entity !== entity) {
    throw new UserError(
      `${path} is the journal of a ${state.header.entity} ${state.header.action} run`,
      `pass it to the --resume of the ${state.header.entity} ${state.header.action} command`,
    );
  }
  return state;
}
