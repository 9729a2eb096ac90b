/**
 * The hosted checkout page's HTML, in the sign-in pages' style (oauth/pages.ts: plain forms that work without
 * script, every value escaped): the plan, its terms, the price with the coupon and the total, the buyer, and
 * "Cancel" and "Pay" (Pay first in the form, shown on the right, as on the sign-in pages). A plan's checkout
 * also takes a coupon code; a test link declines the card.
 */
import type { OrderPriceDoc } from '../orders/model.js';
import type { PlanPricingDoc } from '../plans/model.js';
import { esc, page } from '../oauth/pages.js';

const STYLE = `<style>
  h2 { font-size: 17px; margin: 0 0 4px; }
  .plan { border: 1px solid #e1e3ea; border-radius: 10px; padding: 14px 16px; margin-bottom: 16px; }
  .plan p { margin: 4px 0; font-size: 14px; color: #5c6070; }
  table.lines { width: 100%; border-collapse: collapse; font-size: 15px; margin-bottom: 8px; }
  table.lines td { padding: 6px 0; }
  table.lines td.amount { text-align: right; font-variant-numeric: tabular-nums; }
  table.lines tr.total td { border-top: 1px solid #e1e3ea; font-weight: 700; padding-top: 10px; }
  form.coupon { display: flex; gap: 8px; align-items: flex-end; margin: 6px 0 4px; }
  form.coupon label { margin: 0 0 6px; }
  form.coupon div { flex: 1; }
  form.coupon button { flex: 0 0 auto; padding: 10px 14px; }
  button.link { background: none; border: 0; color: #3b5bdb; text-decoration: underline; font-size: 13px; font-weight: 400; padding: 0; flex: none; }
  .buyer { font-size: 14px; color: #5c6070; margin: 10px 0 0; }
</style>`;

const UNIT: Record<string, string> = { DAY: 'day', WEEK: 'week', MONTH: 'month', YEAR: 'year' };
const span = (count: number, unit: string) => `${count === 1 ? '' : `${count} `}${UNIT[unit] ?? unit.toLowerCase()}${count === 1 ? '' : 's'}`;

/** The plan's terms in words: "49 USD every month until canceled, 7-day free trial". */
export function termsText(pricing: Pick<PlanPricingDoc, 'subscription' | 'singlePaymentForDuration' | 'singlePaymentUnlimited' | 'freeTrialDays'>, price: string, currency: string): string {
  const amount = `${price} ${currency}`;
  let text: string;
  if (pricing.subscription) {
    const { cycleDuration: d, cycleCount } = pricing.subscription;
    text = `${amount} every ${span(d.count, d.unit)}${cycleCount > 0 ? `, ${cycleCount} payment${cycleCount === 1 ? '' : 's'}` : ' until canceled'}`;
  } else if (pricing.singlePaymentForDuration) {
    const d = pricing.singlePaymentForDuration;
    text = `${amount} once, for ${d.count} ${UNIT[d.unit] ?? d.unit.toLowerCase()}${d.count === 1 ? '' : 's'}`;
  } else {
    text = `${amount} once, never expires`;
  }
  return pricing.freeTrialDays ? `${text}; ${pricing.freeTrialDays}-day free trial first` : text;
}

export interface CheckoutView {
  action: string;
  fields: Record<string, string>;
  siteName: string;
  planName: string;
  planDescription?: string | null;
  terms: string;
  /** The first payment after the coupon. */
  price: OrderPriceDoc;
  /** A later start date, when the order starts later. */
  startsOn?: string;
  buyer?: string;
  /** True when the page may take a coupon code (a plan's checkout before its order exists). */
  couponForm: boolean;
  couponCode?: string;
  free: boolean;
  error?: string;
  info?: string;
}

const notice = (error?: string, info?: string) => `${error ? `<div class="error" role="alert">${esc(error)}</div>` : ''}${info ? `<div class="info" role="status">${esc(info)}</div>` : ''}`;
const hidden = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');

/** The checkout page. */
export function checkoutPage(v: CheckoutView): string {
  const p = v.price;
  const discount = p.coupon && Number(p.discount) > 0 ? `<tr><td>Coupon ${esc(p.coupon.code)}</td><td class="amount">&minus;${esc(p.discount)} ${esc(p.currency)}</td></tr>` : '';
  const coupon = v.couponForm
    ? `<form class="coupon" method="post" action="${esc(v.action)}">${hidden(v.fields)}<div><label for="coupon">Coupon code</label><input id="coupon" name="coupon" autocomplete="off" value="${esc(v.couponCode)}"></div><button class="secondary" type="submit" name="action" value="coupon">Apply</button></form>`
    : '';
  const payLabel = v.free ? 'Get the plan' : `Pay ${p.total} ${p.currency}`;
  return page(
    `Checkout: ${v.planName}`,
    `${STYLE}<h1>Checkout</h1><p class="sub">${esc(v.siteName)}</p>${notice(v.error, v.info)}
<div class="plan"><h2>${esc(v.planName)}</h2>${v.planDescription ? `<p>${esc(v.planDescription)}</p>` : ''}<p>${esc(v.terms)}</p>${v.startsOn ? `<p>Starts on ${esc(v.startsOn)}</p>` : ''}</div>
<table class="lines"><tr><td>Subtotal</td><td class="amount">${esc(p.subtotal)} ${esc(p.currency)}</td></tr>${discount}<tr class="total"><td>Total</td><td class="amount">${esc(p.total)} ${esc(p.currency)}</td></tr></table>
${coupon}
<form method="post" action="${esc(v.action)}">${hidden(v.fields)}
<div class="actions reverse"><button class="primary" type="submit" name="action" value="pay">${esc(payLabel)}</button><button class="secondary" type="submit" name="action" value="cancel">Cancel</button></div>
${v.free ? '' : '<p class="foot"><button class="link" type="submit" name="action" value="decline">Test a declined card</button></p>'}
</form>${v.buyer ? `<p class="buyer">Buying as ${esc(v.buyer)}</p>` : ''}<p class="foot">Emulator checkout: no card is charged.</p>`,
  );
}
