/**
 * `sitectl services delete`: one service (`delete ID`, confirmed) or many (`--filter | --where | --ids |
 * --ids-file`, or `--resume JOURNAL`) through the entity bulk engine: plan -> preview -> confirm -> chunks of
 * 100 through the bulk delete call -> journal -> report.
 */
import type { Command } from 'commander';
import { services } from '../../api/services.js';
import type { Context } from '../../context.js';
import { success } from '../../core/log.js';
import { fieldsChecker, printValue, resolveFormat } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { addBulkFlags, addSelectionFlags, type BulkFlags, chooseForm, requireConfirmable, type SelectionFlags } from '../shared/bulk-flags.js';
import { idOf } from '../shared/verbs.js';
import { SERVICE_VIEW } from './shared/view.js';

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
        `  sitectl services delete 4f1c --yes\n` +
        `  sitectl services delete --where hidden=true --dry-run\n` +
        `  sitectl services delete --ids-file old-ids.txt --yes --json`,
    );
  addSelectionFlags(cmd, 'services');
  addBulkFlags(cmd);
  cmd.action(async (id: string | undefined, o: Omit<DeleteOptions, 'id'>) => {
    await run({ ...o, id }, ctx);
  });
}

const question = (n: number) => `Delete ${n} service${n === 1 ? '' : 's'}? This cannot be undone.`;

/**
 * Runs `services delete`.
 * @throws UserError (exit 2) for bad flags or missing --yes off a terminal; DeclinedError (1); CancelError
 *   (130); PartialFailureError (exit 3); ApiError (single form: 404 for an unknown id)
 */
export async function run(opts: DeleteOptions, ctx: Context): Promise<void> {
  const form = chooseForm(opts, 'pass a service id, or --filter JSON, --where, --ids or --ids-file');
  if (form === 'one') return deleteOne(opts.id!, opts, ctx);
  const [{ resumeJournal, runBulkVerb, selectionFromFlags }, { deleteServices, servicesPort }] = await Promise.all([
    import('../shared/bulk.js'),
    import('./shared/bulk.js'),
  ]);
  const journal = form === 'resume' ? resumeJournal(SERVICE_VIEW, opts.resume!, 'delete') : undefined;
  const selection = journal ? undefined : await selectionFromFlags(ctx, SERVICE_VIEW, opts);
  requireConfirmable(ctx, opts, 'deleting services');
  const api = await ctx.api();
  await runBulkVerb(ctx, {
    view: SERVICE_VIEW,
    port: servicesPort(api),
    action: deleteServices(api, journal?.header.args ?? { filter: selection?.kind === 'filter' ? selection.filter : undefined, ids: selection?.kind === 'ids' ? selection.ids : undefined }),
    selection,
    resume: journal,
    flags: opts,
    command: 'services delete',
    question,
  });
}

async function deleteOne(given: string, opts: DeleteOptions, ctx: Context): Promise<void> {
  const format = resolveFormat({ json: opts.json }, fieldsChecker(['id', 'deleted']));
  requireConfirmable(ctx, opts, `deleting service ${given}`);
  const api = await ctx.api();
  const id = await idOf(ctx, api, SERVICE_VIEW, given);
  // Read first: an unknown id fails before the prompt, and the prompt can name the service.
  const { service } = await services.getService(api, { serviceId: id }, { signal: ctx.signal });
  const name = oneLine(service.name ?? 'unnamed');
  if (opts.dryRun) {
    success(ctx.io, `dry run: would delete ${id} (${name}); nothing was changed`);
    return;
  }
  if (!opts.yes) await ctx.prompter.require(`Delete service "${name}" (${id})? This cannot be undone.`, { what: `deleting service ${id}` });
  await services.deleteService(api, { serviceId: id }, { signal: ctx.signal });
  if (format.kind === 'json') await printValue(ctx.io, format, { id, deleted: true });
  success(ctx.io, `deleted ${id}`);
}
