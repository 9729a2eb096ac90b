/**
 * `sitectl plans update PLAN [--name] [--price] [--every|--for|--unlimited] [...]`: changes the fields given
 * (docs/wire.md §19 "PATCH /v2/plans/{plan.id}"). As the official client does, only the changed fields are
 * sent and no field mask; a pricing flag sends the whole pricing (the model kept unless a new one is given).
 */
import type { Command } from 'commander';
import type { Plan } from '../../api/schemas/plan.js';
import type { ChangeSet } from '../../bulk/changes.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { formatOf } from '../shared/verbs.js';
import { addPlanFlags, fieldsOf, hasPricing, keptPricing, pricingOf, type PlanFlags } from './shared/fields.js';
import { PLAN_VIEW, planOf } from './shared/view.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';

export function register(parent: Command, ctx: Context): void {
  const cmd = addPlanFlags(parent.command('update').description("Change a plan's fields").argument('<plan>', 'plan id, unique id prefix, or exact name'), false).addHelpText(
    'after',
    `\nExamples:\n  sitectl plans update "Gold Monthly" --price 55\n  sitectl plans update 3f2a --buyer-can-cancel no --perk "Unlimited classes" --perk "Sauna"`,
  );
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (plan: string, o: PlanFlags & FormatFlags) => {
    await run({ ...o, plan }, ctx);
  });
}

/**
 * Sends the changed fields as a one-item plan (fields already as asked: nothing sent, "already has these
 * values"); journaled, so `sitectl undo` sets them back if the plan is unchanged since. Prints the plan as it is now.
 * @throws UserError (exit 2) for bad flags or no change asked; (exit 1) for an archived plan
 */
export async function run(opts: PlanFlags & FormatFlags & { plan: string }, ctx: Context): Promise<void> {
  formatOf(ctx, PLAN_VIEW, opts);
  const fields = fieldsOf(opts);
  if (!hasPricing(opts) && Object.keys(fields).length === 0) throw new UserError('nothing to change', 'give the fields to change, e.g. --price 55 or --description "..."');
  const [{ runUpdateOne }, { changeOfFields }, { PLAN_WRITES }] = await Promise.all([import('../shared/one.js'), import('../shared/writes.js'), import('./shared/writes.js')]);
  // The plan is read first: an archived one is refused, and a new pricing keeps its model unless one is given.
  let current: Plan | undefined;
  let change: ChangeSet = { sets: [], mask: [] };
  await runUpdateOne(ctx, {
    spec: PLAN_WRITES,
    given: opts.plan,
    change: () => change,
    flags: opts,
    command: 'plans update',
    async verify(api) {
      current = await planOf(ctx, api, opts.plan);
      if (current.archived) throw new UserError(`plan ${current.id} (${oneLine(current.name ?? '')}) is archived and cannot be changed`, undefined, ExitCode.Failure);
      const pricing = hasPricing(opts) ? pricingOf(opts, keptPricing(current.pricing)) : undefined;
      change = changeOfFields({ ...fields, ...(pricing ? { pricing } : {}) });
    },
    resolve: async () => current!.id,
    outcome: (after: Plan) => `Updated plan ${after.id} (${oneLine(after.name ?? '')}): ${[...Object.keys(fields), ...(hasPricing(opts) ? ['pricing'] : [])].join(', ')}`,
  });
}
