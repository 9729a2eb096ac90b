/**
 * `sitectl services clone ID [--count N]`: copies a service under a new id and slug. One clone prints the new
 * service; `--count N` runs N clones through the bulk engine with bounded concurrency and a journal whose
 * `created` lines let `--resume` create only the clones still missing (issue 2 §5).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { parseIntFlag } from '../../core/filters.js';
import { success } from '../../core/log.js';
import { printRecord, resolveFormat } from '../../core/output.js';
import { runBulk } from '../../bulk/run.js';
import {
  addBulkFlags,
  type BulkFlags,
  bulkHooks,
  finishRun,
  parseConcurrency,
  PREVIEW_ROWS,
  requireConfirmable,
} from './bulk-flow.js';

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
    .addHelpText(
      'after',
      `\nExamples:\n` +
        `  sitectl services clone 4f1c... --json id,name\n` +
        `  sitectl services clone 4f1c... --count 20 --yes --concurrency 4`,
    );
  addBulkFlags(cmd);
  cmd.action(async (id: string | undefined, o: Omit<CloneOptions, 'id'>) => {
    await run({ ...o, id }, ctx);
  });
}

/**
 * Runs `services clone`.
 * @throws UserError (exit 2) for bad flags or missing --yes off a terminal (with --count); ApiError for an
 *   unknown source id; CancelError; PartialFailureError (exit 3) when some clones failed
 */
export async function run(opts: CloneOptions, ctx: Context): Promise<void> {
  if (opts.resume !== undefined) {
    if (opts.id !== undefined || opts.count !== undefined) {
      throw new UserError('--resume continues the recorded run; it takes no id or --count');
    }
  } else if (opts.id === undefined) {
    throw new UserError('which service?', 'pass the id of the service to copy');
  }
  const count = opts.count === undefined ? 1 : parseIntFlag(opts.count, '--count', 1, MAX_CLONES);
  const bulk = opts.resume !== undefined || opts.count !== undefined;
  const api = await ctx.api();
  const services = await import('../../api/services.js');
  if (!bulk) {
    const format = resolveFormat({ json: opts.json });
    if (opts.dryRun) {
      const source = await services.getService(api, opts.id!, { signal: ctx.signal });
      success(ctx.io, `dry run: would copy ${source.id} (${source.name ?? 'unnamed'}); nothing was changed`);
      return;
    }
    const reply = await services.cloneService(api, opts.id!, { signal: ctx.signal });
    success(ctx.io, `cloned ${opts.id} -> ${reply.service.id}`);
    await printRecord(ctx.io, format, reply.service, { now: ctx.now() });
    return;
  }
  const concurrency = parseConcurrency(opts.concurrency);
  requireConfirmable(ctx, opts, `creating ${count} copies`);
  const source = opts.resume === undefined ? await services.getService(api, opts.id!, { signal: ctx.signal }) : undefined;
  const { servicesPort } = await import('../../bulk/api-port.js');
  const result = await runBulk(
    servicesPort(api),
    {
      action: 'clone',
      clone: source ? { source, count } : undefined,
      resumePath: opts.resume,
      journalPath: opts.journal,
      dryRun: Boolean(opts.dryRun),
      concurrency,
      previewLimit: PREVIEW_ROWS,
      signal: ctx.signal,
      env: ctx.env,
      now: ctx.now(),
    },
    bulkHooks(ctx, 'clone', opts, [], (n) => `Create ${n} cop${n === 1 ? 'y' : 'ies'} of "${source?.name ?? source?.id ?? 'the service'}"?`),
  );
  await finishRun(ctx, 'clone', result, opts, []);
}
