/**
 * Verbs that give one item a value (docs/architecture.md "Bulk runs, the journal, history and undo"): `services
 * slug set`, `members slug`, `services locations set`, `services pricing-plans add|remove`, `bookings fields`,
 * `services booking-policies set-default`. One mechanism for all of them: the CLI runs the verb as a one-item
 * plan of the bulk engine (commands/shared/one.ts runOneVerb); the journal's options keep the value asked for
 * each item (`values`), and each item's before-image is the value that puts it back as it was (`inverse`). `sitectl undo` runs the same verb with the before-images
 * as the values, each only if the item still has the revision the change left (else "changed since", skipped).
 * A verb declares only what differs: how to read the value off the entity, how to send it, and its inverse.
 */
import * as z from 'zod/mini';
import type { ApiClient } from '../../api/client.js';
import { type EntityAction, readingSender, transitionAction } from '../../bulk/actions.js';
import type { JournalArgs, Outcome } from '../../bulk/journal.js';
import { journalOptions } from '../../bulk/journal-read.js';
import type { Entity, EntityPort } from '../../bulk/port.js';
import type { EntityView } from './entity-view.js';
import { viewPort } from './view-port.js';

/** The value one item is given, and the revision it must still have (an undo: the one the change left). */
export type ValueTarget<T> = { to: T; expect?: string | undefined };

/** The options of a value verb (and of its undo) as the journal keeps them; `undo` is said in the progress title. */
export type ValueOptions<T> = { values: Record<string, ValueTarget<T>>; undo?: boolean | undefined };

/**
 * A value verb's options as its journal keeps them, each value read through the verb's schema.
 * @throws UserError (exit 2) naming the field of a journal's options that does not fit (`values.ID.to.slug: …`)
 */
function valueOptions<T>(args: JournalArgs, value: z.ZodMiniType<T>): ValueOptions<T> {
  const schema = z.object({ values: z.record(z.string(), z.object({ to: value, expect: z.optional(z.string()) })), undo: z.optional(z.boolean()) });
  return journalOptions(args, schema);
}

/** A value verb's declaration: what differs between the verbs of this module. */
export interface ValueVerb<E extends Entity, T> {
  /** The entity's view (its port, noun and label). */
  view: EntityView<unknown>;
  /** The action's name, as `sitectl history` lists it (`slug`, `locations`, `add-plans`...). */
  name: string;
  /** The outcome of an item that changed. */
  done: Outcome;
  /** The progress title (`Setting the slug`). */
  title: string;
  /** The value's shape, as the journal keeps it (a resumed or undone run reads its values through it). */
  value: z.ZodMiniType<T>;
  /** True when the entity holds `to` already (nothing is sent). */
  holds(entity: E, to: T): boolean;
  /** The value that puts the entity back as it is now, once it holds `to`: the journal's before-image. */
  inverse(entity: E, to: T): T;
  /** Why the entity cannot be given a value at all (undefined when it can). */
  blocked?(entity: E): string | undefined;
  /** Sends `to` for the entity as it is now; resolves with the revision it has after. */
  send(api: ApiClient, entity: E, to: T, signal?: AbortSignal): Promise<{ revision?: string } | void>;
}

/**
 * The port and action of a value verb over `args` (`args.options` is a {@link ValueOptions}): an item that holds
 * its value already is unchanged; one whose revision is not the `expect` of its target was changed since and is
 * skipped; the others are sent one at a time at the revision the plan read (a change since is a conflict).
 */
export function valueRun<E extends Entity, T>(verb: ValueVerb<E, T>, api: ApiClient, args: JournalArgs): { port: EntityPort; action: EntityAction } {
  const o = valueOptions(args, verb.value);
  const target = (id: string) => o.values[id];
  const port = viewPort<E>(api, verb.view);
  const action = transitionAction<E>({
    name: verb.name,
    done: verb.done,
    title: o.undo ? 'Undoing' : verb.title,
    reached: (e) => {
      const t = target(e.id);
      return t !== undefined && verb.holds(e, t.to);
    },
    blocked: (e) => {
      const t = target(e.id);
      if (t === undefined) return 'no value was asked for it';
      if (t.expect !== undefined && (e.revision ?? undefined) !== t.expect) return `changed since (revision ${t.expect} -> ${e.revision})`;
      return verb.blocked?.(e);
    },
    send: readingSender(port, (e, _item, signal) => verb.send(api, e, target(e.id)!.to, signal)),
    chunkSize: 1,
    args,
    beforeImage: (e) => verb.inverse(e, target(e.id)!.to),
  });
  return { port, action: action };
}

/** The journal args of a value verb's single form: `to` for the one item. */
export function valueArgs<T>(id: string, to: T): JournalArgs {
  return { ids: [id], options: { values: { [id]: { to } } } };
}

/**
 * The steps of a value verb's single form, for runOneVerb (commands/shared/one.ts): the item is named once,
 * before anything is read (`find`: what the user typed resolved, an id or a unique prefix), then given `to(id)`
 * as a one-item plan of {@link valueRun}. `id()` is the resolved id, for the verb's messages.
 * @throws Error (a bug) when `id()` is read before the item was named
 */
export function valueSteps<E extends Entity, T>(verb: ValueVerb<E, T>, find: (api: ApiClient) => Promise<string>, to: (id: string) => T) {
  let named: string | undefined;
  const id = (): string => {
    if (named === undefined) throw new Error(`${verb.view.noun.one}: the item is named before it is read`);
    return named;
  };
  return {
    steps: {
      async verify(api: ApiClient): Promise<void> {
        named = await find(api);
      },
      build: (api: ApiClient) => valueRun(verb, api, valueArgs(id(), to(id()))),
      resolve: async (): Promise<string> => id(),
    },
    id,
  };
}

/**
 * The undo of a value verb's change: each item that changed given its before-image back, if it still has the
 * revision the change left.
 * @param back the items that changed: id, before-image, the revision the change left
 */
export function valueUndo<E extends Entity, T>(verb: ValueVerb<E, T>, api: ApiClient, back: ReadonlyArray<{ id: string; before: T; revision?: string }>): { port: EntityPort; action: EntityAction; ids: string[] } {
  const values: Record<string, ValueTarget<T>> = Object.fromEntries(back.map((b) => [b.id, { to: b.before, ...(b.revision !== undefined ? { expect: b.revision } : {}) }]));
  const ids = back.map((b) => b.id);
  return { ...valueRun(verb, api, { ids, options: { values, undo: true } }), ids };
}
