/**
 * `sitectl services plans add|remove ID PLAN_ID...`: links or unlinks pricing plans (spec 000 section 7
 * "POST /v2/services/{serviceId}/pricing-plans/add|remove").
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { success } from '../../core/log.js';

export function register(parent: Command, ctx: Context): void {
  const plans = parent.command('plans').description('Link or unlink pricing plans');
  for (const verb of ['add', 'remove'] as const) {
    plans
      .command(verb)
      .description(verb === 'add' ? 'Link pricing plans to a service' : 'Unlink pricing plans from a service')
      .argument('<id>', 'service id')
      .argument('<planIds...>', 'pricing plan ids')
      .option('--json', 'print the updated service')
      .action(async (id: string, planIds: string[], o: { json?: boolean }) => {
        await run({ verb, id, planIds, json: Boolean(o.json) }, ctx);
      });
  }
}

/** Prints the service's pricing plan ids after the change, one per line (the service with --json). */
export async function run(
  opts: { verb: 'add' | 'remove'; id: string; planIds: string[]; json: boolean },
  ctx: Context,
): Promise<void> {
  const api = await ctx.api();
  const services = await import('../../api/services.js');
  const call = opts.verb === 'add' ? services.addPricingPlans : services.removePricingPlans;
  const service = await call(api, opts.id, opts.planIds, { signal: ctx.signal });
  const ids = service.payment?.pricingPlanIds ?? [];
  if (opts.json) {
    ctx.io.stdout.write(JSON.stringify(service, null, 2) + '\n');
    return;
  }
  success(
    ctx.io,
    `${opts.verb === 'add' ? 'Linked' : 'Unlinked'} ${opts.planIds.length} plan(s); service ${opts.id} has ${ids.length} plan(s) (revision ${service.revision ?? '?'})`,
  );
  if (ids.length) ctx.io.stdout.write(ids.join('\n') + '\n');
}
