/**
 * Paying an online order outside a request of the API: the hosted checkout page (src/emulator/checkout-page)
 * and the control plane (`POST /__emulator/orders/{id}/pay {outcome?, site?}`, `sitectl emulator pay`) both
 * come here, so a payment made in a browser and one made by a script change an order the same way
 * (rules.ts {@link applyPayment}: ACTIVE and PAID, or payment FAILED; events in the same transaction).
 */
import type { ControlState } from '../control-state.js';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import type { Store } from '../store/store.js';
import { createOrder, type OrderRequest } from './checkout.js';
import { ORDERS, orderBookOf, type OrderBook, type OrderDoc } from './model.js';
import { applyPayment, PAYMENT_OUTCOMES, type PaymentOutcome } from './rules.js';

/** The orders of `site` at the store's transaction time (call inside `store.tx`). */
export function orderBookAt(store: Store, site: string): OrderBook {
  return orderBookOf({ db: (def) => store.collection(def).at(site), now: store.now(), store, site });
}

/**
 * Applies a payment outcome to an order of `site`, in one transaction. @returns the order after it
 * @throws as {@link applyPayment}
 */
export function payOrder(store: Store, site: string, orderId: string, outcome: PaymentOutcome): OrderDoc {
  return store.tx(() => applyPayment(orderBookAt(store, site), orderId, outcome));
}

/**
 * Buys `req.planId` online for `req.memberId` and applies the payment outcome to the new order, in one
 * transaction (the hosted page's Pay on a plan's checkout). A free plan's order is bought at once and needs no
 * payment. @returns the order after it @throws as createOrder and {@link applyPayment}
 */
export function buyAndPay(store: Store, site: string, req: Omit<OrderRequest, 'type'>, outcome: PaymentOutcome): OrderDoc {
  return store.tx(() => {
    const book = orderBookAt(store, site);
    const order = createOrder(book, { ...req, type: 'ONLINE' });
    return order.status === 'DRAFT' ? applyPayment(book, order.id, outcome) : order;
  });
}

/** The site holding order `id`: `given` (an id or name) when set, else the one site of the account that has it. */
function siteOfOrder(emu: ControlState, id: string, given: unknown): string {
  const sites = emu.store.sites();
  if (typeof given === 'string' && given !== '') {
    const found = sites.find((s) => s.id === given || s.name.toLowerCase() === given.toLowerCase());
    if (!found) throw new ApplicationFailure(404, 'SITE_NOT_FOUND', `the account has no site ${given}`, { site: given });
    return found.id;
  }
  const orders = emu.store.collection(ORDERS);
  const holder = sites.find((s) => orders.at(s.id).get(id) !== undefined);
  if (!holder) throw new ApplicationFailure(404, 'ORDER_NOT_FOUND', `no site of the account has order ${id}`, { id });
  return holder.id;
}

// Control bodies are free-form JSON checked field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

/** `POST /__emulator/orders/{id}/pay {outcome?: PAID|FAILED, site?}` → `{order}` (FULL, after the payment). */
export const orderControlRoutes: Record<string, (emu: ControlState, body: Body, req: { query: URLSearchParams; params: Record<string, string> }) => object> = {
  'POST /__emulator/orders/{id}/pay': (emu, body, req) => {
    const input = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    const outcome = input.outcome === undefined ? 'PAID' : typeof input.outcome === 'string' ? input.outcome.toUpperCase() : input.outcome;
    if (!(PAYMENT_OUTCOMES as readonly unknown[]).includes(outcome)) throw ValidationFailure.field('outcome', `must be ${PAYMENT_OUTCOMES.join(' or ')}`, 'INVALID_ENUM_VALUE');
    const id = req.params.id!;
    const site = siteOfOrder(emu, id, input.site ?? req.query.get('site'));
    return { order: payOrder(emu.store, site, id, outcome as PaymentOutcome) };
  },
};
