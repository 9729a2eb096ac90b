/**
 * One item as a one-item plan (docs/architecture.md "Bulk runs, the journal, history and undo"): the single form of
 * every write verb and the interactive views' single key run the same select -> plan -> confirm -> execute ->
 * journal as a change to many, over an ids selection of one. What differs is only what is said: this module
 * keeps the entity the plan read (for the question, the "already ..." line and the output) and tells the outcome
 * as one of five kinds instead of a report. Terminal-free: the command supplies the question.
 *
 * A one-item change that has nothing to send (already as asked, or refused by the state machine or a policy)
 * leaves no journal: it changed nothing, so it is not in the history. Every other run is journaled, so it is
 * listed by `sitectl history` and undone by `sitectl undo` where the undo table allows.
 */
import { NotFoundError } from '../core/errors.js';
import type { EntityAction } from './actions.js';
import type { ItemResult } from './execute.js';
import type { Plan } from './plan.js';
import type { Entity, EntityPort } from './port.js';
import { type BulkRunRequest, runBulk } from './run.js';

/** What a one-item change came to. `entity` is the item as the plan read it (whole). */
export type OneResult<E extends Entity = Entity> =
  /** `--dry-run`: the plan of the one item. */
  | { kind: 'dry-run'; plan: Plan; entity: E }
  /** Already as asked: nothing sent, nothing journaled. */
  | { kind: 'unchanged'; entity: E }
  /** The state machine or a policy does not allow it (`lift`: the flag that would): nothing sent or journaled. */
  | { kind: 'refused'; entity: E; reason: string; lift?: string }
  /** The question was answered no: nothing sent, nothing journaled. */
  | { kind: 'declined'; entity: E }
  /**
   * Sent and journaled: `result` is the item's outcome (the action's `done`, or failed, conflict, or skipped when
   * the platform's state machine refused it), `journal` the change's journal, `runId` its id in the history.
   */
  | { kind: 'sent'; entity: E; result: ItemResult; journal: string; runId: string };

/** The request of a one-item change: a bulk run request without the selection and the run-size settings. */
export type OneRequest = Omit<BulkRunRequest, 'selection' | 'resume' | 'concurrency' | 'previewLimit' | 'allRows' | 'quietIdle' | 'missingError'>;

/**
 * The port as the one-item run reads it: whole entities (the caller shows them), each kept in `seen`.
 */
function recording<E extends Entity>(port: EntityPort<E>, seen: Map<string, E>): EntityPort<E> {
  return {
    ...port,
    async *pages(filter, signal) {
      for await (const page of port.pages(filter, signal)) {
        for (const e of page) seen.set(e.id, e);
        yield page;
      }
    },
    byIds: port.byIds
      ? async (ids, signal) => {
          const found = await port.byIds!(ids, signal);
          for (const [id, e] of found) seen.set(id, e);
          return found;
        }
      : undefined,
  };
}

/**
 * Changes one entity through the bulk engine: plans `action` over `id` alone, asks `confirm` (given the entity)
 * when there is something to send, executes and journals it.
 * @param hooks `confirm`: true to go on, called only when there is something to send and it is not a dry run;
 *   `onJournal`: the journal's path once it is created
 * @returns what the change came to (see {@link OneResult})
 * @throws NotFoundError (exit 1) when no entity has the id; CancelError on Ctrl-C (with the resume command);
 *   whatever the platform throws while reading
 */
export async function changeOne<E extends Entity>(
  port: EntityPort<E>,
  action: EntityAction<E>,
  id: string,
  req: OneRequest,
  hooks: { confirm(entity: E): Promise<boolean>; onJournal?(path: string): void },
): Promise<OneResult<E>> {
  const seen = new Map<string, E>();
  const missing = () => new NotFoundError(`no ${port.noun.one} has the id ${id}`, `'${port.noun.many} list' shows the ids`);
  const entityOf = (): E => {
    const e = seen.get(id);
    if (!e) throw missing();
    return e;
  };
  const one: EntityAction<E> = { ...action, args: { ...action.args, ids: [id] } };
  const result = await runBulk(
    recording(port, seen) as EntityPort,
    one as unknown as EntityAction,
    {
      ...req,
      selection: { kind: 'ids', ids: [id] },
      concurrency: 1,
      previewLimit: 1,
      allRows: true,
      quietIdle: true,
      keepResults: true,
      missingError: missing,
    },
    { confirm: async () => hooks.confirm(entityOf()), onJournal: hooks.onJournal },
  );
  if (result.kind === 'dry-run' && result.plan.missing.length) throw missing();
  const entity = entityOf();
  switch (result.kind) {
    case 'dry-run':
      return { kind: 'dry-run', plan: result.plan, entity };
    case 'empty':
    case 'idle': {
      const skip = result.plan.skipped[0];
      return skip ? { kind: 'refused', entity, reason: skip.reason, ...(skip.lift ? { lift: skip.lift } : {}) } : { kind: 'unchanged', entity };
    }
    case 'declined':
      return { kind: 'declined', entity };
    case 'done': {
      const mine = (result.results ?? []).filter((r) => r.id === id).pop() ?? { id, outcome: 'failed', error: 'no result was recorded' };
      return { kind: 'sent', entity, result: mine, journal: result.journal, runId: result.report.runId };
    }
  }
}

/** What a one-item create came to: its dry-run plan, or sent and journaled (`result`: created, or failed). */
export type CreateOneResult = { kind: 'dry-run'; plan: Plan } | { kind: 'sent'; result: ItemResult; journal: string; runId: string };

/**
 * Creates one entity through the bulk engine: `action` is a planned create of one body (create-actions.ts
 * bodiesCreateAction) or one copy of a source (createAction, `services clone ID`), run without a question (a create is taken back by `sitectl undo`), executed and
 * journaled (so `sitectl history` lists it, with the new id and the version it left).
 * @returns the plan of a dry run, else the item's result and the change's journal and id
 * @throws CancelError on Ctrl-C; whatever the journal's creation throws
 */
export async function createOne(port: EntityPort, action: EntityAction, req: OneRequest, hooks: { onJournal?(path: string): void } = {}): Promise<CreateOneResult> {
  const items = action.items;
  const one = items.kind === 'planned' ? items.items.length === 1 : items.kind === 'slots' && items.count === 1;
  if (!one) throw new TypeError('createOne takes a create of one item (one planned body, or one copy)');
  const result = await runBulk(port, action, { ...req, concurrency: 1, previewLimit: 1, allRows: true, quietIdle: true, keepResults: true }, { confirm: async () => true, onJournal: hooks.onJournal });
  if (result.kind === 'dry-run') return { kind: 'dry-run', plan: result.plan };
  if (result.kind !== 'done') throw new TypeError(`a one-item create came to '${result.kind}'`);
  const id = items.kind === 'planned' ? items.items[0]!.id : [...result.plan.items][0]!.id;
  const mine = (result.results ?? []).filter((r) => r.id === id).pop() ?? { id, outcome: 'failed', error: 'no result was recorded' };
  return { kind: 'sent', result: mine, journal: result.journal, runId: result.report.runId };
}
