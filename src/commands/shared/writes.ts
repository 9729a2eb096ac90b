/**
 * The single creates and updates of every noun, and how `sitectl undo` takes each write back, as ONE table entry
 * per noun (docs/architecture.md "Bulk runs, the journal, history and undo"): a noun declares how its entities are
 * created from a body, patched, removed and (where it can be) re-created from a before-image, and this module
 * builds the engine's actions from that. A single `create` is a one-item planned create, a single `update` a
 * one-item plan of updateAction, both journaled (so in `sitectl history`); `sitectl undo` then deletes what a
 * create made, patches back what an update changed and re-creates what a delete removed, each only if the item
 * is still at the version the change left.
 *
 * A family without revisions (members, plans) names what its writes stamp instead (`version`: `updatedDate`), so
 * "changed since" is told the same way.
 */
import type { ApiClient } from '../../api/client.js';
import { bodyRequest, invoke, type Operation, type ReplyOf } from '../../api/family.js';
import { setPath } from '../../api/paths.js';
import { eachSender, updateAction, type EntityAction } from '../../bulk/actions.js';
import { bodiesCreateAction } from '../../bulk/create-actions.js';
import type { ChangeSet } from '../../bulk/changes.js';
import type { ChunkRunner } from '../../bulk/execute.js';
import type { JournalArgs, Outcome } from '../../bulk/journal.js';
import type { Entity, EntityPort } from '../../bulk/port.js';
import type { VersionOf } from '../../bulk/undo-actions.js';
import type { EntityView, OneNoun } from './entity-view.js';
import { viewPort } from './view-port.js';

/** How a noun's entities are written one at a time, and taken back by `sitectl undo`. */
export interface WriteSpec {
  /** The noun's view; a noun without a list to query (a multi-service booking) gives its OneNoun and a `port`. */
  view: EntityView<unknown> | OneNoun;
  /** The command words that list the noun (`staff list`), for hints. */
  list: string;
  /** The port writes plan over (default: the view's, commands/shared/view-port.ts; required for a OneNoun). */
  port?(api: ApiClient): EntityPort;
  /** What tells whether an entity changed since a change (default: its revision). */
  version?: VersionOf;
  /**
   * Sends updates: each item's own change (`changeOf`) at the revision it was planned at; `seen` receives each
   * updated entity as the platform answered (what the single form prints). Undefined: the noun's fields are not
   * updated through this table (bookings, groups, orders change by their own verbs).
   */
  patch?(api: ApiClient, changeOf: (id: string) => ChangeSet, seen?: Map<string, unknown>): ChunkRunner['send'];
  /** Items per update request (default 1). */
  patchChunk?: number;
  /** Creates one entity from its body. @returns the entity as the platform answered */
  create(api: ApiClient, body: Record<string, unknown>, signal?: AbortSignal): Promise<Entity>;
  /**
   * Creates many bodies per request through the noun's bulk create call (`bookings create --file`), up to
   * `chunkSize` each: one answer per body, in order, the entity as the platform answered or its refusal
   * (`{error, code}`). `intent` is what the create of a body is journaled as intending before it is sent.
   * `find` gives the entities that the create of `body` could have made since `since` (an ISO time; the run's
   * start, less a margin for the clocks), oldest first: with it, a run can be resumed (`--resume JOURNAL`), and
   * each create whose reply was lost is adopted rather than made twice (bulk/create-actions.ts bodiesCreateAction).
   * Undefined: the noun has no create of many.
   */
  createMany?: {
    chunkSize: number;
    create(api: ApiClient, bodies: Record<string, unknown>[], signal?: AbortSignal): Promise<Array<Entity | { error: string; code?: string } | undefined>>;
    intent?(body: Record<string, unknown>): unknown;
    find?(api: ApiClient, body: Record<string, unknown>, since: string, signal?: AbortSignal): Promise<Entity[]>;
  };
  /**
   * How what a create made is taken back: a delete (or, for plans, an archive: `done`; for bookings and
   * multi-service bookings, a cancel: `verb` names the undo's action in the history, `taken` tells an entity that
   * is taken back already, where the default is one that no longer exists). Undefined: a create of this noun
   * cannot be undone (an order bought), and `sitectl undo` lists it as such.
   */
  remove?: { send(api: ApiClient): ChunkRunner['send']; chunkSize: number; done?: Outcome; verb?: string; taken?(entity: Entity): boolean };
  /**
   * How a deleted entity is made again from its before-image (the create body), and what that does not restore
   * (said before the undo runs). Undefined: a delete of this noun cannot be undone.
   */
  recreate?: { body(before: Record<string, unknown>): Record<string, unknown>; note: string };
}

/** The port of a noun's writes. */
export function writePort(spec: WriteSpec, api: ApiClient): EntityPort {
  if (spec.port) return spec.port(api);
  if (!('query' in spec.view)) throw new TypeError(`the writes of ${spec.view.noun.many} name no port`);
  return viewPort(api, spec.view);
}

/** The version the change left on `entity` (its revision, or the noun's stand-in). */
export function versionOf(spec: WriteSpec, entity: Entity): string | undefined {
  return spec.version ? spec.version(entity) : (entity.revision ?? undefined);
}

/**
 * The fields a verb's flags give (`{name: 'Ana', contact: {firstName: 'Ada'}}`) as a ChangeSet of paths down to
 * `depth` levels (a PATCH that merges the top level: depth 1; members, which merge `contact` and `profile`
 * field by field: depth 2). Lists and deeper objects are values set whole; `null` clears.
 */
export function changeOfFields(fields: Record<string, unknown>, depth = 1): ChangeSet {
  const sets: { path: string; value: unknown }[] = [];
  const walk = (obj: Record<string, unknown>, prefix: string, level: number) => {
    for (const [key, value] of Object.entries(obj)) {
      if (value === undefined) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      if (level < depth && value !== null && typeof value === 'object' && !Array.isArray(value)) walk(value as Record<string, unknown>, path, level + 1);
      else sets.push({ path, value });
    }
  };
  walk(fields, '', 1);
  return { sets, mask: sets.map((s) => s.path) };
}

/**
 * The body of a PATCH without a field mask: `{id, revision?, ...the change's paths}`, a cleared path sent as
 * `null` (the families without a mask clear a field given null).
 */
export function patchBody(id: string, revision: string | undefined, change: ChangeSet): Record<string, unknown> {
  const body: Record<string, unknown> = { id, ...(revision !== undefined ? { revision } : {}) };
  for (const s of change.sets) setPath(body, s.path, s.value !== null && typeof s.value === 'object' ? structuredClone(s.value) : s.value);
  return body;
}

/**
 * An update sender over a per-item PATCH operation: each item's body from {@link patchBody}, the reply's entity
 * kept in `seen`, its version journaled as the revision the change left (what `sitectl undo` checks).
 * @param request the operation's request around the body; `entityOf` the entity of its reply
 */
export function patchSender<Op extends Operation>(
  api: ApiClient,
  op: Op,
  request: (body: Record<string, unknown>) => object,
  entityOf: (reply: ReplyOf<Op>) => Entity,
  opts: { changeOf(id: string): ChangeSet; version?: VersionOf; seen?: Map<string, unknown> },
): ChunkRunner['send'] {
  return eachSender(
    api,
    op,
    (item) => bodyRequest(op, request(patchBody(item.id, item.revision, opts.changeOf(item.id)))),
    (reply) => {
      const e = entityOf(reply);
      opts.seen?.set(e.id, e);
      const revision = opts.version ? opts.version(e) : (e.revision ?? undefined);
      return revision !== undefined ? { revision } : {};
    },
  );
}

/** A create's call of one body, for a WriteSpec: the operation's request around the body, its reply's entity. */
export function createCall<Op extends Operation>(op: Op, request: (body: Record<string, unknown>) => object, entityOf: (reply: ReplyOf<Op>) => Entity): WriteSpec['create'] {
  return async (api, body, signal) => entityOf(await invoke(api, op, bodyRequest(op, request(body)), { signal }));
}

/**
 * The single update of one entity (`NOUN update ID --flags`): the port and a revision-checked updateAction of
 * `change`, and the entities as the platform answered (`seen`, by id).
 */
export function writeUpdate(spec: WriteSpec, api: ApiClient, change: ChangeSet, args: JournalArgs): { port: EntityPort; action: EntityAction; seen: Map<string, unknown> } {
  const seen = new Map<string, unknown>();
  if (!spec.patch) throw new TypeError(`${spec.view.noun.many} are not updated through the writes table`);
  const action = updateAction({ change, args, chunkSize: spec.patchChunk ?? 1, send: spec.patch(api, () => change, seen) });
  return { port: writePort(spec, api), action: action, seen };
}

/** How far behind ours the platform's clock may be when a resumed run looks for what its lost creates made. */
const CLOCK_MARGIN_MS = 5 * 60_000;

/** The planned item id of a single create (its journal line; the new entity's id is its result's `createdId`). */
export const NEW_ITEM = 'new';

/**
 * The single create of one entity from `body`: the port and a one-item planned create (bulk/create-actions.ts
 * bodiesCreateAction), the entity the platform answered once it is created, and the platform's refusal, kept
 * as thrown (so the command fails as the call would have: a 400 as bad input, with its field violations).
 */
export function writeCreate(
  spec: WriteSpec,
  api: ApiClient,
  body: Record<string, unknown>,
  label?: string,
): { port: EntityPort; action: EntityAction; created(): Entity | undefined; refusal(): unknown } {
  let created: Entity | undefined;
  let refusal: unknown;
  const action = bodiesCreateAction({
    name: 'create',
    title: 'Creating',
    bodies: new Map([[NEW_ITEM, body]]),
    label: label !== undefined ? () => label : undefined,
    args: {},
    async create(b, signal) {
      try {
        created = await spec.create(api, b, signal);
      } catch (err) {
        refusal = err;
        throw err;
      }
      return { id: created.id, revision: versionOf(spec, created) };
    },
  });
  return { port: writePort(spec, api), action, created: () => created, refusal: () => refusal };
}

/**
 * The create of many entities from `bodies` (keyed by item id, in the order given) through the noun's bulk create
 * call (WriteSpec.createMany): the port and a planned create of every body (bulk/create-actions.ts bodiesCreateAction,
 * journaled as a `create` of the noun, so `sitectl history` lists it and `sitectl undo` takes back what it made),
 * and each entity the platform answered, by its new id. `startedAt` (ISO) is when the run began, for a resumed
 * run's adoption of creates whose reply was lost (WriteSpec.createMany.find): entities created from five minutes
 * before it are considered, so that a platform clock a little behind ours does not hide one.
 * @throws TypeError when the noun has no create of many
 */
export function writeCreateMany(
  spec: WriteSpec,
  api: ApiClient,
  bodies: ReadonlyMap<string, Record<string, unknown>>,
  label?: (body: Record<string, unknown>) => string | undefined,
  startedAt?: string,
): { port: EntityPort; action: EntityAction; created: ReadonlyMap<string, Entity> } {
  const many = spec.createMany;
  if (!many) throw new TypeError(`${spec.view.noun.many} have no create of many`);
  const created = new Map<string, Entity>();
  const action = bodiesCreateAction({
    name: 'create',
    title: 'Creating',
    bodies,
    label,
    args: {},
    intent: many.intent,
    ...(many.find && startedAt !== undefined
      ? {
          find: async (body: Record<string, unknown>, signal?: AbortSignal) => {
            const since = new Date(Date.parse(startedAt) - CLOCK_MARGIN_MS).toISOString();
            return (await many.find!(api, body, since, signal)).map((e) => ({ id: e.id, revision: versionOf(spec, e) }));
          },
        }
      : {}),
    createMany: {
      chunkSize: many.chunkSize,
      async create(chunk, signal) {
        const answers = await many.create(api, chunk, signal);
        return answers.map((a) => {
          if (a === undefined || 'error' in a) return a;
          created.set(a.id, a);
          return { id: a.id, revision: versionOf(spec, a) };
        });
      },
    },
  });
  return { port: writePort(spec, api), action, created };
}

/** Re-creates each deleted entity of `bodies` (keyed by its old id) from its before-image (`sitectl undo` of a delete). */
export function writeRecreate(spec: WriteSpec, api: ApiClient, bodies: ReadonlyMap<string, Record<string, unknown>>): EntityAction {
  return bodiesCreateAction({
    name: 'create',
    title: 'Re-creating',
    bodies,
    args: { ids: [...bodies.keys()] },
    label: (b) => spec.view.label(b) ?? undefined,
    async create(b, signal) {
      const e = await spec.create(api, b, signal);
      return { id: e.id, revision: versionOf(spec, e) };
    },
  });
}

/**
 * The version of a family without revisions: the `updatedDate` every write stamps (a Date or its ISO text), as
 * ISO text.
 */
export const updatedDateVersion: VersionOf = (e) => {
  const d = (e as { updatedDate?: unknown }).updatedDate;
  return d instanceof Date ? d.toISOString() : typeof d === 'string' ? d : undefined;
};
