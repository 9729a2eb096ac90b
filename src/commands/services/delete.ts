/**
 * `sitectl services delete`: one service (`delete ID`, confirmed) or many (`--filter | --where | --ids |
 * --ids-file`, or `--resume JOURNAL`) through the bulk engine (issue 2 §5): plan -> preview -> confirm ->
 * chunks of 100 through the bulk delete call -> journal -> report.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { CancelError, ExitCode } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { success } from '../../core/log.js';
import {
  addBulkFlags,
  addSelectionFlags,
  type BulkFlags,
  chooseForm,
  runSelectionBulk,
  promptStream,
  requireConfirmable,
  type SelectionFlags,
} from './bulk-flow.js';

export interface DeleteOptions extends BulkFlags, SelectionFlags {
  id?: string;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('delete')
    .description('Delete one service, or many through a previewed, journaled bulk run')
    .argument('[id]', 'the service to delete (omit with --filter/--where/--ids/--ids-file/--resume)')
    .addHelpText(
      'after',
      `\nExamples:\n` +
        `  sitectl services delete 4f1c... --yes\n` +
        `  sitectl services delete --where hidden=true --dry-run\n` +
        `  sitectl services delete --ids-file old-ids.txt --yes --json`,
    );
  addSelectionFlags(cmd, collect);
  addBulkFlags(cmd);
  cmd.action(async (id: string | undefined, o: Omit<DeleteOptions, 'id'>) => {
    await run({ ...o, id }, ctx);
  });
}

/**
 * Runs `services delete`.
 * @throws UserError (exit 2) for bad flags or missing --yes off a terminal; CancelError (1 declined, 130
 *   Ctrl-C); PartialFailureError (exit 3); ApiError (single form: 404 for an unknown id)
 */
export async function run(opts: DeleteOptions, ctx: Context): Promise<void> {
  if (chooseForm(opts, 'pass a service id, or --filter JSON, --where, --ids or --ids-file') === 'one') {
    return deleteOne(opts.id!, opts, ctx);
  }
  await runSelectionBulk(ctx, 'delete', opts, undefined, (n) => `Delete ${n} service${n === 1 ? '' : 's'}? This cannot be undone.`);
}

async function deleteOne(id: string, opts: DeleteOptions, ctx: Context): Promise<void> {
  requireConfirmable(ctx, opts, `deleting service ${id}`);
  const api = await ctx.api();
  const { getService, deleteService } = await import('../../api/services.js');
  // Read first: an unknown id fails before the prompt, and the prompt can name the service.
  const service = await getService(api, id, { signal: ctx.signal });
  if (opts.dryRun) {
    success(ctx.io, `dry run: would delete ${id} (${service.name ?? 'unnamed'}); nothing was changed`);
    return;
  }
  if (!opts.yes) {
    const { renderConfirm } = await import('../../ui/index.js');
    const ok = await renderConfirm({
      message: `Delete service "${service.name ?? id}" (${id})? This cannot be undone.`,
      defaultValue: false,
      stdout: promptStream(ctx),
    });
    if (!ok) throw new CancelError('Nothing was changed', ExitCode.Failure);
  }
  await deleteService(api, id, { signal: ctx.signal });
  if (opts.json !== undefined && opts.json !== false) ctx.io.stdout.write(`${JSON.stringify({ id, deleted: true })}\n`);
  success(ctx.io, `deleted ${id}`);
}
