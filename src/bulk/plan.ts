/**
 * The plan step (docs/architecture.md "Bulk runs, the journal, history and undo" "Plan: stream the targets, compute each change, show the count and a
 * preview table of old -> new values"), for any action. Targets stream in pages; each is journaled as
 * `planned` as soon as its page is read, so `--resume` works from the plan and never re-runs the selection
 * against changed data.
 */
import type { EntityAction, PlannedItem } from './actions.js';
import type { FieldDiff } from './changes.js';
import type { WorkItem, WorkItems } from './execute.js';
import type { JournalLine, PlannedLine } from './journal.js';
import { JournalItems } from './spill.js';
import type { Entity, EntityPort } from './port.js';
import type { TargetPage } from './select.js';

/** One row of the preview: the entity and its changed values (empty for actions without a diff). */
export interface PreviewRow {
  id: string;
  name?: string;
  revision?: string;
  changes: FieldDiff[];
}

export interface Plan {
  /**
   * Items to send, in plan order, with the revision each change was planned against: read back from the journal
   * the plan was spilled to (PlanOptions.journal with a path), else held.
   */
  items: WorkItems;
  /** Targets found by the selection (items + unchanged + skipped). */
  targets: number;
  /** Targets that already are as asked; journaled as `unchanged`, never sent. */
  unchanged: number;
  /** Their ids, when a row of every item was asked (`allRows`: a piped or `--json` dry run lists each). */
  unchangedIds?: string[];
  /** Targets whose state does not allow the action; journaled as `skipped` with the reason, never sent. */
  skipped: { id: string; reason: string; lift?: string }[];
  /** Requested ids the platform does not have (ids selections only). */
  missing: string[];
  /** The first `previewLimit` rows, or every row when `allRows` was asked (a piped or `--json` dry run). */
  preview: PreviewRow[];
}

export interface PlanOptions {
  /** Rows kept for the preview table. */
  previewLimit: number;
  /** Keep a row for every item. */
  allRows?: boolean;
  /** The revision every target is changed at instead of the one read (BulkRunRequest.revision). */
  revision?: string;
  /**
   * Receives the plan's journal lines as they are planned. With a `path` (the file they are in, once one was
   * made), a plan of targets keeps only their count and reads its items back from there (spill.ts JournalItems).
   */
  journal?: { append(lines: readonly JournalLine[], opts?: { sync?: boolean }): void; readonly path?: string };
  /**
   * An id of an ids selection the platform no longer has is skipped with this reason (`sitectl undo`: deleted
   * since the change) instead of refusing the whole run (BulkRunRequest.skipMissing).
   */
  skipMissing?: string;
}

function row(port: EntityPort, e: Entity, changes: FieldDiff[]): PreviewRow {
  return { id: e.id, name: port.label(e), revision: e.revision ?? undefined, changes };
}

/** Plans `action` over the targets: each is an item, `unchanged`, or `skipped`. */
export async function planTargets(
  port: EntityPort,
  action: EntityAction,
  pages: AsyncIterable<TargetPage>,
  opts: PlanOptions,
): Promise<Plan> {
  if (action.items.kind !== 'targets') throw new TypeError(`${action.name} creates entities; it has no targets to plan`);
  const decide = action.items.plan;
  const journal = opts.journal;
  // Spilled to a journal with a file: the items are counted here and read back from it when the run sends them.
  const spilled = journal !== undefined && 'path' in journal;
  const held: WorkItem[] = [];
  let count = 0;
  const plan: Plan = { items: held, targets: 0, unchanged: 0, skipped: [], missing: [], preview: [] };
  for await (const page of pages) {
    const lines: JournalLine[] = [];
    for (const entity of page.entities) {
      plan.targets += 1;
      const revision = opts.revision ?? entity.revision ?? undefined;
      const name = port.label(entity);
      const planned: PlannedLine = { kind: 'planned', id: entity.id, revision, ...(name ? { name } : {}) };
      lines.push(planned);
      const decision = decide(entity);
      if (decision === 'unchanged') {
        plan.unchanged += 1;
        if (opts.allRows) (plan.unchangedIds ??= []).push(entity.id);
        lines.push({ kind: 'result', id: entity.id, outcome: 'unchanged', revision });
        continue;
      }
      if ('skip' in decision) {
        plan.skipped.push({ id: entity.id, reason: decision.skip, ...(decision.lift ? { lift: decision.lift } : {}) });
        lines.push({ kind: 'result', id: entity.id, outcome: 'skipped', revision, error: decision.skip });
        continue;
      }
      count += 1;
      if (!spilled) held.push({ id: entity.id, revision });
      const before = action.beforeImage?.(entity, decision.changes);
      if (before !== undefined) planned.before = before;
      if (opts.allRows || plan.preview.length < opts.previewLimit) plan.preview.push(row(port, entity, decision.changes));
    }
    if (opts.skipMissing) {
      for (const id of page.missing) {
        plan.targets += 1;
        plan.skipped.push({ id, reason: opts.skipMissing });
        lines.push({ kind: 'planned', id }, { kind: 'result', id, outcome: 'skipped', error: opts.skipMissing });
      }
    } else plan.missing.push(...page.missing);
    opts.journal?.append(lines, { sync: false });
  }
  opts.journal?.append([{ kind: 'planned-all', count: plan.targets }]);
  if (spilled) plan.items = new JournalItems(() => journal.path, count);
  return plan;
}

/** Plans `count` new entities from one source: slots `copy-1` ... `copy-N`, each journaled as planned. */
export function planSlots(port: EntityPort, source: Entity, count: number, opts: PlanOptions): Plan {
  const items: WorkItem[] = [];
  for (let i = 1; i <= count; i++) items.push({ id: `copy-${i}` });
  opts.journal?.append([...items.map((i): JournalLine => ({ kind: 'planned', id: i.id })), { kind: 'planned-all', count }]);
  return { items, targets: count, unchanged: 0, skipped: [], missing: [], preview: [row(port, source, [])] };
}

/**
 * A plan the caller computed: each item journaled as `planned` with its `after` (what to send) and `before` (the
 * before-image), items already as planned journaled `unchanged` and items to leave alone `skipped` (with the
 * reason), neither sent.
 */
export function planGiven(given: readonly PlannedItem[], opts: PlanOptions): Plan {
  const items: WorkItem[] = [];
  const plan: Plan = { items, targets: given.length, unchanged: 0, skipped: [], missing: [], preview: [] };
  const lines: JournalLine[] = [];
  for (const g of given) {
    lines.push({
      kind: 'planned',
      id: g.id,
      revision: g.revision,
      ...(g.after !== undefined ? { after: g.after } : {}),
      ...(g.name ? { name: g.name } : {}),
      ...(g.before !== undefined ? { before: g.before } : {}),
    });
    if (g.unchanged) {
      plan.unchanged += 1;
      lines.push({ kind: 'result', id: g.id, outcome: 'unchanged', revision: g.revision });
      continue;
    }
    if (g.skip !== undefined) {
      plan.skipped.push({ id: g.id, reason: g.skip });
      lines.push({ kind: 'result', id: g.id, outcome: 'skipped', revision: g.revision, error: g.skip });
      continue;
    }
    items.push({ id: g.id, revision: g.revision });
    if (opts.allRows || plan.preview.length < opts.previewLimit) plan.preview.push({ id: g.id, name: g.name, revision: g.revision, changes: g.changes });
  }
  opts.journal?.append([...lines, { kind: 'planned-all', count: given.length }]);
  return plan;
}
