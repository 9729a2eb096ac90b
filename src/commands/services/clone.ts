/**
 * `sitectl services clone ID [--count N]`: copies a service under a new id and slug. One clone prints the new
 * service; `--count N` makes N clones through the entity bulk engine with bounded concurrency and a journal
 * whose `created` lines let `--resume` create only the clones still missing (issue 2 section 5).
 */
import type { Command } from 'commander';
import { services } from '../../api/services.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { parseIntFlag } from '../../core/filters.js';
import { success } from '../../core/log.js';
import { printRecord } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { addBulkFlags, type BulkFlags, requireConfirmable } from '../shared/bulk-flags.js';
import { formatOf, idOf } from '../shared/verbs.js';
import { SERVICE_VIEW } from './shared/view.js';

export interface CloneOptions extends BulkFlags {
  id?: string;
  /** `--count N` as given (validated in run). */
  count?: string;
}

/** Largest `--count` accepted in one run. */
export const MAX_CLONES = 1000;

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('clone')
    .description('Copy a service under a new id and slug; --count N makes N copies in a journaled bulk run')
    .argument('[id]', 'the service to copy (omit with --resume)')
    .option('--count <n>', `how many copies (1-${MAX_CLONES}); above 1 the run is previewed, confirmed and journaled`)
    .addHelpText('after', `\nExamples:\n  sitectl services clone 4f1c --json id,name\n  sitectl services clone 4f1c --count 20 --yes --concurrency 4`);
  addBulkFlags(cmd);
  cmd.action(async (id: string | undefined, o: Omit<CloneOptions, 'id'>) => {
    await run({ ...o, id }, ctx);
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
  const count = opts.count === undefined ? 1 : parseIntFlag(opts.count, '--count', 1, MAX_CLONES);
  const bulk = opts.resume !== undefined || opts.count !== undefined;
  if (!bulk) {
    const format = formatOf(ctx, SERVICE_VIEW, opts);
    const api = await ctx.api();
    const id = await idOf(ctx, api, SERVICE_VIEW, opts.id!);
    if (opts.dryRun) {
      const { service } = await services.getService(api, { serviceId: id }, { signal: ctx.signal });
      success(ctx.io, `dry run: would copy ${service.id} (${oneLine(service.name ?? 'unnamed')}); nothing was changed`);
      return;
    }
    const reply = await services.cloneService(api, { sourceServiceId: id }, { signal: ctx.signal });
    success(ctx.io, `cloned ${id} -> ${reply.service.id}`);
    await printRecord(ctx.io, format, reply.service, { rows: SERVICE_VIEW.rows(reply.service), columns: SERVICE_VIEW.columns, now: ctx.now() });
    return;
  }
  const [{ bulkFormat, resumeJournal, runBulkVerb }, { cloneServices, servicesPort }] = await Promise.all([import('../shared/bulk.js'), import('./shared/bulk.js')]);
  bulkFormat(opts);
  requireConfirmable(ctx, opts, `creating ${count} copies`);
  const journal = opts.resume !== undefined ? resumeJournal(SERVICE_VIEW, opts.resume, 'clone') : undefined;
  const api = await ctx.api();
  const sourceId = journal ? journal.header.args.sourceId : await idOf(ctx, api, SERVICE_VIEW, opts.id!);
  if (!sourceId) throw new UserError(`${opts.resume} records no source service`);
  const { service: source } = await services.getService(api, { serviceId: sourceId }, { signal: ctx.signal });
  await runBulkVerb(ctx, {
    view: SERVICE_VIEW,
    port: servicesPort(api),
    action: cloneServices(api, source, journal?.header.args.count ?? count),
    resume: journal,
    flags: opts,
    command: 'services clone',
    question: (n) => `Create ${n} cop${n === 1 ? 'y' : 'ies'} of "${oneLine(source.name ?? source.id)}"?`,
  });
}
