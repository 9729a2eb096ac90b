/**
 * The one-plan actions (archive, make primary, show or hide): name the plan, say when it is already so
 * (nothing sent), otherwise send the call and print the plan as it is now.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../../api/client.js';
import type { Plan } from '../../../api/schemas/plan.js';
import type { Context } from '../../../context.js';
import { ExitCode, UserError } from '../../../core/errors.js';
import { notice, success } from '../../../core/log.js';
import { addFormatFlags, printRecord, type FormatFlags } from '../../../core/output.js';
import { oneLine } from '../../../core/text.js';
import { confirmChange, declareRule, requireConfirmable } from '../../shared/confirm.js';
import { formatOf } from '../../shared/verbs.js';
import { PLAN_VIEW, planOf } from './view.js';

export interface PlanActionSpec<O> {
  verb: string;
  description: string;
  examples: string[];
  /** Extra arguments and flags. */
  declare?(cmd: Command): void;
  /** Options from the extra arguments. @throws UserError (exit 2) */
  options(args: string[], flags: Record<string, unknown>): O;
  /** What is true of the plan already (nothing to do), as words. */
  reached(plan: Plan, o: O): string | undefined;
  /** Why the plan cannot change, as words. */
  blocked?(plan: Plan, o: O): string | undefined;
  /** Whether the change cannot be taken back: it then asks first (commands/shared/confirm.ts), unless --yes. */
  destructive: boolean;
  /** The question a destructive action asks (default: `<verb> plan ID (name)?`). */
  confirm?(plan: Plan): string;
  apply(api: ApiClient, plan: Plan, o: O, signal: AbortSignal): Promise<Plan>;
  done: string;
}

/** Builds the verb. run() throws UserError (exit 2 bad input; exit 1 refused by the plan's state), DeclinedError. */
export function planAction<O>(spec: PlanActionSpec<O>) {
  const run = async (given: string, args: string[], flags: FormatFlags & { yes?: boolean } & Record<string, unknown>, ctx: Context): Promise<void> => {
    const format = formatOf(ctx, PLAN_VIEW, flags);
    const o = spec.options(args, flags);
    requireConfirmable(ctx, flags, spec, 'one', `${spec.verb} of plan ${given}`);
    const api = await ctx.api();
    const plan = await planOf(ctx, api, given);
    const label = `plan ${plan.id} (${oneLine(plan.name ?? '')})`;
    const already = spec.reached(plan, o);
    if (already) {
      notice(ctx.io, `${label} is ${already} already; nothing changed`);
      await printRecord(ctx.io, format, plan, { rows: PLAN_VIEW.rows(plan), columns: PLAN_VIEW.columns, now: ctx.now() });
      return;
    }
    const why = spec.blocked?.(plan, o);
    if (why) throw new UserError(`${label} cannot be ${spec.done}: ${why}`, undefined, ExitCode.Failure);
    await confirmChange(ctx, flags, spec, 'one', spec.confirm?.(plan) ?? `${spec.verb[0]!.toUpperCase()}${spec.verb.slice(1)} ${label}?`, `${spec.verb} of ${label}`);
    const after = await spec.apply(api, plan, o, ctx.signal);
    success(ctx.io, `${spec.done} ${label}`);
    await printRecord(ctx.io, format, after, { rows: PLAN_VIEW.rows(after), columns: PLAN_VIEW.columns, now: ctx.now() });
  };
  return {
    run,
    register(parent: Command, ctx: Context) {
      const cmd = parent.command(spec.verb).description(spec.description).argument('<plan>', 'plan id, unique id prefix, or exact name');
      spec.declare?.(cmd);
      cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`);
      declareRule(cmd, spec);
      addFormatFlags(cmd).action(async (plan: string, ...rest: unknown[]) => {
        const flags = rest[rest.length - 2] as FormatFlags & Record<string, unknown>;
        await run(plan, rest.slice(0, -2) as string[], flags, ctx);
      });
    },
  };
}
