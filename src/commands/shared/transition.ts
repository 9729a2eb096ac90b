/**
 * `NOUN VERB`, a state change every stateful noun shares (docs/bookings.md "The CLI"; members approve/block and orders
 * pause/resume/cancel take the same shape), run by the entity bulk engine whatever the form: one entity
 * (`bookings cancel ID`: a one-item plan, its revision read by the plan unless `--revision` pins it, asked about
 * first when the verb is destructive, commands/shared/confirm.ts) or many (`--filter | --where | --ids |
 * --ids-file`, or `--resume JOURNAL`): plan (entities already in the state are left alone, those the state
 * machine does not allow are refused with the reason) -> preview -> confirm -> chunks -> journal -> report,
 * exactly once under faults (each call carries the planned revision; an unconfirmed item is settled by reading
 * it back). Every run is journaled, so `sitectl history` lists it and `sitectl undo` takes back what can be.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { type EntityAction, transitionAction } from '../../bulk/actions.js';
import type { JournalArgs } from '../../bulk/journal.js';
import type { EntityPort } from '../../bulk/port.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import type { Selection } from '../../bulk/select.js';
import { addBulkFlags, addSelectionFlags, chooseForm, hasSelection } from './bulk-flags.js';
import { declareRule, requireConfirmable } from './confirm.js';
import type { EntityView, TransitionOptions, TransitionSpec, Verb } from './entity-view.js';
import { viewPort } from './view-port.js';

/**
 * The port and the action of a declared transition over `args` (its options as the journal keeps them): what
 * the CLI's both forms, the interactive keys and `sitectl undo` (the opposite verb) run.
 */
export function transitionRun<E extends { id: string; revision?: string | null }>(spec: TransitionSpec<E>, api: ApiClient, args: JournalArgs): { port: EntityPort; action: EntityAction } {
  const options = args.options ?? {};
  const action = transitionAction<E>({
    name: spec.verb,
    done: spec.done,
    title: spec.title,
    reached: (e) => spec.reached(e, options),
    blocked: spec.blocked ? (e) => spec.blocked!(e) : undefined,
    refused: spec.refused ? (e) => spec.refused!(e, options) : undefined,
    send: spec.send(api, options, args),
    chunkSize: spec.chunkSize,
    args,
    ...(spec.beforeImage ? { beforeImage: (e: E) => spec.beforeImage!(e) } : {}),
  });
  return { port: viewPort(api, spec.view as EntityView<unknown>, spec.reads), action: action };
}

/**
 * Builds `NOUN VERB`.
 * run() throws UserError (exit 2) for bad flags or a missing `--yes` off a terminal (bulk form, or a destructive
 * verb's single form); UserError (exit 1) when the entity's state or a policy does not allow the change, or the
 * single item failed; NotFoundError (exit 1) for an unknown id; DeclinedError (exit 1); CancelError (130);
 * PartialFailureError (exit 3, bulk form).
 */
export function transitionVerb<E extends { id: string; revision?: string | null }>(spec: TransitionSpec<E>): Verb<TransitionOptions> & { spec: TransitionSpec<E> } {
  const view = spec.view as EntityView<unknown>;
  const { one, many } = view.noun;

  /** The single form: a one-item plan, said as one item (commands/shared/one.ts runOneVerb). */
  async function single(given: string, opts: TransitionOptions, ctx: Context): Promise<void> {
    if (opts.revision !== undefined && !/^\d+$/.test(opts.revision)) throw new UserError(`--revision must be a whole number such as 3, got '${opts.revision}'`);
    const options = spec.options?.(opts) ?? {};
    const { runOneVerb } = await import('./one.js');
    await runOneVerb(ctx, {
      resumable: true,
      view,
      title: spec.title,
      build: (api) => transitionRun(spec, api, { options }),
      flags: opts,
      command: spec.command,
      one: {
        given,
        rule: spec,
        revision: opts.revision,
        question: spec.confirmOne ? (e: E) => spec.confirmOne!(e, options) : undefined,
        already: spec.outcome ? (e: E, label: string) => spec.outcome!(e, label, options) : undefined,
        instead: spec.instead ? (e: E) => spec.instead!(e, ctx.bin) : undefined,
        outcome: spec.outcome ? (after: E, label: string) => spec.outcome!(after, label, options) : undefined,
        read: async (id: string) => spec.fetch(await ctx.api(), id, ctx.signal),
      },
    });
  }

  const run = async (opts: TransitionOptions, ctx: Context): Promise<void> => {
    const criteriaGiven = spec.hasCriteria?.(opts) ?? false;
    const form = chooseForm(opts, `pass a ${one} id, or --filter JSON, --where, --ids or --ids-file`, opts.revision !== undefined ? '--revision' : undefined, criteriaGiven);
    if (form === 'one') return single(opts.id!, opts, ctx);
    if (opts.revision !== undefined) throw new UserError('--revision pins one entity: it goes with an id, not a selection');
    const { resumeJournal, runBulkVerb, selectionFromFlags } = await import('./bulk.js');
    const journal = form === 'resume' ? await resumeJournal(ctx, { view, path: opts.resume!, action: spec.verb, command: spec.command }) : undefined;
    let selection: Selection | undefined;
    if (!journal) {
      const criteria = criteriaGiven ? await spec.criteria?.(opts, ctx) : undefined;
      const own = hasSelection(opts) ? await selectionFromFlags(ctx, view, opts) : undefined;
      if (own?.kind === 'ids' && criteria) throw new UserError('choose either --ids/--ids-file or the selection flags, not both');
      if (own?.kind === 'filter') selection = criteria ? { kind: 'filter', filter: { $and: [own.filter, criteria] } } : own;
      else selection = own ?? { kind: 'filter', filter: criteria ?? {} };
    }
    requireConfirmable(ctx, opts, spec, 'many', `${spec.title.toLowerCase()} ${many}`);
    const api = await ctx.api();
    const args: JournalArgs = journal?.header.args ?? {
      filter: selection?.kind === 'filter' ? selection.filter : undefined,
      ids: selection?.kind === 'ids' ? selection.ids : undefined,
      options: spec.options?.(opts) ?? {},
    };
    const { port, action } = transitionRun(spec, api, args);
    await runBulkVerb(ctx, {
      view,
      port,
      action,
      selection,
      resume: journal,
      flags: opts,
      command: spec.command,
      question: (n) => spec.question(n, args.options ?? {}),
    });
  };

  return {
    run,
    // The interactive browser and the dashboard run the same declaration (commands/shared/ui-actions.ts).
    spec,
    register(parent, ctx) {
      const cmd: Command = parent
        .command(spec.verb)
        .description(spec.description)
        .argument('[id]', `the ${one} (omit with --filter/--where/--ids/--ids-file/--resume)`);
      if (spec.revisioned !== false) cmd.option('--revision <n>', `the ${one}'s revision to act on (default: its current one)`);
      cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`);
      spec.flags?.(cmd);
      addSelectionFlags(cmd, many, spec.view.filterExample);
      addBulkFlags(cmd);
      declareRule(cmd, spec);
      cmd.action(async (id: string | undefined, o: Omit<TransitionOptions, 'id'>) => {
        await run({ ...o, id }, ctx);
      });
    },
  };
}
