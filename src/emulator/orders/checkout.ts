/**
 * Checkout (docs/wire.md §20; choices in docs/plans-orders.md): prices with coupons, the buyer's
 * purchase limit, new orders and their previews.
 *
 * - A coupon (seeded: percent or amount off, for some plans or all, for some payments or all) makes the
 *   order's `pricing.prices` spans: the discounted price for the cycles it covers, the full price after.
 *   An unknown, inactive or expired code, or one for other plans: 428 INVALID_COUPON with `data.reason`
 *   (NOT_FOUND, INACTIVE, EXPIRED, NOT_APPLICABLE_TO_PLAN).
 * - Purchase limit: a plan's `maxPurchasesPerBuyer` (0 = no limit) counts the buyer's orders of the plan that
 *   were bought (rules.ts `purchasesOf`: paid, free or offline, whatever their status since; not an online order
 *   never paid, waiting, declined or canceled before its payment). A preview says `purchaseLimitExceeded`;
 *   buying refuses (428 PURCHASE_LIMIT_EXCEEDED), and so does paying an online order past the limit.
 * - An online order's buyer must be allowed to buy: not BLOCKED or OFFLINE (428 MEMBER_CANNOT_BUY).
 * - Statuses as the SDK's OrderStatus defines them: an online order is DRAFT (payment PENDING) until paid on
 *   the site's checkout page (the emulator hosts one: src/emulator/checkout-page; rules.ts `applyPayment`). A
 *   bought order (paid online, free, or offline: PAID or UNPAID as `paid` says; free ones NOT_APPLICABLE) is
 *   PENDING while its start date is ahead and ACTIVE from it (rules.ts `boughtStatus`, `advance`).
 * - The start date defaults to now; a future one needs a plan that allows it (428
 *   FUTURE_START_DATE_NOT_ALLOWED); a past one is refused (400). An archived plan cannot be bought (428
 *   PLAN_ARCHIVED); the buyer must be a member of the site (404 MEMBER_NOT_FOUND).
 */
import { PREVIEW_ORDER_ID } from '../../api/schemas/order.js';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import type { CouponDoc, PlanDoc } from '../plans/model.js';
import { purchasablePlan } from '../plans/rules.js';
import type { OrderBook, OrderDoc, OrderPriceDoc, SpannedPriceDoc } from './model.js';
import { boughtStatus, checkBuyer, DAY, naturalEnd, purchasesOf, START_SLACK, withCycles } from './rules.js';

/** Cents of a decimal string ("20", "19.5", "19.99"). */
const cents = (value: string) => Math.round(Number(value) * 100);
/** A decimal string from cents: whole amounts without decimals ("20"), others with two ("19.50"). */
export const money = (c: number) => (c % 100 === 0 ? String(c / 100) : (c / 100).toFixed(2));

/**
 * The coupon of `code` for `plan`, checked (case-insensitive code).
 * @throws ApplicationFailure 428 INVALID_COUPON with `data.reason`
 */
export function couponFor(book: OrderBook, plan: PlanDoc, code: string, nowMs: number): CouponDoc {
  const id = book.coupons.owner('code', code.toUpperCase());
  const coupon = id !== undefined ? book.coupons.get(id) : undefined;
  const invalid = (reason: string, text: string) => new ApplicationFailure(428, 'INVALID_COUPON', `coupon "${code}" ${text}`, { couponCode: code, reason });
  if (!coupon) throw invalid('NOT_FOUND', 'does not exist');
  if (!coupon.active) throw invalid('INACTIVE', 'is not active');
  if (coupon.expirationDate !== undefined && Date.parse(coupon.expirationDate) <= nowMs) throw invalid('EXPIRED', `expired on ${coupon.expirationDate}`);
  if (coupon.planIds && !coupon.planIds.includes(plan.id)) throw invalid('NOT_APPLICABLE_TO_PLAN', `does not apply to plan "${plan.name}"`);
  return coupon;
}

/** One payment of `plan` with `coupon` applied (or not). */
function priceOf(plan: PlanDoc, coupon: CouponDoc | undefined): OrderPriceDoc {
  const subtotal = cents(plan.pricing.price.value);
  let discount = 0;
  if (coupon?.percentOff !== undefined) discount = Math.round((subtotal * coupon.percentOff) / 100);
  else if (coupon?.moneyOffAmount !== undefined) discount = Math.min(subtotal, cents(coupon.moneyOffAmount));
  return {
    subtotal: money(subtotal),
    ...(coupon ? { coupon: { code: coupon.code, amount: money(discount), id: coupon.id } } : {}),
    discount: money(discount),
    total: money(subtotal - discount),
    currency: plan.pricing.price.currency,
  };
}

/**
 * The prices of a plan by cycle with an optional coupon: one span, or (a coupon limited to some payments of a
 * subscription with more of them) the discounted span then the full one.
 */
export function pricesOf(plan: PlanDoc, coupon: CouponDoc | undefined): SpannedPriceDoc[] {
  const cycles = plan.pricing.subscription ? plan.pricing.subscription.cycleCount : 1;
  const span = (cycleFrom: number, count: number | undefined, c: CouponDoc | undefined): SpannedPriceDoc => ({
    duration: { cycleFrom, ...(count !== undefined && count > 0 ? { numberOfCycles: count } : {}) },
    price: priceOf(plan, c),
  });
  const limited = coupon?.limitedToCycles;
  if (coupon && limited !== undefined && plan.pricing.subscription && (cycles === 0 || cycles > limited)) {
    return [span(1, limited, coupon), span(limited + 1, cycles === 0 ? undefined : cycles - limited, undefined)];
  }
  return [span(1, cycles === 0 ? undefined : cycles, coupon)];
}

export interface OrderRequest {
  planId: string;
  memberId: string;
  type: 'ONLINE' | 'OFFLINE';
  startDate?: string;
  couponCode?: string;
  paid?: boolean;
  orderMethod?: 'MOTO' | 'POS';
}

/**
 * The order a purchase would make, checked against the plan, the buyer, the coupon and the start date, not
 * stored. `limitExceeded` says whether the buyer reached the plan's purchase limit.
 * @throws ApplicationFailure 404 PLAN_NOT_FOUND, MEMBER_NOT_FOUND; 428 PLAN_ARCHIVED, INVALID_COUPON,
 *   FUTURE_START_DATE_NOT_ALLOWED; ValidationFailure for a start date in the past
 */
export function draftOrder(book: OrderBook, req: OrderRequest, id: string): { order: OrderDoc; limitExceeded: boolean; plan: PlanDoc } {
  const plan = purchasablePlan(book, req.planId);
  const member = book.members.require(req.memberId);
  const coupon = req.couponCode !== undefined ? couponFor(book, plan, req.couponCode, book.nowMs) : undefined;
  const start = req.startDate !== undefined ? Date.parse(req.startDate) : book.nowMs;
  if (start < book.nowMs - START_SLACK) throw ValidationFailure.field('startDate', 'must not be in the past', 'INVALID');
  if (start > book.nowMs + START_SLACK && !plan.allowFutureStartDate) {
    throw new ApplicationFailure(428, 'FUTURE_START_DATE_NOT_ALLOWED', `plan "${plan.name}" does not allow a future start date`, { planId: plan.id, startDate: req.startDate });
  }
  const free = cents(plan.pricing.price.value) === 0;
  const base = newOrder({
    id,
    subscriptionId: id === PREVIEW_ORDER_ID ? PREVIEW_ORDER_ID : book.newId(),
    plan,
    buyer: member,
    coupon,
    type: req.type,
    orderMethod: req.orderMethod,
    status: req.type === 'ONLINE' && !free ? 'DRAFT' : boughtStatus(new Date(start).toISOString(), book.nowMs),
    lastPaymentStatus: free ? 'NOT_APPLICABLE' : req.type === 'ONLINE' ? 'PENDING' : req.paid ? 'PAID' : 'UNPAID',
    startMs: start,
    createdDate: book.now,
  });
  // An unlimited order with a free trial may not end before the trial does.
  if (base.freeTrialDays && base.endDate === undefined) base.earliestEndDate = new Date(start + base.freeTrialDays * DAY).toISOString();
  const limit = plan.maxPurchasesPerBuyer;
  return { order: withCycles(base, book.nowMs), limitExceeded: limit > 0 && purchasesOf(book, plan.id, member.id) >= limit, plan };
}

/**
 * Buys a plan for a member: stores the order (`order.created`; `order.purchased` unless it waits for an online
 * payment (DRAFT), as the platform's "order purchased" event is for an order paid, free or offline; and
 * `order.started` when it is ACTIVE from now, not PENDING until a later start date) and marks the plan as having
 * orders.
 * @throws as {@link draftOrder}; ApplicationFailure 428 PURCHASE_LIMIT_EXCEEDED, MEMBER_CANNOT_BUY (an online
 *   order for a BLOCKED or OFFLINE member)
 */
export function createOrder(book: OrderBook, req: OrderRequest): OrderDoc {
  const { order, limitExceeded, plan } = draftOrder(book, req, book.newId());
  if (req.type === 'ONLINE') checkBuyer(book, req.memberId);
  if (limitExceeded) {
    throw new ApplicationFailure(428, 'PURCHASE_LIMIT_EXCEEDED', `member ${req.memberId} has bought plan "${plan.name}" ${plan.maxPurchasesPerBuyer} time(s), its limit`, { planId: plan.id, memberId: req.memberId, maxPurchasesPerBuyer: plan.maxPurchasesPerBuyer });
  }
  const stored = book.orders.insert(order);
  if (stored.status !== 'DRAFT') book.event('order.purchased', stored.id, book.orders.json(stored));
  if (stored.status === 'ACTIVE') book.event('order.started', stored.id, book.orders.json(stored));
  if (!plan.hasOrders) book.plans.update({ ...plan, hasOrders: true, updatedDate: book.now });
  return stored;
}

/** The price preview of a plan: `{price, prices}` (the first payment, and every span). @throws as {@link couponFor}; 404 PLAN_NOT_FOUND; 428 PLAN_ARCHIVED */
export function pricePreview(book: OrderBook, planId: string, couponCode: string | undefined): { price: OrderPriceDoc; prices: SpannedPriceDoc[] } {
  const plan = purchasablePlan(book, planId);
  const prices = pricesOf(plan, couponCode !== undefined ? couponFor(book, plan, couponCode, book.nowMs) : undefined);
  return { price: prices[0]!.price, prices };
}

/**
 * A new order of `plan` for `buyer` as checkout and the demo seed make it: the plan's pricing snapshot with the
 * coupon's prices, the free trial, the natural end date, no cycles yet (see `withCycles`), dates at `createdDate`.
 */
export function newOrder(o: {
  id: string;
  subscriptionId: string;
  plan: PlanDoc;
  buyer: { id: string; contactId?: string | null };
  coupon?: CouponDoc;
  type: OrderDoc['type'];
  orderMethod?: OrderDoc['orderMethod'];
  status: OrderDoc['status'];
  lastPaymentStatus: OrderDoc['lastPaymentStatus'];
  startMs: number;
  createdDate: string;
}): OrderDoc {
  const { plan } = o;
  const trial = plan.pricing.subscription ? (plan.pricing.freeTrialDays ?? 0) : 0;
  const pricing: OrderDoc['pricing'] = {
    ...(plan.pricing.subscription ? { subscription: structuredClone(plan.pricing.subscription) } : {}),
    ...(plan.pricing.singlePaymentForDuration ? { singlePaymentForDuration: { ...plan.pricing.singlePaymentForDuration } } : {}),
    ...(plan.pricing.singlePaymentUnlimited ? { singlePaymentUnlimited: true } : {}),
    prices: pricesOf(plan, o.coupon),
  };
  const end = naturalEnd(pricing, o.startMs, trial);
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id: o.id,
    planId: plan.id,
    subscriptionId: o.subscriptionId,
    buyer: { memberId: o.buyer.id, contactId: o.buyer.contactId },
    pricing,
    type: o.type,
    ...(o.orderMethod ? { orderMethod: o.orderMethod } : {}),
    status: o.status,
    autoRenewCanceled: false,
    lastPaymentStatus: o.lastPaymentStatus,
    startDate: iso(o.startMs),
    ...(end !== undefined ? { endDate: iso(end) } : {}),
    pausePeriods: [],
    ...(trial ? { freeTrialDays: trial } : {}),
    cycles: [],
    planName: plan.name,
    ...(plan.description ? { planDescription: plan.description } : {}),
    planPrice: plan.pricing.price.value,
    createdDate: o.createdDate,
    updatedDate: o.createdDate,
  } as OrderDoc;
}
