/**
 * The hosted checkout page's HTML, in the sign-in pages' style (oauth/pages.ts: plain forms that work without
 * script, every value escaped): the plan, its terms, the price with the coupon and the total (with a free
 * trial: what is due today, then what is due from the trial's end), the buyer, and "Pay" and "Cancel" (Pay
 * first in the form and on screen, as on the sign-in pages). A plan's checkout also takes a coupon code; a
 * test link declines the card. Then the thank-you page (what was bought, what it cost, when it starts in the
 * site's time zone, the order's short id, the way back) and the canceled page (try again). Every amount is
 * written one way, {@link moneyText}'s: `49.00 USD`; every day and time in the site's time zone.
 */
import { currencyDigits } from '../../api/currencies.js';
import { notice } from '../../api/hosted-page.js';
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
  p.close { font-size: 14px; color: #5c6070; margin: 18px 0 0; }
</style>`;

const UNIT: Record<string, string> = { DAY: 'day', WEEK: 'week', MONTH: 'month', YEAR: 'year' };
const span = (count: number, unit: string) => `${count === 1 ? '' : `${count} `}${UNIT[unit] ?? unit.toLowerCase()}${count === 1 ? '' : 's'}`;

const amountFormats = new Map<number, Intl.NumberFormat>();

/**
 * An amount as every hosted page writes it: the decimal `value` (`49`, `44.1`, `1200.5`) with the digits of the
 * currency's minor unit and thousands grouped, then the ISO code: `49.00 USD`, `1,200.50 USD`, `4,900 JPY`.
 */
export function moneyText(value: string | number, currency: string): string {
  const digits = currencyDigits(currency);
  let f = amountFormats.get(digits);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    amountFormats.set(digits, f);
  }
  return `${f.format(Number(value))} ${currency}`;
}

/** The plan's terms in words: "49.00 USD every month until canceled; 7-day free trial first". */
export function termsText(pricing: Pick<PlanPricingDoc, 'subscription' | 'singlePaymentForDuration' | 'singlePaymentUnlimited' | 'freeTrialDays'>, price: string, currency: string): string {
  const amount = moneyText(price, currency);
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

/** A day for people, on the calendar of time zone `zone` (the site's): `Nov 30, 2026`. */
export function dayText(iso: string | number, zone: string): string {
  return new Date(iso).toLocaleDateString('en-US', { timeZone: zone, year: 'numeric', month: 'short', day: 'numeric' });
}

/** A moment for people, on the clock of `zone` (the site's), the zone named: `Nov 24, 2026, 10:14 AM Pacific Standard Time`. */
export function momentText(iso: string | number, zone: string): string {
  return new Date(iso).toLocaleString('en-US', { timeZone: zone, year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'long' });
}

/** What a subscription with a free trial costs: nothing today, then (`then`) the first price from the trial's end. */
export interface TrialDue {
  currency: string;
  /**
   * `then 44.10 USD every month from Nov 30, 2026`; with a coupon for some payments only, each price in turn:
   * `then 24.50 USD on Nov 30, 2026, then 49.00 USD every month`.
   */
  then: string;
}

/**
 * A free trial's {@link TrialDue}.
 * @param prices the order's (or the plan's preview's) spanned prices, after the coupon (one span, or two when
 *   the coupon holds for the first payments only)
 * @param cycle the subscription's cycle; `trialEndsMs` the trial's end (ms), when the first payment is due;
 *   `zone` the site's time zone, whose calendar names that day
 */
export function trialDue(prices: readonly SpannedPriceDoc[], cycle: { count: number; unit: string }, trialEndsMs: number, zone: string): TrialDue {
  const [a, b] = [prices[0]!.price, prices[1]];
  const every = `every ${span(cycle.count, cycle.unit)}`;
  const from = dayText(trialEndsMs, zone);
  if (!b) return { currency: a.currency, then: `then ${moneyText(a.total, a.currency)} ${every} from ${from}` };
  const n = prices[0]!.duration.numberOfCycles ?? 1;
  const first = n === 1 ? `then ${moneyText(a.total, a.currency)} on ${from}` : `then ${moneyText(a.total, a.currency)} ${every} from ${from} for ${n} payments`;
  return { currency: a.currency, then: `${first}, then ${moneyText(b.price.total, b.price.currency)} ${every}` };
}

/** A {@link TrialDue} in one line: `Due today 0.00 USD, then 44.10 USD every month from Nov 30, 2026`. */
export const trialDueText = (t: TrialDue) => `Due today ${moneyText(0, t.currency)}, ${t.then}`;

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

const hidden = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');

/** The checkout page. */
export function checkoutPage(v: CheckoutView): string {
  const p = v.price;
  const discount = p.coupon && Number(p.discount) > 0 ? `<tr><td>Coupon ${esc(p.coupon.code)}</td><td class="amount">&minus;${esc(moneyText(p.discount, p.currency))}</td></tr>` : '';
  const coupon = v.couponForm
    ? `<form class="coupon" method="post" action="${esc(v.action)}">${hidden(v.fields)}<div><label for="coupon">Coupon code</label><input id="coupon" name="coupon" autocomplete="off" value="${esc(v.couponCode)}"></div><button class="secondary" type="submit" name="action" value="coupon">Apply</button></form>`
    : '';
  const payLabel = v.free ? 'Get the plan' : v.trial ? 'Start free trial' : `Pay ${moneyText(p.total, p.currency)}`;
  const total = v.trial
    ? `<tr class="total"><td>Due today</td><td class="amount">${esc(moneyText(0, v.trial.currency))}</td></tr></table><p class="then">${esc(v.trial.then.replace(/^then/, 'Then'))}</p>`
    : `<tr class="total"><td>Total</td><td class="amount">${esc(moneyText(p.total, p.currency))}</td></tr></table>`;
  return page(
    `Checkout: ${v.planName}`,
    `${STYLE}<h1>Checkout</h1><p class="sub">${esc(v.siteName)}</p>${notice(v.error, v.info)}
<div class="plan"><h2>${esc(v.planName)}</h2>${v.planDescription ? `<p>${esc(v.planDescription)}</p>` : ''}<p>${esc(v.terms)}</p>${v.startsOn ? `<p>Starts on ${esc(v.startsOn)}</p>` : ''}</div>
<table class="lines"><tr><td>Subtotal</td><td class="amount">${esc(moneyText(p.subtotal, p.currency))}</td></tr>${discount}${total}
${coupon}
<form method="post" action="${esc(v.action)}">${hidden(v.fields)}
<div class="actions"><button class="primary" type="submit" name="action" value="pay">${esc(payLabel)}</button><button class="secondary" type="submit" name="action" value="cancel">Cancel</button></div>
${v.free ? '' : '<p class="foot"><button class="link" type="submit" name="action" value="decline">Test a declined card</button></p>'}
</form>${v.buyer ? `<p class="buyer">Buying as ${esc(v.buyer)}</p>` : ''}<p class="foot">Emulator checkout: no card is charged.</p>`,
  );
}

/** What the thank-you page shows of the order. */
export interface PaidView {
  siteName: string;
  planName: string;
  /** What was paid: `44.10 USD` ({@link moneyText}); with a free trial {@link trialDueText}'s line. */
  price: string;
  /** True when `price` is a free trial's line (then it is the price, not what was paid). */
  trial: boolean;
  /** When the plan starts, for people ({@link momentText}: the site's time zone, named). */
  startsAt: string;
  /** True when it starts later than now (a future start date). */
  later: boolean;
  orderId: string;
  /** The site's page to go back to (the session's post-flow URL, else the page the buyer came from), when the checkout knows one. */
  backHref?: string;
}

/**
 * The thank-you page, the answer to a GET (Pay answers 303 here, so a reload shows it again and never pays
 * twice): what was bought, what it cost, when it starts in the site's time zone, the order's short id (its
 * first 8 characters, as the CLI shows ids; the whole id in its title), and the way back to the site.
 */
export function thankYouPage(v: PaidView): string {
  const what = v.trial ? `Your free trial of ${v.planName} with ${v.siteName} ${v.later ? 'is booked' : 'has started'}.` : `Your ${v.planName} plan with ${v.siteName} is confirmed.`;
  return page(
    'Thank you for your order',
    `${STYLE}<h1>Thank you for your order</h1><p class="sub">${esc(what)}</p>
<dl class="summary"><dt>Plan</dt><dd>${esc(v.planName)}</dd><dt>${v.trial ? 'Price' : 'Paid'}</dt><dd>${esc(v.price)}</dd><dt>Starts</dt><dd>${esc(v.startsAt)}</dd><dt>Order</dt><dd><span title="${esc(v.orderId)}">${esc(v.orderId.slice(0, 8))}</span></dd></dl>
${back(v.siteName, v.backHref)}`,
  );
}

/** The way back to the site: a button to its page when the checkout knows one, else a line saying the tab may close. */
function back(siteName: string, href: string | undefined): string {
  return href ? `<div class="actions"><a class="button primary" href="${esc(href)}">Back to ${esc(siteName)}</a></div>` : `<p class="close">You can close this tab.</p>`;
}

/** The thank-you page when the order cannot be read any more (deleted meanwhile). */
export function thankYouNoOrder(siteName: string, backHref?: string): string {
  return messagePage('Thank you for your order', `Your order with ${siteName} is complete.`, backHref ? { actions: [{ href: backHref, text: `Back to ${siteName}` }] } : {});
}

/**
 * The page after Cancel (when the session has no post-flow URL to go to): nothing was paid, and "Try again"
 * leads back to the same checkout, which stays open; "Back to <Site>" when the checkout knows the site's page.
 */
export function canceledPage(o: { siteName: string; retryHref: string; orderWaits: boolean; backHref?: string }): string {
  return messagePage('Checkout canceled', o.orderWaits ? 'Nothing was paid: your order is still waiting for its payment.' : 'Nothing was bought, and nothing was paid.', {
    actions: [{ href: o.retryHref, text: 'Try again' }, ...(o.backHref ? [{ href: o.backHref, text: `Back to ${o.siteName}` }] : [])],
  });
}
