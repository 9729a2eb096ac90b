/**
 * `sitectl services clone ID [--count N]`: copies a service under a new id and slug. One clone prints the new
 * service; `--count N` makes N clones through the entity bulk engine with bounded concurrency and a journal
 * whose `created` lines let `--resume` create only the clones still missing (docs/architecture.md "Bulk runs, the journal, history and undo").
 *
 * `sitectl services clone --to-site ID|NAME [--to-site ...] [ID ... | --filter | --where]` copies services of the
 * site in use to other sites of the account instead (docs/catalogue.md "The catalogue file"): the export of those services, then
 * `services apply` of it on each target (matched by slug, references by name, a re-run changes nothing).
 */
import type { Command } from 'commander';
import { services } from '../../api/services.js';
import type { Context } from '../../context.js';
import { ExitCode, PartialFailureError, UserError } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { shellWord } from '../../core/invocation.js';
import { parseCount } from '../../core/numbers.js';
import { notice, success } from '../../core/log.js';
import { printRecord } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { addBulkFlags, type BulkFlags } from '../shared/bulk-flags.js';
import { declareRule, requireConfirmable, REVERSIBLE } from '../shared/confirm.js';
import { formatOf, idOf } from '../shared/verbs.js';
import { SERVICE_VIEW } from './shared/view.js';

export interface CloneOptions extends BulkFlags {
  id?: string;
  /** With `--to-site`: every id given. */
  ids?: string[];
  /** `--count N` as given (validated in run). */
  count?: string;
  toSite?: string[];
  createMissing?: boolean;
  filter?: string;
  where?: string[];
}

/** Largest `--count` accepted in one run. */
export const MAX_CLONES = 1000;

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('clone')
    .description('Copy a service under a new id and slug; --count N makes N copies in a journaled bulk run')
    .argument('[ids...]', 'the service to copy (omit with --resume); with --to-site, any number of them')
    .option('--count <n>', `how many copies (1-${MAX_CLONES}); above 1 the run is previewed, confirmed and journaled`)
    .option('--to-site <site>', 'copy to this site of the account instead (id or name; repeatable)', collect)
    .option('--create-missing', 'with --to-site: create categories, booking policies and add-ons a site lacks (never staff)')
    .option('--filter <json>', 'with --to-site: the services matching this filter')
    .option('--where <field=value>', 'with --to-site: services where field=value (repeatable)', collect)
    .addHelpText(
      'after',
      `\nExamples:\n  sitectl services clone 4f1c --json id,name\n  sitectl services clone 4f1c --count 20 --yes --concurrency 4\n  sitectl services clone --to-site Uptown --where type=CLASS --yes\n  sitectl services clone 4f1c 9a02 --to-site Uptown --to-site 'Mission Bay' --dry-run`,
    );
  declareRule(addBulkFlags(cmd), REVERSIBLE);
  cmd.action(async (ids: string[], o: Omit<CloneOptions, 'id' | 'ids'>) => {
    if (o.toSite?.length) return runToSites({ ...o, ids }, ctx);
    if (ids.length > 1) throw new UserError('clone copies one service within the site', 'pass one id, or --to-site SITE to copy several to other sites');
    if (o.filter !== undefined || o.where?.length || o.createMissing) throw new UserError('--filter, --where and --create-missing go with --to-site SITE (copies to other sites)');
    await run({ ...o, id: ids[0] }, ctx);
  });
}

/**
 * Runs `services clone`.
 * @throws UserError (exit 2) for bad flags or missing --yes off a terminal (with --count); ApiError for an
 *   unknown source id; DeclinedError; CancelError; PartialFailureError (exit 3) when some clones failed
 */
export async function run(opts: CloneOptions, ctx: Context): Promise<void> {
  if (opts.resume !== undefined) {
    if (opts.id !== undefined || opts.count !== undefined) throw new UserError('--resume continues the recorded run; it takes no id or --count');
  } else if (opts.id === undefined) {
    throw new UserError('which service?', 'pass the id of the service to copy');
  }
  const count = opts.count === undefined ? 1 : parseCount(opts.count, '--count', 1, MAX_CLONES);
  const bulk = opts.resume !== undefined || opts.count !== undefined;
  if (!bulk) {
    await cloneOne(opts, ctx);
    return;
  }
  const [{ bulkFormat, resumeJournal, runBulkVerb }, { cloneServices, copyName, servicesNamed, servicesPort }] = await Promise.all([import('../shared/bulk.js'), import('./shared/bulk.js')]);
  bulkFormat(opts);
  requireConfirmable(ctx, opts, REVERSIBLE, 'many', `creating ${count} copies`);
  const journal = opts.resume !== undefined ? await resumeJournal(ctx, { view: SERVICE_VIEW, path: opts.resume, action: 'clone', command: 'services clone' }) : undefined;
  const api = await ctx.api();
  const sourceId = journal ? journal.header.args.sourceId : await idOf(ctx, api, SERVICE_VIEW, opts.id!);
  if (!sourceId) throw new UserError(`${opts.resume} records no source service`);
  const { service: source } = await services.getService(api, { serviceId: sourceId }, { signal: ctx.signal });
  await runBulkVerb(ctx, {
    view: SERVICE_VIEW,
    port: servicesPort(api),
    // The services already named as the copies will be: a resumed run never takes them for its own.
    action: cloneServices(api, source, journal?.header.args.count ?? count, journal ? (journal.header.args.existing ?? []) : (await servicesNamed(api, copyName(source), ctx.signal)).map((s) => s.id)),
    resume: journal,
    flags: opts,
    command: 'services clone',
    question: (n) => `Create ${n} cop${n === 1 ? 'y' : 'ies'} of "${oneLine(source.name ?? source.id)}"?`,
  });
}

/**
 * One copy (`services clone ID`): a one-item create of the bulk engine (bulk/one.ts createOne), so it is
 * journaled, listed by `sitectl history` and taken back by `sitectl undo` like `--count N`; prints the copy (with
 * `note` in JSON when the platform copied it only partly, docs/wire.md §14).
 * @throws ApiError for an unknown source id; UserError (exit 1) when the copy failed, naming where to look
 */
async function cloneOne(opts: CloneOptions, ctx: Context): Promise<void> {
  const format = formatOf(ctx, SERVICE_VIEW, opts);
  const api = await ctx.api();
  const id = await idOf(ctx, api, SERVICE_VIEW, opts.id!);
  const { service: source } = await services.getService(api, { serviceId: id }, { signal: ctx.signal });
  if (opts.dryRun) {
    success(ctx.io, `dry run: would copy ${source.id} (${oneLine(source.name ?? 'unnamed')}); nothing was changed`);
    return;
  }
  const [{ createOne }, { keepHistory, runOrigin }, { cloneServices, copyName, servicesNamed, servicesPort }] = await Promise.all([
    import('../../bulk/one.js'),
    import('../shared/bulk.js'),
    import('./shared/bulk.js'),
  ]);
  const existing = (await servicesNamed(api, copyName(source), ctx.signal)).map((s) => s.id);
  const r = await createOne(servicesPort(api), cloneServices(api, source, 1, existing), {
    dryRun: false,
    signal: ctx.signal,
    env: ctx.env,
    now: ctx.now(),
    // A single clone is not resumed: it is made again, or taken back by `sitectl undo`.
    resumeCommand: () => '',
    origin: await runOrigin(ctx),
  });
  if (r.kind !== 'sent') throw new TypeError('a clone without --dry-run came back as a plan');
  keepHistory(ctx, opts, r.journal, r.result.outcome !== 'created');
  if (r.result.httpStatus === 429) {
    // A 429 is the platform's refusal before it acts on the request: nothing was copied.
    throw new UserError(`the service was not copied: ${oneLine(r.result.error ?? r.result.outcome)}`, 'the platform refused it before acting on it (rate limit), so nothing was copied: run the command again later', ExitCode.Failure);
  }
  if (r.result.outcome !== 'created' || !r.result.createdId) {
    throw new UserError(`the service was not copied: ${oneLine(r.result.error ?? r.result.outcome)}`, `it may have been copied all the same: '${ctx.bin} services list --where ${shellWord(`name=${copyName(source)}`)}' shows it`, ExitCode.Failure);
  }
  const { service: copy } = await services.getService(api, { serviceId: r.result.createdId }, { signal: ctx.signal });
  success(ctx.io, `cloned ${id} -> ${copy.id}`);
  // A copy made partly carries its per-item `note` in --json and --ndjson (the shape of the --count report's
  // `partial[].note`), whatever fields --json picks: it is the outcome, not a field of the service.
  const note = r.result.note;
  const shown = note && format.kind === 'json' && format.fields ? { ...format, fields: [...format.fields, 'note'] } : format;
  await printRecord(ctx.io, shown, note ? { ...copy, note } : copy, { rows: SERVICE_VIEW.rows(copy), columns: SERVICE_VIEW.columns, now: ctx.now() });
  // The copy is made but lacks part of the source (the reply's clone errors): a partly done run, exit 3.
  if (r.result.note) throw new PartialFailureError(`the copy ${copy.id} was made only partly: ${oneLine(r.result.note)}`, `add what is missing to ${copy.id} by hand, or take the copy back with '${ctx.bin} undo'`);
}

/**
 * `clone --to-site`: exports the chosen services of the site in use and applies that catalogue to each target.
 * @throws UserError (exit 2) for bad flags, unknown ids or sites, a missing --yes off a terminal; (exit 3) a single
 *   target refused for missing references; PartialFailureError (exit 3); DeclinedError; CancelError
 */
export async function runToSites(opts: CloneOptions, ctx: Context): Promise<void> {
  if (opts.count !== undefined) throw new UserError('--count copies within the site; --to-site copies each service once per site');
  if (opts.resume !== undefined) throw new UserError("--resume continues one site's run: use 'services apply --resume JOURNAL'");
  const ids = opts.ids ?? [];
  const byFlags = opts.filter !== undefined || Boolean(opts.where?.length);
  if (ids.length && byFlags) throw new UserError('choose either ids or --filter/--where, not both');
  if (!ids.length && !byFlags) throw new UserError('which services?', "pass ids, --where type=CLASS, or --filter '{}' for every service");
  const [{ filterOf, wireFilter }, { readCatalogue }, { checkServices }, { applyPlans, finishDryRun, refuseSingleSite, reportSites }, { planSites }] = await Promise.all([
    import('../shared/entity-view.js'),
    import('./shared/catalogue.js'),
    import('./shared/catalogue-file.js'),
    import('./apply.js'),
    import('./shared/site-plans.js'),
  ]);
  const filter = byFlags ? filterOf(ctx, SERVICE_VIEW, opts) : undefined;
  requireConfirmable(ctx, opts, REVERSIBLE, 'many', `copying services to ${opts.toSite!.length} site${opts.toSite!.length === 1 ? '' : 's'}`);
  const api = await ctx.api();
  const chosen = ids.length ? { id: { $in: await Promise.all(ids.map((id) => idOf(ctx, api, SERVICE_VIEW, id))) } } : wireFilter(SERVICE_VIEW, filter);
  const { catalogue } = await readCatalogue(api, chosen, ctx.signal);
  if (catalogue.services.length === 0) {
    notice(ctx.io, 'No services match; nothing to copy.');
    return;
  }
  // The same check as a catalogue file gets, so a service the targets could not take is refused before any write.
  checkServices(catalogue.services, 'the services to copy');
  const plans = await planSites(ctx, catalogue, opts.toSite!, false, Boolean(opts.createMissing));
  let outcomes: Awaited<ReturnType<typeof applyPlans>>;
  try {
    const source = plans.find((p) => p.site.id === api.siteId);
    if (source) throw new UserError(`--to-site ${source.site.name} is the site the services are copied from`);
    refuseSingleSite(plans, 'create them on that site (staff are never created), or copy fewer services');
    outcomes = await applyPlans(ctx, plans, { ...opts, verb: 'services apply' });
  } finally {
    // The sites' plans on disk go, whatever stopped the run.
    for (const p of plans) p.release();
  }
  if (opts.dryRun) return finishDryRun(outcomes);
  await reportSites(ctx, outcomes, opts.json, 'services apply');
}
