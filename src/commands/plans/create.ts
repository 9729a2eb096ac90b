/**
 * `sitectl plans create --name N --price P (--every PERIOD [--cycles N] [--trial-days N] | --for PERIOD |
 * --unlimited) [...]`: a new plan (docs/wire.md §19 "POST /v2/plans"). Every flag is checked before the
 * request, so a refused command creates nothing.
 */
import type { Command } from 'commander';
import type { Plan } from '../../api/schemas/plan.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { addFormatFlags, printRecord, printValue, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { formatOf } from '../shared/verbs.js';
import { addPlanFlags, fieldsOf, pricingOf, type PlanFlags } from './shared/fields.js';
import { PLAN_VIEW } from './shared/view.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';

export function register(parent: Command, ctx: Context): void {
  const cmd = addPlanFlags(parent.command('create').description('Create a pricing plan'), true).addHelpText(
    'after',
    `\nExamples:\n  sitectl plans create --name "Gold Monthly" --price 49 --every "1 MONTH" --trial-days 7 --perk "Unlimited classes"\n` +
      `  sitectl plans create --name "Summer Pass" --price 150 --for "3 MONTH" --max-purchases 1\n  sitectl plans create --name "Lifetime" --price 990 --unlimited --hidden`,
  );
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (o: PlanFlags & FormatFlags) => {
    await run(o, ctx);
  });
}

/**
 * Creates the plan as a one-item change (in `sitectl history`; `sitectl undo` archives it if unchanged since); prints its id alone when stdout is piped, the readable view on a terminal, the plan with --json.
 * @throws UserError (exit 2) for bad flags; ValidationError (exit 2) when the platform refuses a field
 */
export async function run(opts: PlanFlags & FormatFlags, ctx: Context): Promise<void> {
  const format = formatOf(ctx, PLAN_VIEW, opts);
  if (opts.name === undefined) throw new UserError('a new plan needs --name', `e.g. ${ctx.bin} plans create --name "Gold" --price 49 --every "1 MONTH"`);
  const plan = { ...fieldsOf(opts), name: opts.name, pricing: pricingOf(opts), ...(opts.hidden ? { public: false } : {}) };
  // A one-item create through the engine: journaled, so `sitectl history` lists it and `sitectl undo` archives it.
  const [{ runCreateOne }, { PLAN_WRITES }] = await Promise.all([import('../shared/one.js'), import('./shared/writes.js')]);
  const created = (await runCreateOne(ctx, PLAN_WRITES, plan, opts.name)) as Plan;
  success(ctx.io, `Created plan ${created.id} (${oneLine(created.name ?? '')})`);
  if (format.kind === 'table' && !ctx.io.isStdoutTTY) {
    await printValue(ctx.io, format, created, { text: created.id });
    return;
  }
  await printRecord(ctx.io, format, created, { rows: PLAN_VIEW.rows(created), columns: PLAN_VIEW.columns, now: ctx.now() });
}
