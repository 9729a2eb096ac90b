/**
 * `sitectl plans stats`: how many plans the site has, active and archived: the active and archived counts of
 * listPlans (as `plans count --state active|archived` reads them) and the platform's total (getPlanStats). On a
 * terminal a small key/value table, piped `key<TAB>value` lines, `--json` the object `{active, archived,
 * totalPlans}`.
 */
import type { Command } from 'commander';
import { plans } from '../../api/plans.js';
import type { Context } from '../../context.js';
import { addFormatFlags, fieldsChecker, printRecord, resolveFormat, type FormatFlags } from '../../core/output.js';
import { countOf } from '../shared/verbs.js';
import { PLAN_READS } from './shared/reads.js';

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(parent.command('stats').description('How many plans the site has, active and archived').addHelpText('after', '\nExamples:\n  sitectl plans stats\n  sitectl plans stats --json')).action(
    async (o: FormatFlags) => {
      await run(o, ctx);
    },
  );
}

/** What `plans stats` prints. */
export interface PlanStats {
  active: number;
  archived: number;
  totalPlans: number;
}

/**
 * Prints the active, archived and total number of plans.
 * @throws UserError (exit 2) for bad --json/--csv fields; ApiError
 */
export async function run(opts: FormatFlags, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['active', 'archived', 'totalPlans']));
  const api = await ctx.api();
  const counted = (archived: string) => countOf(api, PLAN_READS, { filter: undefined, extra: undefined, params: { archived, public: 'PUBLIC_AND_HIDDEN' }, none: false }, ctx.signal);
  const [active, archived, { totalPlans }] = await Promise.all([counted('ACTIVE'), counted('ARCHIVED'), plans.getPlanStats(api, {}, { signal: ctx.signal })]);
  const stats: PlanStats = { active, archived, totalPlans };
  await printRecord(ctx.io, format, stats, {
    rows: [
      ['active', active],
      ['archived', archived],
      ['total', totalPlans],
    ],
    now: ctx.now(),
  });
}
