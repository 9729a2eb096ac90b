/**
 * A fan-out's site plans (`services apply`, `services clone --to-site`, the undo of an apply): each target site
 * planned from its catalogue as it is, refused when it lacks a reference, its items spilled to disk when several
 * sites are planned (bulk/spill.ts) so memory stays flat in the number of sites, and the pool that runs sites a
 * few at a time. The preview, the confirmation and the runs are services/apply.ts's.
 */
import type { ApiClient } from '../../../api/client.js';
import type { PlannedItem } from '../../../bulk/actions.js';
import type { BulkReport } from '../../../bulk/report.js';
import type { Context, SiteRef } from '../../../context.js';
import { ExitCode, UserError } from '../../../core/errors.js';
import type { GroupPhase } from './add-on-group-plan.js';
import type { MissingRef } from './catalogue-file.js';
import type { Catalogue } from './catalogue.js';

/** Sites planned or run at once. */
export const SITE_CONCURRENCY = 4;

/**
 * One target site's plan, or why it was refused. Only its counts and first preview rows are held in memory; the
 * items themselves are on disk (bulk/spill.ts) when several sites are planned, read back by {@link SitePlan.items}
 * for the site's run, so a fan-out's memory stays flat in the number of sites.
 */
export interface SitePlan {
  site: SiteRef;
  api: ApiClient;
  /** The plan's steps by outcome name (`created` = to create, `updated`, `deleted`, `unchanged`; `skipped` when some are). */
  counts: Record<string, number>;
  /** Items to send (neither unchanged nor left alone). */
  changes: number;
  /** The preview's rows: the first {@link PREVIEW_ROWS} of the site (the furniture to create first). */
  rows: PlanRow[];
  /** Rows of the whole preview (furniture to create, changes, items left alone). */
  rowCount: number;
  /** Items left alone (an undo's, changed since), as the summary reports them. */
  skips: NonNullable<SiteOutcome['problems']>;
  /** The plan's items, in plan order (read back from disk when they were spilled). */
  items(): PlannedItem[];
  /** Forgets the items (removes their file); {@link items} cannot be called after. Idempotent. */
  release(): void;
  /** References the site lacks and this run does not create: the site is refused. */
  missing: string[];
  /** Categories and booking policies to create first (`--create-missing`); then the site is planned again. */
  create: MissingRef[];
  /** The plan made again from the site as it is (after creating `create`). */
  replan(): Promise<PlannedItem[]>;
  /** The services' add-on groups, set after the services' own run (shared/add-on-group-plan.ts). */
  groups?: GroupPhase;
  /** Server time of the plan (creates of this run are recognised after it). */
  plannedAt: string;
}

/** Rows of each site's preview held in memory (the confirmation shows 20 in all). */
export const PREVIEW_ROWS = 20;

/** One site's outcome as the summary and `--json` show it. */
export interface SiteOutcome {
  siteId: string;
  siteName: string;
  status: 'applied' | 'unchanged' | 'refused' | 'partial' | 'failed' | 'planned';
  counts: Record<string, number>;
  missing?: string[];
  /** Furniture created by `--create-missing` (`category "Yoga"`). */
  createdFurniture?: string[];
  /** The add-on group run's counts (services whose groups were set: `updated`; `failed`, `conflict`). */
  addOnGroups?: Record<string, number>;
  /** Why the site's run stopped (an error of the platform, a lost connection). */
  error?: string;
  journal?: string;
  problems?: BulkReport['problems'];
}

/**
 * Runs `items` (sites) over `n` workers at once. More than one: memory is held flat between them (core/memory.ts:
 * what one site's plan or run leaves behind is collected, not piled up with the sites).
 */
export async function pool<T, R>(items: readonly T[], n: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  const memory = items.length > 1 ? (await import('../../../core/memory.js')).flatMemory() : undefined;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
        memory?.collectIfGrown();
      }
    }),
  );
  return out;
}

/**
 * Plans `wanted` on each of `sites` (read concurrently; nothing is written).
 * @throws UserError (exit 2) for an unknown site; ApiError from the reads
 */
export async function planSites(ctx: Context, wanted: Catalogue, sites: readonly string[], prune: boolean, createMissing = false): Promise<SitePlan[]> {
  if (prune && wanted.services.length === 0) {
    throw new UserError('--prune with an empty catalogue would delete every service of the site; nothing was changed', 'check the file; to empty a site use services delete --filter');
  }
  const [{ planApply, planTime }, { readCatalogue }, { missingReferences, refText }, groupPlan] = await Promise.all([
    import('./apply.js'),
    import('./catalogue.js'),
    import('./catalogue-file.js'),
    import('./add-on-group-plan.js'),
  ]);
  const withGroups = groupPlan.hasGroups(wanted);
  const targets: { site: SiteRef; api: ApiClient }[] = [];
  for (const given of sites) {
    const t = await ctx.siteApi(given);
    if (!targets.some((x) => x.site.id === t.site.id)) targets.push(t);
  }
  const plan = async (api: ApiClient, site: SiteRef) => {
    const current = await readCatalogue(api, undefined, ctx.signal);
    // The groups (throws for an add-on the site lacks, exit 2): planned now for the preview, again when they run.
    const groups = withGroups ? await groupPlan.groupPhase(api, wanted, current, { prune, createMissing, site: site.name }, ctx.signal) : undefined;
    const { furniture } = current;
    // --prune deletes only among the site's services in the file's selection (as exported with --filter/--where).
    const scope = prune && wanted.selection ? new Set((await readCatalogue(api, wanted.selection.filter, ctx.signal)).services.keys()) : undefined;
    const all = missingReferences(wanted.services, furniture);
    const create: MissingRef[] = createMissing ? all.filter((m) => m.count === 0 && (m.what === 'category' || m.what === 'booking policy')) : [];
    // What will be created stands in the plan under a placeholder id; the site is planned again once it exists.
    for (const m of create) (m.what === 'category' ? furniture.categories : furniture.policies).add(`new:${m.name}`, m.name);
    const missing = all.filter((m) => !create.includes(m)).map(refText);
    // Add-ons the groups name that the site lacks (--create-missing): created with the furniture, before the services.
    for (const a of groups?.create ?? []) create.push({ what: 'add-on', name: a.name, count: 0, body: groupPlan.addOnBody(a) });
    return { missing, create, plannedAt: planTime(current), items: missing.length ? [] : planApply(wanted, current, furniture, prune, scope), groups: groups?.phase };
  };
  // Several sites: each site's items go to disk as soon as it is planned (bulk/spill.ts), so memory does not grow
  // with the sites; files a killed run left behind are removed first.
  const spill = targets.length > 1 ? await spillPlace(ctx) : undefined;
  const counter = targets.length > 1 ? (await import('../../shared/fan-out.js')).fanOutProgress(ctx, { title: 'planning', sites: targets.length, origin: new URL(targets[0]!.api.baseUrl).origin, perSiteLines: false }) : undefined;
  const made: SitePlan[] = [];
  try {
    return await pool(targets, SITE_CONCURRENCY, async ({ site, api }) => {
      const { items, groups, ...first } = await plan(api, site);
      counter?.siteDone({ siteName: site.name, status: 'planned', counts: {} });
      const p = sitePlan(site, api, items, { ...first, groups }, () => plan(api, site), spill);
      made.push(p);
      return p;
    });
  } catch (err) {
    for (const p of made) p.release();
    throw err;
  } finally {
    await counter?.done();
  }
}

/** Where a fan-out's site plans go on disk: the directory, the name they share, and the writer (bulk/spill.ts). */
interface PlanSpill {
  dir: string;
  name: string;
  write(dir: string, name: string, items: readonly PlannedItem[]): { load(): PlannedItem[]; remove(): void };
}

/** Where a fan-out spills its sites' plans (the journal directory) and the name they share; stale ones swept. */
async function spillPlace(ctx: Context): Promise<PlanSpill> {
  const [{ defaultJournalDir, newRunId }, { SpilledItems, sweepSpills }] = await Promise.all([import('../../../bulk/journal.js'), import('../../../bulk/spill.js')]);
  const dir = defaultJournalDir(ctx.env);
  sweepSpills(dir);
  return { dir, name: `${newRunId(ctx.now())}.site`, write: (d, n, items) => SpilledItems.write(d, n, items) };
}

/**
 * A site's plan: its counts and first preview rows, its items on disk when `spill` is given (else in memory), and
 * its way to plan again (`replan`; default: the same items).
 * @throws Error when the items cannot be written to disk
 */
export function sitePlan(
  site: SiteRef,
  api: ApiClient,
  items: PlannedItem[],
  rest: { missing: string[]; create: MissingRef[]; plannedAt: string; groups?: GroupPhase },
  again?: () => Promise<{ missing: string[]; create: MissingRef[]; items: PlannedItem[] }>,
  spill?: PlanSpill,
): SitePlan {
  const rows: PlanRow[] = [];
  let rowCount = 0;
  const keep = (r: PlanRow) => {
    rowCount += 1;
    if (rows.length < PREVIEW_ROWS) rows.push(r);
  };
  for (const m of rest.create) keep({ site: site.name, action: `create ${m.what}`, slug: m.name, fields: '' });
  for (const i of items) {
    const r = rowOf(site.name, i);
    if (r) keep(r);
  }
  for (const r of rest.groups?.rows ?? []) keep(r);
  const skips = items.filter((i) => i.skip !== undefined).map((i) => ({ id: (i.after as { slug?: string } | undefined)?.slug ?? i.id, outcome: 'skipped', error: i.skip }));
  const counts = planCounts(items);
  const changes = items.filter((i) => !i.unchanged && i.skip === undefined).length + (rest.groups?.changes ?? 0);
  const stored = spill && items.length ? spill.write(spill.dir, `${spill.name}-${site.id}`, items) : undefined;
  let held: PlannedItem[] | undefined = stored ? undefined : items;
  let released = false;
  const load = () => {
    if (released) throw new TypeError(`the plan of site ${site.name} was released`);
    return held ?? stored?.load() ?? [];
  };
  return {
    site,
    api,
    counts,
    changes,
    rows,
    rowCount,
    skips,
    ...rest,
    items: load,
    release: () => {
      released = true;
      held = undefined;
      stored?.remove();
    },
    replan: async () => {
      if (!again) return load();
      const next = await again();
      if (next.missing.length || next.create.length) {
        const { refText } = await import('./catalogue-file.js');
        throw new UserError(`site ${site.name} still lacks ${[...next.missing, ...next.create.map(refText)].join(', ')}`, undefined, ExitCode.Failure);
      }
      return next.items;
    },
  };
}

/** An item's row of the preview (none for an item already as planned). */
export function rowOf(site: string, i: PlannedItem): PlanRow | undefined {
  if (i.unchanged) return undefined;
  const step = i.after as { op: string; slug: string };
  if (i.skip !== undefined) return { site, action: 'skip', slug: step.slug, fields: i.skip };
  return { site, action: step.op, slug: step.slug, fields: step.op === 'update' ? i.changes.map((c) => c.path).join(', ') : '' };
}

/** The outcomes a site's summary always shows, zeros included. */
export const OUTCOMES = ['created', 'updated', 'deleted', 'unchanged', 'conflict', 'failed'] as const;
export const zeros = (): Record<string, number> => Object.fromEntries(OUTCOMES.map((o) => [o, 0]));

/** Counts of a site plan by step, under the outcome names (`created` = to create, in a dry run; `skipped` only when some are). */
export function planCounts(items: readonly PlannedItem[]): Record<string, number> {
  const counts = zeros();
  for (const i of items) {
    if (i.unchanged) counts.unchanged! += 1;
    else if (i.skip !== undefined) counts.skipped = (counts.skipped ?? 0) + 1;
    else {
      const op = (i.after as { op: string }).op;
      counts[op === 'create' ? 'created' : op === 'update' ? 'updated' : 'deleted']! += 1;
    }
  }
  return counts;
}

/** A row of the preview: a step on a site. */
export interface PlanRow {
  site: string;
  action: string;
  slug: string;
  fields: string;
}
