/**
 * The report of a bulk run (issue 2 §5 "Report: a summary table and the failed items; exit 3 on partial
 * failure; `--json` gives a machine report").
 */
import { PartialFailureError } from '../core/errors.js';
import type { ItemResult } from './execute.js';
import type { BulkAction, Outcome } from './journal.js';

export const OUTCOMES: readonly Outcome[] = ['updated', 'deleted', 'created', 'unchanged', 'conflict', 'failed'];

/** The machine report printed by `--json` (stable field names). */
export interface BulkReport {
  runId: string;
  action: BulkAction;
  journal?: string;
  /** Items with an outcome in this report (every target of the run, including earlier runs of a resume). */
  total: number;
  counts: Record<Outcome, number>;
  /** Failed and conflicting items with the reason. */
  problems: { id: string; outcome: Outcome; error?: string; revision?: string }[];
  /** clone: the ids of the created services, in slot order. */
  createdIds?: string[];
}

/**
 * Builds the report from every item's final result.
 * @param results one result per item (later entries of the same id replace earlier ones)
 */
export function buildReport(runId: string, action: BulkAction, results: Iterable<ItemResult>, journal?: string): BulkReport {
  const last = new Map<string, ItemResult>();
  for (const r of results) last.set(r.id, r);
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const problems: BulkReport['problems'] = [];
  const created: { slot: number; id: string }[] = [];
  for (const r of last.values()) {
    counts[r.outcome] += 1;
    if (r.outcome === 'failed' || r.outcome === 'conflict') {
      problems.push({ id: r.id, outcome: r.outcome, error: r.error, revision: r.revision });
    }
    if (r.outcome === 'created' && r.createdId) created.push({ slot: Number(r.id.replace(/^\D+/, '')) || 0, id: r.createdId });
  }
  const report: BulkReport = { runId, action, journal, total: last.size, counts, problems };
  if (action === 'clone') report.createdIds = created.sort((a, b) => a.slot - b.slot).map((c) => c.id);
  return report;
}

/** Rows of the summary table: one per outcome that occurred. */
export function summaryRows(report: BulkReport): { outcome: Outcome; count: number }[] {
  return OUTCOMES.filter((o) => report.counts[o] > 0).map((o) => ({ outcome: o, count: report.counts[o] }));
}

/** One line: `2000 services: 1998 updated, 1 conflict, 1 failed`. */
export function summaryLine(report: BulkReport): string {
  const parts = summaryRows(report).map((r) => `${r.count} ${r.outcome}`);
  return `${report.total} ${report.total === 1 ? 'service' : 'services'}: ${parts.length ? parts.join(', ') : 'nothing to do'}`;
}

/**
 * Throws when any item failed or conflicted (exit 3); the report must already be printed.
 * @throws PartialFailureError
 */
export function assertComplete(report: BulkReport, resumeCommand?: string): void {
  const bad = report.counts.failed + report.counts.conflict;
  if (bad === 0) return;
  const parts = [];
  if (report.counts.conflict) parts.push(`${report.counts.conflict} conflict${report.counts.conflict === 1 ? '' : 's'}`);
  if (report.counts.failed) parts.push(`${report.counts.failed} failed`);
  throw new PartialFailureError(
    `${bad} of ${report.total} items did not complete (${parts.join(', ')})`,
    report.counts.failed && resumeCommand
      ? `failed items are retried by: ${resumeCommand}; conflicts were changed by someone else and are left as they are`
      : 'conflicting services were changed by someone else since the plan and were left as they are',
  );
}
