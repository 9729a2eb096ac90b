/**
 * Demo orders (docs/plans-orders.md "Orders: the state table"): about 400 orders of the seeded plans, bought by APPROVED members of the
 * members seed, in every status of the SDK's OrderStatus: ACTIVE (some past a pause, some in their free trial,
 * some with auto-renewal canceled), PENDING (bought, starting later), PAUSED, DRAFT (online, not paid yet), ENDED
 * and CANCELED (by the owner, by the member, by a failed payment), online and offline, paid, unpaid, refunded,
 * failed and free. Each order is consistent with the seed hour as the order rules see it: its cycles are the
 * ones begun by then, an ENDED order's end date has passed, an ACTIVE one's has not, a PENDING one's start date
 * is ahead; plans limited to one purchase get one per buyer.
 * Deterministic (its own seeded PRNG), linear time.
 */
import type { MemberDoc } from '../members/model.js';
import { membersOf } from '../members/model.js';
import { orderBookOf, type OrderDoc } from '../orders/model.js';
import { newOrder } from '../orders/checkout.js';
import { addPeriod, DAY, withCycles } from '../orders/rules.js';
import type { PlanDoc } from '../plans/model.js';
import type { SeedStep } from '../family.js';
import type { Store } from '../store/store.js';
import { seedPlans } from './plans.js';
import { Prng } from './random.js';

/** Orders in the demo seed. */
export const DEFAULT_SEED_ORDERS = 400;
const ORDERS_PRNG_SEED = 20251108;
const BUYERS_PRNG_SEED = 20251109;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What an order is at the seed hour. FUTURE_START: bought to start later (PENDING); AWAITING_PAYMENT and DRAFT:
 * online, not paid yet (both DRAFT; two kinds so the mix, and with it every seeded id and date, stays as it was).
 */
type Kind = 'ACTIVE' | 'PAUSED_BEFORE' | 'TRIAL' | 'FUTURE_START' | 'AUTO_RENEW_CANCELED' | 'PAUSED' | 'AWAITING_PAYMENT' | 'DRAFT' | 'ENDED' | 'CANCELED';

/** The mix of kinds, as cumulative shares. */
const MIX: Array<[Kind, number]> = [
  ['ACTIVE', 0.36],
  ['PAUSED_BEFORE', 0.42],
  ['TRIAL', 0.46],
  ['FUTURE_START', 0.5],
  ['AUTO_RENEW_CANCELED', 0.55],
  ['PAUSED', 0.63],
  ['AWAITING_PAYMENT', 0.71],
  ['DRAFT', 0.73],
  ['ENDED', 0.87],
  ['CANCELED', 1],
];

/**
 * Seeds the plans, coupons and orders of one site after its members. No orders without APPROVED members.
 * @param base the seed hour (epoch ms)
 */
export function seedPlansAndOrders(store: Store, site: string, base: number, count = DEFAULT_SEED_ORDERS): void {
  const rnd = new Prng(ORDERS_PRNG_SEED);
  const plans = seedPlans(store, site, base, rnd);
  // Ids only: a site may hold a million members, read here one at a time as buyers are picked.
  const members = membersOf(store, site);
  const buyers = members.matchingIds({ status: 'APPROVED' });
  if (buyers.length === 0 || count <= 0) return;
  const book = orderBookOf({ db: (def) => store.collection(def).at(site), now: iso(base), store, site }, () => rnd.uuid());
  const once = new Set<string>();
  const drafts: OrderDoc[] = [];
  // Buyers come from their own generator: the members seed may change without moving the orders' ids, kinds
  // and dates (the README's examples name seeded orders).
  const buyersRnd = new Prng(BUYERS_PRNG_SEED);
  const buyerFor = (plan: PlanDoc): MemberDoc => {
    for (let tries = 0; tries < 20; tries++) {
      const id = buyersRnd.pick(buyers);
      if (plan.maxPurchasesPerBuyer === 0 || !once.has(`${plan.id}|${id}`)) {
        once.add(`${plan.id}|${id}`);
        return members.require(id);
      }
    }
    return members.require(buyersRnd.pick(buyers));
  };

  for (let i = 0; i < count; i++) {
    const r = rnd.next();
    const kind = MIX.find(([, share]) => r < share)![0];
    const plan = planFor(kind, plans, rnd);
    const buyer = buyerFor(plan);
    const start = startFor(kind, plan, base, rnd);
    const free = plan.pricing.price.value === '0';
    const online = kind === 'AWAITING_PAYMENT' || kind === 'DRAFT' || (!free && rnd.next() < 0.55);
    const coupon = rnd.next() < 0.12 && !free ? [...book.coupons.all()].find((c) => c.code === (rnd.next() < 0.5 ? 'WELCOME10' : 'SAVE5')) : undefined;
    const created = Math.min(start, base - HOUR) - rnd.int(0, 2) * DAY;
    let o = newOrder({
      id: rnd.uuid(),
      subscriptionId: rnd.uuid(),
      plan,
      buyer,
      coupon,
      type: online ? 'ONLINE' : 'OFFLINE',
      status: 'ACTIVE',
      lastPaymentStatus: free ? 'NOT_APPLICABLE' : online ? 'PAID' : rnd.next() < 0.75 ? 'PAID' : 'UNPAID',
      startMs: start,
      createdDate: iso(created),
    });
    const end = o.endDate !== undefined ? Date.parse(o.endDate) : undefined;
    let at = base;
    switch (kind) {
      case 'PAUSED_BEFORE': {
        // Starts are at least 9 days before the seed hour: the pause is over by then.
        const pause = start + rnd.int(1, 3) * DAY;
        const resume = Math.min(pause + rnd.int(2, 6) * DAY, base - HOUR);
        o.pausePeriods = [{ status: 'ENDED', pauseDate: iso(pause), resumeDate: iso(resume) }];
        if (o.endDate) o.endDate = iso(Date.parse(o.endDate) + resume - pause);
        break;
      }
      case 'PAUSED':
        o.status = 'PAUSED';
        // After any free trial (7 days at most), before the seed hour.
        o.pausePeriods = [{ status: 'ACTIVE', pauseDate: iso(Math.max(start + 8 * DAY, base - rnd.int(1, 10) * DAY - rnd.int(1, 20) * HOUR)) }];
        break;
      case 'AUTO_RENEW_CANCELED': {
        const requested = base - rnd.int(1, 4) * DAY;
        const current = withCycles(o, base).currentCycle?.endedDate ?? iso(addPeriod(start, plan.pricing.subscription!.cycleDuration));
        o = { ...o, autoRenewCanceled: true, cancellation: { requestedDate: iso(requested), cause: rnd.next() < 0.6 ? 'MEMBER_ACTION' : 'OWNER_ACTION', effectiveAt: 'NEXT_PAYMENT_DATE' }, endDate: current };
        break;
      }
      case 'FUTURE_START':
        o.status = 'PENDING';
        break;
      case 'AWAITING_PAYMENT':
      case 'DRAFT':
        o = { ...o, status: 'DRAFT', lastPaymentStatus: free ? 'NOT_APPLICABLE' : 'PENDING', createdDate: iso(start), updatedDate: iso(start) };
        break;
      case 'ENDED':
        at = Date.parse(o.endDate!);
        o.status = 'ENDED';
        break;
      case 'CANCELED': {
        const span = (end ?? base) - start;
        at = Math.min(base - HOUR, start + Math.floor(span * rnd.int(10, 80) / 100));
        const r2 = rnd.next();
        const cause = r2 < 0.5 ? 'OWNER_ACTION' : r2 < 0.8 ? 'MEMBER_ACTION' : 'PAYMENT_FAILURE';
        o = {
          ...o,
          status: 'CANCELED',
          autoRenewCanceled: Boolean(plan.pricing.subscription),
          cancellation: { requestedDate: iso(at), cause, effectiveAt: 'IMMEDIATELY' },
          endDate: iso(at),
          lastPaymentStatus: cause === 'PAYMENT_FAILURE' ? 'FAILED' : !free && rnd.next() < 0.2 ? 'REFUNDED' : o.lastPaymentStatus,
        };
        break;
      }
      default:
        break;
    }
    if (kind === 'AWAITING_PAYMENT' || kind === 'DRAFT') drafts.push(o);
    else book.orders.insert({ ...withCycles(o, at), updatedDate: kind === 'FUTURE_START' ? o.updatedDate : iso(Math.min(at, base)) });
  }
  for (const d of drafts) book.orders.insert(d);
  for (const p of Object.values(plans)) if ([...book.orders.all()].some((o) => o.planId === p.id)) book.plans.update({ ...p, hasOrders: true });
}

/** The plan an order of `kind` is for: one whose pricing can be in that state. */
function planFor(kind: Kind, p: ReturnType<typeof seedPlans>, rnd: Prng): PlanDoc {
  switch (kind) {
    case 'TRIAL':
    case 'AUTO_RENEW_CANCELED':
      return p.gold;
    case 'FUTURE_START':
      return p.silver;
    case 'ENDED':
      return rnd.pick([p.pack, p.pack, p.silver, p.freeWeek]);
    case 'PAUSED':
    case 'PAUSED_BEFORE':
      return rnd.pick([p.gold, p.silver, p.pack]);
    case 'AWAITING_PAYMENT':
    case 'DRAFT':
      // Waiting for a payment: never a free plan (a free order is bought at once), never an archived one.
      return rnd.pick([p.gold, p.gold, p.silver, p.pack]);
    default:
      return rnd.pick([p.gold, p.gold, p.silver, p.pack, p.lifetime, p.freeWeek, p.annual]);
  }
}

/** A start date for an order of `kind` on `plan`, relative to the seed hour. */
function startFor(kind: Kind, plan: PlanDoc, base: number, rnd: Prng): number {
  const hour = rnd.int(8, 18) * HOUR;
  const day = (n: number) => Math.floor(base / DAY) * DAY - n * DAY + hour;
  switch (kind) {
    case 'TRIAL':
      return day(rnd.int(1, 5));
    case 'FUTURE_START':
      return day(-rnd.int(3, 20));
    case 'AUTO_RENEW_CANCELED':
      return day(rnd.int(12, 80));
    case 'AWAITING_PAYMENT':
    case 'DRAFT':
      return base - rnd.int(1, 96) * HOUR;
    case 'ENDED': {
      const length = plan.pricing.singlePaymentForDuration ? addPeriod(0, plan.pricing.singlePaymentForDuration) : addPeriod(0, plan.pricing.subscription!.cycleDuration, plan.pricing.subscription!.cycleCount);
      return day(Math.ceil(length / DAY) + rnd.int(1, 60));
    }
    case 'CANCELED':
      return day(rnd.int(20, 150));
    default: {
      // Still running at the seed hour: started well before, not longer ago than the plan lasts.
      const limit = plan.pricing.singlePaymentForDuration ? Math.floor(addPeriod(0, plan.pricing.singlePaymentForDuration) / DAY) - 2 : 300;
      return day(rnd.int(Math.min(9, limit), Math.max(Math.min(9, limit), Math.min(limit, 120))));
    }
  }
}

/** The orders family's seed step: on the default site of the demo, the plans and the orders that buy them. */
export function seedOrdersStep(step: SeedStep): void {
  if (step.main && step.kind === 'demo') seedPlansAndOrders(step.store, step.site, step.base);
}
