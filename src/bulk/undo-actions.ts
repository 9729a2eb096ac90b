/**
 * The inverse actions `sitectl undo` runs through the bulk engine (docs/architecture.md, history and undo): fields
 * set back at the revision a change left, and what a change created deleted if unchanged since. They extend the
 * actions of actions.ts (the same settling and delete), kept apart so that file holds what every bulk verb uses.
 */
import { changedValues, deleteAction, type EntityAction, settleBy, settleUpdate } from './actions.js';
import type { Outcome } from './journal.js';
import { type ChangeSet, diffChange } from './changes.js';
import { type ChunkRunner, failedResult } from './execute.js';
import type { JournalArgs } from './journal.js';
import type { Entity } from './port.js';

/**
 * The version of an entity that tells whether it changed since a change: its revision, or for a family without
 * revisions (members, plans) what its writes stamp instead (`updatedDate`).
 */
export type VersionOf = (entity: Entity) => string | undefined;

const revisionOf: VersionOf = (e) => e.revision ?? undefined;

/**
 * Sets each target's own fields back (`sitectl undo` of an update): `patches` holds every target's ChangeSet, and
 * `expect` the version (`version`, default the revision) the change being undone left; a target at another
 * version was changed since and is skipped, never overwritten. Journaled as an update (with its before-image), so
 * it can be undone in turn.
 */
export function patchAction<E extends Entity>(opts: {
  patches: ReadonlyMap<string, ChangeSet>;
  expect: ReadonlyMap<string, string | undefined>;
  send: ChunkRunner['send'];
  chunkSize: number;
  args: JournalArgs;
  version?: VersionOf;
}): EntityAction<E> {
  const patchOf = (id: string): ChangeSet => opts.patches.get(id) ?? { sets: [], mask: [] };
  const version = opts.version ?? revisionOf;
  return {
    name: 'update',
    done: 'updated',
    title: 'Undoing',
    args: opts.args,
    beforeImage: changedValues,
    columns: [...new Set([...opts.patches.values()].flatMap((c) => c.mask))],
    chunkSize: opts.chunkSize,
    items: {
      kind: 'targets',
      plan: (e) => {
        const left = opts.expect.get(e.id);
        const now = version(e);
        if (left !== undefined && now !== left) return { skip: `changed since (${opts.version ? 'version' : 'revision'} ${left} -> ${now})` };
        const changes = diffChange(e, patchOf(e.id));
        return changes.length === 0 ? 'unchanged' : { changes };
      },
    },
    runner: (port) => ({
      done: 'updated',
      send: opts.send,
      settle: settleBy<E>(port, settleUpdate(port, (id) => patchOf(id))),
    }),
  };
}

/**
 * Takes back what a change created (`sitectl undo` of a create or clone), each only if it still has the version it
 * was created with (`expect`; `version` as for patchAction); one changed since is skipped. By default a delete:
 * one already gone counts as deleted. `done`: the outcome of a family whose closest way to take a create back is
 * not a delete (a plan is archived, a booking cancelled); `name` the action's name in the history then
 * (`cancel`), and `taken` what an entity taken back looks like when it still exists (a booking CANCELED): one
 * found so after a send that was not confirmed counts as done.
 */
export function undoCreateAction<E extends Entity>(opts: {
  expect: ReadonlyMap<string, string | undefined>;
  send: ChunkRunner['send'];
  chunkSize: number;
  args: JournalArgs;
  version?: VersionOf;
  done?: Outcome;
  name?: string;
  taken?(entity: E): boolean;
}): EntityAction<E> {
  const base = deleteAction<E>(opts);
  const version = opts.version ?? revisionOf;
  const done = opts.done ?? base.done;
  const taken = opts.taken;
  return {
    ...base,
    name: opts.name ?? base.name,
    done,
    title: 'Undoing',
    items: {
      kind: 'targets',
      plan: (e) => {
        const left = opts.expect.get(e.id);
        const now = version(e);
        return left !== undefined && now !== left ? { skip: `changed since it was created (${opts.version ? 'version' : 'revision'} ${left} -> ${now})` } : { changes: [] };
      },
    },
    runner: (port) => ({
      ...base.runner(port),
      done,
      ...(taken
        ? { settle: settleBy<E>(port, (current, item, sent) => (!current || taken(current) ? { id: item.id, outcome: done, revision: current?.revision ?? undefined } : failedResult(item.id, sent))) }
        : {}),
    }),
  };
}
