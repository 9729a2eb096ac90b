/**
 * The hosted checkout page's HTML, in the sign-in pages' style (oauth/pages.ts: plain forms that work without
 * script, every value escaped): the plan, its terms, the price with the coupon and the total (with a free
 * trial: what is due today, then what is due from the trial's end), the buyer, and "Pay" and "Cancel" (Pay
 * first in the form and on screen, as on the sign-in pages). A plan's checkout also takes a coupon code; a
 * test link declines the card. Then the thank-you page: plan, price, start date and the order's short id.
 */
import type { OrderPriceDoc, SpannedPriceDoc } from '../orders/model.js';
import type { PlanPricingDoc } from '../plans/model.js';
import { esc, messagePage, page } from '../oauth/pages.js';

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
  p.then { font-size: 14px; color: #5c6070; margin: 0 0 12px; }
  dl.summary { display: grid; grid-template-columns: auto 1fr; gap: 8px 16px; font-size: 15px; margin: 0 0 8px; }
  dl.summary dt { color: #5c6070; }
  dl.summary dd { margin: 0; }
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

/** A day for people: `Nov 30, 2026` (UTC, the emulator's dates being UTC instants). */
export function dayText(iso: string | number): string {
  return new Date(iso).toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
}

/** What a subscription with a free trial costs: nothing today, then (`then`) the first price from the trial's end. */
export interface TrialDue {
  currency: string;
  /**
   * `then 44.10 USD every month from Nov 30, 2026`; with a coupon for some payments only, each price in turn:
   * `then 24.50 USD on Nov 30, 2026, then 49 USD every month`.
   */
  then: string;
}

/**
 * A free trial's {@link TrialDue}.
 * @param prices the order's (or the plan's preview's) spanned prices, after the coupon (one span, or two when
 *   the coupon holds for the first payments only)
 * @param cycle the subscription's cycle; `trialEndsMs` the trial's end (ms), when the first payment is due
 */
export function trialDue(prices: readonly SpannedPriceDoc[], cycle: { count: number; unit: string }, trialEndsMs: number): TrialDue {
  const [a, b] = [prices[0]!.price, prices[1]];
  const every = `every ${span(cycle.count, cycle.unit)}`;
  const from = dayText(trialEndsMs);
  if (!b) return { currency: a.currency, then: `then ${a.total} ${a.currency} ${every} from ${from}` };
  const n = prices[0]!.duration.numberOfCycles ?? 1;
  const first = n === 1 ? `then ${a.total} ${a.currency} on ${from}` : `then ${a.total} ${a.currency} ${every} from ${from} for ${n} payments`;
  return { currency: a.currency, then: `${first}, then ${b.price.total} ${b.price.currency} ${every}` };
}

/** A {@link TrialDue} in one line: `Due today 0.00 USD, then 44.10 USD every month from Nov 30, 2026`. */
export const trialDueText = (t: TrialDue) => `Due today 0.00 ${t.currency}, ${t.then}`;

export interface CheckoutView {
  action: string;
  fields: Record<string, string>;
  siteName: string;
  planName: string;
  planDescription?: string | null;
  terms: string;
  /** The first payment after the coupon. */
  price: OrderPriceDoc;
  /** With a free trial: what is due today and then (Pay starts the trial). */
  trial?: TrialDue;
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
  const payLabel = v.free ? 'Get the plan' : v.trial ? 'Start free trial' : `Pay ${p.total} ${p.currency}`;
  const total = v.trial
    ? `<tr class="total"><td>Due today</td><td class="amount">0.00 ${esc(v.trial.currency)}</td></tr></table><p class="then">${esc(v.trial.then.replace(/^then/, 'Then'))}</p>`
    : `<tr class="total"><td>Total</td><td class="amount">${esc(p.total)} ${esc(p.currency)}</td></tr></table>`;
  return page(
    `Checkout: ${v.planName}`,
    `${STYLE}<h1>Checkout</h1><p class="sub">${esc(v.siteName)}</p>${notice(v.error, v.info)}
<div class="plan"><h2>${esc(v.planName)}</h2>${v.planDescription ? `<p>${esc(v.planDescription)}</p>` : ''}<p>${esc(v.terms)}</p>${v.startsOn ? `<p>Starts on ${esc(v.startsOn)}</p>` : ''}</div>
<table class="lines"><tr><td>Subtotal</td><td class="amount">${esc(p.subtotal)} ${esc(p.currency)}</td></tr>${discount}${total}
${coupon}
<form method="post" action="${esc(v.action)}">${hidden(v.fields)}
<div class="actions"><button class="primary" type="submit" name="action" value="pay">${esc(payLabel)}</button><button class="secondary" type="submit" name="action" value="cancel">Cancel</button></div>
${v.free ? '' : '<p class="foot"><button class="link" type="submit" name="action" value="decline">Test a declined card</button></p>'}
</form>${v.buyer ? `<p class="buyer">Buying as ${esc(v.buyer)}</p>` : ''}<p class="foot">Emulator checkout: no card is charged.</p>`,
  );
}

/** What the thank-you page shows of the order. */
export interface PaidView {
  planName: string;
  /** What was paid: `44.10 USD`, or with a free trial {@link trialDueText}'s line. */
  price: string;
  /** The start date, for people ({@link dayText}). */
  startsOn: string;
  orderId: string;
  backHref?: string;
}

/**
 * The thank-you page after Pay: plan, price, start date and the order's short id (its first 8 characters, as
 * the CLI shows ids; the whole id in its title).
 */
export function thankYouPage(v: PaidView): string {
  return page(
    'Thank you',
    `${STYLE}<h1>Thank you</h1><p class="sub">Your plan is bought.</p>
<dl class="summary"><dt>Plan</dt><dd>${esc(v.planName)}</dd><dt>Price</dt><dd>${esc(v.price)}</dd><dt>Starts</dt><dd>${esc(v.startsOn)}</dd><dt>Order</dt><dd><span title="${esc(v.orderId)}">${esc(v.orderId.slice(0, 8))}</span></dd></dl>
${v.backHref ? `<p class="foot"><a href="${esc(v.backHref)}">Back to the site</a></p>` : ''}`,
  );
}

/** The thank-you page when the order cannot be read any more (deleted meanwhile). */
export function thankYouNoOrder(backHref?: string): string {
  return messagePage('Thank you', 'Your order is complete.', backHref ? { href: backHref, hrefText: 'Back to the site' } : {});
}
