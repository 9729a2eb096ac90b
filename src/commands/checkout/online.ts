/**
 * `sitectl checkout online PLAN --member M [--method MOTO|POS] [--coupon] [--start]`: an online order bought
 * on a member's behalf (createOnlineOrder with `onBehalf`): DRAFT until the member pays on the site's
 * checkout (then PENDING until its start date, ACTIVE from it); a free plan's order is bought at once. On the local emulator, with stderr on a terminal, it also
 * says where to pay: the emulator's hosted checkout page for the order (a `paidPlansCheckout` redirect session
 * with the emulator-only `orderId`), and `sitectl emulator pay ID` for scripts. stdout carries the order only.
 */
import { redirects } from '../../api/auth/families.js';
import type { ApiClient } from '../../api/client.js';
import { checkout } from '../../api/checkout.js';
import type { Order } from '../../api/schemas/order.js';
import type { Context } from '../../context.js';
import { choiceOf } from '../shared/choices.js';
import { notice } from '../../core/log.js';
import { buyVerb } from './buy.js';

/** True for an API on this machine: the local emulator (the platform is never on a loopback address). */
function isLoopback(baseUrl: string): boolean {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/** Where to pay a DRAFT order on the emulator, on stderr when it is a terminal; best effort (silent on failure). */
async function wherePay(ctx: Context, api: ApiClient, order: Order): Promise<void> {
  if (!ctx.io.isStderrTTY || order.status !== 'DRAFT' || !order.id || !isLoopback(api.baseUrl)) return;
  try {
    const { redirectSession } = await redirects.createRedirectSession(api, { paidPlansCheckout: { orderId: order.id } }, { signal: ctx.signal });
    notice(ctx.io, `Pay it on the emulator's checkout page: ${redirectSession.fullUrl}\n  (or without a browser: ${ctx.bin} emulator pay ${order.id})`);
  } catch {
    // Not the emulator after all, or it has no checkout page: nothing to add.
  }
}

export const { register, run } = buyVerb<{ method?: string }>({
  verb: 'online',
  description: "Buy a plan online on a member's behalf (DRAFT until paid; then PENDING until its start date, ACTIVE from it)",
  examples: ["sitectl checkout online 'Gold Monthly' --member ada.abbott@example.com --coupon WELCOME10", "sitectl checkout online 'Free Trial Week' --member MEMBER_ID --method POS"],
  flags: (cmd) => cmd.option('--method <method>', 'how the order was taken: MOTO (phone or mail, default) or POS'),
  check: (flags) => void choiceOf(flags.method ?? 'MOTO', ['MOTO', 'POS'], '--method'),
  async create(api, input, flags, signal) {
    const method = choiceOf(flags.method ?? 'MOTO', ['MOTO', 'POS'], '--method');
    const { memberId, ...rest } = input;
    return (await checkout.createOnlineOrder(api, { ...rest, onBehalf: { memberId, orderMethod: method } }, { signal })).order;
  },
  after: wherePay,
});
