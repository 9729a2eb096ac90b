/**
 * The create actions of the bulk engine (docs/architecture.md "Bulk runs, the journal, history and undo"): copies
 * of one entity (`services clone`), and one entity per planned body, one call each or many per bulk create
 * request (single creates, `bookings create --file`, the undo of a delete). Creates are never repeated
 * automatically; what a create whose reply was lost made is found and adopted on `--resume` (EntityAction.adopt).
 */
import { type EntityAction, refused, splitViolations } from './actions.js';
import { isRetryable, type ItemResult, type SentOutcome, type WorkItem } from './execute.js';
import type { JournalArgs } from './journal.js';
import type { Entity } from './port.js';

/**
 * Creates `count` new entities from `source` (clone), one call per copy, never repeated automatically. Each copy's
 * intended name is journaled before it is sent; on `--resume`, a copy with that name created since the run began
 * and not yet recorded is adopted (one per item whose reply was lost), never created a second time, with the note
 * `noteOf` reads back from it (a copy done partly stays partly done). Nothing is written into the user's data to
 * mark the copies.
 */
export function createAction<E extends Entity>(opts: {
  name: string;
  source: E;
  count: number;
  /**
   * Creates one copy; resolves with the new entity's id and revision, and `note` when the platform made it
   * without part of the source (ItemResult.note: the item is done partly).
   */
  create(signal?: AbortSignal): Promise<{ id: string; revision?: string | null; note?: string }>;
  /** The name the platform gives a copy (journaled before each create). */
  intendedName: string;
  /** Every entity named `name`, oldest first. */
  findNamed(name: string, signal?: AbortSignal): Promise<{ id: string; revision?: string | null }[]>;
  /** `args.existing` holds the ids that had the copies' name before the run: those are never adopted. */
  args: JournalArgs;
  /**
   * The note of a copy adopted on `--resume` (its reply, and the note in it, was lost), read back from the copy:
   * what it lacks of the source, or undefined when nothing is known to be missing.
   */
  noteOf?(createdId: string, signal?: AbortSignal): Promise<string | undefined>;
}): EntityAction<E> {
  const existing = new Set(opts.args.existing ?? []);
  return {
    async adopt(inFlight, known, signal) {
      const out: ItemResult[] = [];
      const byName = new Map<string, string[]>();
      for (const [id, intended] of inFlight) {
        const name = (intended as { name?: unknown } | undefined)?.name;
        if (typeof name === 'string') byName.set(name, [...(byName.get(name) ?? []), id]);
      }
      for (const [name, items] of byName) {
        const found = (await opts.findNamed(name, signal)).filter((e) => !known.has(e.id) && !existing.has(e.id));
        for (const [i, id] of items.entries()) {
          const e = found[i];
          if (!e) continue;
          const note = opts.noteOf ? await opts.noteOf(e.id, signal) : undefined;
          out.push({ id, outcome: 'created', createdId: e.id, revision: e.revision ?? undefined, ...(note ? { note } : {}) });
        }
      }
      return out;
    },
    name: opts.name,
    done: 'created',
    title: 'Creating',
    args: opts.args,
    columns: [],
    chunkSize: 1,
    maxAttempts: 1,
    items: { kind: 'slots', count: opts.count, source: opts.source },
    runner: () => ({
      done: 'created',
      intent: () => ({ name: opts.intendedName }),
      async send(chunk, info) {
        const out: SentOutcome[] = [];
        for (const slot of chunk) {
          try {
            const created = await opts.create(info.signal);
            out.push({ id: slot.id, status: 'done', createdId: created.id, revision: created.revision ?? undefined, ...(created.note ? { note: created.note } : {}) });
          } catch (err) {
            if (info.signal?.aborted) throw err;
            out.push(refused(slot.id, err));
          }
        }
        return out;
      },
    }),
  };
}

/** A bulk create call's answer for one body: the new entity's id and version, or the platform's refusal of it. */
export type CreateAnswer = { id: string; revision?: string | null } | { error: string; code?: string };

/**
 * Creates one entity per planned body (`bodies`, keyed by item id: a single `create` is a one-item plan of it, and
 * `sitectl undo` of a delete re-creates each deleted entity from its before-image), one call each, or with
 * `createMany` up to its `chunkSize` bodies per request through a bulk create call (`bookings create --file`);
 * never repeated automatically (maxAttempts 1). Each body is journaled as the item's `after`, and with `intent`
 * what each create intends as a `sending` line on disk before its request goes (as createAction's copies), so an
 * item sent without a recorded result is known as possibly created, not taken for one never sent. Each result
 * carries the new id (`createdId`) and the version the create left (`revision`), which is what an undo of the
 * create checks. A refusal (4xx, or a bulk reply's per-item error) is the item's (failed, with the platform's
 * code); a bulk request refused as a whole for invalid items is split per item (splitViolations); a transient
 * failure fails the item (or the chunk) as sent. With `find`, `--resume` adopts what such an item did create (see
 * EntityAction.adopt): each item sent without a result, or failed on the way (a lost reply, a 5xx after the
 * commit), takes the oldest entity `find` gives for its body that no other item of the run holds; the items
 * nothing is found for are created again.
 */
export function bodiesCreateAction(opts: {
  /** The journal's action name (`create`). */
  name: string;
  title: string;
  bodies: ReadonlyMap<string, Record<string, unknown>>;
  /** A label of each item for the preview (default: the body's `name`). */
  label?(body: Record<string, unknown>): string | undefined;
  /** Creates one entity from its body; resolves with its id and the version it left (required without `createMany`). */
  create?(body: Record<string, unknown>, signal?: AbortSignal): Promise<{ id: string; revision?: string | null }>;
  /**
   * Creates up to `chunkSize` bodies in one request (a bulk create call): one answer per body, in the bodies'
   * order, the new entity's id and version or the platform's refusal of that body (undefined: the reply said
   * nothing of it). Used instead of `create`.
   */
  createMany?: { chunkSize: number; create(bodies: Record<string, unknown>[], signal?: AbortSignal): Promise<Array<CreateAnswer | undefined>> };
  /** What the create of a body intends, journaled before it is sent (ChunkRunner.intent). */
  intent?(body: Record<string, unknown>): unknown;
  /**
   * The entities that the create of `body` could have made since the run began, oldest first, each with the
   * version it holds (for `--resume`: see above). Undefined: nothing is adopted.
   */
  find?(body: Record<string, unknown>, signal?: AbortSignal): Promise<Array<{ id: string; revision?: string | null }>>;
  args: JournalArgs;
}): EntityAction {
  const bodyOf = (id: string) => opts.bodies.get(id) ?? {};
  const find = opts.find;
  const many = opts.createMany;
  const one = opts.create;
  if (!many && !one) throw new TypeError('bodiesCreateAction needs create or createMany');
  const labelOf = opts.label ?? ((b: Record<string, unknown>) => (typeof b.name === 'string' ? b.name : undefined));
  return {
    ...(find
      ? {
          async adopt(inFlight: Map<string, unknown>, known: ReadonlySet<string>, signal?: AbortSignal): Promise<ItemResult[]> {
            const held = new Set(known);
            const out: ItemResult[] = [];
            for (const id of inFlight.keys()) {
              const made = (await find(bodyOf(id), signal)).find((e) => !held.has(e.id));
              if (!made) continue;
              held.add(made.id);
              out.push({ id, outcome: 'created', createdId: made.id, revision: made.revision ?? undefined });
            }
            return out;
          },
        }
      : {}),
    name: opts.name,
    done: 'created',
    title: opts.title,
    args: opts.args,
    columns: [],
    chunkSize: many?.chunkSize ?? 1,
    maxAttempts: 1,
    items: {
      kind: 'planned',
      items: [...opts.bodies].map(([id, body]) => ({ id, name: labelOf(body) ?? id, after: body, changes: [] })),
    },
    runner: () => ({
      done: 'created',
      ...(opts.intent ? { intent: (item: WorkItem) => opts.intent!(bodyOf(item.id)) } : {}),
      async send(chunk, info) {
        if (many) {
          let answers: Array<CreateAnswer | undefined>;
          try {
            answers = await many.create(chunk.map((item) => bodyOf(item.id)), info.signal);
          } catch (err) {
            const split = splitViolations(err, chunk);
            if (split) return split;
            throw err;
          }
          // A body the reply says nothing of is left out: the engine records it failed, not refused, since the
          // platform may have made it (a resume then looks for it first).
          return chunk.flatMap((item, i): SentOutcome[] => {
            const a = answers[i];
            if (!a) return [];
            if ('error' in a) return [{ id: item.id, status: 'refused', error: a.error, code: a.code }];
            return [{ id: item.id, status: 'done', createdId: a.id, revision: a.revision ?? undefined }];
          });
        }
        const out: SentOutcome[] = [];
        for (const item of chunk) {
          try {
            const created = await one!(bodyOf(item.id), info.signal);
            out.push({ id: item.id, status: 'done', createdId: created.id, revision: created.revision ?? undefined });
          } catch (err) {
            if (isRetryable(err) || info.signal?.aborted) throw err;
            out.push(refused(item.id, err));
          }
        }
        return out;
      },
    }),
  };
}
