/**
 * Pricing plans on the wire (docs/wire.md §13, docs/plans-orders.md "Plans", docs/wire.md §19, §8 and
 * §11; the official SDK's typings where the spec says "not shown").
 *
 * A plan's pricing is one of three models (a oneof on the wire): `subscription` (a recurring payment every
 * `cycleDuration`, for `cycleCount` cycles, 0 = until canceled), `singlePaymentForDuration` (one payment for a
 * fixed period) or `singlePaymentUnlimited: true` (one payment, never ends); `price` is `{value, currency}` and
 * `freeTrialDays` delays the first payment of a subscription. `createdDate`/`updatedDate` become `Date`; plans
 * carry no revision on the platform.
 */
import * as z from 'zod/mini';
import { bounded, isoDate, Money, lazySchema, once, openEnum, PagingMetadata, requestShapes } from './common.js';

/** Period units of a plan's cycle or duration (docs/wire.md §13). */
export const PeriodUnitValues = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export type PeriodUnit = (typeof PeriodUnitValues)[number];
/** When a plan's fee is charged (docs/wire.md §13). */
export const AppliedAtValues = ['FIRST_PAYMENT'] as const;
/** `archived` parameter of listPlans (docs/wire.md §13). */
export const ArchivedFilterValues = ['ACTIVE', 'ARCHIVED', 'ARCHIVED_AND_ACTIVE'] as const;
/** `public` parameter of listPlans (docs/wire.md §13). */
export const PublicFilterValues = ['PUBLIC_AND_HIDDEN', 'PUBLIC', 'HIDDEN'] as const;

/** Longest plan name, description, perk and terms the emulator accepts (the platform's editor limits). */
export const PLAN_NAME_MAX = 50;
export const PLAN_DESCRIPTION_MAX = 450;
export const PERK_MAX = 150;
export const PERKS_MAX = 40;
export const TERMS_MAX = 5000;
/** Longest free trial, in days. */
export const FREE_TRIAL_MAX = 999;
/** Largest page of listPlans and listPublicPlans (docs/wire.md §6: "limit defaults to 75, max 100"). */
export const MAX_PLANS_PAGE = 100;
export const DEFAULT_PLANS_PAGE = 75;

/** `{count, unit}`: a cycle or a duration. */
export const Duration = lazySchema(() =>
  z.looseObject({ count: z.optional(z.nullable(z.int())), unit: z.optional(openEnum(PeriodUnitValues)) }),
);
export type Duration = z.infer<typeof Duration>;

/** A recurring payment: every `cycleDuration`, for `cycleCount` cycles (0: until canceled). */
export const Recurrence = lazySchema(() =>
  z.looseObject({ cycleDuration: z.optional(Duration), cycleCount: z.optional(z.nullable(z.int())) }),
);

/** A plan's pricing model (one of subscription, singlePaymentForDuration, singlePaymentUnlimited), price, trial. */
export const PlanPricing = lazySchema(() =>
  z.looseObject({
    subscription: z.optional(Recurrence),
    singlePaymentForDuration: z.optional(Duration),
    singlePaymentUnlimited: z.optional(z.nullable(z.boolean())),
    price: z.optional(Money),
    freeTrialDays: z.optional(z.nullable(z.int())),
  }),
);
export type PlanPricing = z.infer<typeof PlanPricing>;

/** A pricing plan (docs/wire.md §8). */
export const Plan = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.optional(z.nullable(z.string())),
    description: z.optional(z.nullable(z.string())),
    perks: z.optional(z.looseObject({ values: z.optional(z.array(z.string())) })),
    pricing: z.optional(PlanPricing),
    public: z.optional(z.nullable(z.boolean())),
    archived: z.optional(z.boolean()),
    primary: z.optional(z.boolean()),
    hasOrders: z.optional(z.boolean()),
    slug: z.optional(z.nullable(z.string())),
    maxPurchasesPerBuyer: z.optional(z.nullable(z.int())),
    allowFutureStartDate: z.optional(z.nullable(z.boolean())),
    buyerCanCancel: z.optional(z.nullable(z.boolean())),
    termsAndConditions: z.optional(z.nullable(z.string())),
    formId: z.optional(z.nullable(z.string())),
    createdDate: z.optional(z.nullable(isoDate)),
    updatedDate: z.optional(z.nullable(isoDate)),
  }),
);
export type Plan = z.infer<typeof Plan>;
export type PlanWire = z.input<typeof Plan>;

/**
 * The human form of a plan's pricing: `49 USD every month (12 payments, 7-day free trial)`, `120 USD every 3
 * months`, `120 USD once, for 3 months`, `990 USD once`.
 */
export function pricingText(pricing: PlanPricing | undefined): string {
  if (!pricing) return '';
  const price = pricing.price ? `${pricing.price.value} ${pricing.price.currency}` : 'free';
  const span = (d: Duration | undefined) => {
    const n = d?.count ?? 1;
    const unit = (d?.unit ?? '').toLowerCase();
    return n === 1 ? unit : `${n} ${unit}s`;
  };
  if (pricing.subscription) {
    const n = pricing.subscription.cycleCount;
    const extras = [n ? `${n} payment${n === 1 ? '' : 's'}` : undefined, pricing.freeTrialDays ? `${pricing.freeTrialDays}-day free trial` : undefined].filter(Boolean);
    return `${price} every ${span(pricing.subscription.cycleDuration ?? undefined)}${extras.length ? ` (${extras.join(', ')})` : ''}`;
  }
  if (pricing.singlePaymentForDuration) {
    const d = pricing.singlePaymentForDuration;
    return `${price} once, for ${(d.count ?? 1) === 1 ? `1 ${(d.unit ?? '').toLowerCase()}` : span(d)}`;
  }
  return `${price} once`;
}

// ---- Requests, built on first use (common.ts). Rules that need the site's data (a unique slug, a primary
// plan that is neither hidden nor archived) are the emulator's.

function buildPlanInputs() {
  const { FilterInput, Id, MoneyInput, PagingInput, SortInput } = requestShapes();
  const DurationInput = z.looseObject({ count: z.int().check(z.gte(1), z.lte(999)), unit: z.enum(PeriodUnitValues) });
  const PricingInput = z.looseObject({
    subscription: z.optional(z.looseObject({ cycleDuration: DurationInput, cycleCount: z.optional(z.int().check(z.gte(0), z.lte(999))) })),
    singlePaymentForDuration: z.optional(DurationInput),
    singlePaymentUnlimited: z.optional(z.boolean()),
    price: MoneyInput,
    freeTrialDays: z.optional(z.int().check(z.gte(0), z.lte(FREE_TRIAL_MAX))),
  });
  const fields = {
    description: z.optional(z.nullable(bounded(PLAN_DESCRIPTION_MAX))),
    perks: z.optional(z.looseObject({ values: z.array(bounded(PERK_MAX)).check(z.maxLength(PERKS_MAX)) })),
    public: z.optional(z.boolean()),
    maxPurchasesPerBuyer: z.optional(z.int().check(z.gte(0), z.lte(1000))),
    allowFutureStartDate: z.optional(z.boolean()),
    buyerCanCancel: z.optional(z.boolean()),
    termsAndConditions: z.optional(z.nullable(bounded(TERMS_MAX))),
    formId: z.optional(z.nullable(bounded(100))),
  };
  const name = bounded(PLAN_NAME_MAX).check(z.minLength(1));
  /** A new plan: a name and a pricing are required. */
  const PlanCreate = z.looseObject({ name, pricing: PricingInput, ...fields });
  /** The fields of an update: any of a new plan's, plus the id. */
  const PlanPatch = z.looseObject({ id: Id, name: z.optional(name), pricing: z.optional(PricingInput), ...fields });
  return {
    Id,
    PlanCreate,
    PlanPatch,
    PricingInput,
    /** `{filter, sort, paging}` of the public plans query. */
    PlanQueryInput: z.looseObject({ filter: z.optional(FilterInput), sort: z.optional(SortInput), paging: z.optional(PagingInput) }),
    /** `limit` of the plans GET lists: 1..100. */
    ListLimit: z.int().check(z.gte(1), z.lte(MAX_PLANS_PAGE)),
    Offset: z.int().check(z.gte(0)),
  };
}

/** The plan request schemas (built on first use). */
export const planInputs = once(buildPlanInputs);
type PlanInputs = ReturnType<typeof buildPlanInputs>;
/** The wire body of a new plan. */
export type PlanCreate = z.input<PlanInputs['PlanCreate']>;
/** The wire body of a plan update. */
export type PlanPatch = z.input<PlanInputs['PlanPatch']>;

// ---- Replies, each built once on first use.

const PlanReply = once(() => z.looseObject({ plan: Plan }));
const PlansReply = once(() => z.looseObject({ plans: z.array(Plan), pagingMetadata: z.optional(PagingMetadata) }));
const PlanStatsReply = once(() => z.looseObject({ totalPlans: z.int() }));

/** The plans family reply schemas. */
export const planReplies = { PlanReply, PlansReply, PlanStatsReply };
