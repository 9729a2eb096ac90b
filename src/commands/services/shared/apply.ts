/**
 * A catalogue applied to one site through the entity bulk engine (docs/catalogue.md "The catalogue file"): the plan (create,
 * update with a field-level diff, unchanged, delete with `--prune`, matched by slug), the requests (bulk create,
 * bulk update at the planned revision with a field mask of the changed top-level fields, bulk delete, 100 per
 * request) and the settling of items the platform did not confirm (a create is found again by its slug, an
 * update recognised at planned revision + 1 holding the planned values, a delete by the service being gone).
 * Each item's request body is in its journal line, so `--resume` continues from the journal alone.
 */
import type { ApiClient } from '../../../api/client.js';
import { bodyRequest, invoke } from '../../../api/family.js';
import { listPages } from '../../../api/paging.js';
import type { Service } from '../../../api/schemas/service.js';
import { MAX_BULK_SERVICES, serviceOps } from '../../../api/services.js';
import { bulkSender, nextRevision, type EntityAction, type PlannedItem } from '../../../bulk/actions.js';
import { type ChangeSet, type FieldDiff, isApplied, maskString, updateBody } from '../../../bulk/changes.js';
import { errorText, type ItemResult, type SentOutcome, type WorkItem } from '../../../bulk/execute.js';
import type { JournalArgs } from '../../../bulk/journal.js';
import { type EntityPort, fetchByIds } from '../../../bulk/port.js';
import { type Catalogue, diffCatalogue, type Furniture, matchCatalogue, type NameIndex, type PortableService, type SiteCatalogue } from './catalogue.js';
import type { PortableFields } from './catalogue-file.js';
import { safeParse } from 'zod/mini';
import { serviceInputs } from '../../../api/schemas/service.js';
import { getPath, setPath } from '../../../api/paths.js';
import { UserError } from '../../../core/errors.js';
import { type GroupsStep, sendGroups, settleGroups } from './add-on-group-plan.js';

/** What one planned item sends (its journal line's `after`). */
export type ApplyStep =
  | { op: 'create'; slug: string; service: Record<string, unknown> }
  | { op: 'update'; slug: string; change: ChangeSet }
  | { op: 'delete'; slug: string }
  | GroupsStep;

type Json = Record<string, unknown>;

/**
 * The id a name stands for on the site. References are checked before planning (`checkServices` when the file is
 * read, `missingReferences` per site), so a name that does not stand for exactly one item here is a bug: it is
 * never sent as if it were an id.
 * @throws TypeError when `name` does not resolve
 */
function one(index: NameIndex, name: string): string {
  const ids = index.idsOf(name);
  if (ids.length !== 1) throw new TypeError(`${index.what} "${name}" was not resolved before planning (${ids.length} match)`);
  return ids[0]!;
}

/**
 * The wire value of one portable field on a site (names -> the site's ids): `[wire field, value]`. The values
 * are as `checkServices` lets them through (names as text, lists as lists, locations in their three forms).
 */
function wireField(key: string, value: unknown, f: Furniture): [string, unknown] {
  const v = { [key]: value } as PortableFields;
  switch (key) {
    case 'category':
      return ['category', { id: one(f.categories, v.category!) }];
    case 'bookingPolicy':
      return ['bookingPolicy', { id: one(f.policies, v.bookingPolicy!) }];
    case 'form':
      return ['form', { id: one(f.forms, v.form!) }];
    case 'staff':
      return ['staffMemberIds', v.staff!.map((n) => one(f.staff, n))];
    case 'pricingPlans':
      return ['payment.pricingPlanIds', v.pricingPlans!.map((n) => one(f.plans, n))];
    case 'locations':
      return [
        'locations',
        v.locations!.map((l) => {
          if (l.business !== undefined) return { type: 'BUSINESS', business: { id: one(f.locations, l.business) } };
          if (l.custom !== undefined) return { type: 'CUSTOM', custom: l.custom };
          return { type: l.type ?? 'CUSTOMER' };
        }),
      ];
    default:
      return [key, value];
  }
}

/**
 * Fields of a portable service that are not fields of a service create or update: add-on groups are their own
 * calls, planned as groups steps (shared/add-on-group-plan.ts; docs/wire.md §28) after the services.
 */
export const OWN_CALLS: ReadonlySet<string> = new Set(['addOnGroups']);

/** A portable service as the create request's `service` on a site whose furniture is `f`. */
export function serviceInput(p: PortableService, f: Furniture): Record<string, unknown> {
  const out: Json = {};
  for (const [key, value] of Object.entries(p)) {
    if (key === 'slug' || OWN_CALLS.has(key)) continue;
    const [field, wire] = wireField(key, value, f);
    if (field === 'payment.pricingPlanIds') out.payment = { ...((out.payment as Json | undefined) ?? {}), pricingPlanIds: wire };
    else if (field === 'payment') out.payment = { ...(wire as Json), ...((out.payment as Json | undefined)?.pricingPlanIds ? { pricingPlanIds: (out.payment as Json).pricingPlanIds } : {}) };
    else out[field] = wire;
  }
  return out;
}

/**
 * The plan of applying `wanted` to a site: one item per wanted service (create, update or unchanged, matched by
 * {@link matchCatalogue}) and, with `prune`, one delete per service of the site no wanted one matches (within
 * `pruneScope` when given). Every request body is checked against the services request schemas first.
 * @param current the site as read (`readCatalogue`); `f` its furniture (with any to be created under placeholders)
 * @throws UserError (exit 2) naming the service and field whose value the platform would refuse
 */
export function planApply(wanted: Catalogue, current: SiteCatalogue, f: Furniture, prune: boolean, pruneScope?: ReadonlySet<string>): PlannedItem[] {
  const diff = diffCatalogue(wanted, current.catalogue, prune, pruneScope);
  const match = matchCatalogue(wanted, current.catalogue);
  const creating = new Set(diff.create);
  const updating = new Map(diff.update.map((u) => [u.slug, u.fields]));
  const currentBySlug = new Map(current.catalogue.services.map((s) => [s.slug, s]));
  const { ServiceCreate, ServiceChanges } = serviceInputs();
  const check = (schema: Parameters<typeof safeParse>[0], body: unknown, slug: string) => {
    const r = safeParse(schema, body);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new UserError(`service ${slug}: ${issue.path.join('.') || 'service'}: ${issue.message}`, 'fix the value in the catalogue file; nothing was changed');
    }
  };
  const items: PlannedItem[] = [];
  for (const w of wanted.services) {
    const label = `${w.name} (${w.slug})`;
    if (creating.has(w.slug)) {
      const step: ApplyStep = { op: 'create', slug: w.slug, service: serviceInput(w, f) };
      check(ServiceCreate, step.service, w.slug);
      items.push({ id: `create:${w.slug}`, name: label, after: step, changes: [{ path: 'create', before: undefined, after: w.slug }] });
      continue;
    }
    const at = match.get(w.slug)!;
    const existing = current.services.get(at)!;
    const fields = updating.get(w.slug)?.filter((p) => !OWN_CALLS.has(p.split('.')[0]!));
    if (!fields?.length) {
      items.push({ id: existing.id, revision: existing.revision, name: label, changes: [], unchanged: true });
      continue;
    }
    // The mask names whole top-level fields: `payment` is sent as the catalogue has it, so keys it dropped go too.
    const tops = [...new Set(fields.map((p) => p.split('.')[0]!))];
    const sets = tops.map((k) => {
      const [field, value] = wireField(k, w[k], f);
      // A whole `payment` replaces the plan links too: keep the wanted ones, else the site's own.
      if (field === 'payment') {
        const plans = w.pricingPlans !== undefined ? (wireField('pricingPlans', w.pricingPlans, f)[1] as string[]) : existing.payment?.pricingPlanIds;
        return { path: field, value: plans?.length ? { ...(value as Json), pricingPlanIds: plans } : value };
      }
      return { path: field, value };
    });
    // `payment` whole already carries the plan links.
    const kept = sets.some((x) => x.path === 'payment') ? sets.filter((x) => x.path !== 'payment.pricingPlanIds') : sets;
    const change: ChangeSet = { sets: kept, mask: kept.map((x) => x.path) };
    const patch: Json = {};
    for (const x of kept) setPath(patch, x.path, x.value);
    check(ServiceChanges, patch, w.slug);
    const was = currentBySlug.get(at) ?? {};
    const changes: FieldDiff[] = fields.map((path) => ({ path, before: pick(was, path), after: pick(w, path) }));
    const step: ApplyStep = { op: 'update', slug: w.slug, change };
    // What `sitectl undo` sets back: the site's own values of the masked fields (null where absent).
    const before = Object.fromEntries(change.mask.map((path) => [path, getPath(existing, path) ?? null]));
    items.push({ id: existing.id, revision: existing.revision, name: at === w.slug ? label : `${label}, was ${at}`, after: step, changes, before });
  }
  for (const slug of diff.delete) {
    const s = current.services.get(slug)!;
    const step: ApplyStep = { op: 'delete', slug };
    // The whole service: `sitectl undo` creates it again from it.
    items.push({ id: s.id, revision: s.revision, name: `${s.name ?? slug} (${slug})`, after: step, changes: [{ path: 'delete', before: slug, after: undefined }], before: s });
  }
  return items;
}

/**
 * The server time a plan was made at, for recognising services created by this run later: the newest creation
 * date among the site's services as read (0 for a site without services).
 */
export function planTime(current: SiteCatalogue): string {
  let newest = 0;
  for (const s of current.services.values()) newest = Math.max(newest, s.createdDate ? s.createdDate.getTime() : 0);
  return new Date(newest + 1).toISOString();
}

/** The value at a dotted path of a portable service (for the preview). */
function pick(o: unknown, path: string): unknown {
  let v: unknown = o;
  for (const k of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Json)[k] : undefined;
  return v;
}

/**
 * The engine action that applies `items` to the site of `api` (a new plan, or the `planned` lines of a journal on
 * `--resume`, whose `after` holds each step).
 */
export function applyAction(api: ApiClient, port: EntityPort, items: readonly PlannedItem[], args: JournalArgs): EntityAction {
  const steps = new Map<string, ApplyStep>();
  for (const i of items) if (i.after) steps.set(i.id, i.after as ApplyStep);
  const stepOf = (item: WorkItem): ApplyStep => {
    const s = steps.get(item.id);
    if (!s) throw new TypeError(`no planned step for ${item.id}`);
    return s;
  };
  const sendUpdates = bulkSender(
    api,
    serviceOps.bulkUpdateServices,
    (chunk) => ({
      services: chunk.map((item) => {
        const step = stepOf(item) as Extract<ApplyStep, { op: 'update' }>;
        return { service: updateBody(item.id, item.revision ?? '', step.change) as { id: string; revision: string }, mask: maskString(step.change) };
      }),
      returnEntity: false,
    }),
    (item) => nextRevision(item.revision),
  );
  const sendDeletes = bulkSender(api, serviceOps.bulkDeleteServices, (chunk) => ({ ids: chunk.map((i) => i.id) }));

  /** The site's services holding any of `slugs` as main slug, by slug. */
  async function bySlug(slugs: string[], signal?: AbortSignal): Promise<Map<string, Service>> {
    const found = new Map<string, Service>();
    for await (const page of listPages(api, serviceOps.queryServices, { filter: { 'mainSlug.name': { $in: slugs } }, signal })) for (const s of page.items) if (s.mainSlug?.name) found.set(s.mainSlug.name, s);
    return found;
  }

  /** Every slug the run plans (its creates and updates): a service holding one of them is not up for adoption. */
  const claimed = new Set([...steps.values()].filter((x) => x.op === 'create' || x.op === 'update').map((x) => x.slug));
  const plannedAt = typeof args.options?.plannedAt === 'string' ? Date.parse(args.options.plannedAt) : undefined;

  /**
   * The services an earlier attempt of this run created whose reply was lost before their slug was set: created
   * since the plan, named as a planned create, and holding no slug of the run. By name.
   */
  async function strays(names: string[], signal?: AbortSignal): Promise<Map<string, Service>> {
    const found = new Map<string, Service>();
    if (plannedAt === undefined || names.length === 0) return found;
    for await (const page of listPages(api, serviceOps.queryServices, { filter: { name: { $in: names } }, signal })) {
      for (const s of page.items) {
        const created = s.createdDate ? s.createdDate.getTime() : 0;
        if (s.name && created >= plannedAt && !claimed.has(s.mainSlug?.name ?? '') && !found.has(s.name)) found.set(s.name, s);
      }
    }
    return found;
  }

  /**
   * Gives a new service the planned slug (retried in place: it is safe to repeat). When that fails the service is
   * deleted again, so no copy without its slug is left behind to be created twice.
   * @returns the item's outcome; never throws
   */
  async function placeSlug(item: WorkItem, service: { id: string; revision?: string | null }, slug: string, signal?: AbortSignal): Promise<SentOutcome> {
    try {
      const reply = await invoke(api, serviceOps.setCustomSlug, { serviceId: service.id, slug }, { signal, idempotent: true });
      return { id: item.id, status: 'done', outcome: 'created', createdId: service.id, revision: reply.service.revision ?? undefined };
    } catch (err) {
      const why = errorText(err);
      try {
        await invoke(api, serviceOps.deleteService, { serviceId: service.id }, { signal, idempotent: true });
        return { id: item.id, status: 'refused', error: `its slug could not be set to ${slug} (${why}); the service created for it was deleted again` };
      } catch {
        return { id: item.id, status: 'refused', error: `created as ${service.id}, but its slug could not be set to ${slug} (${why}) nor the copy deleted: delete it by hand before the next run` };
      }
    }
  }

  /**
   * Creates, then gives each new service the planned slug when the platform derived another one from its name.
   * Nothing is created twice: a service that already holds the planned slug counts as created (an earlier attempt
   * committed, its reply or journal line lost), and one an earlier attempt created before its slug was set is
   * adopted (see {@link strays}). After a create succeeds nothing throws, so the chunk is never sent again.
   */
  async function sendCreates(all: WorkItem[], signal?: AbortSignal): Promise<SentOutcome[]> {
    const out: SentOutcome[] = [];
    const createOf = (i: WorkItem) => stepOf(i) as Extract<ApplyStep, { op: 'create' }>;
    const existing = await bySlug(all.map((i) => createOf(i).slug), signal);
    const missing = all.filter((i) => !existing.has(createOf(i).slug));
    const lost = await strays(missing.map((i) => String(createOf(i).service.name ?? '')), signal);
    const chunk: WorkItem[] = [];
    for (const item of all) {
      const step = createOf(item);
      const s = existing.get(step.slug);
      const stray = s ? undefined : lost.get(String(step.service.name ?? ''));
      if (s) out.push({ id: item.id, status: 'done', outcome: 'created', createdId: s.id, revision: s.revision ?? undefined });
      else if (stray) {
        lost.delete(String(step.service.name ?? ''));
        out.push(await placeSlug(item, stray, step.slug, signal));
      } else chunk.push(item);
    }
    if (chunk.length === 0) return out;
    const reply = await invoke(api, serviceOps.bulkCreateServices, bodyRequest(serviceOps.bulkCreateServices, { services: chunk.map((i) => createOf(i).service), returnEntity: true }), { signal });
    for (const r of reply.results) {
      const item = chunk[r.itemMetadata.originalIndex];
      if (!item) continue;
      if (!r.itemMetadata.success) {
        const e = r.itemMetadata.error;
        out.push({ id: item.id, status: 'refused', error: e ? (e.description ? `${e.code}: ${e.description}` : e.code) : 'failed without a reason', code: e?.code });
        continue;
      }
      const created = r.item as Service | undefined;
      const id = created?.id ?? r.itemMetadata.id ?? '';
      const slug = createOf(item).slug;
      out.push(created?.mainSlug?.name === slug ? { id: item.id, status: 'done', outcome: 'created', createdId: id, revision: created.revision ?? undefined } : await placeSlug(item, { id }, slug, signal));
    }
    return out;
  }

  /** Finds creates by slug, updates by revision and values, deletes by absence. */
  async function settle(open: { item: WorkItem; sent: SentOutcome }[], signal?: AbortSignal): Promise<ItemResult[]> {
    const creates = open.filter((o) => stepOf(o.item).op === 'create');
    const groups = open.filter((o) => stepOf(o.item).op === 'groups');
    const others = open.filter((o) => stepOf(o.item).op !== 'create' && stepOf(o.item).op !== 'groups');
    const out: ItemResult[] = [];
    if (groups.length) out.push(...(await settleGroups(api, groups.map((o) => ({ item: o.item, step: stepOf(o.item) as GroupsStep, sent: o.sent })), signal)));
    if (creates.length) {
      const found = await bySlug(creates.map((o) => stepOf(o.item).slug), signal);
      for (const o of creates) {
        const s = found.get(stepOf(o.item).slug);
        out.push(s ? { id: o.item.id, outcome: 'created', createdId: s.id, revision: s.revision } : { id: o.item.id, outcome: 'failed', error: reasonOf(o.sent) });
      }
    }
    if (others.length) {
      const now = await fetchByIds(port, others.map((o) => o.item.id), signal);
      for (const o of others) {
        const step = stepOf(o.item);
        const current = now.get(o.item.id);
        if (step.op === 'delete') {
          out.push(current ? { id: o.item.id, outcome: 'failed', error: reasonOf(o.sent) } : { id: o.item.id, outcome: 'deleted' });
        } else if (step.op === 'update') {
          if (!current) out.push({ id: o.item.id, outcome: 'conflict', error: 'the service was deleted since the plan' });
          else if (current.revision === nextRevision(o.item.revision) && isApplied(current, step.change)) out.push({ id: o.item.id, outcome: 'updated', revision: current.revision ?? undefined });
          else if (current.revision !== o.item.revision) {
            out.push({ id: o.item.id, outcome: 'conflict', revision: current.revision ?? undefined, error: `changed by someone else since the plan (revision ${o.item.revision} -> ${current.revision}); not overwritten` });
          } else out.push({ id: o.item.id, outcome: 'failed', error: reasonOf(o.sent) });
        }
      }
    }
    return out;
  }

  return {
    name: 'apply',
    done: 'applied',
    title: 'Applying',
    args,
    columns: [],
    chunkSize: MAX_BULK_SERVICES,
    items: { kind: 'planned', items },
    runner: () => ({
      done: 'applied',
      async send(chunk, info) {
        // One request per kind of step in the chunk; updates are marked with their own outcome.
        const byOp = (op: ApplyStep['op']) => chunk.filter((i) => stepOf(i).op === op);
        const out: SentOutcome[] = [];
        const creates = byOp('create');
        const updates = byOp('update');
        const deletes = byOp('delete');
        if (creates.length) out.push(...(await sendCreates(creates, info.signal)));
        if (updates.length) out.push(...(await sendUpdates(updates, info)).map((s) => (s.status === 'done' ? { ...s, outcome: 'updated' } : s)));
        if (deletes.length) out.push(...(await sendDeletes(deletes, info)).map((s) => (s.status === 'done' ? { ...s, outcome: 'deleted' } : s)));
        // After the services' own writes: a service's groups (one service after the other).
        const groups = byOp('groups');
        if (groups.length) out.push(...(await sendGroups(api, groups.map((item) => ({ item, step: stepOf(item) as GroupsStep })), info.signal)));
        return out;
      },
      settle,
    }),
  };
}

function reasonOf(sent: SentOutcome): string {
  return sent.status === 'refused' ? sent.error : 'the platform did not confirm it';
}
