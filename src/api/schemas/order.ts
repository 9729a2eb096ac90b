/**
 * Pricing plan orders and checkout on the wire (docs/wire.md §13, docs/plans-orders.md "Orders: the state table", docs/wire.md §20, §8 and §11; the official SDK's typings where the spec
 * says "not shown").
 *
 * An order is one buyer's purchase of a plan: the buyer (`{memberId, contactId}`), a snapshot of the plan
 * (`planName`, `planDescription`, `planPrice`, `pricing` with the spanned `prices` after a coupon), its status
 * and last payment status, its period (`startDate`, `endDate`, `earliestEndDate`), its pause periods, its
 * cycles (`currentCycle`, `cycles`) and a cancellation. Dates the official client turns into `Date` are
 * `isoDate` here (docs/wire.md §11: `startDate`, `endDate`, `createdDate`, and the other dates of the order).
 * Orders carry no revision on the platform.
 */
import * as z from 'zod/mini';
import { bounded, isoDate, lazySchema, once, openEnum, PagingMetadata, requestShapes } from './common.js';
import { Duration, PeriodUnitValues, Recurrence } from './plan.js';

/** Order status (docs/plans-orders.md "Orders: the state table"). */
export const OrderStatusValues = ['DRAFT', 'PENDING', 'ACTIVE', 'PAUSED', 'ENDED', 'CANCELED'] as const;
export type OrderStatus = (typeof OrderStatusValues)[number];
/** Order type (docs/wire.md §13). */
export const OrderTypeValues = ['ONLINE', 'OFFLINE', 'EXTERNAL'] as const;
/** How an order placed on a buyer's behalf was taken (docs/wire.md §13). */
export const OrderMethodValues = ['MOTO', 'POS'] as const;
/** Payment status of an order's last payment (docs/wire.md §13). */
export const PaymentStatusValues = ['PAID', 'REFUNDED', 'FAILED', 'UNPAID', 'PENDING', 'NOT_APPLICABLE'] as const;
export type PaymentStatus = (typeof PaymentStatusValues)[number];
/** Why an order was canceled (docs/wire.md §13). */
export const CancellationCauseValues = ['OWNER_ACTION', 'MEMBER_ACTION', 'PAYMENT_FAILURE', 'PAYMENT_SETUP_FAILURE', 'UNKNOWN'] as const;
/** When a cancellation takes effect (docs/wire.md §13). */
export const CancellationEffectiveAtValues = ['IMMEDIATELY', 'NEXT_PAYMENT_DATE'] as const;
export type CancellationEffectiveAt = (typeof CancellationEffectiveAtValues)[number];
/** Why an order cannot be paused (docs/wire.md §13). */
export const NotSuspendableReasonValues = ['PENDING', 'TRIAL', 'CANCELED', 'ENDED', 'NOT_STARTED', 'ALREADY_SUSPENDED', 'OLD_STRIPE'] as const;
export type NotSuspendableReason = (typeof NotSuspendableReasonValues)[number];
/** How much of an order a get or list returns (docs/wire.md §13): FULL adds the `cycles` list. */
export const FieldSetValues = ['BASIC', 'FULL'] as const;
/** The order statuses of the member list's status filter (docs/wire.md §13). */
export const OrderListStatusValues = ['ACTIVE', 'ENDED'] as const;
/** Status of one pause period: ACTIVE while the order is paused, ENDED once resumed. */
export const PausePeriodStatusValues = ['ACTIVE', 'ENDED'] as const;

/** Largest page of the orders lists (docs/wire.md §6: "limit default and max 50"). */
export const MAX_ORDERS_PAGE = 50;
/** The id a preview's order carries (the platform shows zeros: no order was created). */
export const PREVIEW_ORDER_ID = '00000000-0000-0000-0000-000000000000';

/** One cycle of an order: `index` from 1, the dates it started and ends. */
export const OrderCycle = lazySchema(() =>
  z.looseObject({
    index: z.optional(z.int()),
    startedDate: z.optional(z.nullable(isoDate)),
    endedDate: z.optional(z.nullable(isoDate)),
  }),
);
export type OrderCycle = z.infer<typeof OrderCycle>;

/** A coupon as applied to a price. */
export const AppliedCoupon = lazySchema(() =>
  z.looseObject({ code: z.optional(z.string()), amount: z.optional(z.string()), id: z.optional(z.string()) }),
);

/** A price after coupon and tax: decimal strings, `total = subtotal - discount (+ tax)`. */
export const OrderPrice = lazySchema(() =>
  z.looseObject({
    subtotal: z.optional(z.string()),
    coupon: z.optional(z.nullable(AppliedCoupon)),
    discount: z.optional(z.string()),
    tax: z.optional(z.nullable(z.looseObject({ name: z.optional(z.string()), includedInPrice: z.optional(z.boolean()), rate: z.optional(z.string()), amount: z.optional(z.string()) }))),
    total: z.optional(z.string()),
    currency: z.optional(z.string()),
  }),
);
export type OrderPrice = z.infer<typeof OrderPrice>;

/** A price that holds for some cycles: from `cycleFrom` (1-based) for `numberOfCycles` (absent: to the end). */
export const SpannedPrice = lazySchema(() =>
  z.looseObject({
    duration: z.optional(z.looseObject({ cycleFrom: z.optional(z.int()), numberOfCycles: z.optional(z.nullable(z.int())) })),
    price: z.optional(OrderPrice),
  }),
);
export type SpannedPrice = z.infer<typeof SpannedPrice>;

/** The pricing an order was bought with: the plan's model and the prices by cycle. */
export const OrderPricing = lazySchema(() =>
  z.looseObject({
    subscription: z.optional(Recurrence),
    singlePaymentForDuration: z.optional(Duration),
    singlePaymentUnlimited: z.optional(z.nullable(z.boolean())),
    prices: z.optional(z.array(SpannedPrice)),
  }),
);

/** A pause: from `pauseDate` to `resumeDate` (absent while still paused). */
export const PausePeriod = lazySchema(() =>
  z.looseObject({
    status: z.optional(openEnum(PausePeriodStatusValues)),
    pauseDate: z.optional(z.nullable(isoDate)),
    resumeDate: z.optional(z.nullable(isoDate)),
  }),
);

/** A cancellation: when it was asked for, why, and when it takes effect. */
export const Cancellation = lazySchema(() =>
  z.looseObject({
    requestedDate: z.optional(z.nullable(isoDate)),
    cause: z.optional(openEnum(CancellationCauseValues)),
    effectiveAt: z.optional(openEnum(CancellationEffectiveAtValues)),
  }),
);

/** A pricing plan order (docs/wire.md §8). */
export const Order = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    planId: z.optional(z.string()),
    subscriptionId: z.optional(z.nullable(z.string())),
    wixPayOrderId: z.optional(z.nullable(z.string())),
    buyer: z.optional(z.looseObject({ memberId: z.optional(z.nullable(z.string())), contactId: z.optional(z.nullable(z.string())) })),
    pricing: z.optional(OrderPricing),
    type: z.optional(openEnum(OrderTypeValues)),
    orderMethod: z.optional(z.nullable(openEnum(OrderMethodValues))),
    status: z.optional(openEnum(OrderStatusValues)),
    autoRenewCanceled: z.optional(z.nullable(z.boolean())),
    cancellation: z.optional(z.nullable(Cancellation)),
    lastPaymentStatus: z.optional(openEnum(PaymentStatusValues)),
    startDate: z.optional(z.nullable(isoDate)),
    endDate: z.optional(z.nullable(isoDate)),
    earliestEndDate: z.optional(z.nullable(isoDate)),
    pausePeriods: z.optional(z.array(PausePeriod)),
    freeTrialDays: z.optional(z.nullable(z.int())),
    currentCycle: z.optional(z.nullable(OrderCycle)),
    cycles: z.optional(z.array(OrderCycle)),
    planName: z.optional(z.nullable(z.string())),
    planDescription: z.optional(z.nullable(z.string())),
    planPrice: z.optional(z.nullable(z.string())),
    createdDate: z.optional(z.nullable(isoDate)),
    updatedDate: z.optional(z.nullable(isoDate)),
  }),
);
export type Order = z.infer<typeof Order>;
export type OrderWire = z.input<typeof Order>;

/** The GET list parameters an order field stands for (docs/wire.md §20). */
export const ORDER_LIST_PARAMS = {
  status: { param: 'orderStatuses', list: true },
  planId: { param: 'planIds', list: true },
  'buyer.memberId': { param: 'buyerIds', list: true },
  lastPaymentStatus: { param: 'paymentStatuses', list: true },
  autoRenewCanceled: { param: 'autoRenewCanceled', list: false },
} as const;

// ---- Requests, built on first use (common.ts). What needs the site's data (the plan exists and is not
// archived, the buyer is a member, the state machine allows it) is the emulator's.

/** An ISO-8601 instant with a zone (`2026-01-30T13:30:00Z`). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

function buildOrderInputs() {
  const { Id } = requestShapes();
  const Instant = z.string().check(
    z.maxLength(40),
    z.regex(ISO_INSTANT, 'must be an ISO-8601 instant such as 2026-01-30T13:30:00Z'),
    z.refine((v) => !Number.isNaN(Date.parse(v)), 'is not a real date'),
  );
  const FieldSet = z.optional(z.enum(FieldSetValues));
  const Coupon = z.optional(bounded(50).check(z.minLength(1)));
  /** The list parameters both order lists share (the owner's adds `buyerIds`). */
  const listParams = {
    planIds: z.optional(z.array(Id).check(z.maxLength(100))),
    autoRenewCanceled: z.optional(z.boolean()),
    orderStatuses: z.optional(z.array(z.enum(OrderStatusValues)).check(z.maxLength(OrderStatusValues.length))),
    paymentStatuses: z.optional(z.array(z.enum(PaymentStatusValues)).check(z.maxLength(PaymentStatusValues.length))),
    limit: z.optional(z.int().check(z.gte(1), z.lte(MAX_ORDERS_PAGE))),
    offset: z.optional(z.int().check(z.gte(0))),
    sorting: z.optional(z.looseObject({ fieldName: bounded(200), order: z.optional(z.enum(['ASC', 'DESC'])) })),
    fieldSet: FieldSet,
  };
  return {
    Id,
    Instant,
    FieldSet,
    Coupon,
    listParams,
    /** `{memberId, orderMethod}` of an online order bought for a member by the business. */
    OnBehalf: z.looseObject({ memberId: Id, orderMethod: z.optional(z.enum(OrderMethodValues)) }),
    EffectiveAt: z.enum(CancellationEffectiveAtValues),
    PeriodUnit: z.enum(PeriodUnitValues),
  };
}

/** The order and checkout request schemas (built on first use). */
export const orderInputs = once(buildOrderInputs);

// ---- Replies, each built once on first use.

const OrderReply = once(() => z.looseObject({ order: Order }));
const OrdersReply = once(() => z.looseObject({ orders: z.array(Order), pagingMetadata: z.optional(PagingMetadata) }));
const OrderPreviewReply = once(() => z.looseObject({ order: Order, purchaseLimitExceeded: z.optional(z.boolean()) }));
const PricePreviewReply = once(() => z.looseObject({ price: z.optional(OrderPrice), prices: z.array(SpannedPrice) }));

/** The orders and checkout reply schemas. */
export const orderReplies = { OrderReply, OrdersReply, OrderPreviewReply, PricePreviewReply };
