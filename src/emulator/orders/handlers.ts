/**
 * The orders, member orders and checkout families served from their tables (docs/wire.md §20, §6, §8 and §11). Every orders call first brings
 * the site's orders up to the emulator's time (a new cycle, the end; rules.ts), so a read never shows an order
 * its time has passed. Lists are offset-paged (default and at most 50), newest first unless `sorting` says
 * otherwise; the BASIC field set (the default) leaves out `cycles`, FULL has them.
 *
 * The member calls (and buying or previewing online without `onBehalf`) act for the signed-in member of a
 * member token (docs/sign-in.md); API keys carry none, so with one they answer 401 UNAUTHENTICATED.
 */
import { checkoutFamily } from '../../api/checkout.js';
import { memberOrdersFamily, ordersFamily } from '../../api/orders.js';
import { MAX_ORDERS_PAGE, PREVIEW_ORDER_ID } from '../../api/schemas/order.js';
import { ApplicationFailure } from '../errors.js';
import { compileSort } from '../query/sort.js';
import { RawJson, serve, type RequestContext } from '../serve.js';
import { createOrder, draftOrder, pricePreview } from './checkout.js';
import { orderBookOf, type OrderBook, type OrderDoc } from './model.js';
import { advanceAll, cancelOrder, currentOrder, markAsPaid, pauseOrder, postponeEndDate, requestCancellation as requestCancellationOf, resumeOrder } from './rules.js';

const book = (ctx: RequestContext<unknown>): OrderBook => orderBookOf(ctx);

/** The order as a reply carries it: FULL is the stored document, BASIC leaves out `cycles`. */
function orderJson(b: OrderBook, o: OrderDoc, fieldSet: string | undefined): string {
  if (fieldSet === 'FULL') return b.orders.json(o);
  const { cycles: _cycles, ...basic } = o;
  return JSON.stringify(basic);
}

interface ListParams {
  buyerIds?: string[];
  planIds?: string[];
  autoRenewCanceled?: boolean;
  orderStatuses?: string[];
  paymentStatuses?: string[];
  limit?: number;
  offset?: number;
  sorting?: { fieldName: string; order?: 'ASC' | 'DESC' };
  fieldSet?: string;
}

/** One page of the orders passing the list parameters. @throws ValidationFailure for a bad sort field */
function listOrders(b: OrderBook, p: ListParams, only?: (o: OrderDoc) => boolean): RawJson {
  advanceAll(b);
  const has = (list: string[] | undefined, v: string) => !list?.length || list.includes(v);
  const docs = [...b.orders.all()].filter(
    (o) =>
      (!only || only(o)) &&
      has(p.buyerIds, o.buyer.memberId) &&
      has(p.planIds, o.planId) &&
      has(p.orderStatuses, o.status) &&
      has(p.paymentStatuses, o.lastPaymentStatus) &&
      (p.autoRenewCanceled === undefined || o.autoRenewCanceled === p.autoRenewCanceled),
  );
  compileSort([p.sorting ?? { fieldName: 'createdDate', order: 'DESC' }], 'sorting')?.(docs);
  const offset = p.offset ?? 0;
  const items = docs.slice(offset, offset + (p.limit ?? MAX_ORDERS_PAGE));
  const meta = { count: items.length, offset, total: docs.length, tooManyToCount: false };
  return new RawJson(`{"orders":[${items.map((o) => orderJson(b, o, p.fieldSet)).join(',')}],"pagingMetadata":${JSON.stringify(meta)}}`);
}

/** The member of a member token. @throws ApplicationFailure 401 UNAUTHENTICATED for any other caller */
function signedInMember(ctx: RequestContext<unknown>, what: string): string {
  const principal = ctx.principal as { kind: string; memberId?: string };
  if (principal.kind === 'member' && principal.memberId) return principal.memberId;
  throw new ApplicationFailure(401, 'UNAUTHENTICATED', `${what} acts for a signed-in member: call it with a member's access token`, {}, 'Unauthenticated');
}

/** Every owner orders operation, served. */
export const ordersServed = serve(ordersFamily, {
  managementGetOrder(ctx) {
    const b = book(ctx);
    return new RawJson(`{"order":${orderJson(b, currentOrder(b, ctx.body.id), ctx.body.fieldSet)}}`);
  },
  managementListOrders: (ctx) => listOrders(book(ctx), ctx.body),
  postponeEndDate(ctx) {
    postponeEndDate(book(ctx), ctx.body.id, ctx.body.endDate);
    return {};
  },
  cancelOrder(ctx) {
    cancelOrder(book(ctx), ctx.body.id, ctx.body.effectiveAt);
    return {};
  },
  markAsPaid(ctx) {
    markAsPaid(book(ctx), ctx.body.id);
    return {};
  },
  pauseOrder(ctx) {
    pauseOrder(book(ctx), ctx.body.id);
    return {};
  },
  resumeOrder(ctx) {
    resumeOrder(book(ctx), ctx.body.id);
    return {};
  },
});

/** Every member orders operation, served (401 without a member token; see the module comment). */
export const memberOrdersServed = serve(memberOrdersFamily, {
  memberGetOrder(ctx) {
    const member = signedInMember(ctx, 'memberGetOrder');
    const b = book(ctx);
    const o = currentOrder(b, ctx.body.id);
    if (o.buyer.memberId !== member) throw new ApplicationFailure(404, 'ORDER_NOT_FOUND', `order ${ctx.body.id} was not found`, { id: ctx.body.id });
    return new RawJson(`{"order":${orderJson(b, o, ctx.body.fieldSet)}}`);
  },
  memberListOrders(ctx) {
    const member = signedInMember(ctx, 'memberListOrders');
    return listOrders(book(ctx), ctx.body, (o) => o.buyer.memberId === member);
  },
  requestCancellation(ctx) {
    const member = signedInMember(ctx, 'requestCancellation');
    const b = book(ctx);
    advanceAll(b);
    requestCancellationOf(b, member, ctx.body.id, ctx.body.effectiveAt);
    return {};
  },
}, { member: ['memberGetOrder', 'memberListOrders', 'requestCancellation'] });

/** Every checkout operation, served. */
export const checkoutServed = serve(checkoutFamily, {
  createOnlineOrder(ctx) {
    const b = book(ctx);
    // Buying on a member's behalf is the business's (the admin credential); a member's token buys for itself.
    if (ctx.body.onBehalf && ctx.principal.kind !== 'admin') {
      throw new ApplicationFailure(403, 'PERMISSION_DENIED', "onBehalf buys for another member: it needs the site's admin credential, not a member's token", {}, 'Permission denied');
    }
    const memberId = ctx.body.onBehalf?.memberId ?? signedInMember(ctx, 'createOnlineOrder without onBehalf');
    const order = createOrder(b, { planId: ctx.body.planId, memberId, type: 'ONLINE', startDate: ctx.body.startDate, couponCode: ctx.body.couponCode, orderMethod: ctx.body.onBehalf?.orderMethod });
    return new RawJson(`{"order":${b.orders.json(order)}}`);
  },
  createOfflineOrder(ctx) {
    const b = book(ctx);
    const order = createOrder(b, { planId: ctx.body.planId, memberId: ctx.body.memberId, type: 'OFFLINE', startDate: ctx.body.startDate, couponCode: ctx.body.couponCode, paid: ctx.body.paid });
    return new RawJson(`{"order":${b.orders.json(order)}}`);
  },
  getOnlineOrderPreview(ctx) {
    const memberId = signedInMember(ctx, 'getOnlineOrderPreview');
    const { order, limitExceeded } = draftOrder(book(ctx), { planId: ctx.body.planId, memberId, type: 'ONLINE', startDate: ctx.body.startDate, couponCode: ctx.body.couponCode }, PREVIEW_ORDER_ID);
    return new RawJson(JSON.stringify({ order, purchaseLimitExceeded: limitExceeded }));
  },
  getOfflineOrderPreview(ctx) {
    const { order, limitExceeded } = draftOrder(book(ctx), { planId: ctx.body.planId, memberId: ctx.body.memberId, type: 'OFFLINE', startDate: ctx.body.startDate, couponCode: ctx.body.couponCode }, PREVIEW_ORDER_ID);
    return new RawJson(JSON.stringify({ order, purchaseLimitExceeded: limitExceeded }));
  },
  getPricePreview: (ctx) => new RawJson(JSON.stringify(pricePreview(book(ctx), ctx.body.planId, ctx.body.couponCode))),
}, { visitor: ['getPricePreview'], member: ['createOnlineOrder', 'getOnlineOrderPreview'] });
