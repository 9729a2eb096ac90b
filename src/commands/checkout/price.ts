/** `sitectl checkout price PLAN [--coupon CODE]`: a plan's price by cycle, with a coupon applied (getPricePreview). */
import type { Command } from 'commander';
import { checkout } from '../../api/checkout.js';
import type { SpannedPrice } from '../../api/schemas/order.js';
import type { Context } from '../../context.js';
import { addFormatFlags, type Column, fieldsChecker, printRecords, resolveFormat, type FormatFlags } from '../../core/output.js';
import { planOf } from '../plans/shared/view.js';
import { couponOf } from './shared.js';

/** One row per span of cycles. */
const COLUMNS: Column<SpannedPrice>[] = [
  { key: 'cycles', get: (s) => spanText(s) },
  { key: 'subtotal', get: (s) => s.price?.subtotal ?? '', align: 'right' },
  { key: 'discount', get: (s) => s.price?.discount ?? '', align: 'right' },
  { key: 'total', get: (s) => s.price?.total ?? '', align: 'right' },
  { key: 'currency', get: (s) => s.price?.currency ?? '' },
  { key: 'coupon', get: (s) => s.price?.coupon?.code ?? '' },
];

/** `1`, `1-3`, `2+` */
function spanText(s: SpannedPrice): string {
  const from = s.duration?.cycleFrom ?? 1;
  const n = s.duration?.numberOfCycles;
  return n ? (n === 1 ? String(from) : `${from}-${from + n - 1}`) : `${from}+`;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('price')
    .description("A plan's price for each cycle, with a coupon applied")
    .argument('<plan>', 'plan id, unique id prefix, or exact name')
    .option('--coupon <code>', 'a coupon code (e.g. WELCOME10)')
    .addHelpText('after', "\nExamples:\n  sitectl checkout price 'Gold Monthly' --coupon GOLDSTART\n  sitectl checkout price '10-Class Pack' --coupon SAVE5 --json");
  addFormatFlags(cmd).action(async (plan: string, o: FormatFlags & { coupon?: string }) => {
    await run({ ...o, plan }, ctx);
  });
}

/** Prints one row per span of cycles (`--json`: the spans as the platform gives them). @throws UserError (exit 2) for an unknown plan */
export async function run(opts: FormatFlags & { plan: string; coupon?: string }, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['duration', 'price']));
  const couponCode = couponOf(opts.coupon);
  const api = await ctx.api();
  const plan = await planOf(ctx, api, opts.plan);
  const { prices } = await checkout.getPricePreview(api, { planId: plan.id, ...(couponCode ? { couponCode } : {}) }, { signal: ctx.signal });
  await printRecords(ctx.io, format, (async function* () {
    yield* prices;
  })(), COLUMNS, { now: ctx.now() });
}
