/**
 * `sitectl checkout preview PLAN --member M [--coupon] [--start]`: the order a member would get, without
 * buying (getOfflineOrderPreview): prices, start and end, and whether the member reached the plan's purchase
 * limit (then buying would be refused). The online preview is the signed-in member's own and comes with sign-in.
 */
import type { Command } from 'commander';
import { checkout } from '../../api/checkout.js';
import type { Context } from '../../context.js';
import { notice, warn } from '../../core/log.js';
import { addFormatFlags, fieldsChecker, printValue, resolveFormat, type FormatFlags } from '../../core/output.js';
import { formatOf } from '../shared/verbs.js';
import { ORDER_VIEW } from '../orders/shared/view.js';
import { addCheckoutFlags, checkoutInput, printOrder, type CheckoutFlags } from './shared.js';

export function register(parent: Command, ctx: Context): void {
  const cmd = addCheckoutFlags(parent.command('preview').description('Preview the order a member would get (nothing is bought)').argument('<plan>', 'plan id, unique id prefix, or exact name'), { start: true, member: true }).addHelpText(
    'after',
    "\nExamples:\n  sitectl checkout preview 'Gold Monthly' --member ada.abbott@example.com --coupon GOLDSTART\n  sitectl checkout preview 'Free Trial Week' --member MEMBER_ID --json purchaseLimitExceeded",
  );
  addFormatFlags(cmd).action(async (plan: string, o: CheckoutFlags & FormatFlags) => {
    await run({ ...o, plan }, ctx);
  });
}

/**
 * Prints the previewed order (with --json: `{order, purchaseLimitExceeded}`); a reached purchase limit is
 * said on stderr. @throws UserError (exit 2) for bad flags, an unknown plan or member e-mail
 */
export async function run(opts: CheckoutFlags & FormatFlags & { plan: string }, ctx: Context): Promise<void> {
  const format = opts.json !== undefined && opts.json !== false ? resolveFormat(opts, fieldsChecker(['order', 'purchaseLimitExceeded'])) : formatOf(ctx, ORDER_VIEW, opts);
  const { api, plan, memberId, couponCode, startDate } = await checkoutInput(ctx, opts.plan, opts, true);
  const reply = await checkout.getOfflineOrderPreview(api, { planId: plan.id, memberId: memberId!, ...(couponCode ? { couponCode } : {}), ...(startDate ? { startDate } : {}) }, { signal: ctx.signal });
  if (reply.purchaseLimitExceeded) warn(ctx.io, `member ${memberId} has reached the purchase limit of plan "${plan.name ?? plan.id}" (${plan.maxPurchasesPerBuyer}): buying it would be refused`);
  else notice(ctx.io, 'Preview only: nothing was bought');
  if (format.kind === 'json') {
    await printValue(ctx.io, format, reply);
    return;
  }
  await printOrder(ctx, api, format, reply.order);
}
