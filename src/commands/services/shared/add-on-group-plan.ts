/**
 * The add-on groups of a catalogue applied to one site (docs/catalogue.md "Add-on groups"; docs/wire.md §28
 * "Add-on groups and add-ons"), as steps of the one apply action (shared/apply.ts): one planned item per service
 * whose groups change, holding every group the service has after the step (`{op: 'groups', slug, groups}`), its
 * before-image the groups it had. The step is a desired state: sending it reads the service and makes only the
 * group calls still needed (delete, update with a mask, create; matched by group name), so a chunk sent again
 * after a lost reply or a `--resume` does nothing twice.
 *
 * Add-ons are named in the file by name and terms (`{name, price, durationInMinutes | maxQuantity}`); on the
 * target an add-on is the one of that name, or, when several share the name, the one of those with the same terms.
 * One the site lacks is an error before the first write, unless `--create-missing` creates it first (Add-ons API
 * create, as a part of the apply's change). A group of the site the file does not name is kept, and deleted only
 * with `--prune`; a service without `addOnGroups` in the file keeps its groups as they are.
 */
import { addOnsFamily } from '../../../api/add-ons.js';
import type { ApiClient } from '../../../api/client.js';
import { ApiError } from '../../../api/errors.js';
import { listPages } from '../../../api/paging.js';
import { type AddOn, type AddOnGroup, MAX_ADD_ON_GROUPS } from '../../../api/schemas/service-add-ons.js';
import { services } from '../../../api/services.js';
import type { PlannedItem } from '../../../bulk/actions.js';
import type { BulkReport } from '../../../bulk/report.js';
import type { BulkRunResult } from '../../../bulk/run.js';
import { errorText, isPermanentRefusal, isRetryable, type ItemResult, type SentOutcome, type WorkItem } from '../../../bulk/execute.js';
import { abortableSleep } from '../../../bulk/wait.js';
import { UserError } from '../../../core/errors.js';
import { type Catalogue, matchCatalogue, type PortableAddOn, type PortableAddOnGroup, readCatalogue, type SiteCatalogue } from './catalogue.js';

/** A group as a step sets it: every field (an absent limit or prompt is `null`), add-ons by the site's ids. */
export interface WireGroup {
  name: string;
  maxNumberOfAddOns: number | null;
  prompt: string | null;
  addOnIds: string[];
}

/** The groups step of a service (its journal line's `after`): the service has exactly `groups` after it. */
export interface GroupsStep {
  op: 'groups';
  slug: string;
  groups: WireGroup[];
}

/** A row of the apply preview for a group change (or an add-on to create). */
export interface GroupRow {
  action: string;
  slug: string;
  fields: string;
}

/** One site's group plan. */
export interface GroupPlan {
  /** One item per service whose groups change; a service the run creates first has the id `groups:SLUG`. */
  items: PlannedItem[];
  rows: GroupRow[];
  /** Add-ons the site lacks that `--create-missing` creates first, each once. */
  create: PortableAddOn[];
}

const FIELDS = ['maxNumberOfAddOns', 'prompt', 'addOnIds'] as const;

/** A group of the platform as a step compares it. */
export function wireOf(g: AddOnGroup): WireGroup {
  return { name: g.name ?? '', maxNumberOfAddOns: g.maxNumberOfAddOns ?? null, prompt: g.prompt ?? null, addOnIds: g.addOnIds ?? [] };
}

/** The fields of `to` that differ from `from` (same name). */
function changed(from: WireGroup, to: WireGroup): (typeof FIELDS)[number][] {
  return FIELDS.filter((k) => JSON.stringify(from[k]) !== JSON.stringify(to[k]));
}

/** The group calls that take `have` to `want`, matched by name: deletes first (room: 3 groups), then updates, creates. */
export function groupCalls(have: readonly WireGroup[], want: readonly WireGroup[]): { remove: string[]; update: { name: string; fields: string[] }[]; create: string[] } {
  const wanted = new Set(want.map((g) => g.name));
  const had = new Map(have.map((g) => [g.name, g]));
  return {
    remove: have.filter((g) => !wanted.has(g.name)).map((g) => g.name),
    update: want.flatMap((g) => {
      const h = had.get(g.name);
      const fields = h ? changed(h, g) : [];
      return fields.length ? [{ name: g.name, fields }] : [];
    }),
    create: want.filter((g) => !had.has(g.name)).map((g) => g.name),
  };
}

/** `add-on "Oil" (4 USD, up to 3)`. */
export function addOnText(a: PortableAddOn): string {
  const terms = [a.price ? `${a.price.value} ${a.price.currency}` : undefined, a.durationInMinutes !== undefined ? `${a.durationInMinutes} min` : undefined, a.maxQuantity !== undefined ? `up to ${a.maxQuantity}` : undefined];
  return `add-on "${a.name}" (${terms.filter(Boolean).join(', ')})`;
}

/**
 * The add-on group steps of a site's apply, a second run of the apply action after the services' own (a new
 * service's groups need its id): the preview's rows, the number of group changes, and the items, made when the
 * phase runs (a catalogue's from the site as it is then; an undo's as planned).
 */
export interface GroupPhase {
  rows: (GroupRow & { site: string })[];
  changes: number;
  items(): Promise<PlannedItem[]>;
}

/**
 * The group phase of applying `wanted` to a site read as `current` (its add-ons read here), and the add-ons to
 * create first (`--create-missing`). When it runs, the phase plans again from the site as it is then (its
 * services made, the add-ons created), leaving out a service the services' run did not make.
 * @throws UserError (exit 2) as {@link planGroups}; ApiError from the reads
 */
export async function groupPhase(api: ApiClient, wanted: Catalogue, current: SiteCatalogue, opts: { prune: boolean; createMissing: boolean; site: string }, signal: AbortSignal): Promise<{ phase: GroupPhase; create: PortableAddOn[] }> {
  const plan = async (now: SiteCatalogue) => planGroups(wanted, now, await readSiteAddOns(api, signal), opts);
  const first = await plan(current);
  return {
    create: first.create,
    phase: {
      rows: first.rows.map((r) => ({ site: opts.site, ...r })),
      changes: first.rows.length,
      items: async () => (await plan(await readCatalogue(api, undefined, signal))).items.filter((i) => !i.id.startsWith('groups:')),
    },
  };
}

/** What the group run adds to a site's outcome (shared/site-plans.ts SiteOutcome). */
export interface GroupOutcome {
  status: string;
  counts: Record<string, number>;
  problems?: BulkReport['problems'];
  /** The group run's counts (services whose groups were set: `updated`; `failed`, `conflict`). */
  addOnGroups?: Record<string, number>;
  journal?: string;
}

/**
 * Runs a site's group phase with `run` (the apply action through the engine, a part of the site's change) and
 * adds its outcome to `outcome`: its counts, its problems (each named `SLUG (add-on groups)`), `partial` when a
 * step failed. An undo's steps left alone (changed since) are counted as skipped and listed, never sent.
 */
export async function runGroupPhase(phase: GroupPhase, outcome: GroupOutcome, run: (items: PlannedItem[]) => Promise<BulkRunResult>, say: (text: string) => void): Promise<void> {
  const items = await phase.items();
  const label = (i: PlannedItem) => `${(i.after as GroupsStep).slug} (add-on groups)`;
  for (const i of items.filter((x) => x.skip !== undefined)) {
    outcome.counts.skipped = (outcome.counts.skipped ?? 0) + 1;
    outcome.problems = [...(outcome.problems ?? []), { id: label(i), outcome: 'skipped', error: i.skip }];
  }
  const sendable = items.filter((i) => !i.unchanged && i.skip === undefined);
  if (!sendable.length) return;
  const result = await run(sendable);
  if (result.kind !== 'done') return;
  const { applied: _applied, ...counts } = result.report.counts;
  outcome.addOnGroups = counts;
  outcome.journal ??= result.journal;
  const bad = (counts.failed ?? 0) + (counts.conflict ?? 0);
  if (bad) outcome.status = 'partial';
  say(`add-on groups set on ${counts.updated ?? 0} service${counts.updated === 1 ? '' : 's'}${bad ? `, ${bad} failed` : ''}`);
  const labels = new Map(sendable.map((i) => [i.id, label(i)]));
  if (result.report.problems.length) outcome.problems = [...(outcome.problems ?? []), ...result.report.problems.map((x) => ({ ...x, id: labels.get(x.id) ?? x.id }))];
}

/** The body of the Add-ons API create of a portable add-on. */
export function addOnBody(a: PortableAddOn): Record<string, unknown> {
  return { name: a.name, price: a.price, ...(a.durationInMinutes !== undefined ? { durationInMinutes: a.durationInMinutes } : {}), ...(a.maxQuantity !== undefined ? { maxQuantity: a.maxQuantity } : {}) };
}

const termsKey = (a: PortableAddOn) => JSON.stringify([a.name.trim(), Number(a.price?.value), a.price?.currency, a.durationInMinutes ?? null, a.maxQuantity ?? null]);
const siteKey = (a: AddOn) => termsKey({ name: a.name ?? '', price: a.price ? { value: a.price.value ?? undefined, currency: a.price.currency ?? undefined } : undefined, durationInMinutes: a.durationInMinutes, maxQuantity: a.maxQuantity });

/**
 * The site's add-on a portable one stands for: the one of its name, or among several of that name the one of the
 * same terms (price, duration or largest quantity).
 * @returns its id, `missing` when the site has none of that name, `ambiguous` (the count) when the terms do not tell
 */
export function matchAddOn(site: readonly AddOn[], a: PortableAddOn): { id: string } | { missing: true } | { ambiguous: number } {
  const named = site.filter((x) => (x.name ?? '').trim() === a.name.trim());
  const idOf = (x: AddOn) => ({ id: x.id ?? x.addOnId ?? '' });
  if (named.length === 1) return idOf(named[0]!);
  if (named.length === 0) return { missing: true };
  const same = named.filter((x) => siteKey(x) === termsKey(a));
  return same.length === 1 ? idOf(same[0]!) : { ambiguous: named.length };
}

/** Every add-on of the site (the Add-ons API's query, every page). @throws ApiError */
export async function readSiteAddOns(api: ApiClient, signal?: AbortSignal): Promise<AddOn[]> {
  const out: AddOn[] = [];
  for await (const page of listPages(api, addOnsFamily.operations.queryAddOns, { signal })) out.push(...page.items);
  return out;
}

/** True when a service of the catalogue holds `addOnGroups` (then the site's add-ons are read and groups planned). */
export function hasGroups(wanted: Catalogue): boolean {
  return wanted.services.some((s) => s.addOnGroups !== undefined);
}

/**
 * The group plan of `wanted` on a site as read (`current`, and its add-ons `siteAddOns`): per service of the file
 * holding `addOnGroups`, matched to the site's service as the service plan matches it, the groups it has after
 * (the file's, plus the site's other groups unless `prune`), and the item that sets them when they differ. An
 * add-on the site lacks stands under the placeholder id `new:...` when `createMissing`, and is listed to create.
 * @throws UserError (exit 2, one line naming the add-on, the service and the site) for an add-on the site lacks
 *   (without `createMissing`) or that several of the site's add-ons could be; for a service that would hold more
 *   than 3 groups
 */
export function planGroups(wanted: Catalogue, current: SiteCatalogue, siteAddOns: readonly AddOn[], opts: { prune: boolean; createMissing: boolean; site: string }): GroupPlan {
  const match = matchCatalogue(wanted, current.catalogue);
  const create = new Map<string, PortableAddOn>();
  const problems: string[] = [];
  const items: PlannedItem[] = [];
  const rows: GroupRow[] = [];
  const resolve = (a: PortableAddOn, slug: string): string => {
    const m = matchAddOn(siteAddOns, a);
    if ('id' in m) return m.id;
    if ('ambiguous' in m) problems.push(`service ${slug}: ${addOnText(a)} could be any of ${m.ambiguous} add-ons of that name on site ${opts.site}, and their terms do not tell which`);
    else if (opts.createMissing) create.set(termsKey(a), a);
    else problems.push(`service ${slug}: ${addOnText(a)} is not on site ${opts.site}`);
    return `new:${termsKey(a)}`;
  };
  for (const w of wanted.services) {
    const groups = w.addOnGroups as PortableAddOnGroup[] | undefined;
    if (groups === undefined) continue;
    const at = match.get(w.slug);
    const existing = at === undefined ? undefined : current.services.get(at);
    const want: WireGroup[] = groups.map((g) => ({ name: g.name, maxNumberOfAddOns: g.maxNumberOfAddOns ?? null, prompt: g.prompt ?? null, addOnIds: (g.addOns ?? []).map((a) => resolve(a, w.slug)) }));
    const have = (existing?.addOnGroups ?? []).map(wireOf);
    const named = new Set(want.map((g) => g.name));
    const after = [...want, ...(opts.prune ? [] : have.filter((g) => !named.has(g.name)))];
    if (after.length > MAX_ADD_ON_GROUPS) {
      throw new UserError(`service ${w.slug} would have ${after.length} add-on groups on site ${opts.site}, ${MAX_ADD_ON_GROUPS} at most (the file's and the site's other ones); nothing was changed`, "--prune deletes the groups the file does not name, or 'services add-on-groups delete' one");
    }
    const calls = groupCalls(have, after);
    if (!calls.remove.length && !calls.update.length && !calls.create.length) continue;
    for (const name of calls.remove) rows.push({ action: 'delete add-on group', slug: w.slug, fields: name });
    for (const u of calls.update) rows.push({ action: 'update add-on group', slug: w.slug, fields: `${u.name}: ${u.fields.join(', ')}` });
    for (const name of calls.create) rows.push({ action: 'create add-on group', slug: w.slug, fields: name });
    const step: GroupsStep = { op: 'groups', slug: w.slug, groups: after };
    const changes = [...calls.remove.map((n) => ({ path: `addOnGroups.${n}`, before: n, after: undefined })), ...calls.update.map((u) => ({ path: `addOnGroups.${u.name}`, before: u.fields.join(','), after: u.fields.join(',') })), ...calls.create.map((n) => ({ path: `addOnGroups.${n}`, before: undefined, after: n }))];
    const label = `${w.name} (${w.slug})`;
    items.push(existing?.id ? { id: existing.id, revision: existing.revision ?? undefined, name: label, after: step, changes, before: { groups: have } } : { id: `groups:${w.slug}`, name: label, after: step, changes, before: { groups: [] } });
  }
  if (problems.length) {
    throw new UserError(`${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}; nothing was changed`, '--create-missing creates the add-ons a site lacks (by name and terms); or change the file');
  }
  return { items, rows, create: [...create.values()] };
}

/** The group fields as a call takes them (a `null` field left out: an update clears it through the mask). */
function body(g: WireGroup, fields: readonly string[] = ['name', ...FIELDS]): Record<string, unknown> {
  return Object.fromEntries(fields.map((k) => [k, g[k as keyof WireGroup]]).filter(([, v]) => v !== null));
}

/** True when the service holds exactly the groups of the step (by name, every field). */
export function holdsGroups(groups: readonly AddOnGroup[], want: readonly WireGroup[]): boolean {
  const c = groupCalls(groups.map(wireOf), want);
  return !c.remove.length && !c.update.length && !c.create.length;
}

/** Attempts of one service's groups step against retryable failures before it is left to be settled. */
const STEP_ATTEMPTS = 4;

/**
 * Sends groups steps, one service after the other: reads the service and makes only the calls still needed
 * (docs/wire.md §28: delete, update with a mask, create), then reads the revision the calls left. A retryable
 * failure (no reply, 429, 5xx) sends the service's step again after a pause, up to {@link STEP_ATTEMPTS} times:
 * safe, as the step makes only what is still missing (a create whose reply was lost is found by its name).
 * @returns one outcome per item: `updated` with the service's revision, the platform's refusal, or `settle`
 *   (still failing: read back by {@link settleGroups})
 * @throws an abort (Ctrl-C), or an error that is not the platform's
 */
export async function sendGroups(api: ApiClient, items: readonly { item: WorkItem; step: GroupsStep }[], signal?: AbortSignal): Promise<SentOutcome[]> {
  const out: SentOutcome[] = [];
  for (const { item, step } of items) out.push(await sendStep(api, item, step, signal));
  return out;
}

/** One service's groups step (see {@link sendGroups}). */
async function sendStep(api: ApiClient, item: WorkItem, step: GroupsStep, signal?: AbortSignal): Promise<SentOutcome> {
  const serviceId = item.id;
  for (let attempt = 1; ; attempt++) {
    try {
      const { service } = await services.getService(api, { serviceId }, { signal });
      const have = service.addOnGroups ?? [];
      const byName = new Map(have.map((g) => [g.name ?? '', g]));
      const calls = groupCalls(have.map(wireOf), step.groups);
      for (const name of calls.remove) await services.deleteAddOnGroup(api, { serviceId, addOnGroupId: byName.get(name)!.id! }, { signal });
      for (const u of calls.update) {
        const g = step.groups.find((x) => x.name === u.name)!;
        await services.updateAddOnGroup(api, { serviceId, addOnGroup: { ...body(g, u.fields), id: byName.get(u.name)!.id! }, mask: u.fields.join(',') }, { signal });
      }
      for (const name of calls.create) await services.createAddOnGroup(api, { serviceId, addOnGroup: body(step.groups.find((x) => x.name === name)!) as { name: string } }, { signal });
      const { service: now } = await services.getService(api, { serviceId }, { signal });
      return { id: item.id, status: 'done', outcome: 'updated', revision: now.revision ?? undefined };
    } catch (err) {
      if (signal?.aborted || !(err instanceof ApiError)) throw err;
      if (!isRetryable(err)) return { id: item.id, status: 'refused', error: errorText(err), httpStatus: err.status };
      if (attempt >= STEP_ATTEMPTS) return { id: item.id, status: 'settle' };
      await abortableSleep(Math.min(4000, 250 * 2 ** attempt), signal);
    }
  }
}

/**
 * Settles groups steps the platform refused or that kept failing: done when the service holds the step's groups
 * (an earlier attempt made them), else failed (`permanent` for a refusal: a resume would be refused again).
 */
export async function settleGroups(api: ApiClient, open: readonly { item: WorkItem; step: GroupsStep; sent: SentOutcome }[], signal?: AbortSignal): Promise<ItemResult[]> {
  const out: ItemResult[] = [];
  for (const { item, step, sent } of open) {
    const error = sent.status === 'refused' ? sent.error : 'the platform did not confirm it';
    const permanent = sent.status === 'refused' && isPermanentRefusal(sent.httpStatus);
    try {
      const { service } = await services.getService(api, { serviceId: item.id }, { signal });
      out.push(holdsGroups(service.addOnGroups ?? [], step.groups) ? { id: item.id, outcome: 'updated', revision: service.revision ?? undefined } : { id: item.id, outcome: 'failed', error, ...(permanent ? { permanent } : {}) });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) out.push({ id: item.id, outcome: 'conflict', error: 'the service was deleted since the plan' });
      else throw err;
    }
  }
  return out;
}
