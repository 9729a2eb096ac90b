/**
 * Checkout sessions: what a `paidPlansCheckout` redirect session asked for, kept for the hosted checkout page
 * (docs/plans-orders.md "The hosted checkout page").
 *
 * `createRedirectSession {paidPlansCheckout: {planId} | {orderId}, callbacks}` makes one (checked there: the
 * plan can be bought, the order waits for its payment and is the caller's, the callback URLs are http(s) URLs
 * the app allows, as its redirect URIs), and its `fullUrl` is `/hosted/paidPlansCheckout?session=ID`. The
 * onward URLs (`thankYouPageUrl`, `postFlowUrl`) and the buyer live here, never in the page's URL or form, so a
 * crafted link cannot send the browser elsewhere or pay as someone else; the page the buyer came from is kept
 * only when it passes the same check as those URLs.
 *
 * The session id is in a URL, so it is no credential: a session with a buyer is bound to one browser, the one
 * that signed in on the page, or (a buyer known from the start) the first to open it. That browser holds a
 * random secret in an HttpOnly, SameSite=Strict cookie; every page that shows the buyer and every form that
 * acts needs it, and the form's CSRF token is derived from it. Before a buyer, the sign-in form's CSRF token is
 * the session's own. Sessions last 30 minutes of real time, at most {@link MAX_OPEN_SESSIONS} per store, and
 * live in memory, like the sign-in pages' requests: a restart of the emulator ends a checkout under way, never
 * an order.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import { purchasablePlan } from '../plans/rules.js';
import { orderBookOf } from '../orders/model.js';
import { checkPayable, currentOrder } from '../orders/rules.js';
import { oauthOf } from '../oauth/state.js';
import type { Principal } from '../auth.js';
import type { RequestContext } from '../serve.js';
import type { Store } from '../store/store.js';

export const CHECKOUT_TTL_MS = 30 * 60_000;
/** Open (not expired) checkout sessions a store keeps at most; past it a new one is refused (429). */
export const MAX_OPEN_SESSIONS = 1000;
/** Where the hosted checkout page answers. */
export const CHECKOUT_PATH = '/hosted/paidPlansCheckout';

export interface CheckoutSession {
  id: string;
  site: string;
  planId: string;
  /** The order being paid: given by the session, or made on the page by the first Pay of a plan's checkout. */
  orderId?: string;
  /** The buyer: the member of the token that made the session, the order's buyer, or who signs in on the page. */
  memberId?: string;
  /** A coupon applied on the page (a plan's checkout; an order keeps the coupon it was bought with). */
  couponCode?: string;
  thankYouPageUrl?: string;
  postFlowUrl?: string;
  /**
   * The page the buyer came from (the `Referer` of a GET of the checkout, often only the site's origin), when
   * its app allows it as a callback URL ({@link allowsReturn}): the thank-you and canceled pages' way back when
   * the session has no post-flow URL.
   */
  cameFrom?: string;
  /** Whether `url` may be linked to as the way back: a callback URL the app that made the session allows. */
  allowsReturn: (url: string) => boolean;
  /** The CSRF token of the sign-in form, before the session has a buyer (and a browser). */
  csrf: string;
  /** The secret of the browser the buyer uses (its cookie): set when the buyer signs in, or first opens the page. */
  browserSecret?: string;
  expiresAt: number;
  /** Set once the buyer paid: the page then only says so (the thank-you page). */
  done?: 'paid';
  /**
   * Set when the buyer pressed Cancel: the canceled page says so. The session stays open until it expires, so
   * "Try again" leads back to the checkout.
   */
  canceled?: boolean;
}

const SESSIONS = new WeakMap<Store, Map<string, CheckoutSession>>();

function sessionsOf(store: Store): Map<string, CheckoutSession> {
  let m = SESSIONS.get(store);
  if (!m) SESSIONS.set(store, (m = new Map()));
  return m;
}

/** The live (not expired) checkout session `id` of the store, or undefined. */
export function checkoutSession(store: Store, id: string | null | undefined): CheckoutSession | undefined {
  const s = id ? sessionsOf(store).get(id) : undefined;
  return s && s.expiresAt >= Date.now() ? s : undefined;
}

/** Constant-time equality of two strings. */
function same(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The form's CSRF token: derived from the browser's secret once the session is bound to a browser, the
 * session's own before (the sign-in form).
 */
export function csrfOf(s: CheckoutSession): string {
  return s.browserSecret ? createHmac('sha256', s.browserSecret).update(`checkout-csrf:${s.id}`).digest('base64url') : s.csrf;
}

/** True when `given` is the session's CSRF token (constant time). */
export function csrfMatches(s: CheckoutSession, given: unknown): boolean {
  return same(given, csrfOf(s));
}

/** Binds the session to a browser: a fresh secret. @returns the secret, for the browser's cookie */
export function bindBrowser(s: CheckoutSession): string {
  s.browserSecret = randomBytes(32).toString('base64url');
  return s.browserSecret;
}

/** True when `secret` (the browser's cookie) is the secret of the browser the session is bound to. */
export function heldBy(s: CheckoutSession, secret: string | undefined): boolean {
  return s.browserSecret !== undefined && same(secret, s.browserSecret);
}

/**
 * An http(s) URL the caller's app allows, as given; a 400 field violation naming `field` for one that is not
 * http(s), 400 INVALID_CALLBACK_URL for one the app does not allow.
 */
function callbackUrl(value: unknown, field: string, allowed: (url: string) => boolean): string | undefined {
  if (value === undefined || value === '') return undefined;
  let url: string | undefined;
  try {
    const u = new URL(String(value));
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '') url = u.toString();
  } catch {
    // reported below
  }
  if (url === undefined) throw ValidationFailure.field(field, 'must be an absolute http(s) URL', 'INVALID');
  if (!allowed(url)) {
    throw new ApplicationFailure(400, 'INVALID_CALLBACK_URL', `${field} ${url} is not on an allowed redirect domain of the app (the origin of one of its redirect URIs; loopback for the default app)`, { field, url });
  }
  return url;
}

/**
 * Whether a callback URL is allowed (oauth/state.ts `allowsCallback`): by the app of the caller's token, or,
 * with the API key, by any app of the site.
 */
function callbackCheck(ctx: Pick<RequestContext<unknown>, 'store' | 'site' | 'principal'>): (url: string) => boolean {
  const oauth = oauthOf(ctx.store);
  const p = ctx.principal;
  const apps = oauth.apps().filter((a) => a.siteId === ctx.site && (p.kind === 'admin' || a.clientId === p.clientId));
  return (url) => apps.some((a) => oauth.allowsCallback(a, url));
}

/** What a `paidPlansCheckout` redirect session brings. */
export interface CheckoutRequest {
  planId?: string;
  /** Emulator-only: the id of a DRAFT online order to pay (the platform's section names a plan). */
  orderId?: string;
  callbacks?: { thankYouPageUrl?: string; postFlowUrl?: string };
}

/**
 * Checks a paid-plans checkout request and keeps it as session `id`.
 * @returns the page's URL under `base`
 * @throws ValidationFailure (no plan nor order, a plan that is not the order's, a callback that is not http(s));
 *   ApplicationFailure 400 INVALID_CALLBACK_URL (a callback the app does not allow), 429 TOO_MANY_REQUESTS;
 *   ApplicationFailure 404 PLAN_NOT_FOUND, ORDER_NOT_FOUND (also another member's order), 428 PLAN_ARCHIVED,
 *   ORDER_NOT_ONLINE, ORDER_NOT_PENDING, ORDER_IS_FREE; 401 UNAUTHENTICATED (a visitor naming an order)
 */
export function createCheckoutSession(ctx: Pick<RequestContext<unknown>, 'store' | 'site' | 'now' | 'db' | 'principal'>, id: string, req: CheckoutRequest, base: string): string {
  const allowed = callbackCheck(ctx);
  const thankYouPageUrl = callbackUrl(req.callbacks?.thankYouPageUrl, 'callbacks.thankYouPageUrl', allowed);
  const postFlowUrl = callbackUrl(req.callbacks?.postFlowUrl, 'callbacks.postFlowUrl', allowed);
  const book = orderBookOf(ctx);
  const principal: Principal = ctx.principal;
  let planId = req.planId;
  let memberId = principal.kind === 'member' ? principal.memberId : undefined;
  if (req.orderId) {
    const order = currentOrder(book, req.orderId);
    if (principal.kind === 'visitor') throw new ApplicationFailure(401, 'UNAUTHENTICATED', 'paying an order needs the buyer signed in (a member token) or the admin credential', {}, 'Unauthenticated');
    if (memberId !== undefined && order.buyer.memberId !== memberId) throw new ApplicationFailure(404, 'ORDER_NOT_FOUND', `order ${req.orderId} was not found`, { id: req.orderId });
    if (planId !== undefined && planId !== order.planId) throw ValidationFailure.field('paidPlansCheckout.planId', `is not the plan of order ${order.id} (${order.planId})`, 'INVALID');
    checkPayable(order);
    planId = order.planId;
    memberId = order.buyer.memberId;
  } else {
    if (!planId) throw ValidationFailure.field('paidPlansCheckout.planId', 'is required', 'REQUIRED_FIELD');
    purchasablePlan(book, planId);
  }
  const store = ctx.store;
  const sessions = sessionsOf(store);
  const now = Date.now();
  for (const [k, v] of sessions) if (v.expiresAt < now) sessions.delete(k);
  // Refused rather than evicting the oldest: a flood of sessions must not end checkouts under way.
  if (sessions.size >= MAX_OPEN_SESSIONS) throw new ApplicationFailure(429, 'TOO_MANY_REQUESTS', `too many checkout sessions open (${MAX_OPEN_SESSIONS}); try again later`);
  sessions.set(id, {
    id,
    site: ctx.site,
    planId,
    ...(req.orderId ? { orderId: req.orderId } : {}),
    ...(memberId ? { memberId } : {}),
    ...(thankYouPageUrl ? { thankYouPageUrl } : {}),
    ...(postFlowUrl ? { postFlowUrl } : {}),
    allowsReturn: allowed,
    csrf: randomBytes(24).toString('base64url'),
    expiresAt: now + CHECKOUT_TTL_MS,
  });
  return `${base}${CHECKOUT_PATH}?session=${id}`;
}
