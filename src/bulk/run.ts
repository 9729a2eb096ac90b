/**
 * One bulk run end to end: select -> plan -> confirm (callback) -> execute -> journal -> report (design.md
 * "Bulk actions"), or the continuation of a journaled run (`--resume`). Terminal-free: the command supplies
 * the confirm prompt and the progress display as hooks.
 */
import { join } from 'node:path';
import type { Service } from '../api/schemas/service.js';
import { BugError, UserError } from '../core/errors.js';
import { cloneRunner, deleteRunner, updateRunner } from './actions.js';
import type { ChangeSet } from './changes.js';
import { executeChunks, type BulkProgress, type ChunkRunner, type ItemResult, type WorkItem } from './execute.js';
import {
  type BulkAction,
  defaultJournalDir,
  type HeaderLine,
  JournalWriter,
  newRunId,
  readJournal,
  type ResultLine,
} from './journal.js';
import { planClone, planDelete, planUpdate, type Plan } from './plan.js';
import type { ServicesPort } from './port.js';
import { buildReport, type BulkReport } from './report.js';
import { selectTargets, type Selection } from './select.js';

export interface BulkRunRequest {
  action: BulkAction;
  /** update/delete: the targets. */
  selection?: Selection;
  /** update: the validated `--set` changes. */
  change?: ChangeSet;
  /** clone: the source service (already fetched, so a bad id fails before anything is journaled) and N. */
  clone?: { source: Service; count: number };
  /** `--resume JOURNAL`: continue that run; selection/change/clone come from its header. */
  resumePath?: string;
  /** `--journal PATH`; default `<stateDir>/journals/<runId>.ndjson`. */
  journalPath?: string;
  dryRun: boolean;
  /** Chunks in flight at once. */
  concurrency: number;
  /** Items per bulk request (<= 100). */
  chunkSize?: number;
  /** Rows of the preview (all rows under `--dry-run --json`). */
  previewLimit: number;
  allRows?: boolean;
  signal?: AbortSignal;
  env: NodeJS.ProcessEnv;
  now: Date;
}

/** What the confirm hook is shown. */
export interface ConfirmInfo {
  action: BulkAction;
  plan: Plan;
  /** Items that will be sent now. */
  pending: number;
  /** Resume only: items already finished by the earlier run(s). */
  alreadyDone: number;
  resumed: boolean;
  journal?: string;
  /** update: the field mask paths (from the journal on resume). */
  mask: string[];
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
  | { kind: 'declined'; plan: Plan; journal: string }
  | { kind: 'done'; plan: Plan; report: BulkReport; journal: string };

/** `sitectl services <action> --resume <journal>`: printed on Ctrl-C and on partial failure. */
export function resumeCommand(action: BulkAction, journal: string): string {
  return `sitectl services ${action} --resume ${/^[\w./-]+$/.test(journal) ? journal : JSON.stringify(journal)}`;
}

function runnerFor(port: ServicesPort, action: BulkAction, change?: ChangeSet, sourceId?: string): ChunkRunner {
  if (action === 'update') return updateRunner(port, change!);
  if (action === 'delete') return deleteRunner(port);
  return cloneRunner(port, sourceId!);
}

/**
 * Runs (or resumes) a bulk action.
 *
 * @returns the plan for a dry run, `declined` when the confirm hook said no, else the report of every item
 * @throws UserError for unknown ids in an ids selection (nothing is changed), a journal of another action or an
 *   incomplete plan on resume, or a journal that cannot be created; CancelError on Ctrl-C (with the resume
 *   command as hint); whatever the platform throws while selecting
 */
export async function runBulk(port: ServicesPort, req: BulkRunRequest, hooks: BulkRunHooks): Promise<BulkRunResult> {
  if (req.resumePath) return resume(port, req, hooks);

  const planOpts = { previewLimit: req.previewLimit, allRows: req.allRows };
  if (req.dryRun) return { kind: 'dry-run', plan: await makePlan(port, req, planOpts) };

  const runId = newRunId(req.now);
  const path = req.journalPath ?? join(defaultJournalDir(req.env), `${runId}.ndjson`);
  const header: HeaderLine = {
    kind: 'header',
    runId,
    action: req.action,
    createdAt: req.now.toISOString(),
    args: {
      filter: req.selection?.kind === 'filter' ? req.selection.filter : undefined,
      ids: req.selection?.kind === 'ids' ? req.selection.ids : undefined,
      set: req.change?.sets,
      mask: req.change?.mask.join(','),
      sourceId: req.clone?.source.id,
      count: req.clone?.count,
    },
  };
  const journal = JournalWriter.create(path, header);
  try {
    hooks.onJournal?.(path, false);
    const plan = await makePlan(port, req, { ...planOpts, journal });
    if (plan.missing.length > 0) {
      journal.append([{ kind: 'end', at: new Date().toISOString(), status: 'aborted' }]);
      const shown = plan.missing.slice(0, 5).join(', ');
      throw new UserError(
        `${plan.missing.length} of the given ids ${plan.missing.length === 1 ? 'does' : 'do'} not exist: ${shown}${plan.missing.length > 5 ? ', ...' : ''}`,
        'nothing was changed; check the ids with `sitectl services list`',
      );
    }
    const prior: ItemResult[] = [];
    return await confirmAndExecute(port, req, hooks, journal, runId, plan, plan.items, prior, req.change, req.clone?.source.id);
  } finally {
    journal.close();
  }
}

async function makePlan(
  port: ServicesPort,
  req: BulkRunRequest,
  opts: { previewLimit: number; allRows?: boolean; journal?: JournalWriter },
): Promise<Plan> {
  if (req.action === 'clone') {
    if (!req.clone) throw new BugError('clone needs a source service');
    return planClone(req.clone.source, req.clone.count, opts);
  }
  if (!req.selection) throw new BugError(`${req.action} needs a selection`);
  const pages = selectTargets(port, req.selection, req.signal);
  if (req.action === 'update') return planUpdate(pages, req.change!, opts);
  return planDelete(pages, opts);
}

async function confirmAndExecute(
  port: ServicesPort,
  req: BulkRunRequest,
  hooks: BulkRunHooks,
  journal: JournalWriter,
  runId: string,
  plan: Plan,
  pending: WorkItem[],
  prior: ItemResult[],
  change: ChangeSet | undefined,
  sourceId: string | undefined,
): Promise<BulkRunResult> {
  const info: ConfirmInfo = {
    action: req.action,
    plan,
    pending: pending.length,
    alreadyDone: prior.length,
    resumed: Boolean(req.resumePath),
    journal: journal.path,
    mask: change?.mask ?? [],
  };
  await hooks.onPlan?.(info);
  if (pending.length > 0) {
    const ok = await hooks.confirm(info);
    if (!ok) {
      journal.append([{ kind: 'end', at: new Date().toISOString(), status: 'declined' }]);
      return { kind: 'declined', plan, journal: journal.path };
    }
    const display = hooks.progress?.(pending.length);
    try {
      await executeChunks({
        items: pending,
        run: runnerFor(port, req.action, change, sourceId),
        chunkSize: req.action === 'clone' ? 1 : (req.chunkSize ?? 100),
        concurrency: req.concurrency,
        maxAttempts: req.action === 'clone' ? 1 : undefined,
        signal: req.signal,
        journal,
        onProgress: display ? (p) => display.update(p) : undefined,
        resumeCommand: resumeCommand(req.action, journal.path),
      });
    } finally {
      await display?.done();
    }
  }
  journal.append([{ kind: 'end', at: new Date().toISOString(), status: 'done' }]);
  // Items decided at plan time (unchanged) are in the journal, not in `prior`/`results`: read them back.
  const all = readJournal(journal.path);
  const report = buildReport(runId, req.action, resultsOf(all.results), journal.path);
  return { kind: 'done', plan, report, journal: journal.path };
}

function resultsOf(results: Map<string, ResultLine>): ItemResult[] {
  return [...results.values()].map(({ id, outcome, revision, createdId, error }) => ({ id, outcome, revision, createdId, error }));
}

async function resume(port: ServicesPort, req: BulkRunRequest, hooks: BulkRunHooks): Promise<BulkRunResult> {
  const path = req.resumePath!;
  const state = readJournal(path);
  const { header } = state;
  if (header.action !== req.action) {
    throw new UserError(`${path} is a journal of \`services ${header.action}\``, `run: ${resumeCommand(header.action, path)}`);
  }
  if (!state.planComplete) {
    throw new UserError(
      `the run in ${path} stopped while planning; nothing was changed`,
      'start the action again without --resume',
    );
  }
  let change: ChangeSet | undefined;
  if (header.action === 'update') {
    const sets = header.args.set ?? [];
    change = { sets, mask: sets.map((s) => s.path) };
  }
  // Failed items are retried (updates are revision-checked, deletes of a missing service count as done);
  // a failed clone may have been created after all, so clones are only retried for slots with no result.
  const retryFailed = header.action !== 'clone';
  const pending: WorkItem[] = [];
  const prior: ItemResult[] = [];
  for (const p of state.planned) {
    const r = state.results.get(p.id);
    if (!r || (retryFailed && r.outcome === 'failed')) pending.push({ id: p.id, revision: p.revision });
    else prior.push(r);
  }
  const plan: Plan = {
    items: pending,
    targets: state.planned.length,
    // Everything decided earlier (unchanged included) is reported as `alreadyDone`.
    unchanged: 0,
    missing: [],
    preview: pending.slice(0, req.previewLimit).map((p) => ({ id: p.id, revision: p.revision, changes: [] })),
  };
  const journal = JournalWriter.reopen(path);
  try {
    hooks.onJournal?.(path, true);
    return await confirmAndExecute(
      port,
      { ...req, journalPath: path },
      hooks,
      journal,
      header.runId,
      plan,
      pending,
      prior,
      change,
      header.args.sourceId,
    );
  } finally {
    journal.close();
  }
}
