/**
 * What the orders families store (docs/wire.md §13, docs/plans-orders.md "Orders: the state table"; docs/wire.md §8): one collection
 * of orders per site, in wire form (ISO date strings). Orders carry no revision on the platform, so the
 * collection keeps none; their dates are set by the rules. An order keeps a snapshot of its plan (name,
 * description, price, pricing model and the prices by cycle after a coupon), so a later change to the plan
 * never changes what was bought.
 */
import type { CancellationEffectiveAt, OrderStatus, PaymentStatus } from '../../api/schemas/order.js';
import type { RequestContext } from '../serve.js';
import { defineCollection, type SiteCollection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { planBookOf, type DurationDoc, type PlanBook } from '../plans/model.js';
import { membersOf } from '../members/model.js';
import type { MemberDoc } from '../members/model.js';

/** A price after a coupon (decimal strings). */
export interface OrderPriceDoc {
  subtotal: string;
  coupon?: { code: string; amount: string; id: string };
  discount: string;
  total: string;
  currency: string;
}

/** A price that holds from cycle `cycleFrom` for `numberOfCycles` cycles (absent: to the end). */
export interface SpannedPriceDoc {
  duration: { cycleFrom: number; numberOfCycles?: number };
  price: OrderPriceDoc;
}

/** One cycle of an order (`endedDate` absent while a pause inside it goes on). */
export interface CycleDoc {
  index: number;
  startedDate: string;
  endedDate?: string;
}

/** An order document (the `Order` schema of src/api/schemas/order.ts, wire form). */
export interface OrderDoc {
  id: string;
  planId: string;
  subscriptionId: string;
  buyer: { memberId: string; contactId: string };
  pricing: {
    subscription?: { cycleDuration: DurationDoc; cycleCount: number };
    singlePaymentForDuration?: DurationDoc;
    singlePaymentUnlimited?: boolean;
    prices: SpannedPriceDoc[];
  };
  type: 'ONLINE' | 'OFFLINE' | 'EXTERNAL';
  orderMethod?: 'MOTO' | 'POS';
  status: OrderStatus;
  autoRenewCanceled: boolean;
  cancellation?: { requestedDate: string; cause: 'OWNER_ACTION' | 'MEMBER_ACTION' | 'PAYMENT_FAILURE' | 'PAYMENT_SETUP_FAILURE' | 'UNKNOWN'; effectiveAt: CancellationEffectiveAt };
  lastPaymentStatus: PaymentStatus;
  startDate: string;
  endDate?: string;
  earliestEndDate?: string;
  pausePeriods: Array<{ status: 'ACTIVE' | 'ENDED'; pauseDate: string; resumeDate?: string }>;
  freeTrialDays?: number;
  currentCycle?: CycleDoc;
  cycles: CycleDoc[];
  planName: string;
  planDescription?: string;
  planPrice: string;
  createdDate?: string;
  updatedDate?: string;
}

export const ORDERS = defineCollection<OrderDoc>({ kind: 'orders', entity: 'order', notFound: 'ORDER_NOT_FOUND', revisioned: false });

/** Every collection of the orders families. */
export const ORDER_COLLECTIONS = [ORDERS];

/** A site's plans, coupons, orders and members as one request (or the seed) sees them. */
export interface OrderBook extends PlanBook {
  orders: SiteCollection<OrderDoc>;
  members: SiteCollection<MemberDoc>;
}

/** The orders of a request's site (the seed passes its store, site and time). */
export function orderBookOf(ctx: Pick<RequestContext<unknown>, 'db' | 'now'> & { store: Store; site: string }, newId: () => string = () => crypto.randomUUID()): OrderBook {
  return { ...planBookOf(ctx, newId), orders: ctx.db(ORDERS), members: membersOf(ctx) };
}
