/** `sitectl plans clear-primary`: no plan is highlighted any more. */
import type { Command } from 'commander';
import { plans } from '../../api/plans.js';
import type { Context } from '../../context.js';
import { notice, success } from '../../core/log.js';
import { oneLine } from '../../core/text.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { allPlans } from './shared/view.js';

export function register(parent: Command, ctx: Context): void {
  // The opposite of `plans primary`, and its rule: acts at once.
  declareRule(parent.command('clear-primary').description('Make no plan primary').addHelpText('after', '\nExamples:\n  sitectl plans clear-primary'), REVERSIBLE).action(async () => {
      await run(ctx);
    });
}

/** Clears the primary plan; says which one it was, or that there was none (then nothing is sent). Prints nothing on stdout. */
export async function run(ctx: Context): Promise<void> {
  const api = await ctx.api();
  const primary = (await allPlans(api, ctx.signal)).find((p) => p.primary);
  if (!primary) {
    notice(ctx.io, 'No plan is primary; nothing changed');
    return;
  }
  await plans.clearPrimary(api, {}, { signal: ctx.signal });
  success(ctx.io, `Plan ${primary.id} (${oneLine(primary.name ?? '')}) is no longer primary`);
}
