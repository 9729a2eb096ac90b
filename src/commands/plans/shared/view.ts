/**
 * How a pricing plan looks on the command line, and how a plan is named: by id, a unique id prefix, or its
 * exact name (docs/wire.md §13).
 */
import type { ApiClient } from '../../../api/client.js';
import { collect, items, listPages } from '../../../api/paging.js';
import { planOps } from '../../../api/plans.js';
import { Plan, pricingText } from '../../../api/schemas/plan.js';
import type { Context } from '../../../context.js';
import { ExitCode, UserError } from '../../../core/errors.js';
import type { Column } from '../../../core/output.js';
import { isIdPrefix } from '../../shared/ids.js';
import type { EntityView } from '../../shared/entity-view.js';

/** `public`, `hidden`, plus `primary` and `archived` when they hold. */
export function planState(p: Plan): string {
  return [p.archived ? 'archived' : p.public === false ? 'hidden' : 'public', p.primary ? 'primary' : undefined].filter(Boolean).join(', ');
}

/** Columns of `plans list`: id, name, pricing, state, buyer can cancel, purchase limit, has orders. */
export const PLAN_COLUMNS: Column<Plan>[] = [
  { key: 'id', id: true, noTruncate: true },
  { key: 'name', min: 16 },
  { key: 'pricing', get: (p) => pricingText(p.pricing), min: 24 },
  { key: 'state', get: planState },
  { key: 'buyerCanCancel', header: 'CANCEL', priority: 3 },
  { key: 'maxPurchasesPerBuyer', header: 'LIMIT', get: (p) => p.maxPurchasesPerBuyer || '', align: 'right', priority: 2 },
  { key: 'hasOrders', header: 'ORDERS', priority: 1 },
];

/** Rows of the readable `plans get` view. */
export function planRows(p: Plan): Array<[string, unknown]> {
  const rows: Array<[string, unknown]> = [
    ['id', p.id],
    ['name', p.name],
    ['pricing', pricingText(p.pricing)],
    ['state', planState(p)],
    ['slug', p.slug],
    ['buyer can cancel', p.buyerCanCancel],
    ['purchases per buyer', p.maxPurchasesPerBuyer ? p.maxPurchasesPerBuyer : 'no limit'],
    ['future start date', p.allowFutureStartDate],
    ['has orders', p.hasOrders],
    ['perks', p.perks?.values?.length ? p.perks.values.join('; ') : undefined],
    ['description', p.description],
    ['terms', p.termsAndConditions],
    ['created', p.createdDate],
    ['updated', p.updatedDate],
  ];
  return rows.filter(([, v]) => v !== undefined && v !== null && v !== '');
}

/** The plans entity for the shared verbs: every plan of the site (listPlans, active and archived). */
export const PLAN_VIEW: EntityView<Plan> = {
  noun: { one: 'plan', many: 'plans' },
  schema: Plan,
  columns: PLAN_COLUMNS,
  rows: planRows,
  readOnly: ['id', 'createdDate', 'updatedDate', 'slug', 'archived', 'primary', 'hasOrders'],
  query: planOps.listPlans,
  label: (p) => p.name ?? undefined,
  filterExample: '{"id":{"$in":["<plan id>","<plan id>"]}}',
  listParams: { id: { param: 'planIds', list: true } },
};

/** Every plan of the site, archived ones too. */
export async function allPlans(api: ApiClient, signal: AbortSignal): Promise<Plan[]> {
  return collect(items(listPages(api, planOps.listPlans, { params: { archived: 'ARCHIVED_AND_ACTIVE' }, signal })));
}

/**
 * The plan `given` names: its id, a unique id prefix, or its exact name (case-insensitive).
 * @throws UserError exit 2 when nothing matches (with the closest names), or a prefix or name is ambiguous
 */
export async function planOf(ctx: Context, api: ApiClient, given: string, flag = 'plan'): Promise<Plan> {
  const plans = await allPlans(api, ctx.signal);
  const exact = plans.find((p) => p.id === given);
  if (exact) return exact;
  const lower = given.toLowerCase();
  const byPrefix = isIdPrefix(given) ? plans.filter((p) => p.id.toLowerCase().startsWith(lower)) : [];
  const byName = plans.filter((p) => (p.name ?? '').toLowerCase() === lower);
  const found = byPrefix.length ? byPrefix : byName;
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new UserError(`${flag} '${given}' is ambiguous: ${found.map((p) => `${p.id} (${p.name ?? ''})`).join(', ')}`, 'give the full id');
  const names = plans.map((p) => p.name ?? '').filter((n) => n.toLowerCase().includes(lower.slice(0, 4)));
  throw new UserError(`no plan '${given}' on this site`, names.length ? `did you mean ${names.slice(0, 3).map((n) => `'${n}'`).join(', ')}? ('${ctx.bin} plans list' shows them)` : `'${ctx.bin} plans list --state all' shows the plans`, ExitCode.Usage);
}
