/**
 * `sitectl services pricing-plans add|remove ID PLAN_ID...`: links or unlinks pricing plans (docs/wire.md §14 "POST /v2/services/{serviceId}/pricing-plans/add|remove"). A plan that is already linked (or was never
 * linked) changes nothing, and the command says so. `add` takes only plans of the site (read first: an
 * unknown id is bad input, exit 2, and nothing is linked); `remove` takes any id, so a stale link can go.
 */
import type { Command } from 'commander';
import type { Service } from '../../api/schemas/service.js';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
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

/**
 * Links or unlinks the plans as a one-item plan of the bulk engine (commands/shared/values.ts): nothing is sent
 * when they are linked (unlinked) already; journaled with the plans it changed, so `sitectl undo` does the
 * opposite for those, if the service is unchanged since. Prints the service's pricing plan ids after the change,
 * one per line (the service with --json).
 * @throws UserError (exit 2) for a plan id `add` does not know; NotFoundError (exit 1) for an unknown service
 */
export async function run(opts: PricingPlansOptions, ctx: Context): Promise<void> {
  const [{ runValueVerb }, { PLANS_VERB }] = await Promise.all([import('../shared/one.js'), import('./shared/values.js')]);
  // The service named, and (to add) the plans checked to exist, before anything is read.
  const find = async (api: ApiClient): Promise<string> => {
    const id = await idOf(ctx, api, SERVICE_VIEW, opts.id);
    if (opts.verb === 'add') await checkPlanIds(ctx, opts.planIds);
    return id;
  };
  const plansOf = (s: Service) => s.payment?.pricingPlanIds ?? [];
  await runValueVerb(ctx, {
    verb: PLANS_VERB,
    given: opts.id,
    find,
    to: () => ({ [opts.verb]: opts.planIds }),
    view: {
      noun: SERVICE_VIEW.noun,
      label: (s) => SERVICE_VIEW.label(s as Service),
      format: (flags) => formatOf(ctx, SERVICE_VIEW, flags),
      print: (c, format, s) => (format.kind === 'table' ? printValue(c.io, format, plansOf(s as Service), { text: plansOf(s as Service).join('\n') }) : printRecord(c.io, format, s)),
    },
    title: opts.verb === 'add' ? 'Linking pricing plans' : 'Unlinking pricing plans',
    flags: opts,
    command: `services pricing-plans ${opts.verb}`,
    one: (id) => ({
      rule: REVERSIBLE,
      already: () => `the plans are ${opts.verb === 'add' ? 'linked to' : 'not linked to'} service ${id()} already`,
      outcome: (after: Service, _label, before: Service) => {
        const had = new Set(plansOf(before));
        const changed = opts.planIds.filter((p) => (opts.verb === 'add' ? !had.has(p) : had.has(p)));
        return `${opts.verb === 'add' ? 'Linked' : 'Unlinked'} ${changed.length} plan(s); service ${id()} has ${plansOf(after).length} plan(s) (revision ${after.revision ?? '?'})`;
      },
    }),
  });
}
