/**
 * What the plans family stores (docs/wire.md §13, docs/plans-orders.md "Plans"; docs/wire.md §8): one collection of
 * plans per site, in wire form (ISO date strings). Plans carry no revision on the platform, so the collection
 * keeps none; their dates are set by the rules. Coupons (the seeded ones the checkout applies) live here too:
 * the platform keeps them in its own coupons service, which this emulator does not serve.
 */
import type { PeriodUnit } from '../../api/schemas/plan.js';
import type { RequestContext } from '../serve.js';
import { defineCollection, type SiteCollection } from '../store/collection.js';
import type { Store } from '../store/store.js';

/** `{count, unit}` of a cycle or a duration. */
export interface DurationDoc {
  count: number;
  unit: PeriodUnit;
}

/** A plan's pricing: exactly one of subscription, singlePaymentForDuration, singlePaymentUnlimited. */
export interface PlanPricingDoc {
  subscription?: { cycleDuration: DurationDoc; cycleCount: number };
  singlePaymentForDuration?: DurationDoc;
  singlePaymentUnlimited?: boolean;
  price: { value: string; currency: string };
  freeTrialDays?: number;
}

/** A plan document (the `Plan` schema of src/api/schemas/plan.ts, wire form). */
export interface PlanDoc {
  id: string;
  name: string;
  description?: string | null;
  perks: { values: string[] };
  pricing: PlanPricingDoc;
  public: boolean;
  archived: boolean;
  primary: boolean;
  hasOrders: boolean;
  slug: string;
  maxPurchasesPerBuyer: number;
  allowFutureStartDate: boolean;
  buyerCanCancel: boolean;
  termsAndConditions?: string | null;
  formId?: string | null;
  createdDate?: string;
  updatedDate?: string;
}

/** A coupon the checkout accepts: a percentage or an amount off, for some plans or all, for some cycles or all. */
export interface CouponDoc {
  id: string;
  code: string;
  name: string;
  /** Percent off (0-100]. */
  percentOff?: number;
  /** Amount off each payment, in the plan's currency (decimal string). */
  moneyOffAmount?: string;
  /** Plans it applies to (absent: every plan). */
  planIds?: string[];
  /** Payments it applies to (absent: every payment). */
  limitedToCycles?: number;
  /** ISO instant after which it no longer applies. */
  expirationDate?: string;
  active: boolean;
  createdDate?: string;
  updatedDate?: string;
  revision?: string;
}

export const PLANS = defineCollection<PlanDoc>({
  kind: 'plans',
  entity: 'plan',
  notFound: 'PLAN_NOT_FOUND',
  revisioned: false,
  uniques: [{ name: 'slug', values: (p) => [p.slug], code: 'SLUG_ALREADY_EXISTS', what: 'slug' }],
});

export const COUPONS = defineCollection<CouponDoc>({
  kind: 'coupons',
  entity: 'coupon',
  notFound: 'COUPON_NOT_FOUND',
  uniques: [{ name: 'code', values: (c) => [c.code.toUpperCase()], code: 'COUPON_CODE_ALREADY_EXISTS', what: 'coupon code' }],
});

/** Every collection of the plans family. */
export const PLAN_COLLECTIONS = [PLANS, COUPONS];

/** A site's plans and coupons as one request (or the seed) sees them. */
export interface PlanBook {
  plans: SiteCollection<PlanDoc>;
  coupons: SiteCollection<CouponDoc>;
  /** The request's time (ISO) and as epoch ms. */
  now: string;
  nowMs: number;
  newId: () => string;
  /** Records an extra domain event beside the one a write records (`plan.archived` after `plan.updated`). */
  event(type: string, id: string, json: string): void;
}

/** The plans of a request's site (`store` and `site` given by the seed, which has no request). */
export function planBookOf(ctx: Pick<RequestContext<unknown>, 'db' | 'now'> & { store: Store; site: string }, newId: () => string = () => crypto.randomUUID()): PlanBook {
  return {
    plans: ctx.db(PLANS),
    coupons: ctx.db(COUPONS),
    now: ctx.now,
    nowMs: Date.parse(ctx.now),
    newId,
    event: (type, id, json) => ctx.store.appendEvent(ctx.site, type, id, json),
  };
}
