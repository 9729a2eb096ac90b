/**
 * The plan fields `plans create` and `plans update` take as flags (docs/wire.md §13): pricing as
 * `--every 'N UNIT'` (a subscription, `--cycles N` of them, 0 = until canceled, `--trial-days N`), `--for 'N
 * UNIT'` (one payment for a duration) or `--unlimited` (one payment, never ends); `--price` and `--currency`;
 * the rest one flag per field.
 */
import type { Command } from 'commander';
import * as z from 'zod/mini';
import { PeriodUnitValues, type PlanCreate, type PlanPricing, planInputs } from '../../../api/schemas/plan.js';
import { UserError } from '../../../core/errors.js';
import { choiceOf, currencyOf } from '../../shared/choices.js';
import { collect } from '../../../core/filters.js';
import { parseAmount, parseCount } from '../../../core/numbers.js';

export interface PlanFlags {
  name?: string;
  description?: string;
  price?: string;
  currency?: string;
  every?: string;
  for?: string;
  unlimited?: boolean;
  cycles?: string;
  trialDays?: string;
  perk?: string[];
  maxPurchases?: string;
  buyerCanCancel?: string;
  futureStart?: string;
  terms?: string;
  hidden?: boolean;
}

/** Declares the field flags (`--hidden` only for create: visibility has its own verb). */
export function addPlanFlags(cmd: Command, create: boolean): Command {
  cmd
    .option('--name <name>', 'plan name (at most 50 characters)')
    .option('--description <text>', 'description')
    .option('--price <amount>', 'price of each payment, e.g. 49 or 49.90 (0: free)')
    .option('--currency <code>', 'ISO currency of --price (default USD)')
    .option('--every <period>', "a subscription paid every period: '1 MONTH', '2 WEEK', 'YEAR'")
    .option('--cycles <n>', 'payments of the subscription (0: until canceled; default 0)')
    .option('--trial-days <n>', 'free days before the first payment of a subscription')
    .option('--for <period>', "one payment for a period: '3 MONTH', '10 DAY'")
    .option('--unlimited', 'one payment, never ends')
    .option('--perk <text>', 'a perk (repeat for several; replaces the list on update)', collect, [])
    .option('--max-purchases <n>', 'times one buyer may buy it (0: no limit)')
    .option('--buyer-can-cancel <yes|no>', 'whether buyers may cancel their orders')
    .option('--future-start <yes|no>', 'whether an order may start at a later date')
    .option('--terms <text>', 'terms and conditions');
  if (create) cmd.option('--hidden', 'hide it from the site (it can still be sold offline)');
  return cmd;
}

/** `'3 MONTH'`, `'month'`, `'2 weeks'` -> `{count, unit}`. @throws UserError (exit 2) */
export function parsePeriod(text: string, flag: string): { count: number; unit: (typeof PeriodUnitValues)[number] } {
  const m = /^\s*(\S*?)\s*([a-zA-Z]+?)s?\s*$/.exec(text);
  const unit = m?.[2]?.toUpperCase();
  if (!m || !unit || !(PeriodUnitValues as readonly string[]).includes(unit)) {
    throw new UserError(`${flag} must be a count and a unit such as '1 MONTH' or '2 WEEK' (units ${PeriodUnitValues.join(', ')}), got '${text}'`);
  }
  return { count: m[1] ? parseCount(m[1], flag, 1, 999) : 1, unit: unit as (typeof PeriodUnitValues)[number] };
}

function yesNo(text: string, flag: string): boolean {
  const t = choiceOf(text, ['yes', 'no', 'true', 'false', 'y', 'n', '1', '0'], flag, { fold: (v) => v.trim().toLowerCase() });
  return ['yes', 'true', 'y', '1'].includes(t);
}

/** Whether any pricing flag was given. */
export function hasPricing(o: PlanFlags): boolean {
  return [o.price, o.currency, o.every, o.for, o.unlimited, o.cycles, o.trialDays].some((v) => v !== undefined);
}

/**
 * A plan's pricing as the platform gave it, read as a request's pricing, so `plans update --price` keeps the plan's
 * model: undefined when it does not fit one (a model without its duration), and the flags must then give the model.
 */
export function keptPricing(pricing: PlanPricing | undefined): PlanCreate['pricing'] | undefined {
  const read = z.safeParse(planInputs().PricingInput, pricing);
  return read.success ? read.data : undefined;
}

/**
 * The pricing the flags describe. On update `current` holds the plan's pricing, so `--price 59` alone keeps the
 * model and `--every` alone keeps the price.
 * @throws UserError (exit 2) for a missing or doubled model, a bad amount, currency, count or period
 */
export function pricingOf(o: PlanFlags, current?: PlanCreate['pricing']): PlanCreate['pricing'] {
  const models = [o.every !== undefined, o.for !== undefined, Boolean(o.unlimited)].filter(Boolean).length;
  if (models > 1) throw new UserError('give one of --every, --for or --unlimited');
  if (o.price !== undefined) parseAmount(o.price, '--price');
  const currency = o.currency !== undefined ? currencyOf(o.currency, '--currency') : (current?.price.currency ?? 'USD');
  const value = o.price ?? current?.price.value;
  if (value === undefined) throw new UserError('a plan needs --price (0 for a free plan)');
  let pricing: PlanCreate['pricing'];
  if (o.every !== undefined) pricing = { subscription: { cycleDuration: parsePeriod(o.every, '--every'), cycleCount: 0 }, price: { value, currency } };
  else if (o.for !== undefined) pricing = { singlePaymentForDuration: parsePeriod(o.for, '--for'), price: { value, currency } };
  else if (o.unlimited) pricing = { singlePaymentUnlimited: true, price: { value, currency } };
  else if (current) pricing = { ...structuredClone(current), price: { value, currency } };
  else throw new UserError('a plan needs --every PERIOD (a subscription), --for PERIOD (one payment for a time) or --unlimited');
  if (o.cycles !== undefined || o.trialDays !== undefined) {
    if (!pricing.subscription) throw new UserError('--cycles and --trial-days go with a subscription (--every)');
    if (o.cycles !== undefined) pricing.subscription.cycleCount = parseCount(o.cycles, '--cycles', 0, 999);
    if (o.trialDays !== undefined) pricing.freeTrialDays = parseCount(o.trialDays, '--trial-days', 0, 999);
  }
  if (!pricing.subscription) delete pricing.freeTrialDays;
  return pricing;
}

/** The non-pricing fields the flags set (only those given). @throws UserError (exit 2) */
export function fieldsOf(o: PlanFlags): Partial<PlanCreate> {
  const out: Partial<PlanCreate> = {};
  if (o.name !== undefined) {
    if (o.name.trim() === '' || o.name.length > 50) throw new UserError('--name must be 1 to 50 characters');
    out.name = o.name;
  }
  if (o.description !== undefined) out.description = o.description;
  if (o.perk?.length) out.perks = { values: o.perk };
  if (o.maxPurchases !== undefined) out.maxPurchasesPerBuyer = parseCount(o.maxPurchases, '--max-purchases', 0, 1000);
  if (o.buyerCanCancel !== undefined) out.buyerCanCancel = yesNo(o.buyerCanCancel, '--buyer-can-cancel');
  if (o.futureStart !== undefined) out.allowFutureStartDate = yesNo(o.futureStart, '--future-start');
  if (o.terms !== undefined) out.termsAndConditions = o.terms;
  return out;
}
