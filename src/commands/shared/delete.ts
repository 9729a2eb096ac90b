/**
 * `NOUN delete`, the verb every deletable entity noun shares (docs/architecture.md "Layout and dependency
 * direction"), run by the entity bulk engine whatever the form: one entity (`delete ID`: a one-item plan, read
 * first so an unknown id fails before the prompt and the prompt names it) or many (`--filter | --where | --ids |
 * --ids-file`, or `--resume JOURNAL`): plan -> preview -> confirm -> chunks -> journal -> report. Every run is
 * journaled with each entity's before-image, so `sitectl history` lists it and `sitectl undo` re-creates what the
 * undo table allows.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { deleteAction, type EntityAction } from '../../bulk/actions.js';
import type { ChunkRunner } from '../../bulk/execute.js';
import type { JournalArgs } from '../../bulk/journal.js';
import type { EntityPort } from '../../bulk/port.js';
import type { Context } from '../../context.js';
import { notice } from '../../core/log.js';
import { addBulkFlags, addSelectionFlags, type BulkFlags, chooseForm, type SelectionFlags } from './bulk-flags.js';
import { declareRule, DESTRUCTIVE, requireConfirmable } from './confirm.js';
import type { EntityView, Verb } from './entity-view.js';
import { viewPort } from './view-port.js';

export interface DeleteOptions extends BulkFlags, SelectionFlags {
  id?: string;
  [extra: string]: unknown;
}

export interface DeleteSpec<E> {
  view: EntityView<E>;
  /** The command path as help and hints name it, e.g. `services delete`. */
  command: string;
  examples: string[];
  /**
   * The operation: deletes one chunk of planned ids, one item or many alike; `options` are the verb's own
   * options ({@link DeleteSpec.options}, as the journal keeps them). `args` is the run's journal header: `ids`
   * (`--ids`, `--ids-file`), `filter` (`--filter`, `--where`), or neither (the single form, `delete ID`), for a
   * family whose platform has a call of its own for each (members: `deleteMember`, `bulkDeleteMembers`).
   */
  send(api: ApiClient, options: Record<string, unknown>, args: JournalArgs): ChunkRunner['send'];
  /** Ids per request (the operation's bulk limit). */
  chunkSize: number;
  /** Extra flags of the verb (e.g. `--content-assignee`), declared on the command. */
  flags?(cmd: Command): void;
  /**
   * The options the extra flags give, checked before anything is read (kept in the journal's `args.options`
   * for `--resume`, and passed to `send`).
   */
  options?(opts: DeleteOptions): Record<string, unknown>;
  /**
   * Checks the options against the platform before anything is planned or deleted (a content assignee that is
   * no member). @throws UserError (exit 2)
   */
  verify?(api: ApiClient, options: Record<string, unknown>, signal: AbortSignal): Promise<void>;
  /**
   * What else the delete does and what `sitectl undo` can bring back, for the options (services: their future
   * bookings are canceled, the customers notified or not): said on stderr before the plan and in the question,
   * instead of "This cannot be undone."
   */
  consequence?(options: Record<string, unknown>): string;
}

/** The port and the delete action of a declared delete over `args`. */
export function deleteRun<E>(spec: DeleteSpec<E>, api: ApiClient, args: JournalArgs): { port: EntityPort; action: EntityAction } {
  return {
    port: viewPort(api, spec.view as EntityView<unknown>),
    action: deleteAction({ args, chunkSize: spec.chunkSize, send: spec.send(api, args.options ?? {}, args) }),
  };
}

/**
 * Builds `NOUN delete`.
 * run() throws UserError (exit 2) for bad flags or a missing `--yes` off a terminal; NotFoundError (exit 1) for
 * an unknown id (single form); UserError (exit 1) when the one item failed; DeclinedError (exit 1); CancelError
 * (130); PartialFailureError (exit 3, bulk form).
 */
export function deleteVerb<E>(spec: DeleteSpec<E>): Verb<DeleteOptions> {
  const view = spec.view as EntityView<unknown>;
  const { one, many } = view.noun;
  const run = async (opts: DeleteOptions, ctx: Context): Promise<void> => {
    const form = chooseForm(opts, `pass a ${one} id, or --filter JSON, --where, --ids or --ids-file`);
    const options = spec.options?.(opts) ?? {};
    const after = spec.consequence?.(options) ?? 'This cannot be undone.';
    const question = (n: number) => `Delete ${n} ${n === 1 ? one : many}? ${after}`;
    const args = (extra: JournalArgs): JournalArgs => ({ ...extra, ...(Object.keys(options).length ? { options } : {}) });
    const [{ resumeJournal, runBulkVerb, selectionFromFlags }, { runOneVerb }] = await Promise.all([import('./bulk.js'), import('./one.js')]);
    // Said once the input is known good; without --yes (or --dry-run) the question says it.
    const tell = spec.consequence && (opts.yes || opts.dryRun) ? () => notice(ctx.io, after) : () => {};
    if (form === 'one') {
      await runOneVerb(ctx, {
        resumable: true,
        view,
        title: 'Deleting',
        build: (api) => deleteRun(spec, api, args({})),
        verify: spec.verify ? (api) => spec.verify!(api, options, ctx.signal) : undefined,
        flags: opts,
        command: spec.command,
        one: {
          given: opts.id!,
          rule: DESTRUCTIVE,
          question: (_e, label) => `Delete ${one} "${label}" (${opts.id})? ${after}`,
          outcome: (_after, label) => `deleted ${opts.id} (${label})`,
          result: { fields: ['id', 'deleted'], value: (id) => ({ id, deleted: true }) },
        },
      });
      tell();
      return;
    }
    const journal = form === 'resume' ? await resumeJournal(ctx, { view, path: opts.resume!, action: 'delete', command: spec.command }) : undefined;
    const selection = journal ? undefined : await selectionFromFlags(ctx, view, opts);
    requireConfirmable(ctx, opts, DESTRUCTIVE, 'many', `deleting ${many}`);
    const api = await ctx.api();
    if (!journal) await spec.verify?.(api, options, ctx.signal);
    if (!journal) tell();
    const { port, action } = deleteRun(
      spec,
      api,
      journal?.header.args ??
        args({
          filter: selection?.kind === 'filter' ? selection.filter : undefined,
          ids: selection?.kind === 'ids' ? selection.ids : undefined,
        }),
    );
    await runBulkVerb(ctx, { view, port, action, selection, resume: journal, flags: opts, command: spec.command, question });
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
