/**
 * Checkout sessions: what a `paidPlansCheckout` redirect session asked for, kept for the hosted checkout page
 * (docs/plans-orders.md "The hosted checkout page").
 *
 * `createRedirectSession {paidPlansCheckout: {planId} | {orderId}, callbacks}` makes one (checked there: the
 * plan can be bought, the order waits for its payment and is the caller's, the callback URLs are http(s)), and
 * its `fullUrl` is `/hosted/paidPlansCheckout?session=ID`. The onward URLs (`thankYouPageUrl`, `postFlowUrl`)
 * and the buyer live here, never in the page's URL or form, so a crafted link cannot send the browser elsewhere
 * or pay as someone else. Each session has its own CSRF token (the form's hidden field, compared in constant
 * time). Sessions last an hour of real time and live in memory, like the sign-in pages' requests: a restart of
 * the emulator ends a checkout under way, never an order.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import { purchasablePlan } from '../plans/rules.js';
import { orderBookOf } from '../orders/model.js';
import { checkPayable, currentOrder } from '../orders/rules.js';
import type { Principal } from '../auth.js';
import type { RequestContext } from '../serve.js';
import type { Store } from '../store/store.js';

export const CHECKOUT_TTL_MS = 60 * 60_000;
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
  csrf: string;
  expiresAt: number;
  /** Set once the buyer paid or canceled: the page then only says so. */
  done?: 'paid' | 'canceled';
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

/** True when `given` is the session's CSRF token (constant time). */
export function csrfMatches(s: CheckoutSession, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(s.csrf);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An http(s) URL as given, or a 400 field violation naming `field`. */
function callbackUrl(value: unknown, field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  try {
    const u = new URL(String(value));
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '') return u.toString();
  } catch {
    // reported below
  }
  throw ValidationFailure.field(field, 'must be an absolute http(s) URL', 'INVALID');
}

/** What a `paidPlansCheckout` redirect session brings. */
export interface CheckoutRequest {
  planId?: string;
  /** Emulator-only: the id of a PENDING online order to pay (the platform's section names a plan). */
  orderId?: string;
  callbacks?: { thankYouPageUrl?: string; postFlowUrl?: string };
}

/**
 * Checks a paid-plans checkout request and keeps it as session `id`.
 * @returns the page's URL under `base`
 * @throws ValidationFailure (no plan nor order, a plan that is not the order's, a callback that is not http(s));
 *   ApplicationFailure 404 PLAN_NOT_FOUND, ORDER_NOT_FOUND (also another member's order), 428 PLAN_ARCHIVED,
 *   ORDER_NOT_ONLINE, ORDER_NOT_PENDING, ORDER_IS_FREE; 401 UNAUTHENTICATED (a visitor naming an order)
 */
export function createCheckoutSession(ctx: Pick<RequestContext<unknown>, 'store' | 'site' | 'now' | 'db' | 'principal'>, id: string, req: CheckoutRequest, base: string): string {
  const thankYouPageUrl = callbackUrl(req.callbacks?.thankYouPageUrl, 'callbacks.thankYouPageUrl');
  const postFlowUrl = callbackUrl(req.callbacks?.postFlowUrl, 'callbacks.postFlowUrl');
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
  sessions.set(id, {
    id,
    site: ctx.site,
    planId,
    ...(req.orderId ? { orderId: req.orderId } : {}),
    ...(memberId ? { memberId } : {}),
    ...(thankYouPageUrl ? { thankYouPageUrl } : {}),
    ...(postFlowUrl ? { postFlowUrl } : {}),
    csrf: randomBytes(24).toString('base64url'),
    expiresAt: now + CHECKOUT_TTL_MS,
  });
  return `${base}${CHECKOUT_PATH}?session=${id}`;
}
