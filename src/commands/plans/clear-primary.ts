/**
 * `sitectl plans clear-primary`: no plan is highlighted any more. The primary plan is found first (none: said so,
 * nothing sent); the change is then a one-item plan of the bulk engine over that plan (commands/shared/bulk.ts
 * runOneVerb), journaled, so `sitectl history` lists it (`sitectl undo` lists it as cannot be undone, as
 * `plans primary`: make a plan primary again instead).
 */
import type { Command } from 'commander';
import { planOps } from '../../api/plans.js';
import type { Plan } from '../../api/schemas/plan.js';
import { eachSender, transitionAction } from '../../bulk/actions.js';
import type { Context } from '../../context.js';
import { notice } from '../../core/log.js';
import { oneLine } from '../../core/text.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import type { EntityView } from '../shared/entity-view.js';
import { viewPort } from '../shared/view-port.js';
import { allPlans, PLAN_VIEW } from './shared/view.js';

export function register(parent: Command, ctx: Context): void {
  // The opposite of `plans primary`, and its rule: acts at once.
  declareRule(parent.command('clear-primary').description('Make no plan primary').addHelpText('after', '\nExamples:\n  sitectl plans clear-primary'), REVERSIBLE).action(async () => {
    await run(ctx);
  });
}

/**
 * Clears the primary plan; says which one it was, or that there was none (then nothing is sent or journaled).
 * Prints nothing on stdout. @throws UserError (exit 1) when the platform refuses it
 */
export async function run(ctx: Context): Promise<void> {
  const api = await ctx.api();
  const primary = (await allPlans(api, ctx.signal)).find((p) => p.primary);
  if (!primary) {
    notice(ctx.io, 'No plan is primary; nothing changed');
    return;
  }
  const { runOneVerb } = await import('../shared/one.js');
  const label = (p: Plan) => `Plan ${p.id} (${oneLine(p.name ?? '')})`;
  await runOneVerb(ctx, {
    view: PLAN_VIEW as EntityView<unknown>,
    title: 'Clearing primary',
    build: (client) => ({
      port: viewPort(client, PLAN_VIEW as EntityView<unknown>, { archived: 'ARCHIVED_AND_ACTIVE' }),
      action: transitionAction<Plan>({
        name: 'clear-primary',
        done: 'cleared',
        title: 'Clearing primary',
        reached: (p) => !p.primary,
        send: eachSender(client, planOps.clearPrimary, () => ({})),
        chunkSize: 1,
        args: { options: {} },
        beforeImage: (p) => ({ primary: Boolean(p.primary) }),
      }),
    }),
    resolve: async () => primary.id,
    flags: {},
    command: 'plans clear-primary',
    one: {
      given: primary.id,
      rule: REVERSIBLE,
      already: (p: Plan) => `${label(p)} is not primary already`,
      outcome: (_after: Plan, _l: string, before: Plan) => `${label(before)} is no longer primary`,
      // Nothing on stdout: the verb prints no entity.
      result: { fields: [], value: () => ({}) },
    },
  });
}
