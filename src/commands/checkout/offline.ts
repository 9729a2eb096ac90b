/**
 * `sitectl checkout offline PLAN --member M [--paid] [--coupon] [--start]`: an order the member pays (or paid)
 * outside the site (createOfflineOrder): PENDING until its start date and ACTIVE from it, its payment PAID with `--paid`, else UNPAID until
 * `orders mark-paid`.
 */
import { checkout } from '../../api/checkout.js';
import { buyVerb } from './buy.js';

export const { register, run } = buyVerb<{ paid?: boolean }>({
  verb: 'offline',
  description: 'Record an order a member pays outside the site (ACTIVE from its start date, PENDING before; UNPAID unless --paid)',
  examples: ["sitectl checkout offline '10-Class Pack' --member ada.abbott@example.com --paid", "sitectl checkout offline 'Silver 12 Months' --member MEMBER_ID --start 'next mon'"],
  flags: (cmd) => cmd.option('--paid', 'the member has paid already'),
  create: async (api, input, flags, signal) => (await checkout.createOfflineOrder(api, { ...input, paid: Boolean(flags.paid) }, { signal })).order,
});
