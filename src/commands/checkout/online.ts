/**
 * `sitectl checkout online PLAN --member M [--method MOTO|POS] [--coupon] [--start]`: an online order bought
 * on a member's behalf (createOnlineOrder with `onBehalf`): PENDING until the member pays on the site's
 * checkout; a free plan's order is ACTIVE at once.
 */
import { checkout } from '../../api/checkout.js';
import { UserError } from '../../core/errors.js';
import { buyVerb } from './buy.js';

export const { register, run } = buyVerb<{ method?: string }>({
  verb: 'online',
  description: "Buy a plan online on a member's behalf (PENDING until paid; free plans start at once)",
  examples: ["sitectl checkout online 'Gold Monthly' --member ada.abbott@example.com --coupon WELCOME10", "sitectl checkout online 'Free Trial Week' --member MEMBER_ID --method POS"],
  flags: (cmd) => cmd.option('--method <method>', 'how the order was taken: MOTO (phone or mail, default) or POS'),
  async create(api, input, flags, signal) {
    const method = (flags.method ?? 'MOTO').toUpperCase();
    if (method !== 'MOTO' && method !== 'POS') throw new UserError(`--method must be MOTO or POS, got '${flags.method}'`);
    const { memberId, ...rest } = input;
    return (await checkout.createOnlineOrder(api, { ...rest, onBehalf: { memberId, orderMethod: method } }, { signal })).order;
  },
});
