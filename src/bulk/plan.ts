/**
 * The plan step (issue 2 §5 "Plan: stream the targets, compute each change, show the count and a preview
 * table of old -> new values"). Targets stream in pages; each is journaled as `planned` as soon as its page is
 * read, so `--resume` works from the plan and never re-runs the selection against changed data.
 */
import type { Service } from '../api/schemas/service.js';
import { type ChangeSet, diffChange, type FieldDiff } from './changes.js';
import type { WorkItem } from './execute.js';
import type { JournalLine, JournalWriter } from './journal.js';
import type { TargetPage } from './select.js';

/** One row of the preview: the service and its changed values (empty for delete). */
export interface PreviewRow {
  id: string;
  name?: string;
  revision?: string;
  changes: FieldDiff[];
}

export interface Plan {
  /** Items to send, in plan order, with the revision each change was planned against. */
  items: WorkItem[];
  /** Targets found by the selection (items + unchanged). */
  targets: number;
  /** Targets that already hold every value (update only); journaled as `unchanged`, never sent. */
  unchanged: number;
  /** Requested ids the platform does not have (ids selections only). */
  missing: string[];
  /** The first `previewLimit` rows, or every row when `allRows` was asked (dry-run `--json`). */
  preview: PreviewRow[];
}

export interface PlanOptions {
  /** Rows kept for the preview table. */
  previewLimit: number;
  /** Keep a row for every item (for `--dry-run --json`). */
  allRows?: boolean;
  journal?: JournalWriter;
}

/** The part of a service the preview shows. */
function row(s: Service, changes: FieldDiff[]): PreviewRow {
  return { id: s.id ?? '', name: s.name, revision: s.revision, changes };
}

async function planPages(
  pages: AsyncIterable<TargetPage>,
  opts: PlanOptions,
  decide: (s: Service) => FieldDiff[] | 'unchanged',
): Promise<Plan> {
  const plan: Plan = { items: [], targets: 0, unchanged: 0, missing: [], preview: [] };
  for await (const page of pages) {
    const lines: JournalLine[] = [];
    for (const service of page.services) {
      if (!service.id) continue;
      plan.targets += 1;
      lines.push({ kind: 'planned', id: service.id, revision: service.revision });
      const decision = decide(service);
      if (decision === 'unchanged') {
        plan.unchanged += 1;
        lines.push({ kind: 'result', id: service.id, outcome: 'unchanged', revision: service.revision });
        continue;
      }
      plan.items.push({ id: service.id, revision: service.revision });
      if (opts.allRows || plan.preview.length < opts.previewLimit) plan.preview.push(row(service, decision));
    }
    plan.missing.push(...page.missing);
    opts.journal?.append(lines, { sync: false });
  }
  opts.journal?.append([{ kind: 'planned-all', count: plan.targets }]);
  return plan;
}

/** Plans an update: a service whose masked paths already hold the new values is `unchanged` and not sent. */
export function planUpdate(pages: AsyncIterable<TargetPage>, change: ChangeSet, opts: PlanOptions): Promise<Plan> {
  return planPages(pages, opts, (s) => {
    const changes = diffChange(s, change);
    return changes.length === 0 ? 'unchanged' : changes;
  });
}

/** Plans a delete: every target is an item. */
export function planDelete(pages: AsyncIterable<TargetPage>, opts: PlanOptions): Promise<Plan> {
  return planPages(pages, opts, () => []);
}

/** Plans `count` clones of one service: slots `clone-1` ... `clone-N`, each journaled as planned. */
export function planClone(source: Service, count: number, opts: PlanOptions): Plan {
  const items: WorkItem[] = [];
  for (let i = 1; i <= count; i++) items.push({ id: `clone-${i}` });
  opts.journal?.append([
    ...items.map((i): JournalLine => ({ kind: 'planned', id: i.id })),
    { kind: 'planned-all', count },
  ]);
  return {
    items,
    targets: count,
    unchanged: 0,
    missing: [],
    preview: [{ id: source.id ?? '', name: source.name, revision: source.revision, changes: [] }],
  };
}
