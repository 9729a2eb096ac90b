/**
 * `sitectl checkout preview PLAN --member M [--coupon] [--start]`: the order a member would get, without
 * buying (getOfflineOrderPreview): prices, start and end, and whether the member reached the plan's purchase
 * limit (then buying would be refused). `--online` instead of `--member`: the signed-in member's own online
 * order (getOnlineOrderPreview, `POST /v2/checkout/orders/preview-online`, sent with the member's token: the
 * platform takes the buyer from it; `sitectl login` first, exit 4 otherwise).
 */
import type { Command } from 'commander';
import { checkout } from '../../api/checkout.js';
import type { Context } from '../../context.js';
import { notice, warn } from '../../core/log.js';
import { addFormatFlags, fieldsChecker, printValue, resolveFormat, type FormatFlags } from '../../core/output.js';
import { UserError } from '../../core/errors.js';
import { memberApi } from '../auth/shared/session.js';
import { formatOf } from '../shared/verbs.js';
import { ORDER_VIEW } from '../orders/shared/view.js';
import { addCheckoutFlags, checkoutInput, printOrder, type CheckoutFlags } from './shared.js';

export function register(parent: Command, ctx: Context): void {
  const cmd = addCheckoutFlags(parent.command('preview').description('Preview the order a member would get (nothing is bought)').argument('<plan>', 'plan id, unique id prefix, or exact name'), { start: true, member: true })
    .option('--online', "the signed-in member's own online order (sitectl login first), instead of --member")
    .addHelpText(
      'after',
      "\nExamples:\n  sitectl checkout preview 'Gold Monthly' --member ada.abbott@example.com --coupon GOLDSTART\n  sitectl checkout preview 'Free Trial Week' --member MEMBER_ID --json purchaseLimitExceeded\n  sitectl checkout preview 'Gold Monthly' --online --json order",
    );
  addFormatFlags(cmd).action(async (plan: string, o: CheckoutFlags & FormatFlags & { online?: boolean }) => {
    await run({ ...o, plan }, ctx);
  });
}

/**
 * Prints the previewed order (with --json: `{order, purchaseLimitExceeded}`); a reached purchase limit is
 * said on stderr. @throws UserError (exit 2) for bad flags, an unknown plan or member e-mail
 */
export async function run(opts: CheckoutFlags & FormatFlags & { plan: string; online?: boolean }, ctx: Context): Promise<void> {
  const format = opts.json !== undefined && opts.json !== false ? resolveFormat(opts, fieldsChecker(['order', 'purchaseLimitExceeded'])) : formatOf(ctx, ORDER_VIEW, opts);
  if (opts.online && opts.member !== undefined) throw new UserError('--online previews the signed-in member\'s own order: drop --member (or drop --online for that member\'s offline order)');
  if (!opts.online && opts.member === undefined) throw new UserError('the buyer is needed: --member ID|EMAIL, or --online for the signed-in member', `'${ctx.bin} members list' shows the members`);
  const { api, plan, memberId, couponCode, startDate } = await checkoutInput(ctx, opts.plan, opts, !opts.online);
  const input = { planId: plan.id, ...(couponCode ? { couponCode } : {}), ...(startDate ? { startDate } : {}) };
  let reply: Awaited<ReturnType<typeof checkout.getOfflineOrderPreview>>;
  let buyer: string;
  if (opts.online) {
    const member = await memberApi(ctx);
    try {
      reply = await checkout.getOnlineOrderPreview(member, input, { signal: ctx.signal });
    } finally {
      await member.close();
    }
    buyer = reply.order.buyer?.memberId ?? 'the signed-in member';
  } else {
    reply = await checkout.getOfflineOrderPreview(api, { ...input, memberId: memberId! }, { signal: ctx.signal });
    buyer = memberId!;
  }
  if (reply.purchaseLimitExceeded) warn(ctx.io, `member ${buyer} has reached the purchase limit of plan "${plan.name ?? plan.id}" (${plan.maxPurchasesPerBuyer}): buying it would be refused`);
  else notice(ctx.io, 'Preview only: nothing was bought');
  if (format.kind === 'json') {
    await printValue(ctx.io, format, reply);
    return;
  }
  await printOrder(ctx, api, format, reply.order);
}
