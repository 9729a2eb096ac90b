/**
 * The hosted checkout page of a `paidPlansCheckout` redirect session (docs/plans-orders.md "The hosted checkout
 * page"), served beside the sign-in pages (oauth/http.ts hands `/hosted/paidPlansCheckout...` here):
 *
 * | route | what |
 * | --- | --- |
 * | `GET /hosted/paidPlansCheckout?session=ID` | the plan, its terms, price, coupon and total, the buyer, Cancel and Pay; without a buyer, a redirect to the sign-in page first |
 * | `POST /hosted/paidPlansCheckout` | `action`: `pay` (orders/payment.ts, outcome PAID), `decline` (outcome FAILED: the page again, the order DRAFT), `coupon` (a plan's checkout), `cancel` |
 * | `GET /hosted/paidPlansCheckout/canceled?session=ID` | the canceled page: nothing paid, "Try again" (the checkout, still open) |
 * | `GET|POST /hosted/paidPlansCheckout/sign-in`, `POST .../sign-in/verify` | the sign-in page (and e-mail code) of a checkout that needs a member; then back to the checkout |
 *
 * After Pay the browser goes to the session's `thankYouPageUrl`, else its `postFlowUrl`, else the session's own
 * page, which once paid is the thank-you page; after Cancel to `postFlowUrl`, else the canceled page. Those URLs
 * come from the redirect session, never from the request. Both pages lead back to the site: to `postFlowUrl`,
 * else to the page the buyer came from (the `Referer` of the checkout's GET, kept when the session's app allows
 * it as a callback URL), else they say the tab may close. Pay and Cancel answer 303 (See Other, POST-redirect-GET):
 * the page the browser shows is the answer to a GET, so a reload shows it again and never submits twice.
 *
 * The link is no credential (sessions.ts): the buyer is bound to one browser by a cookie (`HttpOnly`,
 * `SameSite=Strict`, `Path=/hosted/paidPlansCheckout`) holding a secret of the session, set when the buyer signs
 * in on the page or, for a session that came with its buyer, when a browser first opens it. Without that
 * cookie a GET never shows the buyer nor a form's token (a "continue" page, then "open in another browser"),
 * and no POST acts. A POST also needs the form's CSRF token (derived from the browser's secret); a POST from
 * another site never gets here (oauth/http.ts refuses it first: oauth/origin.ts). Once the session has a buyer,
 * its sign-in page refuses.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { MEMBERS } from '../members/model.js';
import { login, verifyCode, type StateAnswer } from '../oauth/identity.js';
import { codePage, failureText, messagePage, signInPage } from '../oauth/pages.js';
import type { OAuthState } from '../oauth/state.js';
import { pricePreview } from '../orders/checkout.js';
import { buyAndPay, orderBookAt, payOrder } from '../orders/payment.js';
import type { PaymentOutcome } from '../orders/rules.js';
import type { OrderDoc, SpannedPriceDoc } from '../orders/model.js';
import type { Store } from '../store/store.js';
import { calendarOf } from '../bookings/model.js';
import { canceledPage, checkoutPage, dayText, moneyText, momentText, termsText, thankYouNoOrder, thankYouPage, trialDue, trialDueText, type TrialDue } from './html.js';
import { bindBrowser, CHECKOUT_PATH, checkoutSession, csrfMatches, csrfOf, heldBy, type CheckoutSession } from './sessions.js';

/** What the page needs of a request (oauth/http.ts's request, structurally). */
export interface PageRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  raw: string;
}

/** An HTML answer (oauth/http.ts's reply, structurally). */
export interface PageReply {
  status: number;
  type: 'html';
  body: string;
  headers?: Record<string, string>;
}

const SIGN_IN_PATH = `${CHECKOUT_PATH}/sign-in`;
const CANCELED_PATH = `${CHECKOUT_PATH}/canceled`;
/** The page of session `s` (the checkout; once paid, the thank-you page). */
const sessionUrl = (s: CheckoutSession) => `${CHECKOUT_PATH}?session=${encodeURIComponent(s.id)}`;
const VERIFY_PATH = `${SIGN_IN_PATH}/verify`;

const html = (status: number, body: string): PageReply => ({ status, type: 'html', body, headers: { 'cache-control': 'no-store' } });
const seeOther = (location: string): PageReply => ({ status: 303, type: 'html', body: '', headers: { location, 'cache-control': 'no-store' } });

/** The checkout seen from a browser it is not bound to: one thing to do, go back (to the site, when the session names it). */
const OTHER_BROWSER = (s: CheckoutSession) =>
  html(403, messagePage('This checkout is open in another browser', 'Go back to the browser you started it in to pay, or start the checkout again from the site.', { error: true, ...(s.postFlowUrl ? { href: s.postFlowUrl, hrefText: 'Back to the site' } : {}) }));
const HAS_BUYER = () => html(403, messagePage('This checkout already has a buyer', 'Start the checkout again from the site to buy as someone else.', { error: true }));
const OVER = () => html(200, messagePage('This checkout is over', 'Start the checkout again from the site.'));

const EXPIRED = () => html(400, messagePage('This checkout link has expired', 'Start the checkout again from the site.', { error: true }));
const FORBIDDEN = () => html(403, messagePage('This form was not sent from its page', 'Reload the checkout page and try again.', { error: true }));

function formOf(req: PageRequest): Record<string, string> {
  if (req.method !== 'POST' || !String(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) return {};
  return Object.fromEntries(new URLSearchParams(req.raw));
}

/** The name of the cookie that binds a browser to checkout session `id`. */
const cookieName = (id: string) => `sitectl_checkout_${id}`;

/** The value of the browser's cookie for session `s`, if it sent one. */
function cookieOf(req: PageRequest, s: CheckoutSession): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  const name = cookieName(s.id);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** True when the request comes from the browser the session is bound to. */
const holds = (req: PageRequest, s: CheckoutSession) => heldBy(s, cookieOf(req, s));

/** Binds the session to the browser of this answer (made after, with the form tokens of the binding): a fresh secret in its cookie. */
function withBinding(oauth: OAuthState, s: CheckoutSession, answer: () => PageReply): PageReply {
  const secret = bindBrowser(s);
  const reply = answer();
  const maxAge = Math.max(0, Math.ceil((s.expiresAt - Date.now()) / 1000));
  const secure = oauth.url.startsWith('https:') ? '; Secure' : '';
  return { ...reply, headers: { ...reply.headers, 'set-cookie': `${cookieName(s.id)}=${secret}; Path=${CHECKOUT_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}` } };
}

function siteName(store: Store, site: string): string {
  return store.sites().find((s) => s.id === site)?.name ?? 'this site';
}

/** The site's time zone (its default business location's, else UTC), in which the pages write days and times. */
function siteZone(store: Store, site: string): string {
  return calendarOf({ db: (def) => store.collection(def).at(site), now: store.now() }).timeZone;
}

const DAY_MS = 86_400_000;

/** When an order starts once paid: its start date, or now when that has passed while it waited (orders/payment.ts). */
const startMsOf = (order: OrderDoc, nowMs: number) => Math.max(Date.parse(order.startDate), nowMs);

/** A subscription's free trial as the page words it, starting at `startMs`, its days in `zone`; undefined without a trial. */
function trialOf(subscription: { cycleDuration: { count: number; unit: string } } | undefined, days: number | undefined, prices: readonly SpannedPriceDoc[], startMs: number, zone: string): TrialDue | undefined {
  if (!subscription || !days) return undefined;
  return trialDue(prices, subscription.cycleDuration, startMs + days * DAY_MS, zone);
}

/** The checkout page of a live session, with an error or a notice. */
function render(store: Store, s: CheckoutSession, o: { error?: string; info?: string; status?: number } = {}): PageReply {
  const name = siteName(store, s.site);
  const zone = siteZone(store, s.site);
  const fields = { session: s.id, csrf: csrfOf(s) };
  const book = orderBookAt(store, s.site);
  const plan = book.plans.get(s.planId);
  const buyer = s.memberId ? store.collection(MEMBERS).at(s.site).get(s.memberId)?.loginEmail : undefined;
  const order = s.orderId ? book.orders.get(s.orderId) : undefined;
  if (order) {
    const price = order.pricing.prices[0]!.price;
    const start = Date.parse(order.startDate) > book.nowMs ? dayText(order.startDate, zone) : undefined;
    const terms = termsText({ ...order.pricing, freeTrialDays: order.freeTrialDays }, order.planPrice, price.currency);
    const trial = trialOf(order.pricing.subscription, order.freeTrialDays, order.pricing.prices, startMsOf(order, book.nowMs), zone);
    return html(o.status ?? 200, checkoutPage({ action: CHECKOUT_PATH, fields, siteName: name, planName: order.planName, planDescription: order.planDescription, terms, price, trial, startsOn: start, buyer, couponForm: false, free: false, ...o }));
  }
  if (!plan) return html(404, messagePage('This plan is no longer offered', 'Choose another plan on the site.', { error: true }));
  let preview = pricePreview(book, plan.id, undefined);
  let error = o.error;
  if (s.couponCode) {
    try {
      preview = pricePreview(book, plan.id, s.couponCode);
    } catch (err) {
      error ??= failureText(err);
    }
  }
  const { price } = preview;
  const terms = termsText(plan.pricing, plan.pricing.price.value, plan.pricing.price.currency);
  const free = Number(price.total) === 0 && Number(price.subtotal) === 0;
  const trial = free ? undefined : trialOf(plan.pricing.subscription, plan.pricing.freeTrialDays, preview.prices, book.nowMs, zone);
  return html(
    o.status ?? (error ? 400 : 200),
    checkoutPage({ action: CHECKOUT_PATH, fields, siteName: name, planName: plan.name, planDescription: plan.description, terms, price, trial, buyer, couponForm: true, couponCode: s.couponCode, free, error, info: o.info }),
  );
}

/** Where the browser goes once the order is paid: the thank-you URL, the post-flow URL, or the session's thank-you page. */
function afterPaid(s: CheckoutSession): PageReply {
  s.done = 'paid';
  delete s.canceled;
  return seeOther(s.thankYouPageUrl ?? s.postFlowUrl ?? sessionUrl(s));
}

/** The thank-you page of a paid session (a GET's answer). */
function paidPage(store: Store, s: CheckoutSession): string {
  const name = siteName(store, s.site);
  const book = orderBookAt(store, s.site);
  const order = s.orderId ? book.orders.get(s.orderId) : undefined;
  if (!order) return thankYouNoOrder(name, backOf(s));
  const zone = siteZone(store, s.site);
  const first = order.pricing.prices[0]!.price;
  const startMs = Date.parse(order.startDate);
  const trial = trialOf(order.pricing.subscription, order.freeTrialDays, order.pricing.prices, startMs, zone);
  return thankYouPage({
    siteName: name,
    planName: order.planName,
    price: trial ? trialDueText(trial) : moneyText(first.total, first.currency),
    trial: trial !== undefined,
    startsAt: momentText(startMs, zone),
    later: startMs > book.nowMs,
    orderId: order.id,
    backHref: backOf(s),
  });
}

/** Cancel: to the post-flow URL, else the canceled page; the session stays open (Try again). */
function afterCanceled(s: CheckoutSession): PageReply {
  s.canceled = true;
  return seeOther(s.postFlowUrl ?? `${CANCELED_PATH}?session=${encodeURIComponent(s.id)}`);
}

/**
 * The canceled page (a GET's answer): nothing paid, and "Try again" back to the checkout. A paid session shows
 * its thank-you page instead, one not canceled its checkout. Once the session has a buyer, only the buyer's
 * browser sees it.
 */
function canceled(store: Store, req: PageRequest): PageReply {
  const s = checkoutSession(store, req.query.get('session'));
  if (!s) return EXPIRED();
  if (s.done) return holds(req, s) ? donePage(store, s) : OVER();
  if (!s.canceled) return seeOther(sessionUrl(s));
  if (s.memberId && !holds(req, s)) return OTHER_BROWSER(s);
  return html(200, canceledPage({ siteName: siteName(store, s.site), retryHref: sessionUrl(s), orderWaits: s.orderId !== undefined, backHref: backOf(s) }));
}

/** The page of a session that is over (paid): the thank-you page. */
function donePage(store: Store, s: CheckoutSession): PageReply {
  return html(200, paidPage(store, s));
}

/** Pays (or declines) the session's order, making it first on a plan's checkout. */
function pay(store: Store, s: CheckoutSession, outcome: PaymentOutcome): PageReply {
  try {
    const order = s.orderId ? payOrder(store, s.site, s.orderId, outcome) : buyAndPay(store, s.site, { planId: s.planId, memberId: s.memberId!, couponCode: s.couponCode }, outcome);
    s.orderId = order.id;
    if (order.lastPaymentStatus === 'FAILED') return render(store, s, { error: 'The card was declined (a test decline). Nothing was charged: pay again, or cancel.', status: 402 });
    return afterPaid(s);
  } catch (err) {
    return render(store, s, { error: failureText(err), status: 400 });
  }
}

/**
 * A GET of a session with a buyer: the page for the browser bound to it; the first browser to open a session
 * that came with its buyer is bound to it then. Another browser (or the right one arriving from another site,
 * whose SameSite=Strict cookie was not sent) gets a page with a same-site link back, then, still without the
 * cookie, a refusal; neither shows the buyer or a token.
 */
function showBuyer(oauth: OAuthState, store: Store, s: CheckoutSession, req: PageRequest): PageReply {
  if (s.browserSecret === undefined) return withBinding(oauth, s, () => render(store, s));
  if (holds(req, s)) return render(store, s);
  if (req.query.get('resume') === '1') return OTHER_BROWSER(s);
  return html(200, messagePage('Continue to the checkout', `Your checkout on ${siteName(store, s.site)} is one step away.`, { href: `${CHECKOUT_PATH}?session=${encodeURIComponent(s.id)}&resume=1`, hrefText: 'Continue to the checkout' }));
}

/**
 * Keeps the page a GET came from (its `Referer`) as the session's way back, the first time one comes that the
 * session's app allows as a callback URL and that is not a page of the emulator itself.
 */
function noteCameFrom(oauth: OAuthState, s: CheckoutSession, req: PageRequest): void {
  const referer = req.headers.referer;
  if (s.cameFrom || typeof referer !== 'string' || referer === '') return;
  try {
    if (new URL(referer).origin === new URL(oauth.url).origin) return;
  } catch {
    return;
  }
  if (s.allowsReturn(referer)) s.cameFrom = referer;
}

/** Where the thank-you and canceled pages lead back to: the post-flow URL, else the page the buyer came from. */
const backOf = (s: CheckoutSession) => s.postFlowUrl ?? s.cameFrom;

function checkout(oauth: OAuthState, store: Store, req: PageRequest): PageReply {
  const f = formOf(req);
  const s = checkoutSession(store, req.method === 'POST' ? f.session : req.query.get('session'));
  if (!s) return EXPIRED();
  if (req.method === 'GET') noteCameFrom(oauth, s, req);
  // A form sent again once paid (an old tab, the back button): to the thank-you page, by a GET.
  if (s.done) return holds(req, s) ? (req.method === 'GET' ? donePage(store, s) : seeOther(sessionUrl(s))) : OVER();
  if (req.method === 'GET') {
    if (!s.memberId) return seeOther(`${SIGN_IN_PATH}?session=${encodeURIComponent(s.id)}`);
    return showBuyer(oauth, store, s, req);
  }
  // No buyer yet: nothing to act on before the sign-in.
  if (!s.memberId) return seeOther(`${SIGN_IN_PATH}?session=${encodeURIComponent(s.id)}`);
  if (!holds(req, s)) return OTHER_BROWSER(s);
  if (!csrfMatches(s, f.csrf)) return FORBIDDEN();
  switch (f.action) {
    case 'cancel':
      return afterCanceled(s);
    case 'coupon': {
      if (s.orderId) return render(store, s, { error: 'The order has its price already; a coupon cannot be added now.', status: 400 });
      const code = (f.coupon ?? '').trim();
      if (code === '') {
        delete s.couponCode;
        return seeOther(sessionUrl(s));
      }
      try {
        pricePreview(orderBookAt(store, s.site), s.planId, code);
      } catch (err) {
        return render(store, s, { error: failureText(err), status: 400 });
      }
      s.couponCode = code;
      return seeOther(sessionUrl(s));
    }
    case 'pay':
    case 'decline':
      return pay(store, s, f.action === 'pay' ? 'PAID' : 'FAILED');
    default:
      return render(store, s, { error: 'Choose Pay or Cancel.', status: 400 });
  }
}

/**
 * After a sign-in on the checkout's page: back to the checkout as that member (the session token spent, the
 * session bound to this browser), the code page, or why not.
 */
function signedIn(oauth: OAuthState, store: Store, s: CheckoutSession, answer: StateAnswer, email: string, form: (o: { email?: string; error?: string; info?: string }) => PageReply): PageReply {
  if (answer.state === 'SUCCESS') {
    const c = oauth.useSessionToken(answer.sessionToken!, s.site);
    if (!c) return form({ email, error: 'The sign-in could not be completed. Sign in again.' });
    s.memberId = c.sub;
    return withBinding(oauth, s, () => seeOther(sessionUrl(s)));
  }
  if (answer.state === 'REQUIRE_EMAIL_VERIFICATION') return html(200, codePage({ action: VERIFY_PATH, fields: { session: s.id, csrf: s.csrf, stateToken: answer.stateToken }, email }));
  return form({ email, info: 'Your account is waiting for the site owner to approve it. You can buy once it is approved.' });
}

/**
 * The sign-in page and code page answer only while the session has no buyer: once it has one (its token's, the
 * order's, or who signed in first), the bound browser goes back to the checkout and any other is refused.
 */
function signInClosed(req: PageRequest, store: Store, s: CheckoutSession): PageReply | undefined {
  if (s.done) return holds(req, s) ? donePage(store, s) : OVER();
  if (!s.memberId) return undefined;
  return holds(req, s) ? seeOther(sessionUrl(s)) : HAS_BUYER();
}

function signIn(oauth: OAuthState, store: Store, req: PageRequest): PageReply {
  const f = formOf(req);
  const s = checkoutSession(store, req.method === 'POST' ? f.session : req.query.get('session'));
  if (!s) return EXPIRED();
  const closed = signInClosed(req, store, s);
  if (closed) return closed;
  const form = (o: { email?: string; error?: string; info?: string } = {}) =>
    html(
      o.error ? 400 : 200,
      signInPage({ action: SIGN_IN_PATH, fields: { session: s.id, csrf: s.csrf }, siteName: siteName(store, s.site), forgotHref: `/oauth2/forgot?checkout=${encodeURIComponent(s.id)}`, captcha: oauth.policy(s.site).requireCaptcha, ...o, info: o.info ?? (o.error ? undefined : 'Sign in to check out.') }),
    );
  if (req.method === 'GET') return form();
  if (!csrfMatches(s, f.csrf)) return FORBIDDEN();
  if (f.action === 'cancel') return afterCanceled(s);
  const email = f.email ?? '';
  try {
    const answer = store.tx(() => login({ oauth, store, site: s.site, now: store.now() }, { email, password: f.password ?? '', captchaTokens: f.captcha ? [{ Recaptcha: f.captcha }] : undefined }));
    return signedIn(oauth, store, s, answer, email, form);
  } catch (err) {
    return form({ email, error: failureText(err) });
  }
}

function verify(oauth: OAuthState, store: Store, req: PageRequest): PageReply {
  const f = formOf(req);
  const s = checkoutSession(store, f.session);
  if (!s) return EXPIRED();
  const closed = signInClosed(req, store, s);
  if (closed) return closed;
  if (!csrfMatches(s, f.csrf)) return FORBIDDEN();
  const stateToken = f.stateToken ?? '';
  try {
    const answer = store.tx(() => verifyCode({ oauth, store, site: s.site, now: store.now() }, stateToken, f.code ?? ''));
    return signedIn(oauth, store, s, answer, 'your address', () => html(200, messagePage('Waiting for approval', 'Your account is waiting for the site owner to approve it.')));
  } catch (err) {
    return html(400, codePage({ action: VERIFY_PATH, fields: { session: s.id, csrf: s.csrf, stateToken }, email: 'your address', error: failureText(err) }));
  }
}

/**
 * Answers a request for the hosted checkout page. @returns undefined when the path is not one of its routes
 */
export function checkoutPageRoute(oauth: OAuthState, store: Store, req: PageRequest): PageReply | undefined {
  const key = `${req.method} ${req.path}`;
  switch (key) {
    case `GET ${CHECKOUT_PATH}`:
    case `POST ${CHECKOUT_PATH}`:
      return checkout(oauth, store, req);
    case `GET ${CANCELED_PATH}`:
      return canceled(store, req);
    case `GET ${SIGN_IN_PATH}`:
    case `POST ${SIGN_IN_PATH}`:
      return signIn(oauth, store, req);
    case `POST ${VERIFY_PATH}`:
      return verify(oauth, store, req);
  }
  return undefined;
}
