/** `sitectl plans stats`: how many plans the site has (getPlanStats), the number or `{"totalPlans": N}` with --json. */
import type { Command } from 'commander';
import { plans } from '../../api/plans.js';
import type { Context } from '../../context.js';
import { addFormatFlags, fieldsChecker, printValue, resolveFormat, type FormatFlags } from '../../core/output.js';

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(parent.command('stats').description('How many plans the site has, active and archived').addHelpText('after', '\nExamples:\n  sitectl plans stats\n  sitectl plans stats --json')).action(
    async (o: FormatFlags) => {
      await run(o, ctx);
    },
  );
}

/** Prints the number of plans (`{totalPlans}` with --json). @throws UserError (exit 2) for bad --json fields; ApiError */
export async function run(opts: FormatFlags, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['totalPlans']));
  const api = await ctx.api();
  const { totalPlans } = await plans.getPlanStats(api, {}, { signal: ctx.signal });
  await printValue(ctx.io, format, { totalPlans }, { text: String(totalPlans) });
}
