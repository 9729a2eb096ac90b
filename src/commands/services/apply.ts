/**
 * `sitectl services apply -f FILE [--to-site ID|NAME ...] [--prune] [--dry-run] [--yes]`: makes sites hold a
 * catalogue (docs/catalogue.md "The catalogue file"). Per site: a plan matched by slug (create, update with a field-level diff,
 * unchanged, delete only with `--prune`), references resolved by name on that site; a site lacking one is
 * refused before any write, listing what is missing. One preview and one confirmation for every site, then each
 * site's plan runs through the entity bulk engine (bulk create and update at the planned revisions, journaled;
 * `--resume JOURNAL` continues one site's run). Sites run with bounded concurrency; a summary row per site;
 * exit 3 when any site was refused or partly failed. A second run plans nothing. The services' add-on groups
 * (docs/wire.md §28) are set after them, in a run of their own on each site, a part of the same change
 * (shared/add-on-group-plan.ts); add-ons are matched by name and terms, created with `--create-missing`.
 */
import type { Command } from 'commander';
import type { PlannedItem } from '../../bulk/actions.js';
import type { BulkReport } from '../../bulk/report.js';
import type { Context } from '../../context.js';
import { ExitCode, PartialFailureError, UserError } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { readSource } from '../../core/input.js';
import { notice, success, warn } from '../../core/log.js';
import { type Column, fieldsChecker, printRecords, printValue, resolveFormat } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { addBulkFlags, type BulkFlags, parseConcurrency } from '../shared/bulk-flags.js';
import { asksFirst, confirmChange, declareRule, requireConfirmable, REVERSIBLE, type Scope, type VerbRule } from '../shared/confirm.js';
import { SERVICE_VIEW } from './shared/view.js';
import { planCounts, planSites, pool, PREVIEW_ROWS, rowOf, SITE_CONCURRENCY, zeros, type PlanRow, type SiteOutcome, type SitePlan } from './shared/site-plans.js';

export interface ApplyOptions extends BulkFlags {
  file?: string;
  toSite?: string[];
  prune?: boolean;
  createMissing?: boolean;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('apply')
    .description('Make sites hold a catalogue file: create, update (and with --prune delete) services, matched by slug')
    .option('-f, --file <file>', "the catalogue (JSON or YAML from 'services export'; '-' reads stdin)")
    .option('--to-site <site>', 'a target site, id or name (repeatable; default: the site in use)', collect)
    .option('--prune', 'also delete services of the site that the file does not hold (destructive: asks first)')
    .option('--create-missing', 'create categories, booking policies (by name, default rules) and add-ons (by name and terms) a site lacks; never staff');
  declareRule(addBulkFlags(cmd), REVERSIBLE).addHelpText(
    'after',
    '\nExamples:\n  sitectl services export --where type=CLASS -o classes.yaml\n  sitectl services apply -f classes.yaml --to-site Uptown --dry-run\n  sitectl services apply -f classes.yaml --to-site Downtown --to-site Uptown --yes\n  sitectl services apply --resume ~/.local/state/sitectl/journals/RUN.ndjson',
  );
  cmd.action(async (o: ApplyOptions) => {
    await run(o, ctx);
  });
}

const COLUMNS: Column<SiteOutcome>[] = [
  { key: 'siteName', header: 'site' },
  { key: 'status' },
  { key: 'created', get: (o) => o.counts.created ?? 0, align: 'right' },
  { key: 'updated', get: (o) => o.counts.updated ?? 0, align: 'right' },
  { key: 'deleted', get: (o) => o.counts.deleted ?? 0, align: 'right' },
  { key: 'unchanged', get: (o) => o.counts.unchanged ?? 0, align: 'right' },
  { key: 'failed', get: (o) => (o.counts.failed ?? 0) + (o.counts.conflict ?? 0), align: 'right' },
  { key: 'journal', get: (o) => o.journal ?? (o.missing?.length ? `missing: ${o.missing.join('; ')}` : '') },
];

/** The summary's columns when an undo left items alone (changed since). */
const WITH_SKIPPED: Column<SiteOutcome>[] = [...COLUMNS.slice(0, -2), { key: 'skipped', get: (o) => o.counts.skipped ?? 0, align: 'right' }, ...COLUMNS.slice(-2)];


/** A catalogue is many changes, so it always asks; with `--prune` it deletes too, which makes it destructive. */
function applyRule(flags: { prune?: boolean }): VerbRule {
  return { destructive: Boolean(flags.prune) };
}

/**
 * How a run of site plans other than a catalogue's is confirmed and journaled (`sitectl undo` of an apply): its
 * rule and scope, the question, and the change it undoes.
 */
export interface SitePlansRun {
  rule: VerbRule;
  scope: Scope;
  /** The confirm question, given the rows to change. */
  question: string;
  /** The change, for the "needs confirmation" message. */
  what: string;
  /** The id of the change the run undoes (journaled: HeaderLine.undoOf). */
  undoOf?: string;
  /** The change's id, when the caller journals other parts of it too (default: a new one). */
  partOf?: string;
}

/**
 * Shows the plan of every site (a table on stderr for people, the rows on stdout for a piped `--dry-run`),
 * confirms once, and applies each site's plan through the bulk engine. The sites' runs are one change: each
 * site's journal names the same change id (HeaderLine.partOf) and where it ran (RunOrigin), so `sitectl history`
 * lists them once and `sitectl undo` undoes them on every site. Items a plan leaves alone (`skip`) are listed with
 * the reason and never sent.
 * @param run a run other than a catalogue's (an undo); default: a catalogue's, which always asks, and is
 *   destructive with `--prune`
 * @returns each site's outcome
 * @throws UserError (exit 2) without --yes off a terminal; DeclinedError; CancelError on Ctrl-C
 */
export async function applyPlans(ctx: Context, plans: SitePlan[], flags: BulkFlags & { verb: string; prune?: boolean }, run?: SitePlansRun): Promise<SiteOutcome[]> {
  try {
    return await previewAndRun(ctx, plans, flags, run);
  } finally {
    // Whatever happened, the plans' files go (a site's run removed its own as it read it).
    for (const p of plans) p.release();
  }
}

/** {@link applyPlans} itself. */
async function previewAndRun(ctx: Context, plans: SitePlan[], flags: BulkFlags & { verb: string; prune?: boolean }, run?: SitePlansRun): Promise<SiteOutcome[]> {
  const format = resolveFormat({ json: flags.json }, fieldsChecker(['sites', 'dryRun']));
  const outcomes: SiteOutcome[] = plans.map((p) => ({
    siteId: p.site.id,
    siteName: p.site.name,
    status: p.missing.length ? 'refused' : 'planned',
    counts: { ...p.counts },
    ...(p.missing.length ? { missing: p.missing } : {}),
    ...(p.skips.length ? { problems: p.skips } : {}),
  }));
  for (const p of plans) for (const m of p.missing) warn(ctx.io, `site ${p.site.name} has no ${m}: it is refused (nothing is written there)`);
  const work = plans.filter((p) => !p.missing.length && (p.create.length > 0 || p.changes > 0));
  // Only counts and each site's first rows are held: the sum of the plans, and the preview.
  const sum = (of: (p: SitePlan) => number) => plans.reduce((n, p) => n + of(p), 0);
  const rowCount = sum((p) => p.rowCount);
  const changeCount = sum((p) => p.create.length + p.changes);
  if (flags.journal !== undefined && work.length > 1) throw new UserError('--journal names one file, and this run writes one journal per site', 'drop --journal (each site gets its own in the state dir), or apply to one site');
  if (flags.dryRun) {
    // A dry run prints every row: each site's read back from its plan.
    const rowsOf = (p: SitePlan): PlanRow[] => [
      ...p.create.map((m) => ({ site: p.site.name, action: `create ${m.what}`, slug: m.name, fields: '' })),
      ...p.items().flatMap((i) => rowOf(p.site.name, i) ?? []),
      ...(p.groups?.rows ?? []),
    ];
    if (format.kind === 'json') await printValue(ctx.io, format, { dryRun: true, sites: outcomes.map((o, n) => ({ ...o, items: rowsOf(plans[n]!) })) });
    else if (rowCount) await printRecords(ctx.io, format, plans.flatMap(rowsOf), [{ key: 'site' }, { key: 'action' }, { key: 'slug' }, { key: 'fields' }], { now: ctx.now() });
    const sites = (n: number) => `${n} site${n === 1 ? '' : 's'}`;
    const upToDate = plans.filter((p) => !p.missing.length && !work.includes(p)).length;
    const skipped = rowCount - changeCount;
    const parts = [
      ...(work.length ? [`${changeCount} change${changeCount === 1 ? '' : 's'} on ${sites(work.length)}`] : []),
      ...(upToDate ? [`${sites(upToDate)} already up to date`] : []),
      ...(skipped ? [`${skipped} left alone (changed since)`] : []),
    ];
    notice(ctx.io, `dry run: ${parts.length ? parts.join(', ') : 'nothing to change'}; nothing was changed`);
    return outcomes;
  }
  const rule = run?.rule ?? applyRule(flags);
  const scope = run?.scope ?? 'many';
  if (work.length && !flags.yes && asksFirst(rule, scope)) {
    if (ctx.io.isStderrTTY) {
      const shown = plans.flatMap((p) => p.rows).slice(0, PREVIEW_ROWS);
      for (const r of shown) ctx.io.stderr.write(`  ${r.site}\t${r.action}\t${r.slug}${r.fields ? `\t${r.fields}` : ''}\n`);
      if (rowCount > shown.length) ctx.io.stderr.write(`  ... and ${rowCount - shown.length} more\n`);
    }
    const by = (outcome: string) => sum((p) => p.counts[outcome] ?? 0);
    const groupChanges = sum((p) => p.groups?.changes ?? 0);
    const parts = [`${by('created')} to create`, `${by('updated')} to update`, ...(by('deleted') ? [`${by('deleted')} to DELETE`] : []), ...(groupChanges ? [`${groupChanges} add-on group change${groupChanges === 1 ? '' : 's'}`] : [])].join(', ');
    const summary = `${changeCount} change${changeCount === 1 ? '' : 's'} (${parts}) to ${work.length} site${work.length === 1 ? '' : 's'} (${work.map((p) => p.site.name).join(', ')})`;
    await confirmChange(ctx, flags, rule, scope, run ? `${run.question}: ${summary}?` : `Apply ${summary}?`, run?.what ?? `applying to ${work.length} sites`);
  }
  const [{ runBulk }, { newRunId }, { runOrigin }, { applyAction }, { servicesPort }, { refText }] = await Promise.all([
    import('../../bulk/run.js'),
    import('../../bulk/journal.js'),
    import('../shared/bulk.js'),
    import('./shared/apply.js'),
    import('./shared/bulk.js'),
    import('./shared/catalogue-file.js'),
  ]);
  const concurrency = parseConcurrency(flags.concurrency);
  // One change, whatever the number of sites: its id, and where and by what command it was made.
  const partOf = run?.partOf ?? newRunId(ctx.now());
  const origin = await runOrigin(ctx, 'services apply');
  // A fan-out's live counter (a terminal) or its line per site (elsewhere); one site's run shows the engine's own.
  const counter = work.length > 1 ? (await import('../shared/fan-out.js')).fanOutProgress(ctx, { title: run ? 'undoing' : 'applying', sites: work.length, origin: new URL(work[0]!.api.baseUrl).origin, perSiteLines: true }) : undefined;
  const say = (text: string) => {
    if (!counter?.live) notice(ctx.io, text);
  };
  try {
    const outcomeOf = new Map(outcomes.map((o) => [o.siteId, o]));
    await pool(work, SITE_CONCURRENCY, async (p) => {
      const outcome = outcomeOf.get(p.site.id)!;
      await runSite(p, outcome);
      counter?.siteDone(outcome);
    });
  } finally {
    await counter?.done();
  }
  for (const o of outcomes) if (o.status === 'planned') o.status = 'unchanged';
  return outcomes;

  /** One site's plan through the engine; its outcome is written into `outcome`. */
  async function runSite(p: SitePlan, outcome: SiteOutcome): Promise<void> {
    /** Items of the apply action through the engine, journaled as a part of this change. */
    const runItems = (items: PlannedItem[], journalPath?: string) =>
      runBulk(
        servicesPort(p.api),
        applyAction(p.api, servicesPort(p.api), items, { options: { siteId: p.site.id, siteName: p.site.name, plannedAt: p.plannedAt } }),
        {
          dryRun: false,
          concurrency,
          previewLimit: 0,
          signal: ctx.signal,
          env: ctx.env,
          now: ctx.now(),
          journalPath,
          resumeCommand: (journal) => `${ctx.bin} ${flags.verb} --resume ${journal}`,
          origin: { ...origin, siteId: p.site.id, siteName: p.site.name },
          partOf,
          undoOf: run?.undoOf,
        },
        {
          confirm: async () => true,
          onJournal: (path) => say(`site ${p.site.name}: journal ${path}`),
          ...(counter ? { progress: () => ({ update: (pr: { done: number }) => counter.items(p.site.id, pr.done), done: async () => {} }) } : {}),
        },
      );
    // One site's failure is that site's: the others finish, and the summary says what happened where.
    try {
      // The site's items, read back from disk for its run only (four sites at a time).
      let items = p.items();
      p.release();
      if (p.create.length) {
        const [{ runCreateOne }, { CATEGORY_WRITES }, { POLICY_WRITES }, { ADD_ON_WRITES }] = await Promise.all([
          import('../shared/one.js'),
          import('./shared/category-writes.js'),
          import('./shared/policy-writes.js'),
          import('./shared/add-on-writes.js'),
        ]);
        const writes = { category: CATEGORY_WRITES, 'booking policy': POLICY_WRITES, 'add-on': ADD_ON_WRITES } as Record<string, typeof CATEGORY_WRITES>;
        // Each through the engine, journaled as a part of this change that prepares the site's run (so `sitectl
        // undo` of the change deletes the policies after the services; categories it lists as kept).
        const part = { api: p.api, origin: { ...origin, siteId: p.site.id, siteName: p.site.name }, partOf };
        for (const m of p.create) {
          await runCreateOne(ctx, writes[m.what]!, m.body ?? { name: m.name }, m.name, part);
          say(`site ${p.site.name}: created ${refText(m)}`);
          outcome.createdFurniture = [...(outcome.createdFurniture ?? []), refText(m)];
        }
        items = await p.replan();
      }
      outcome.status = 'applied';
      outcome.counts = planCounts(items);
      if (items.some((i) => !i.unchanged && i.skip === undefined)) {
        const result = await runItems(items, flags.journal);
        if (result.kind !== 'done') return;
        const bad = (result.report.counts.failed ?? 0) + (result.report.counts.conflict ?? 0);
        outcome.status = bad ? 'partial' : 'applied';
        outcome.counts = { ...zeros(), ...countsOf(result.report) };
        outcome.journal = result.journal;
        const labels = new Map(items.map((i) => [i.id, (i.after as { slug?: string } | undefined)?.slug ?? i.name ?? i.id]));
        if (result.report.problems.length) outcome.problems = result.report.problems.map((x) => ({ ...x, id: labels.get(x.id) ?? x.id }));
      }
      // The add-on groups, once the services are there: a run of their own, a part of the same change.
      if (p.groups) await (await import('./shared/add-on-group-plan.js')).runGroupPhase(p.groups, outcome, (items) => runItems(items, outcome.journal ? undefined : flags.journal), (text) => say(`site ${p.site.name}: ${text}`));
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      outcome.status = 'failed';
      outcome.error = oneLine(err instanceof Error ? err.message : String(err));
    }
  }
}

/** A report's counts under the summary's names (`created`, `updated`, `deleted`, `unchanged`, ...). */
function countsOf(report: BulkReport): Record<string, number> {
  const { applied: _applied, ...rest } = report.counts;
  return rest;
}

/**
 * Prints the per-site summary and throws when a site was refused or partly failed.
 * @throws PartialFailureError (exit 3)
 */
export async function reportSites(ctx: Context, outcomes: SiteOutcome[], json: BulkFlags['json'], verb: string): Promise<void> {
  const format = resolveFormat({ json }, fieldsChecker(['sites', 'dryRun']));
  if (format.kind === 'json') await printValue(ctx.io, format, { sites: outcomes });
  else await printRecords(ctx.io, format, outcomes, outcomes.some((o) => o.counts.skipped) ? WITH_SKIPPED : COLUMNS, { now: ctx.now() });
  for (const o of outcomes) for (const p of o.problems ?? []) warn(ctx.io, `site ${o.siteName}: ${p.id} ${p.outcome}: ${oneLine(p.error ?? '')}`);
  for (const o of outcomes) if (o.error) warn(ctx.io, `site ${o.siteName}: ${o.error}`);
  const refused = outcomes.filter((o) => o.status === 'refused');
  const partial = outcomes.filter((o) => o.status === 'partial' || o.status === 'failed');
  if (refused.length || partial.length) {
    const parts = [...(refused.length ? [`${refused.length} refused (missing references)`] : []), ...(partial.length ? [`${partial.length} partly failed`] : [])];
    const resumable = partial.find((o) => o.journal);
    throw new PartialFailureError(
      `${parts.join(', ')} of ${outcomes.length} site${outcomes.length === 1 ? '' : 's'}`,
      resumable ? `retry a site with: ${ctx.bin} ${verb} --resume ${resumable.journal} (running the same command again is safe too)` : partial.length ? 'run the same command again: it plans only what is still missing' : 'create the missing furniture on those sites (or pass --create-missing), then run again',
    );
  }
  // Only an undo's plan leaves items alone: changed since the change it undoes, never overwritten.
  const skipped = outcomes.filter((o) => o.counts.skipped);
  if (skipped.length) {
    const n = skipped.reduce((sum, o) => sum + (o.counts.skipped ?? 0), 0);
    throw new PartialFailureError(`${n} service${n === 1 ? ' was' : 's were'} changed since and left as ${n === 1 ? 'it is' : 'they are'} (${skipped.map((o) => o.siteName).join(', ')})`, "'sitectl history' shows the changes made since");
  }
  success(ctx.io, outcomes.map((o) => `${o.siteName}: ${o.status}`).join('; '));
}

/**
 * After a `--dry-run`: exit 3 when a site would be refused (so a CI preflight sees it), as the real run would.
 * @throws PartialFailureError
 */
export function finishDryRun(outcomes: readonly SiteOutcome[]): void {
  const refused = outcomes.filter((o) => o.status === 'refused');
  if (refused.length) {
    throw new PartialFailureError(`${refused.length} of ${outcomes.length} site${outcomes.length === 1 ? '' : 's'} would be refused (missing references): ${refused.map((o) => o.siteName).join(', ')}`, 'create the missing furniture on those sites (or pass --create-missing)');
  }
}

/**
 * With one target site that lacks references: one line listing them. Exit 3, as when one of several sites is
 * refused (docs/manual/commands.md "CI: roll a catalog out to several sites": 3 when a site was refused or partly failed), whatever the number of sites.
 * @throws UserError (exit 3)
 */
export function refuseSingleSite(plans: readonly SitePlan[], hint: string): void {
  if (plans.length === 1 && plans[0]!.missing.length) {
    throw new UserError(`site ${plans[0]!.site.name} lacks ${plans[0]!.missing.join(', ')}; nothing was changed`, hint, ExitCode.PartialFailure);
  }
}

/**
 * Runs `services apply`. @throws UserError (exit 2) for bad flags, a bad file or an unknown site; (exit 3) a
 *   single target refused for missing references; PartialFailureError (exit 3); DeclinedError; CancelError
 */
export async function run(opts: ApplyOptions, ctx: Context): Promise<void> {
  parseConcurrency(opts.concurrency);
  if (opts.resume === undefined) resolveFormat({ json: opts.json }, fieldsChecker(['sites', 'dryRun']));
  if (opts.resume !== undefined) {
    if (opts.file !== undefined || opts.toSite?.length) throw new UserError('--resume continues the recorded run; it takes no -f or --to-site');
    return resumeSite(opts, ctx);
  }
  if (!opts.file) throw new UserError('which catalogue?', "pass -f FILE (written by 'services export')");
  const { parseCatalogue } = await import('./shared/catalogue-file.js');
  const wanted = parseCatalogue(await readSource('--file', opts.file, ctx.io.stdin, 'catalogue'), opts.file, ctx.flags.allowUnknownFields);
  requireConfirmable(ctx, opts, applyRule(opts), 'many', 'applying a catalogue');
  const sites = opts.toSite?.length ? opts.toSite : [(await ctx.api()).siteId ?? ''];
  const plans = await planSites(ctx, wanted, sites, Boolean(opts.prune), Boolean(opts.createMissing));
  let outcomes: SiteOutcome[];
  try {
    refuseSingleSite(plans, 'create them on that site (staff are never created), or change the file');
    outcomes = await applyPlans(ctx, plans, { ...opts, verb: 'services apply' });
  } finally {
    for (const p of plans) p.release();
  }
  if (opts.dryRun) return finishDryRun(outcomes);
  await reportSites(ctx, outcomes, opts.json, 'services apply');
}

/** `--resume JOURNAL`: one site's recorded run, continued from the journal's planned steps. */
async function resumeSite(opts: ApplyOptions, ctx: Context): Promise<void> {
  const [{ resumeJournal, runBulkVerb }, { applyAction }, { servicesPort }] = await Promise.all([import('../shared/bulk.js'), import('./shared/apply.js'), import('./shared/bulk.js')]);
  const journal = await resumeJournal(ctx, { view: SERVICE_VIEW, path: opts.resume!, action: 'apply', command: 'services apply', site: false });
  const siteId = journal.header.args.options?.siteId;
  if (!siteId) throw new UserError(`${opts.resume} records no site`);
  const { api, site } = await ctx.siteApi(String(siteId));
  const items: PlannedItem[] = journal.planned.map((p) => ({ id: p.id, revision: p.revision, name: p.name, after: p.after, changes: [] }));
  notice(ctx.io, `resuming the apply run on site ${site.name}`);
  await runBulkVerb(ctx, {
    view: SERVICE_VIEW,
    port: servicesPort(api),
    action: applyAction(api, servicesPort(api), items, journal.header.args),
    resume: journal,
    flags: opts,
    command: 'services apply',
    question: (n) => `Apply the ${n} remaining change${n === 1 ? '' : 's'} to site ${site.name}?`,
  });
}
