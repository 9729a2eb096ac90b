/**
 * `sitectl services update`: one service (`update ID --set path=value ...`: a one-item plan, the field mask
 * derived from the paths, sent at the revision the plan read) or many (`--filter JSON | --where | --ids | --ids-file`, or
 * `--resume JOURNAL`) through the entity bulk engine: plan -> preview -> confirm -> execute -> report
 * (docs/architecture.md "Bulk runs, the journal, history and undo"). Each form sends the platform's own call: one
 * service its PATCH (updateService), ids the bulk update, a filter the update-by-filter job over the planned ids
 * (services/shared/bulk.ts updateServices); every form reads the services first, so undo has the before-images.
 */
import type { Command } from 'commander';
import type { Service } from '../../api/schemas/service.js';
import type { Context } from '../../context.js';
import { collect } from '../../core/filters.js';
import type { ChangeSet } from '../../bulk/changes.js';
import { addBulkFlags, addSelectionFlags, type BulkFlags, chooseForm, type SelectionFlags } from '../shared/bulk-flags.js';
import { declareRule, requireConfirmable, REVERSIBLE } from '../shared/confirm.js';
import { SERVICE_VIEW } from './shared/view.js';

/** The bulk engine and --set parsing, loaded when the verb runs (not when `services list` starts). */
async function engine() {
  const [changes, flow, one, wiring] = await Promise.all([import('../../bulk/changes.js'), import('../shared/bulk.js'), import('../shared/one.js'), import('./shared/bulk.js')]);
  return { ...changes, ...flow, ...one, ...wiring };
}

export interface UpdateOptions extends BulkFlags, SelectionFlags {
  /** Single-service form: the service id (or a unique prefix). */
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
        `  sitectl services update 4f1c --set name="Yoga 101"\n` +
        `  sitectl services update --filter '{"type":"CLASS"}' --set payment.fixed.price.value=45 --dry-run\n` +
        `  sitectl services update --where hidden=true --set hidden=false --yes --json\n` +
        `  sitectl services list --where type=CLASS --ndjson | sitectl services update --ids-file - --set hidden=true --yes\n` +
        `  sitectl services update --resume ~/.local/state/sitectl/journals/<run>.ndjson`,
    );
  addSelectionFlags(cmd, 'services');
  declareRule(addBulkFlags(cmd), REVERSIBLE);
  cmd.action(async (id: string | undefined, o: Omit<UpdateOptions, 'id'>) => {
    await run({ ...o, id }, ctx);
  });
}

/**
 * Runs `services update`. Every flag is checked before the first request.
 * @throws UserError (exit 2) for bad flags, an unknown field in --set, --filter or --json, missing --yes off a
 *   terminal, unknown ids; DeclinedError (1); CancelError on Ctrl-C (130); PartialFailureError (exit 3) when
 *   items failed or conflicted; ApiError from the platform (single form: 404 unknown id, 409 concurrent change)
 */
export async function run(opts: UpdateOptions, ctx: Context): Promise<void> {
  const form = chooseForm(
    opts,
    "pass a service id, or --filter JSON (e.g. --filter '{}' for all), --where, --ids or --ids-file",
    opts.set?.length ? '--set' : undefined,
  );
  const { parseSets, resumeJournal, runBulkVerb, runOneVerb, selectionFromFlags, servicesPort, updateServices } = await engine();
  if (form === 'resume') {
    const journal = await resumeJournal(ctx, { view: SERVICE_VIEW, path: opts.resume!, action: 'update', command: 'services update' });
    const sets = journal.header.args.set ?? [];
    const change: ChangeSet = { sets, mask: sets.map((s) => s.path) };
    requireConfirmable(ctx, opts, REVERSIBLE, 'many', 'updating services');
    const api = await ctx.api();
    await runBulkVerb(ctx, {
      view: SERVICE_VIEW,
      port: servicesPort(api),
      action: updateServices(api, change, journal.header.args),
      resume: journal,
      flags: opts,
      command: 'services update',
      question: (n) => `Update ${n} service${n === 1 ? '' : 's'}?`,
    });
    return;
  }
  const change = parseSets(opts.set ?? [], SERVICE_VIEW);
  if (form === 'one') {
    // A one-item plan through the same action as the bulk form (journaled, so `sitectl undo` sets it back).
    const given = opts.id!;
    return runOneVerb(ctx, {
      resumable: true,
      view: SERVICE_VIEW,
      title: 'Updating',
      build: (api) => ({ port: servicesPort(api), action: updateServices(api, change, { set: change.sets, mask: change.mask.join(',') }) }),
      flags: opts,
      command: 'services update',
      one: {
        given,
        rule: REVERSIBLE,
        already: (s: Service) => `service ${s.id} already has ${change.mask.length === 1 ? 'this value' : 'these values'}`,
        outcome: (after: Service, label: string, before: Service) => `updated ${after.id} (${label}), revision ${before.revision} -> ${after.revision}`,
      },
    });
  }
  const selection = await selectionFromFlags(ctx, SERVICE_VIEW, opts);
  requireConfirmable(ctx, opts, REVERSIBLE, 'many', 'updating services');
  const api = await ctx.api();
  const args = {
    filter: selection.kind === 'filter' ? selection.filter : undefined,
    ids: selection.kind === 'ids' ? selection.ids : undefined,
    set: change.sets,
    mask: change.mask.join(','),
  };
  await runBulkVerb(ctx, {
    view: SERVICE_VIEW,
    port: servicesPort(api),
    action: updateServices(api, change, args),
    selection,
    flags: opts,
    command: 'services update',
    question: (n) => `Update ${n} service${n === 1 ? '' : 's'}?`,
  });
}
