/**
 * `sitectl services pricing-plans add|remove ID PLAN_ID...`: links or unlinks pricing plans (docs/wire.md §14 "POST /v2/services/{serviceId}/pricing-plans/add|remove"). A plan that is already linked (or was never
 * linked) changes nothing, and the command says so. `add` takes only plans of the site (read first: an
 * unknown id is bad input, exit 2, and nothing is linked); `remove` takes any id, so a stale link can go.
 */
import type { Command } from 'commander';
import { services } from '../../api/services.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { notice, success } from '../../core/log.js';
import { addFormatFlags, printRecord, printValue, type FormatFlags } from '../../core/output.js';
import { allPlans } from '../plans/shared/view.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { formatOf, idOf } from '../shared/verbs.js';
import { SERVICE_VIEW } from './shared/view.js';

export interface PricingPlansOptions extends FormatFlags {
  verb: 'add' | 'remove';
  id: string;
  planIds: string[];
}

export function register(parent: Command, ctx: Context): void {
  const plans = parent.command('pricing-plans').description('Link or unlink pricing plans');
  for (const verb of ['add', 'remove'] as const) {
    // Links added or removed, as `msb add` / `msb remove` add and remove bookings: acts at once.
    declareRule(
      addFormatFlags(
        plans
          .command(verb)
          .description(verb === 'add' ? 'Link pricing plans to a service' : 'Unlink pricing plans from a service')
          .argument('<id>', 'service id (or a unique prefix)')
          .argument('<planIds...>', 'pricing plan ids'),
      ),
      REVERSIBLE,
    ).action(async (id: string, planIds: string[], o: FormatFlags) => {
      await run({ verb, id, planIds, ...o }, ctx);
    });
  }
}

/**
 * Every id must be a plan of the site (archived ones too: their orders may still book), read before anything
 * is linked. @throws UserError (exit 2) naming the unknown ids
 */
async function checkPlanIds(ctx: Context, ids: readonly string[]): Promise<void> {
  const known = new Set((await allPlans(await ctx.api(), ctx.signal)).map((p) => p.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw new UserError(`no pricing plan ${unknown.map((id) => `'${id}'`).join(', ')} on this site; nothing was linked`, `'${ctx.bin} plans list --state all' shows the plan ids`);
}

/** Prints the service's pricing plan ids after the change, one per line (the service with --json). */
export async function run(opts: PricingPlansOptions, ctx: Context): Promise<void> {
  const format = formatOf(ctx, SERVICE_VIEW, opts);
  const api = await ctx.api();
  const serviceId = await idOf(ctx, api, SERVICE_VIEW, opts.id);
  if (opts.verb === 'add') await checkPlanIds(ctx, opts.planIds);
  const request = { serviceId, pricingPlanIds: opts.planIds };
  const before = (await services.getService(api, { serviceId }, { signal: ctx.signal })).service;
  const { service } =
    opts.verb === 'add'
      ? await services.enablePricingPlansForService(api, request, { signal: ctx.signal })
      : await services.disablePricingPlansForService(api, request, { signal: ctx.signal });
  const ids = service.payment?.pricingPlanIds ?? [];
  if (format.kind !== 'table') {
    await printRecord(ctx.io, format, service);
    return;
  }
  const had = new Set(before.payment?.pricingPlanIds ?? []);
  const changed = opts.planIds.filter((p) => (opts.verb === 'add' ? !had.has(p) : had.has(p)));
  if (changed.length === 0 || service.revision === before.revision) {
    notice(ctx.io, `Nothing changed: ${opts.verb === 'add' ? 'already linked' : 'not linked'} to service ${serviceId} (revision ${service.revision ?? '?'})`);
  } else {
    success(ctx.io, `${opts.verb === 'add' ? 'Linked' : 'Unlinked'} ${changed.length} plan(s); service ${serviceId} has ${ids.length} plan(s) (revision ${service.revision ?? '?'})`);
  }
  await printValue(ctx.io, format, ids, { text: ids.join('\n') });
}
