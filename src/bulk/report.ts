/**
 * The report of a bulk run (docs/architecture.md "Bulk runs, the journal, history and undo" "Report: a summary table and the failed items; exit 3 on partial
 * failure; `--json` gives a machine report"), for any entity and action.
 */
import { PartialFailureError } from '../core/errors.js';
import type { ItemResult } from './execute.js';
import type { Outcome } from './journal.js';

/** The outcomes every report counts besides the action's own. */
export const COMMON_OUTCOMES: readonly Outcome[] = ['unchanged', 'skipped', 'conflict', 'failed'];

/** The machine report printed by `--json` (stable field names). */
export interface BulkReport {
  runId: string;
  /** The entities acted on (`services`, ...). */
  entity: string;
  action: string;
  journal?: string;
  /** Items with an outcome in this report (every target of the run, including earlier runs of a resume). */
  total: number;
  /** Items per outcome: the action's own (`updated`, ...) then unchanged, skipped, conflict, failed. */
  counts: Record<Outcome, number>;
  /** Failed, conflicting and skipped items with the reason. */
  /** Items not done; `permanent` ones would fail again on `--resume` (ItemResult.permanent). */
  problems: { id: string; outcome: Outcome; error?: string; revision?: string; permanent?: boolean }[];
  /** create: the ids of the created entities, in slot order. */
  createdIds?: string[];
  /**
   * Items done partly (ItemResult.note): each with what the platform left undone and, for a create, the new
   * entity's id. Absent when none.
   */
  partial?: { id: string; outcome: Outcome; createdId?: string; note: string }[];
}

/** Field names of {@link BulkReport}, for checking `--json fields` before a run starts. */
export const REPORT_FIELDS: readonly string[] = ['runId', 'entity', 'action', 'journal', 'total', 'counts', 'problems', 'createdIds', 'partial'];

/**
 * The report of a run built as its results come, one per item (a later result of an id is not looked for: see
 * {@link buildReport} for that): the counts per outcome, the problems, the created ids and the partly done, and
 * every result only when asked to keep them (`keep`), so a run of 100,000 items holds counts, not results.
 */
export class ResultTally {
  private total = 0;
  private readonly counts: Record<Outcome, number>;
  private readonly problems: BulkReport['problems'] = [];
  private readonly created: { slot: number; id: string }[] = [];
  private readonly partial: NonNullable<BulkReport['partial']> = [];
  /** Every result added, in order, when kept (BulkRunRequest.keepResults). */
  readonly kept: ItemResult[] | undefined;

  constructor(
    /** The action's own outcome (`updated`, `created`, ...). */
    private readonly done: Outcome,
    keep = false,
  ) {
    this.counts = Object.fromEntries([done, ...COMMON_OUTCOMES].map((o) => [o, 0]));
    this.kept = keep ? [] : undefined;
  }

  /** Counts one item's final result. */
  add(r: ItemResult): void {
    this.total += 1;
    this.kept?.push(r);
    if (r.note && r.outcome === this.done) this.partial.push({ id: r.id, outcome: r.outcome, ...(r.createdId ? { createdId: r.createdId } : {}), note: r.note });
    this.counts[r.outcome] = (this.counts[r.outcome] ?? 0) + 1;
    if (r.outcome === 'failed' || r.outcome === 'conflict' || r.outcome === 'skipped') {
      this.problems.push({ id: r.id, outcome: r.outcome, error: r.error, revision: r.revision, ...(r.permanent ? { permanent: true } : {}) });
    }
    if (r.outcome === 'created' && r.createdId) this.created.push({ slot: Number(r.id.replace(/^\D+/, '')) || 0, id: r.createdId });
  }

  /** The report of the results added so far. */
  report(run: { runId: string; entity: string; action: string; journal?: string }): BulkReport {
    const report: BulkReport = { runId: run.runId, entity: run.entity, action: run.action, journal: run.journal, total: this.total, counts: { ...this.counts }, problems: [...this.problems] };
    if (this.done === 'created') report.createdIds = [...this.created].sort((a, b) => a.slot - b.slot).map((c) => c.id);
    if (this.partial.length) report.partial = [...this.partial];
    return report;
  }
}

/**
 * Builds the report from every item's final result.
 * @param done the action's own outcome (`updated`, `created`, ...)
 * @param results one result per item (later entries of the same id replace earlier ones)
 */
export function buildReport(
  run: { runId: string; entity: string; action: string; done: Outcome; journal?: string },
  results: Iterable<ItemResult>,
): BulkReport {
  const last = new Map<string, ItemResult>();
  for (const r of results) last.set(r.id, r);
  const tally = new ResultTally(run.done);
  for (const r of last.values()) tally.add(r);
  return tally.report(run);
}

/** Rows of the summary table: one per outcome that occurred. */
export function summaryRows(report: BulkReport): { outcome: Outcome; count: number }[] {
  return Object.entries(report.counts)
    .filter(([, n]) => n > 0)
    .map(([outcome, count]) => ({ outcome, count }));
}

/** One line: `2000 services: 1998 updated, 1 conflict, 1 failed` (`3 created (1 of them partly)`). */
export function summaryLine(report: BulkReport, noun: { one: string; many: string }): string {
  const partly = report.partial?.length ?? 0;
  const parts = summaryRows(report).map((r) => `${r.count} ${r.outcome}${partly && r.outcome === report.partial![0]!.outcome ? ` (${partly === r.count ? (r.count === 1 ? 'partly' : 'all partly') : `${partly} of them partly`})` : ''}`);
  return `${report.total} ${report.total === 1 ? noun.one : noun.many}: ${parts.length ? parts.join(', ') : 'nothing to do'}`;
}

/**
 * Throws when any item failed or conflicted (exit 3); the report must already be printed. Skipped items (the
 * state did not allow the action) are reported but are not failures.
 * @throws PartialFailureError
 */
export function assertComplete(report: BulkReport, resumeCommand?: string): void {
  const failed = report.counts.failed ?? 0;
  const conflict = report.counts.conflict ?? 0;
  const partly = report.partial?.length ?? 0;
  const bad = failed + conflict;
  if (bad === 0 && partly === 0) return;
  if (bad === 0) {
    throw new PartialFailureError(`${partly} of ${report.total} items ${partly === 1 ? 'was' : 'were'} done only partly`, 'the platform did the rest of each as listed under "partly done"; it is not retried (a resume would not change it): complete each by hand, or undo the run and try again');
  }
  const parts = [];
  if (conflict) parts.push(`${conflict} conflict${conflict === 1 ? '' : 's'}`);
  if (failed) parts.push(`${failed} failed`);
  // A resume is offered only when it can get somewhere: a failure the platform would give again (a policy, a
  // validation, the entity's state) is to be fixed, not retried.
  const transient = report.problems.filter((p) => p.outcome === 'failed' && !p.permanent).length;
  const permanent = failed - transient;
  const hints: string[] = [];
  if (transient && resumeCommand) hints.push(`${transient === failed ? 'failed items are' : `${transient} failed item${transient === 1 ? ' is' : 's are'}`} retried by: ${resumeCommand}`);
  if (permanent) hints.push(`${permanent} ${permanent === 1 ? 'was' : 'were'} refused by the platform for the reason shown: fix that (or pass the flag it names) and run the command again; --resume would be refused the same way`);
  if (conflict) hints.push('conflicts were changed by someone else since the plan and are left as they are');
  if (partly) hints.push(`${partly} more ${partly === 1 ? 'was' : 'were'} done only partly (listed under "partly done")`);
  throw new PartialFailureError(`${bad} of ${report.total} items did not complete (${parts.join(', ')})`, hints.join('; '));
}
