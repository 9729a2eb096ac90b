/**
 * `sitectl services update`: one service (`update ID --set path=value ...`: GET for the revision, PATCH with
 * the field mask derived from the paths) or many (`--filter JSON | --where | --ids | --ids-file`, or
 * `--resume JOURNAL`) through the bulk engine: plan -> preview -> confirm -> execute -> report (issue 2 §4, §5).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { collect } from '../../core/filters.js';
import { notice } from '../../core/log.js';
import { printRecord, resolveFormat } from '../../core/output.js';
import { type ChangeSet, diffChange, parseSets, updateBody } from '../../bulk/changes.js';
import {
  addBulkFlags,
  addSelectionFlags,
  type BulkFlags,
  chooseForm,
  runSelectionBulk,
  type SelectionFlags,
} from './bulk-flow.js';

export interface UpdateOptions extends BulkFlags, SelectionFlags {
  /** Single-service form: the service id. */
  id?: string;
  /** `--set path=value`, in order. */
  set?: string[];
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('update')
    .description('Change fields of one service, or of many through a previewed, journaled bulk run')
    .argument('[id]', 'the service to update (omit with --filter/--where/--ids/--ids-file/--resume)')
    .option('--set <path=value>', 'new value of a field (repeatable); JSON when it parses, else text', collect)
    .addHelpText(
      'after',
      `\nExamples:\n` +
        `  sitectl services update 4f1c... --set name="Yoga 101"\n` +
        `  sitectl services update --filter '{"type":"CLASS"}' --set payment.fixed.price.value=45 --dry-run\n` +
        `  sitectl services update --where hidden=true --set hidden=false --yes --json\n` +
        `  sitectl services update --resume ~/.local/state/sitectl/journals/<run>.ndjson`,
    );
  addSelectionFlags(cmd, collect);
  addBulkFlags(cmd);
  cmd.action(async (id: string | undefined, o: Omit<UpdateOptions, 'id'>) => {
    await run({ ...o, id }, ctx);
  });
}

/**
 * Runs `services update`.
 * @throws UserError (exit 2) for bad flags, an unknown field in --set, missing --yes off a terminal, unknown ids;
 *   CancelError on Ctrl-C (130) or a declined prompt (1); PartialFailureError (exit 3) when items failed or
 *   conflicted; ApiError from the platform (single form: 404 unknown id, 409 concurrent change)
 */
export async function run(opts: UpdateOptions, ctx: Context): Promise<void> {
  const form = chooseForm(
    opts,
    "pass a service id, or --filter JSON (e.g. --filter '{}' for all), --where, --ids or --ids-file",
    opts.set?.length ? '--set' : undefined,
  );
  if (form === 'resume') return runBulkUpdate(opts, undefined, ctx);
  const change = parseSets(opts.set ?? []);
  if (form === 'one') return updateOne(opts.id!, change, opts, ctx);
  return runBulkUpdate(opts, change, ctx);
}

async function updateOne(id: string, change: ChangeSet, opts: UpdateOptions, ctx: Context): Promise<void> {
  const format = resolveFormat({ json: opts.json });
  const api = await ctx.api();
  const { getService, updateService } = await import('../../api/services.js');
  const current = await getService(api, id, { signal: ctx.signal });
  let updated = current;
  const diffs = diffChange(current, change);
  if (diffs.length === 0) {
    notice(ctx.io, `service ${id} already has ${change.mask.length === 1 ? 'this value' : 'these values'}; nothing to change`);
  } else if (opts.dryRun) {
    for (const d of diffs) notice(ctx.io, `${d.path}: ${JSON.stringify(d.before)} -> ${JSON.stringify(d.after)}`);
    notice(ctx.io, 'dry run: nothing was changed');
    return;
  } else {
    updated = await updateService(
      api,
      updateBody(id, current.revision ?? '', change) as Parameters<typeof updateService>[1],
      change.mask,
      { signal: ctx.signal },
    );
    notice(ctx.io, `updated ${id} (revision ${current.revision} -> ${updated.revision})`);
  }
  await printRecord(ctx.io, format, updated, { now: ctx.now() });
}

function runBulkUpdate(opts: UpdateOptions, change: ChangeSet | undefined, ctx: Context): Promise<void> {
  return runSelectionBulk(ctx, 'update', opts, change, (n) => `Update ${n} service${n === 1 ? '' : 's'}?`);
}
