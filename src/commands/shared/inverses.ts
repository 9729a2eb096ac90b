/**
 * How a noun declares the undo of its changes (docs/architecture.md "Bulk runs, the journal, history and undo"),
 * and the inverses every declaration is made of. Each noun's module offers `undo()` (commands/noun-list.ts
 * NounModule): for each entity its changes are journaled under (`services`, `booking policies`), the writes-table
 * entry whose creates, updates and deletes are taken back (commands/shared/writes.ts WriteSpec), and for its other
 * actions either the inverse or the reason it cannot be undone. `sitectl undo` reads the declaration of the
 * change's entity and holds no table of nouns itself.
 *
 * The inverses: {@link writeInverse} (an update patched back, a create removed, a delete re-created),
 * {@link valueInverse} (a value verb's before-image set back), {@link oppositeInverse} (the opposite state
 * change, only for the items it brings back where they were). A noun with an inverse of its own (a booking moved
 * back) writes it with {@link done}.
 */
import type { ApiClient } from '../../api/client.js';
import type { EntityAction } from '../../bulk/actions.js';
import type { ChangeSet } from '../../bulk/changes.js';
import type { JournalState, PlannedLine, ResultLine } from '../../bulk/journal.js';
import type { Entity, EntityPort } from '../../bulk/port.js';
import type { Named } from './bulk.js';
import type { EntityView, TransitionSpec } from './entity-view.js';
import type { ValueVerb } from './values.js';
import type { WriteSpec } from './writes.js';

/** What undoing one change takes: the noun's view and port, the inverse action, the targets. */
export interface Inverse {
  view: Named;
  port: EntityPort;
  action: EntityAction;
  ids: string[];
  /** Said before the run (new ids, a member coming back APPROVED...). */
  note?: string;
  /** The inverse deletes or is itself a destructive verb (block, pause): it asks even for one item. */
  destructive?: boolean;
  /** Why items were skipped, in words (default: they were changed or deleted since the change). */
  skippedWhy?: string;
  /** Why nothing of the change can be undone, when `ids` is empty (default: none of its items changed anything). */
  none?: string;
  /** Items of the change the inverse cannot bring back where they were, left as they are: id -> why. */
  left?: ReadonlyMap<string, string>;
}

/** What an inverse is planned from: the change's journal, its action, the client of the site it was made on. */
export interface UndoRequest {
  api: ApiClient;
  state: JournalState;
  /** The change's action (`update`, `reschedule`, ...). */
  action: string;
  now: Date;
}

/** How one action of an entity is undone: its inverse, or the reason it cannot be (said with exit 1). */
export type UndoRule = { inverse(req: UndoRequest): Promise<Inverse | undefined> } | { cannot: string };

/** The undo of the changes journaled under one entity. */
export interface EntityUndo {
  /** The writes-table entry: its creates (and clones), updates and deletes are taken back by {@link writeInverse}. */
  writes?(): Promise<WriteSpec>;
  /** Every other action with an inverse, and those that cannot be undone, with the reason. */
  actions?: Readonly<Record<string, UndoRule>>;
  /** Why an action not declared cannot be undone (default: "<entity> <action> cannot be undone"). */
  otherwise?(action: string): string;
}

/** A noun's undo declaration: by the entity its changes are journaled under (NounHeader.entities). */
export type NounUndo = Readonly<Record<string, EntityUndo>>;

/** Items of a change whose result is one of `outcomes`, with their planned line and result. */
export function done(state: JournalState, outcomes: readonly string[]): { result: ResultLine; planned?: PlannedLine }[] {
  const planned = new Map(state.planned.map((p) => [p.id, p]));
  return [...state.results.values()].filter((r) => outcomes.includes(r.outcome)).map((r) => ({ result: r, planned: planned.get(r.id) }));
}

/** The outcome a state change's finished items have (the action's `done`: blocked, approved, paused...). */
export function resultOutcome(state: JournalState): string {
  const counts = new Map<string, number>();
  for (const r of state.results.values()) if (!['unchanged', 'skipped', 'failed', 'conflict'].includes(r.outcome)) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

/**
 * The inverse of a create, update or delete of a noun of the writes table, from its journal: an update's changed
 * fields patched back, what a create (or clone, or an undo's re-create) made removed, what a delete removed
 * re-created from its before-image; each only if the item still has the version the change left. Undefined for
 * another action, or a delete of a noun that is not re-created.
 */
export async function writeInverse(spec: WriteSpec, req: UndoRequest): Promise<Inverse | undefined> {
  const [{ patchAction, undoCreateAction }, { writePort, writeRecreate }] = await Promise.all([import('../../bulk/undo-actions.js'), import('./writes.js')]);
  const { api, state } = req;
  const { view } = spec;
  const port = writePort(spec, api);
  if (req.action === 'update' && spec.patch) {
    const patches = new Map<string, ChangeSet>();
    const expect = new Map<string, string | undefined>();
    for (const { result, planned } of done(state, ['updated'])) {
      const before = planned?.before as Record<string, unknown> | undefined;
      if (!before) continue;
      const sets = Object.entries(before).map(([path, value]) => ({ path, value: value ?? null }));
      patches.set(result.id, { sets, mask: sets.map((s) => s.path) });
      expect.set(result.id, result.revision);
    }
    const send = spec.patch(api, (id) => patches.get(id) ?? { sets: [], mask: [] });
    const action = patchAction({ patches, expect, send, chunkSize: spec.patchChunk ?? 1, args: { ids: [...patches.keys()] }, version: spec.version });
    return { view, port, action, ids: [...patches.keys()] };
  }
  const remove = spec.remove;
  if ((req.action === 'clone' || req.action === 'create') && remove) {
    const created = done(state, ['created']).filter((d) => d.result.createdId);
    const expect = new Map(created.map((d) => [d.result.createdId!, d.result.revision]));
    const action = undoCreateAction({
      expect,
      send: remove.send(api),
      chunkSize: remove.chunkSize,
      args: { ids: [...expect.keys()] },
      version: spec.version,
      done: remove.done,
      name: remove.verb,
      taken: remove.taken,
    });
    const archived = remove.done === 'archived';
    return {
      view,
      port,
      action,
      ids: [...expect.keys()],
      destructive: true,
      note: archived ? `${view.noun.many} cannot be deleted on the platform: the ones created are archived (they can no longer be bought)` : undefined,
    };
  }
  if (req.action === 'delete' && spec.recreate) {
    const gone = done(state, ['deleted']).filter((d) => d.planned?.before);
    const bodies = new Map(gone.map((d) => [d.result.id, spec.recreate!.body(d.planned!.before as Record<string, unknown>)]));
    return { view, port, action: writeRecreate(spec, api, bodies), ids: [...bodies.keys()], note: spec.recreate.note };
  }
  return undefined;
}

/**
 * The undo of a value verb (commands/shared/values.ts: a slug, locations, linked plans, namespace data, the
 * default policy): each item's before-image set back by the same verb and calls, if it still has the revision
 * the change left.
 */
export function valueInverse<E extends Entity, T>(verb: ValueVerb<E, T>): UndoRule {
  return {
    async inverse({ api, state }) {
      const { valueUndo } = await import('./values.js');
      const back = done(state, [verb.done]).filter((d) => d.planned?.before !== undefined);
      const run = valueUndo(verb, api, back.map((d) => ({ id: d.result.id, before: d.planned!.before as T, revision: d.result.revision })));
      return { view: verb.view as Named, port: run.port, action: run.action, ids: run.ids };
    },
  };
}

/**
 * The undo of a state change by its opposite (`members block` by approve, `orders pause` by resume), the same
 * port and operation as the opposite verb run by hand. `left` says why an item, by its before-image, would not be
 * brought back where it was (a member blocked from PENDING: the platform has no way back to PENDING): such items
 * are left as they are, named. `note` is said before the run.
 */
export function oppositeInverse<E extends { id: string; revision?: string | null }>(
  opposite: () => Promise<TransitionSpec<E>>,
  how: { left?(before: { status?: string } | undefined): string | undefined; note?: string } = {},
): UndoRule {
  return {
    async inverse({ api, state }) {
      const [spec, { transitionRun }] = await Promise.all([opposite(), import('./transition.js')]);
      const changed = done(state, [resultOutcome(state)]);
      const left = new Map(
        changed.map((d) => [d.result.id, how.left?.(d.planned?.before as { status?: string } | undefined)] as const).filter((e): e is readonly [string, string] => e[1] !== undefined),
      );
      const ids = changed.map((d) => d.result.id).filter((id) => !left.has(id));
      const run = transitionRun(spec, api, { ids, options: {} });
      const none = left.size ? `${[...left.values()][0]}${left.size > 1 ? ` (all ${left.size} of them)` : ''}` : undefined;
      return { view: spec.view as EntityView<unknown>, port: run.port, action: run.action, ids, destructive: spec.destructive, note: how.note, none, left };
    },
  };
}
