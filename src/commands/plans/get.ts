/** `sitectl plans get ID`: one plan (archived and hidden ones too), by id, id prefix or exact name. */
import { plans } from '../../api/plans.js';
import type { Context } from '../../context.js';
import { printRecord, type FormatFlags, addFormatFlags } from '../../core/output.js';
import type { Command } from 'commander';
import { formatOf } from '../shared/verbs.js';
import { PLAN_VIEW, planOf } from './shared/view.js';

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(parent.command('get').alias('view').description('Show one plan').argument('<plan>', 'plan id, unique id prefix, or exact name')).action(async (plan: string, o: FormatFlags) => {
    await run({ plan, ...o }, ctx);
  });
}

/** Prints the plan: the readable view on a terminal, TSV off it, the entity with --json. @throws UserError (exit 2) for an unknown plan */
export async function run(opts: FormatFlags & { plan: string }, ctx: Context): Promise<void> {
  const format = formatOf(ctx, PLAN_VIEW, opts);
  const api = await ctx.api();
  const { id } = await planOf(ctx, api, opts.plan);
  const { plan } = await plans.getPlan(api, { id }, { signal: ctx.signal });
  await printRecord(ctx.io, format, plan, { rows: PLAN_VIEW.rows(plan), columns: PLAN_VIEW.columns, now: ctx.now() });
}
