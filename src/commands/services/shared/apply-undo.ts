/**
 * The undo of a catalogue applied to a site (`sitectl undo` of `services apply` and `services clone --to-site`,
 * docs/architecture.md "Bulk runs, the journal, history and undo"): from one site's journal, the inverse of each
 * step as a plan of the same kind, which applyAction then runs on that site like any apply (journaled, resumable
 * with `services apply --resume`, and undoable in turn):
 *
 * - a service updated: its masked fields set back to the before-image, if it still has the revision the change
 *   left; else it was changed since (or deleted) and is skipped, never overwritten;
 * - a service created: deleted, if it still has the revision it was created with; one gone already is unchanged;
 * - a service deleted (`--prune`): created again from its before-image (a new id), unless a service holds its
 *   slug again, which is skipped.
 *
 * - a service's add-on groups set (its groups step, shared/add-on-group-plan.ts): set back to the groups it had,
 *   if the service still has the revision the step left; a service the undo deletes is left to that delete.
 *
 * Each inverse step journals its own before-image (the values it overwrites, the service it deletes), so the
 * undo can be undone.
 */
import type { ApiClient } from '../../../api/client.js';
import { listPages } from '../../../api/paging.js';
import { getPath } from '../../../api/paths.js';
import type { Service } from '../../../api/schemas/service.js';
import { MAX_BULK_SERVICES, serviceOps } from '../../../api/services.js';
import type { PlannedItem } from '../../../bulk/actions.js';
import { type ChangeSet, diffChange } from '../../../bulk/changes.js';
import type { JournalState, PlannedLine, ResultLine } from '../../../bulk/journal.js';
import { fetchByIds } from '../../../bulk/port.js';
import { type GroupsStep, holdsGroups, type WireGroup, wireOf } from './add-on-group-plan.js';
import type { ApplyStep } from './apply.js';
import { recreateBody, servicesPort } from './bulk.js';

/** What of one site's apply run can be undone, read from its journal alone. */
export interface ApplyInverse {
  /** Services updated: the id, the revision the run left, and the change that sets the before-image back. */
  updated: { id: string; left?: string; slug: string; change: ChangeSet }[];
  /** Services created: the new id and the revision it was created with. */
  created: { id: string; left?: string; slug: string }[];
  /** Services deleted (`--prune`): the slug and the whole service as it was. */
  deleted: { slug: string; before: Record<string, unknown> }[];
  /** Services whose add-on groups were set: the id, the revision the step left, and the groups before it. */
  groups: { id: string; left?: string; slug: string; before: WireGroup[] }[];
  /** Items changed by the run whose journal keeps no before-image (written by an older sitectl): not undone. */
  lost: number;
}

/** One site's inverse as a plan for applyAction. */
export interface ApplyUndoPlan {
  items: PlannedItem[];
  /** The groups steps, run after {@link items} (a service's own update is at the revision planned). */
  groups: PlannedItem[];
  /** Server time of the plan (services the undo creates are recognised after it: see applyAction). */
  plannedAt: string;
}

type Json = Record<string, unknown>;

/** The values of `mask`'s fields in `entity`, null where absent: what an update of those fields overwrites. */
function valuesOf(entity: unknown, mask: readonly string[]): Json {
  return Object.fromEntries(mask.map((path) => [path, getPath(entity, path) ?? null]));
}

/** The services of `ids` as they are now, by id (read 100 at a time). */
async function servicesNow(api: ApiClient, ids: readonly string[], signal?: AbortSignal): Promise<Map<string, Service>> {
  const out = new Map<string, Service>();
  const port = servicesPort(api);
  for (let at = 0; at < ids.length; at += MAX_BULK_SERVICES) {
    for (const [id, s] of await fetchByIds(port, ids.slice(at, at + MAX_BULK_SERVICES), signal)) out.set(id, s as Service);
  }
  return out;
}

/** The services holding any of `slugs` as their main slug, by slug. */
async function servicesBySlug(api: ApiClient, slugs: readonly string[], signal?: AbortSignal): Promise<Map<string, Service>> {
  const out = new Map<string, Service>();
  for (let at = 0; at < slugs.length; at += MAX_BULK_SERVICES) {
    const filter = { 'mainSlug.name': { $in: slugs.slice(at, at + MAX_BULK_SERVICES) } };
    for await (const page of listPages(api, serviceOps.queryServices, { filter, signal })) for (const s of page.items) if (s.mainSlug?.name) out.set(s.mainSlug.name, s);
  }
  return out;
}

/** The creation time of the site's newest service plus 1 ms (the epoch for a site without services). */
async function newestCreated(api: ApiClient, signal?: AbortSignal): Promise<string> {
  for await (const page of listPages(api, serviceOps.queryServices, { sort: [{ fieldName: 'createdDate', order: 'DESC' }], signal })) {
    const first = page.items[0]?.createdDate;
    return new Date((first ? first.getTime() : 0) + 1).toISOString();
  }
  return new Date(1).toISOString();
}

const label = (s: { name?: string | null } | undefined, slug: string) => `${s?.name ?? slug} (${slug})`;

/**
 * What of one site's apply run (`state`, its journal) can be undone: only items the run changed (created,
 * updated, deleted); what it left unchanged, skipped or failed has nothing to undo. Nothing is read from the site.
 */
export function applyInverse(state: JournalState): ApplyInverse {
  const done: { planned: PlannedLine; result: ResultLine; step: ApplyStep }[] = [];
  for (const planned of state.planned) {
    const result = state.results.get(planned.id);
    const step = planned.after as ApplyStep | undefined;
    if (result && step) done.push({ planned, result, step });
  }
  let lost = 0;
  const updated: ApplyInverse['updated'] = [];
  const created: ApplyInverse['created'] = [];
  const deleted: ApplyInverse['deleted'] = [];
  const groups: ApplyInverse['groups'] = [];
  for (const { planned, result, step } of done) {
    const before = planned.before as Json | undefined;
    if (step.op === 'groups') {
      const was = (before as { groups?: WireGroup[] } | undefined)?.groups;
      if (result.outcome !== 'updated') continue;
      if (!was) lost += 1;
      else groups.push({ id: planned.id, left: result.revision, slug: step.slug, before: was });
      continue;
    }
    if (step.op === 'update' && result.outcome === 'updated') {
      if (!before) lost += 1;
      else {
        const sets = Object.entries(before).map(([path, value]) => ({ path, value: value ?? null }));
        updated.push({ id: planned.id, left: result.revision, slug: step.slug, change: { sets, mask: sets.map((x) => x.path) } });
      }
    } else if (step.op === 'create' && result.outcome === 'created' && result.createdId) {
      created.push({ id: result.createdId, left: result.revision, slug: step.slug });
    } else if (step.op === 'delete' && result.outcome === 'deleted') {
      if (!before) lost += 1;
      else deleted.push({ slug: step.slug, before });
    }
  }
  return { updated, created, deleted, groups, lost };
}

/**
 * The inverses of the parts of one change on one site, as one (an apply's services run, then its add-on group
 * run): a service whose groups were set after its create or update was last left at the revision the groups
 * step left, which is what the undo checks it against.
 */
export function mergeInverses(parts: readonly ApplyInverse[]): ApplyInverse {
  const out: ApplyInverse = { updated: [], created: [], deleted: [], groups: [], lost: 0 };
  for (const p of parts) {
    out.updated.push(...p.updated);
    out.created.push(...p.created);
    out.deleted.push(...p.deleted);
    out.groups.push(...p.groups);
    out.lost += p.lost;
  }
  const leftBy = new Map(out.groups.map((g) => [g.id, g.left]));
  for (const x of [...out.updated, ...out.created]) if (leftBy.has(x.id)) x.left = leftBy.get(x.id);
  return out;
}

/**
 * The inverse of one site's apply run, planned against the site of `api` as it is now: each step to take, or left
 * alone (changed since), or already as the undo leaves it (unchanged).
 * @throws ApiError from the reads
 */
export async function planApplyUndo(api: ApiClient, inverse: ApplyInverse, signal?: AbortSignal): Promise<ApplyUndoPlan> {
  const { updated, created, deleted } = inverse;
  const [now, taken, plannedAt] = await Promise.all([
    servicesNow(api, [...updated.map((u) => u.id), ...created.map((c) => c.id), ...inverse.groups.map((g) => g.id)], signal),
    servicesBySlug(api, deleted.map((d) => d.slug), signal),
    newestCreated(api, signal),
  ]);
  const items: PlannedItem[] = [];
  for (const u of updated) {
    const current = now.get(u.id);
    const step: ApplyStep = { op: 'update', slug: u.slug, change: u.change };
    const base = { id: u.id, name: label(current, u.slug), after: step, changes: [] };
    if (!current) items.push({ ...base, skip: 'deleted since the change' });
    else if (u.left !== undefined && current.revision !== u.left) items.push({ ...base, revision: current.revision ?? undefined, skip: `changed since (revision ${u.left} -> ${current.revision})` });
    else {
      const changes = diffChange(current, u.change);
      const revision = current.revision ?? undefined;
      items.push(changes.length === 0 ? { ...base, revision, unchanged: true } : { ...base, revision, changes, before: valuesOf(current, u.change.mask) });
    }
  }
  for (const c of created) {
    const current = now.get(c.id);
    const step: ApplyStep = { op: 'delete', slug: current?.mainSlug?.name ?? c.slug };
    const base = { id: c.id, name: label(current, c.slug), after: step, changes: [{ path: 'delete', before: c.slug, after: undefined }] };
    // Gone already: as the undo wants it.
    if (!current) items.push({ ...base, changes: [], unchanged: true });
    else if (c.left !== undefined && current.revision !== c.left) items.push({ ...base, revision: current.revision ?? undefined, skip: `changed since it was created (revision ${c.left} -> ${current.revision})` });
    else items.push({ ...base, revision: current.revision ?? undefined, before: current });
  }
  for (const d of deleted) {
    const step: ApplyStep = { op: 'create', slug: d.slug, service: recreateBody(d.before) };
    const base = { id: `create:${d.slug}`, name: label(d.before as { name?: string }, d.slug), after: step, changes: [{ path: 'create', before: undefined, after: d.slug }] };
    const holder = taken.get(d.slug);
    items.push(holder ? { ...base, skip: `service ${holder.id} holds the slug ${d.slug} again` } : base);
  }
  const deleting = new Set(created.map((c) => c.id));
  const groups: PlannedItem[] = [];
  for (const g of inverse.groups) {
    if (deleting.has(g.id)) continue;
    const current = now.get(g.id);
    const step: GroupsStep = { op: 'groups', slug: g.slug, groups: g.before };
    const base = { id: g.id, name: `${label(current, g.slug)} (add-on groups)`, after: step, changes: [{ path: 'addOnGroups', before: undefined, after: g.before.map((x) => x.name).join(', ') }] };
    if (!current) groups.push({ ...base, skip: 'deleted since the change' });
    else if (g.left !== undefined && current.revision !== g.left) groups.push({ ...base, revision: current.revision ?? undefined, skip: `changed since (revision ${g.left} -> ${current.revision})` });
    else if (holdsGroups(current.addOnGroups ?? [], g.before)) groups.push({ ...base, revision: current.revision ?? undefined, changes: [], unchanged: true });
    else groups.push({ ...base, revision: current.revision ?? undefined, before: { groups: (current.addOnGroups ?? []).map(wireOf) } });
  }
  return { items, groups, plannedAt };
}
