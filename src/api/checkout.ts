/**
 * The checkout family (docs/wire.md §20, 5 calls; docs/wire.md §1, §8 and §11), named
 * by the official SDK's methods: orders bought online (by the signed-in member, or by the business on a
 * member's behalf: `onBehalf`) and offline (recorded by the business for a member, paid or not), their
 * previews (nothing is stored; the order's id is all zeros, and `purchaseLimitExceeded` says whether the buyer
 * reached the plan's `maxPurchasesPerBuyer`), and the price preview of a plan with a coupon.
 *
 * Replies (the SDK's typings): create `{order}`, previews `{order, purchaseLimitExceeded}`, price preview
 * `{price, prices}`. Creating is not repeated automatically (a repeat would buy twice); previews may be.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { orderInputs as input, orderReplies as replies } from './schemas/order.js';

/** The checkout family table (docs/wire.md §20: 5 operations). */
export const checkoutFamily = defineFamily({
  name: 'checkout',
  prefixes: [{ proto: '/v2/checkout/orders', urls: ['/pricing-plans/v2/checkout/orders'] }],
  operations: {
    createOnlineOrder: {
      method: 'POST',
      path: '/v2/checkout/orders/online',
      summary: 'Buy a plan online (DRAFT until paid, then PENDING until its start date, ACTIVE from it; a free plan is bought at once)',
      request: () =>
        z.looseObject({
          planId: input().Id,
          startDate: z.optional(input().Instant),
          couponCode: input().Coupon,
          onBehalf: z.optional(input().OnBehalf),
          submissionId: z.optional(input().Id),
        }),
      reply: replies.OrderReply,
    },
    createOfflineOrder: {
      method: 'POST',
      path: '/v2/checkout/orders/offline',
      summary: 'Record an order a member paid (or will pay) outside the site; PENDING until its start date, ACTIVE from it',
      request: () =>
        z.looseObject({
          planId: input().Id,
          memberId: input().Id,
          startDate: z.optional(input().Instant),
          paid: z.optional(z.boolean()),
          couponCode: input().Coupon,
          submissionId: z.optional(input().Id),
        }),
      reply: replies.OrderReply,
    },
    getOnlineOrderPreview: {
      method: 'POST',
      path: '/v2/checkout/orders/preview-online',
      summary: 'What an online order of the signed-in member would be, without buying',
      request: () => z.looseObject({ planId: input().Id, startDate: z.optional(input().Instant), couponCode: input().Coupon }),
      reply: replies.OrderPreviewReply,
      idempotent: true,
      readOnly: true,
    },
    getOfflineOrderPreview: {
      method: 'POST',
      path: '/v2/checkout/orders/preview-offline',
      summary: 'What an offline order for a member would be, without creating it',
      request: () => z.looseObject({ planId: input().Id, memberId: input().Id, startDate: z.optional(input().Instant), couponCode: input().Coupon }),
      reply: replies.OrderPreviewReply,
      idempotent: true,
      readOnly: true,
    },
    getPricePreview: {
      method: 'POST',
      path: '/v2/checkout/orders/price-preview',
      summary: "A plan's price by cycle, with a coupon applied",
      request: () => z.looseObject({ planId: input().Id, couponCode: input().Coupon }),
      reply: replies.PricePreviewReply,
      idempotent: true,
    },
  },
});

/** One typed call per checkout operation. */
export const checkout = callsOf(checkoutFamily);
/** The checkout operations, by SDK method name. */
export const checkoutOps = checkoutFamily.operations;
