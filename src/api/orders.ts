/**
 * The orders families (docs/wire.md §20: 7 operations in 5 rows, and "Orders, member": 3;
 * docs/wire.md §1, §6, §8 and §11), named by the official SDK's methods. The owner's calls manage any
 * order of the site; the member's act on the signed-in member's own orders (a member token from sign-in;
 * an API key gets 401).
 *
 * Replies where the spec says "not shown" follow the SDK's typings: get `{order}`, list `{orders,
 * pagingMetadata}`; the actions (postpone, cancel, mark as paid, pause, resume, request cancellation) answer
 * `{}` and the order is read again to see it. Lists are GETs with plain parameters (arrays repeated,
 * `sorting.fieldName`), `limit` at most 50.
 *
 * Retries: the actions may be repeated: a repeat is refused by the order's state (already paused, already
 * paid, already canceled), never applied twice; postponing to the same end date again changes nothing.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { EmptyReply } from './schemas/common.js';
import { MAX_ORDERS_PAGE, orderInputs as input, orderReplies as replies } from './schemas/order.js';

/** An action on one order: `POST /v2/orders/{id}/<verb>` with `{id}` (the SDK repeats the path parameter). */
function orderAction(verb: string, summary: string) {
  return {
    method: 'POST' as const,
    path: `/v2/orders/{id}/${verb}`,
    summary,
    request: () => z.looseObject({ id: input().Id }),
    reply: () => EmptyReply,
    idempotent: true,
  };
}

/** The owner's orders family table (docs/wire.md §20: 7 operations in 5 rows). */
export const ordersFamily = defineFamily({
  name: 'orders',
  prefixes: [{ proto: '/v2/orders', urls: ['/pricing-plans/v2/orders'] }],
  operations: {
    managementGetOrder: {
      method: 'GET',
      path: '/v2/orders/{id}',
      summary: 'Get one order of the site',
      request: () => z.looseObject({ id: input().Id, fieldSet: input().FieldSet }),
      reply: replies.OrderReply,
      // Not read-only: orders whose time is up are moved (ENDED, a new cycle) before the reply, in a transaction.
      readOnly: false,
    },
    managementListOrders: {
      method: 'GET',
      path: '/v2/orders',
      summary: 'Orders by buyer, plan, status, payment status and auto-renewal, by offset (at most 50 a page)',
      request: () => z.looseObject({ buyerIds: z.optional(z.array(input().Id).check(z.maxLength(100))), ...input().listParams }),
      reply: replies.OrdersReply,
      paging: { kind: 'offset', items: 'orders', sortKey: 'sorting', singleSort: true, maxLimit: MAX_ORDERS_PAGE, filter: false },
      readOnly: false,
    },
    postponeEndDate: {
      method: 'PATCH',
      path: '/v2/orders/{id}',
      summary: 'Move the end date of an order later',
      request: () => z.looseObject({ id: input().Id, endDate: input().Instant }),
      reply: () => EmptyReply,
      idempotent: true,
    },
    cancelOrder: {
      method: 'POST',
      path: '/v2/orders/{id}/cancel',
      summary: 'Cancel an order now, or at its next payment date (auto-renewal stops)',
      request: () => z.looseObject({ id: input().Id, effectiveAt: input().EffectiveAt }),
      reply: () => EmptyReply,
      idempotent: true,
    },
    markAsPaid: orderAction('mark-as-paid', 'Record the payment of an unpaid offline order'),
    pauseOrder: orderAction('pause', 'Pause an active order (its end date moves by the paused time on resume)'),
    resumeOrder: orderAction('resume', 'Resume a paused order'),
  },
});

/** The member's own orders family table (docs/wire.md §20: 3 operations, member tokens). */
export const memberOrdersFamily = defineFamily({
  name: 'member-orders',
  prefixes: [{ proto: '/v2/member/orders', urls: ['/pricing-plans/v2/member/orders'] }],
  operations: {
    memberGetOrder: {
      method: 'GET',
      path: '/v2/member/orders/{id}',
      summary: "Get one of the signed-in member's orders",
      request: () => z.looseObject({ id: input().Id, fieldSet: input().FieldSet }),
      reply: replies.OrderReply,
      readOnly: false,
    },
    memberListOrders: {
      method: 'GET',
      path: '/v2/member/orders',
      summary: "The signed-in member's orders by plan, status and payment status, by offset",
      request: () => z.looseObject(input().listParams),
      reply: replies.OrdersReply,
      paging: { kind: 'offset', items: 'orders', sortKey: 'sorting', singleSort: true, maxLimit: MAX_ORDERS_PAGE, filter: false },
      readOnly: false,
    },
    requestCancellation: {
      method: 'POST',
      path: '/v2/member/orders/{id}/cancel',
      summary: "Cancel one of the signed-in member's orders, when its plan lets buyers cancel",
      request: () => z.looseObject({ id: input().Id, effectiveAt: input().EffectiveAt }),
      reply: () => EmptyReply,
      idempotent: true,
    },
  },
});

/** One typed call per owner orders operation: `orders.managementGetOrder(api, {id})`. */
export const orders = callsOf(ordersFamily);
/** The owner's orders operations, by SDK method name. */
export const orderOps = ordersFamily.operations;
/** One typed call per member orders operation (a member token is needed). */
export const memberOrders = callsOf(memberOrdersFamily);
/** The member's orders operations, by SDK method name. */
export const memberOrderOps = memberOrdersFamily.operations;
