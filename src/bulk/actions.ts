/**
 * Bulk actions for any entity (docs/architecture.md "Bulk runs, the journal, history and undo"): what a target's plan is, how chunks are sent (through a
 * bulk operation with per-item results, a per-item operation, or a by-filter job over the planned ids), and how
 * an item the platform did not confirm is settled by reading it back. Each action is safe to send again:
 *
 * - update: every item carries the revision seen at plan time, so the platform applies it at most once; an
 *   item at planned revision + 1 holding every planned value was applied by an earlier attempt of ours (a 5xx or
 *   dropped connection after the commit, a run killed with the chunk in flight) -> done; otherwise someone else
 *   changed it -> conflict, never overwritten.
 * - delete: an entity that is gone when its delete is (re)sent was deleted -> done.
 * - transition (confirm a booking, approve a member, pause an order): an entity already in the target state at
 *   planned revision + 1 (or any revision, for families without revisions) -> done; one the platform refuses
 *   with 428 (its state does not allow the change) -> skipped with the platform's reason.
 * - create (clone N copies; one entity from a body, or many re-created from before-images): not idempotent on
 *   the platform, so never repeated automatically; the journal's `created` lines make `--resume` create only
 *   the ones still missing.
 *
 * The wiring of a family (which operation, how its request looks) is given by the caller: nothing here names
 * a family.
 */
import type { ApiClient } from '../api/client.js';
import { invoke, type Operation, type RequestOf, type ReplyOf } from '../api/family.js';
import type { BulkResult } from '../api/schemas/common.js';
import { type ChangeSet, diffChange, type FieldDiff, isApplied } from './changes.js';
import { errorText, failedResult, isRetryable, type ChunkRunner, type ItemResult, type SentOutcome, type WorkItem } from './execute.js';
import type { JournalArgs, Outcome } from './journal.js';
import { type Entity, type EntityPort, fetchByIds } from './port.js';

/** What the plan decides for one target. */
export type PlanDecision = { changes: FieldDiff[] } | 'unchanged' | { skip: string; lift?: string };

/**
 * One item of a plan made by the caller: its id (an entity's, or a made-up one for a create such as
 * `create:yoga`), the revision it was planned against, a label, what to send (`after`, journaled), the preview's
 * changes, and whether it is already as planned (journaled `unchanged`, never sent) or left alone (`skip`).
 */
export interface PlannedItem {
  id: string;
  revision?: string;
  name?: string;
  after?: unknown;
  changes: FieldDiff[];
  unchanged?: boolean;
  /** Left alone, and why (an undo's item changed since the change): journaled `skipped` with it, never sent. */
  skip?: string;
  /** The before-image `sitectl undo` restores from (PlannedLine.before), journaled with the item. */
  before?: unknown;
}

/** A bulk action over an entity kind: what the engine plans, sends and journals. */
export interface EntityAction<E extends Entity = Entity> {
  /** The journal's action name (`update`, `delete`, `clone`, `confirm`, ...). */
  name: string;
  /** The outcome of a confirmed item (`updated`, `deleted`, `created`, `confirmed`, ...). */
  done: Outcome;
  /** Progress title (`Updating`, ...). */
  title: string;
  /** What the journal header records, enough to rebuild the action on `--resume`. */
  args: JournalArgs;
  /** Preview columns: the changed paths (update) or none. */
  columns: string[];
  /** Items per request and whole-chunk attempts (1 for calls that must not be repeated). */
  chunkSize: number;
  maxAttempts?: number;
  /**
   * The top-level fields of a target that the plan and the settling read, besides its id and revision
   * (undefined: any field). The port may then read only those (see EntityPort.pages).
   */
  reads?: readonly string[];
  /**
   * `targets`: the selection's entities are the items; `slots`: `count` new entities (create); `planned`: a
   * plan the caller computed (a catalogue applied to a site: creates, updates and deletes), each item carrying
   * what to send in `after`, which the journal keeps so `--resume` can rebuild the action from it alone.
   */
  items: { kind: 'targets'; plan(entity: E): PlanDecision } | { kind: 'slots'; count: number; source: E } | { kind: 'planned'; items: readonly PlannedItem[] };
  /** The runner, given the port the targets came from (settling reads through it). */
  runner(port: EntityPort<E>): ChunkRunner;
  /**
   * What the journal keeps of a target before it changes, for `sitectl undo` (see PlannedLine.before): from the
   * entity as planned and the plan's field changes. Undefined: nothing is kept.
   */
  beforeImage?(entity: E, changes: readonly FieldDiff[]): unknown;
  /**
   * For creates: finds the entities that items sent without a recorded result did create, so `--resume` adopts
   * them instead of creating them again. `inFlight` maps each such item to what its `sending` line intended (for a
   * `planned` create, also each item whose send failed on the way, a lost reply or a 5xx that may follow the
   * commit, mapped to undefined); `known` are the ids the journal already records as created. Returns a result
   * (`created`, with `createdId`) for each item adopted; the others are created again.
   */
  adopt?(inFlight: Map<string, unknown>, known: ReadonlySet<string>, signal?: AbortSignal): Promise<ItemResult[]>;
}

/** `planned + 1` for the platform's int64-as-string revisions; undefined when either is not an integer. */
export function nextRevision(revision: string | undefined | null): string | undefined {
  if (revision === undefined || revision === null || !/^\d+$/.test(revision)) return undefined;
  return (BigInt(revision) + 1n).toString();
}

/** An ApiError as a refused item (its status and code kept for settling). */
export function refused(id: string, err: unknown): SentOutcome {
  const e = err as { code?: unknown; status?: unknown };
  const code = typeof e.code === 'string' && !/^\d+$/.test(e.code) ? e.code : undefined;
  const text = errorText(err);
  return {
    id,
    status: 'refused',
    // The platform's code leads, as in a bulk reply's per-item error: what a script matches on.
    error: code && !text.includes(code) ? `${code}: ${text}` : text,
    code: typeof e.code === 'string' ? e.code : undefined,
    httpStatus: typeof e.status === 'number' ? e.status : undefined,
  };
}

/**
 * A whole bulk request refused as invalid (400 with field violations, docs/wire.md §4) as per-item refusals: a
 * violation of `<list>[i]...` belongs to item i; items without one were refused with the request.
 * @returns undefined when `err` is not such a refusal
 */
export function splitViolations(err: unknown, chunk: WorkItem[]): SentOutcome[] | undefined {
  const violations = (err as { fieldViolations?: { field: string; description: string }[] }).fieldViolations;
  if ((err as { status?: unknown }).status !== 400 || !Array.isArray(violations)) return undefined;
  const byIndex = new Map<number, string[]>();
  for (const v of violations) {
    const m = /^[\w.]*\[(\d+)\]\.?(.*)$/.exec(v.field);
    if (!m) continue;
    const list = byIndex.get(Number(m[1])) ?? [];
    list.push(`"${m[2] || v.field}" ${v.description}`);
    byIndex.set(Number(m[1]), list);
  }
  return chunk.map((item, i): SentOutcome => {
    const own = byIndex.get(i);
    return {
      id: item.id,
      status: 'refused',
      code: 'INVALID_ARGUMENT',
      httpStatus: 400,
      error: own ? `INVALID_ARGUMENT: ${own.join(', ')}` : `the request was refused because of other items: ${errorText(err).slice(0, 200)}`,
    };
  });
}

/**
 * One chunk through a bulk operation whose reply is the platform's `{results:[{itemMetadata}]}` (docs/wire.md §7).
 * A request refused as a whole for invalid items is reported per item (each with its own violations).
 */
export function bulkSender<Op extends Operation>(
  api: ApiClient,
  op: Op,
  request: (chunk: WorkItem[]) => RequestOf<Op>,
  doneRevision: (item: WorkItem) => string | undefined = () => undefined,
): ChunkRunner['send'] {
  return async (chunk, info) => {
    let reply: BulkResult<unknown>;
    try {
      reply = (await invoke(api, op, request(chunk), { signal: info.signal })) as unknown as BulkResult<unknown>;
    } catch (err) {
      const split = splitViolations(err, chunk);
      if (split) return split;
      throw err;
    }
    return reply.results.map((r): SentOutcome => {
      const item = chunk[r.itemMetadata.originalIndex];
      const id = item?.id ?? r.itemMetadata.id ?? '';
      if (r.itemMetadata.success) return { id, status: 'done', revision: item ? doneRevision(item) : undefined };
      const e = r.itemMetadata.error;
      return { id, status: 'refused', error: e ? (e.description ? `${e.code}: ${e.description}` : e.code) : 'failed without a reason', code: e?.code };
    });
  };
}

/**
 * Each item of a chunk through a per-item operation (no bulk call exists). A refusal (4xx) is the item's; a
 * retryable failure fails the chunk so the engine retries it.
 */
export function eachSender<Op extends Operation>(
  api: ApiClient,
  op: Op,
  request: (item: WorkItem) => RequestOf<Op>,
  doneOf: (reply: ReplyOf<Op>, item: WorkItem) => { revision?: string; createdId?: string } = () => ({}),
): ChunkRunner['send'] {
  return async (chunk, info) => {
    const out: SentOutcome[] = [];
    for (const item of chunk) {
      try {
        const reply = await invoke(api, op, request(item), { signal: info.signal });
        out.push({ id: item.id, status: 'done', ...doneOf(reply, item) });
      } catch (err) {
        if (isRetryable(err) || info.signal?.aborted) throw err;
        out.push(refused(item.id, err));
      }
    }
    return out;
  };
}

/**
 * Each item of a chunk through a call that needs the entity as it is now, not only its id and revision (a
 * multi-service booking's action takes every booking of the group at its revision): the item is read back
 * through the port first, and sent only if it still has the revision it was planned at; one changed since is
 * refused (409) and one gone since is refused (404), so the settling step calls them conflicts. A refusal of the
 * call (4xx) is the item's; a retryable failure fails the chunk so the engine retries it.
 */
export function readingSender<E extends Entity>(
  port: EntityPort<E>,
  send: (entity: E, item: WorkItem, signal?: AbortSignal) => Promise<{ revision?: string } | void>,
): ChunkRunner['send'] {
  return async (chunk, info) => {
    const now = await fetchByIds(port, chunk.map((i) => i.id), info.signal);
    const out: SentOutcome[] = [];
    for (const item of chunk) {
      const entity = now.get(item.id);
      if (!entity) {
        out.push({ id: item.id, status: 'refused', error: `the ${port.noun.one} no longer exists`, httpStatus: 404 });
        continue;
      }
      if (item.revision !== undefined && (entity.revision ?? undefined) !== item.revision) {
        out.push({ id: item.id, status: 'refused', error: `the ${port.noun.one} changed since the plan`, httpStatus: 409 });
        continue;
      }
      try {
        const done = await send(entity, item, info.signal);
        out.push({ id: item.id, status: 'done', ...(done?.revision ? { revision: done.revision } : {}) });
      } catch (err) {
        if (isRetryable(err) || info.signal?.aborted) throw err;
        out.push(refused(item.id, err));
      }
    }
    return out;
  };
}

/**
 * A chunk through a by-filter job operation, restricted to the chunk's planned ids (`{"id":{"$in":[...]}}`), so
 * nothing outside the plan is touched; every item is then settled by reading it back (the verify step).
 */
export function filterJobSender<Op extends Operation>(api: ApiClient, op: Op, request: (filter: Record<string, unknown>) => RequestOf<Op>): ChunkRunner['send'] {
  return async (chunk, info) => {
    await invoke(api, op, request({ id: { $in: chunk.map((i) => i.id) } }), { signal: info.signal });
    return chunk.map((i): SentOutcome => ({ id: i.id, status: 'settle' }));
  };
}

/** How one unconfirmed item is decided from its current state (undefined: it no longer exists). */
export type Settle<E> = (current: E | undefined, item: WorkItem, sent: SentOutcome) => ItemResult;

/**
 * Reads the unconfirmed items back in one query and decides each with `decide`, which reads `fields` of them
 * (undefined: any field; see EntityPort.pages).
 */
export function settleBy<E extends Entity>(port: EntityPort<E>, decide: Settle<E>, fields?: readonly string[]): NonNullable<ChunkRunner['settle']> {
  return async (open, signal) => {
    const now = await fetchByIds(port, open.map((o) => o.item.id), signal, fields);
    return open.map((o) => decide(now.get(o.item.id), o.item, o.sent));
  };
}


/**
 * Reads items back in one query (see ChunkRunner.readBack) and keeps the results `decide` gives; undefined from it
 * means the item is still as planned (the call did not touch it). `fields` as for settleBy.
 */
export function readBackBy<E extends Entity>(
  port: EntityPort<E>,
  decide: (current: E | undefined, item: WorkItem) => ItemResult | undefined,
  fields?: readonly string[],
): NonNullable<ChunkRunner['readBack']> {
  return async (items, signal) => {
    const now = await fetchByIds(port, items.map((i) => i.id), signal, fields);
    return items.flatMap((item) => decide(now.get(item.id), item) ?? []);
  };
}

/** The old values of an update's changed paths, `{path: value}` (a journal's before-image). */
export function changedValues(_entity: unknown, changes: readonly FieldDiff[]): Record<string, unknown> {
  return Object.fromEntries(changes.map((c) => [c.path, c.before ?? null]));
}

/**
 * How an unconfirmed update is decided from the entity as it is now: at planned revision + 1 holding every value of
 * its change, it was ours (an earlier attempt was applied) -> updated; at another revision, someone else changed it
 * -> conflict, never overwritten; else it failed as sent.
 */
export function settleUpdate<E extends Entity>(port: EntityPort<E>, changeOf: (id: string) => ChangeSet): Settle<E> {
  const decide = updateShown(port, changeOf);
  return (current, item, sent) => decide(current, item, sent) ?? failedResult(item.id, sent);
}

/**
 * What an update's target shows now: at planned revision + 1 holding every value of its change -> updated (ours);
 * deleted, or at another revision -> conflict; still at the planned revision -> undefined (not touched).
 */
function updateShown<E extends Entity>(port: EntityPort<E>, changeOf: (id: string) => ChangeSet) {
  return (current: E | undefined, item: WorkItem, sent?: SentOutcome): ItemResult | undefined => {
    if (!current) return { id: item.id, outcome: 'conflict', error: `the ${port.noun.one} was deleted since the plan` };
    const expected = nextRevision(item.revision);
    if (expected !== undefined && current.revision === expected && isApplied(current, changeOf(item.id))) {
      return { id: item.id, outcome: 'updated', revision: current.revision };
    }
    if (current.revision !== item.revision) {
      return {
        id: item.id,
        outcome: 'conflict',
        revision: current.revision ?? undefined,
        error: `changed by someone else since the plan (revision ${item.revision} -> ${current.revision}); not overwritten${sent?.status === 'refused' ? ` (${sent.error})` : ''}`,
      };
    }
    return undefined;
  };
}

/** A revision-checked change of `change`'s paths on each target (`update --set`). */
export function updateAction<E extends Entity>(opts: {
  change: ChangeSet;
  send: ChunkRunner['send'];
  chunkSize: number;
  args: JournalArgs;
  /**
   * The send's reply says nothing per item (a by-filter job over the chunk at its planned revisions): every item
   * is read back after the call, and after a failed call too, and only those still as planned go again
   * (ChunkRunner.readBack).
   */
  readBack?: boolean;
}): EntityAction<E> {
  // The plan and the settling read the changed paths only: their top-level fields.
  const reads = [...new Set(opts.change.mask.map((path) => path.split('.')[0]!))];
  return {
    name: 'update',
    done: 'updated',
    title: 'Updating',
    args: opts.args,
    beforeImage: changedValues,
    columns: opts.change.mask,
    chunkSize: opts.chunkSize,
    reads,
    items: {
      kind: 'targets',
      plan: (e) => {
        const changes = diffChange(e, opts.change);
        return changes.length === 0 ? 'unchanged' : { changes };
      },
    },
    runner: (port) => ({
      done: 'updated',
      send: opts.send,
      settle: settleBy<E>(port, settleUpdate(port, () => opts.change), reads),
      ...(opts.readBack ? { readBack: readBackBy<E>(port, updateShown(port, () => opts.change), reads) } : {}),
    }),
  };
}

/** Deletes every target; one that is already gone counts as deleted. */
export function deleteAction<E extends Entity>(opts: { send: ChunkRunner['send']; chunkSize: number; args: JournalArgs }): EntityAction<E> {
  return {
    name: 'delete',
    done: 'deleted',
    title: 'Deleting',
    args: opts.args,
    columns: [],
    chunkSize: opts.chunkSize,
    // The whole entity is read and journaled: `sitectl undo` re-creates it from that.
    beforeImage: (e) => e,
    items: { kind: 'targets', plan: () => ({ changes: [] }) },
    runner: (port) => ({
      done: 'deleted',
      send: opts.send,
      settle: settleBy<E>(
        port,
        (current, item, sent) => (current ? failedResult(item.id, sent) : { id: item.id, outcome: 'deleted' }),
        [],
      ),
    }),
  };
}

/**
 * A state change of each target (confirm, decline, cancel, approve, block, pause, resume, ...): a target
 * already in the state is `unchanged`; one the state machine does not allow is skipped with the reason.
 */
export function transitionAction<E extends Entity>(opts: {
  name: string;
  done: Outcome;
  title: string;
  /** True when the entity is in the target state already. */
  reached(entity: E): boolean;
  /** Why the entity cannot make the change (undefined when it can). */
  blocked?(entity: E): string | undefined;
  /** Why the platform would refuse it (a policy window), and the flag that lifts that. */
  refused?(entity: E): { reason: string; lift?: string } | undefined;
  send: ChunkRunner['send'];
  chunkSize: number;
  maxAttempts?: number;
  args: JournalArgs;
  /** What the journal keeps of a target for `sitectl undo` (default: its `status`, when it has one). */
  beforeImage?(entity: E): unknown;
}): EntityAction<E> {
  return {
    name: opts.name,
    done: opts.done,
    title: opts.title,
    args: opts.args,
    beforeImage: opts.beforeImage ? (e) => opts.beforeImage!(e) : (e) => ('status' in e ? { status: (e as { status?: unknown }).status } : undefined),
    columns: [],
    chunkSize: opts.chunkSize,
    maxAttempts: opts.maxAttempts,
    items: {
      kind: 'targets',
      plan: (e) => {
        if (opts.reached(e)) return 'unchanged';
        const why = opts.blocked?.(e);
        if (why) return { skip: why };
        const refusal = opts.refused?.(e);
        return refusal ? { skip: refusal.reason, ...(refusal.lift ? { lift: refusal.lift } : {}) } : { changes: [] };
      },
    },
    runner: (port) => ({
      done: opts.done,
      send: opts.send,
      settle: settleBy<E>(port, (current, item, sent) => {
        if (current && opts.reached(current)) return { id: item.id, outcome: opts.done, revision: current.revision ?? undefined };
        if (!current) return { id: item.id, outcome: 'conflict', error: `the ${port.noun.one} was deleted since the plan` };
        if (item.revision !== undefined && current.revision !== item.revision) {
          return {
            id: item.id,
            outcome: 'conflict',
            revision: current.revision ?? undefined,
            error: `changed by someone else since the plan (revision ${item.revision} -> ${current.revision})${sent.status === 'refused' ? `: ${sent.error}` : ''}`,
          };
        }
        // 428 (failed precondition): the platform's state machine says no for this one (an order not started yet,
        // a booking no longer pending). That is a skip with its reason, not a failure to retry.
        if (sent.status === 'refused' && sent.httpStatus === 428) return { id: item.id, outcome: 'skipped', revision: current.revision ?? undefined, error: sent.error };
        return failedResult(item.id, sent);
      }),
    }),
  };
}
