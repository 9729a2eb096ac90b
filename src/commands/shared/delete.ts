/**
 * `NOUN delete`, the verb every deletable entity noun shares (docs/architecture.md "Layout and dependency direction"): one entity (`delete ID`,
 * read first so an unknown id fails before the prompt and the prompt names it) or many (`--filter | --where |
 * --ids | --ids-file`, or `--resume JOURNAL`) through the entity bulk engine: plan -> preview -> confirm ->
 * chunks -> journal -> report. The engine and the family's bulk wiring are loaded only by the bulk form.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import type { EntityAction } from '../../bulk/actions.js';
import type { JournalArgs } from '../../bulk/journal.js';
import type { EntityPort } from '../../bulk/port.js';
import type { Context } from '../../context.js';
import { success } from '../../core/log.js';
import { fieldsChecker, printValue, resolveFormat } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { addBulkFlags, addSelectionFlags, type BulkFlags, chooseForm, type SelectionFlags } from './bulk-flags.js';
import { confirmChange, declareRule, DESTRUCTIVE, requireConfirmable } from './confirm.js';
import { idOf, type Verb } from './verbs.js';
import { type EntityView } from './entity-view.js';

export interface DeleteOptions extends BulkFlags, SelectionFlags {
  id?: string;
  [extra: string]: unknown;
}

/** The family's bulk delete wiring, loaded on first use of the bulk form. */
export interface BulkDeleteWiring {
  port(api: ApiClient): EntityPort;
  action(api: ApiClient, args: JournalArgs): EntityAction;
}

export interface DeleteSpec<E> {
  view: EntityView<E>;
  /** The command path as help and hints name it, e.g. `services delete`. */
  command: string;
  examples: string[];
  /** Reads one entity (the single form reads before it asks). @throws ApiError 404 for an unknown id */
  fetch(api: ApiClient, id: string, signal: AbortSignal): Promise<E>;
  /** Deletes one entity; `options` are the verb's own options ({@link DeleteSpec.options}). */
  remove(api: ApiClient, id: string, signal: AbortSignal, options: Record<string, unknown>): Promise<void>;
  /** Extra flags of the verb (e.g. `--content-assignee`), declared on the command. */
  flags?(cmd: Command): void;
  /**
   * The options the extra flags give, checked before anything is read (kept in the journal's `args.options`
   * for `--resume`, and passed to `remove` and the bulk action).
   */
  options?(opts: DeleteOptions): Record<string, unknown>;
  /**
   * Checks the options against the platform before anything is planned or deleted (a content assignee that is
   * no member). @throws UserError (exit 2)
   */
  verify?(api: ApiClient, options: Record<string, unknown>, signal: AbortSignal): Promise<void>;
  /** The bulk form's port and action (a dynamic import, so list and get never load the engine). */
  bulk(): Promise<BulkDeleteWiring>;
}

/**
 * Builds `NOUN delete`.
 * run() throws UserError (exit 2) for bad flags or a missing `--yes` off a terminal; DeclinedError (exit 1);
 * CancelError (130); PartialFailureError (exit 3); ApiError (single form: 404 for an unknown id).
 */
export function deleteVerb<E>(spec: DeleteSpec<E>): Verb<DeleteOptions> {
  const view = spec.view as EntityView<unknown>;
  const { one, many } = view.noun;
  const question = (n: number) => `Delete ${n} ${n === 1 ? one : many}? This cannot be undone.`;

  async function deleteOne(given: string, opts: DeleteOptions, ctx: Context): Promise<void> {
    const format = resolveFormat({ json: opts.json }, fieldsChecker(['id', 'deleted']));
    const options = spec.options?.(opts) ?? {};
    requireConfirmable(ctx, opts, DESTRUCTIVE, 'one', `deleting ${one} ${given}`);
    const api = await ctx.api();
    await spec.verify?.(api, options, ctx.signal);
    const id = await idOf(ctx, api, view, given);
    const entity = await spec.fetch(api, id, ctx.signal);
    const name = oneLine(view.label(entity) ?? 'unnamed');
    if (opts.dryRun) {
      success(ctx.io, `dry run: would delete ${id} (${name}); nothing was changed`);
      return;
    }
    await confirmChange(ctx, opts, DESTRUCTIVE, 'one', `Delete ${one} "${name}" (${id})? This cannot be undone.`, `deleting ${one} ${id}`);
    await spec.remove(api, id, ctx.signal, options);
    if (format.kind === 'json') await printValue(ctx.io, format, { id, deleted: true });
    success(ctx.io, `deleted ${id}`);
  }

  const run = async (opts: DeleteOptions, ctx: Context): Promise<void> => {
    const form = chooseForm(opts, `pass a ${one} id, or --filter JSON, --where, --ids or --ids-file`);
    if (form === 'one') return deleteOne(opts.id!, opts, ctx);
    const options = spec.options?.(opts) ?? {};
    const [{ resumeJournal, runBulkVerb, selectionFromFlags }, wiring] = await Promise.all([import('./bulk.js'), spec.bulk()]);
    const journal = form === 'resume' ? resumeJournal(view, opts.resume!, 'delete') : undefined;
    const selection = journal ? undefined : await selectionFromFlags(ctx, view, opts);
    requireConfirmable(ctx, opts, DESTRUCTIVE, 'many', `deleting ${many}`);
    const api = await ctx.api();
    if (!journal) await spec.verify?.(api, options, ctx.signal);
    const args: JournalArgs = journal?.header.args ?? {
      filter: selection?.kind === 'filter' ? selection.filter : undefined,
      ids: selection?.kind === 'ids' ? selection.ids : undefined,
      ...(Object.keys(options).length ? { options } : {}),
    };
    await runBulkVerb(ctx, {
      view,
      port: wiring.port(api),
      action: wiring.action(api, args),
      selection,
      resume: journal,
      flags: opts,
      command: spec.command,
      question,
    });
  };

  return {
    run,
    register(parent, ctx) {
      const cmd: Command = parent
        .command('delete')
        .description(`Delete one ${one}, or many through a previewed, journaled bulk run`)
        .argument('[id]', `the ${one} to delete (omit with --filter/--where/--ids/--ids-file/--resume)`)
        .addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`);
      spec.flags?.(cmd);
      addSelectionFlags(cmd, many, spec.view.filterExample);
      addBulkFlags(cmd);
      declareRule(cmd, DESTRUCTIVE);
      cmd.action(async (id: string | undefined, o: Omit<DeleteOptions, 'id'>) => {
        await run({ ...o, id }, ctx);
      });
    },
  };
}
