/**
 * `NOUN VERB`, a state change every stateful noun shares (docs/bookings.md "The CLI"; members approve/block and orders
 * pause/resume/cancel take the same shape): one entity (`bookings cancel ID`: its revision read first unless
 * `--revision` pins it; asked about first when the verb is destructive, commands/shared/confirm.ts) or many (`--filter | --where | --ids | --ids-file`, or
 * `--resume JOURNAL`) through the entity bulk engine: plan (entities already in the state are left alone,
 * those the state machine does not allow are skipped with the reason) -> preview -> confirm -> chunks ->
 * journal -> report, exactly once under faults (each call carries the planned revision; an unconfirmed item is
 * settled by reading it back).
 */
import type { Command } from 'commander';
import type { JournalArgs } from '../../bulk/journal.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { notice, success } from '../../core/log.js';
import { fieldsChecker, printRecord, printValue, resolveFormat } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import type { Selection } from '../../bulk/select.js';
import { addBulkFlags, addSelectionFlags, chooseForm, DRY_RUN_FIELDS, type DryRunItem, hasSelection } from './bulk-flags.js';
import { confirmChange, declareRule, requireConfirmable } from './confirm.js';
import { formatOf, idOf, type Verb } from './verbs.js';
import type { EntityView, TransitionOptions, TransitionSpec } from './entity-view.js';

/**
 * Builds `NOUN VERB`.
 * run() throws UserError (exit 2) for bad flags or a missing `--yes` off a terminal (bulk form, or a destructive
 * verb's single form); UserError
 * (exit 1) when the entity's state does not allow the change; DeclinedError (exit 1); CancelError (130);
 * PartialFailureError (exit 3); ApiError (404 unknown id, 409 a concurrent change).
 */
export function transitionVerb<E extends { id: string; revision?: string | null }>(spec: TransitionSpec<E>): Verb<TransitionOptions> & { spec: TransitionSpec<E> } {
  const view = spec.view as EntityView<unknown>;
  const { one, many } = view.noun;

  async function single(given: string, opts: TransitionOptions, ctx: Context): Promise<void> {
    const format = formatOf(ctx, view, opts);
    if (opts.revision !== undefined && !/^\d+$/.test(opts.revision)) throw new UserError(`--revision must be a whole number such as 3, got '${opts.revision}'`);
    const what = `${spec.title.toLowerCase()} ${one} ${given}`;
    requireConfirmable(ctx, opts, spec, 'one', what);
    const api = await ctx.api();
    const id = await idOf(ctx, api, view, given);
    const entity = await spec.fetch(api, id, ctx.signal);
    const label = oneLine(view.label(entity) ?? id);
    const options = spec.options?.(opts) ?? {};
    if (opts.dryRun) return dryRunOne(ctx, opts, entity, label, options);
    if (spec.reached(entity, options)) {
      notice(ctx.io, `${spec.outcome?.(entity, label, options) ?? `${one} ${id} (${label}) is already ${spec.done}`}; nothing changed`);
      await printRecord(ctx.io, format, entity, { rows: spec.view.rows(entity), columns: spec.view.columns, now: ctx.now() });
      return;
    }
    const why = spec.blocked?.(entity);
    if (why) throw new UserError(`${one} ${id} cannot be ${spec.done}: ${why}`, spec.instead?.(entity, ctx.bin), ExitCode.Failure);
    const question = spec.confirmOne?.(entity, options) ?? `${spec.verb[0]!.toUpperCase()}${spec.verb.slice(1)} ${one} ${id} (${label})?`;
    await confirmChange(ctx, opts, spec, 'one', question, what);
    const after = await spec.apply(api, entity, opts.revision ?? entity.revision ?? undefined, options, ctx.signal);
    success(ctx.io, spec.outcome?.(after, label, options) ?? `${spec.done} ${id} (${label})${after.revision ? `, revision ${after.revision}` : ''}`);
    await printRecord(ctx.io, format, after, { rows: spec.view.rows(after), columns: spec.view.columns, now: ctx.now() });
  }

  /**
   * The dry run of one entity: its outcome as the plan of many would list it (`change`, `unchanged`, `refused`
   * with the reason and the flag that lifts it), as a one-item JSON array with `--json`. Exit 0 whatever it lists.
   */
  async function dryRunOne(ctx: Context, opts: TransitionOptions, entity: E, label: string, options: Record<string, unknown>): Promise<void> {
    const blocked = spec.blocked?.(entity);
    const refusal = blocked ? { reason: blocked } : spec.refused?.(entity, options);
    const item: DryRunItem = spec.reached(entity, options)
      ? { id: entity.id, outcome: 'unchanged', reason: `already ${spec.done}` }
      : refusal
        ? { id: entity.id, outcome: 'refused', reason: refusal.reason, ...(refusal.lift ? { lift: refusal.lift } : {}) }
        : { id: entity.id, outcome: 'change' };
    if (opts.json !== undefined && opts.json !== false) await printValue(ctx.io, resolveFormat({ json: opts.json }, fieldsChecker(DRY_RUN_FIELDS)), [item]);
    const said = item.outcome === 'change' ? `would ${spec.verb} ${entity.id} (${label})` : `${entity.id} (${label}) ${item.outcome}: ${item.reason}${item.lift ? ` (${item.lift} lifts it)` : ''}`;
    success(ctx.io, `dry run: ${said}; nothing was changed`);
  }

  const run = async (opts: TransitionOptions, ctx: Context): Promise<void> => {
    const criteriaGiven = spec.hasCriteria?.(opts) ?? false;
    const form = chooseForm(opts, `pass a ${one} id, or --filter JSON, --where, --ids or --ids-file`, opts.revision !== undefined ? '--revision' : undefined, criteriaGiven);
    if (form === 'one') return single(opts.id!, opts, ctx);
    if (opts.revision !== undefined) throw new UserError('--revision pins one entity: it goes with an id, not a selection');
    const [{ resumeJournal, runBulkVerb, selectionFromFlags }, { transitionAction }, wiring] = await Promise.all([import('./bulk.js'), import('../../bulk/actions.js'), spec.bulk()]);
    const journal = form === 'resume' ? resumeJournal(view, opts.resume!, spec.verb) : undefined;
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
    const action = transitionAction<E>({
      name: spec.verb,
      done: spec.done,
      title: spec.title,
      reached: (e) => spec.reached(e, args.options ?? {}),
      blocked: spec.blocked ? (e) => spec.blocked!(e) : undefined,
      refused: spec.refused ? (e) => spec.refused!(e, args.options ?? {}) : undefined,
      send: wiring.send(api, args.options ?? {}),
      chunkSize: wiring.chunkSize,
      args,
    });
    await runBulkVerb(ctx, {
      view,
      port: wiring.port(api),
      action: action as never,
      selection,
      resume: journal,
      flags: opts,
      command: spec.command,
      question: spec.question,
    });
  };

  return {
    run,
    // The interactive browser and the dashboard run the same calls (commands/shared/ui-actions.ts).
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
