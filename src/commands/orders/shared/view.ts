/**
 * How a pricing plan order looks on the command line (spec 001 section 3 "Order"). The owner's list is a GET
 * list with parameters, not a filter: `--filter`/`--where` may select by status, planId, buyer.memberId,
 * lastPaymentStatus and autoRenewCanceled (equality or `$in`), sent as orderStatuses, planIds, buyerIds,
 * paymentStatuses and autoRenewCanceled.
 */
import type { ApiClient } from '../../../api/client.js';
import { orderOps, orders } from '../../../api/orders.js';
import { Order, ORDER_LIST_PARAMS } from '../../../api/schemas/order.js';
import type { Column } from '../../../core/output.js';
import type { EntityView } from '../../shared/entity-view.js';

/** The first price of an order, after its coupon: `44.10 USD`. */
export function priceText(o: Order): string {
  const p = o.pricing?.prices?.[0]?.price;
  return p?.total !== undefined ? `${p.total} ${p.currency ?? ''}`.trim() : o.planPrice ?? '';
}

/** Columns of `orders list`: id, plan, buyer, status, payment, start, end, cycle, type. */
export const ORDER_COLUMNS: Column<Order>[] = [
  { key: 'id', id: true, noTruncate: true },
  { key: 'plan', get: (o) => o.planName ?? o.planId ?? '' },
  { key: 'buyer', get: (o) => o.buyer?.memberId ?? '', id: true, priority: 2 },
  { key: 'status' },
  { key: 'payment', get: (o) => o.lastPaymentStatus ?? '' },
  { key: 'start', get: (o) => o.startDate ?? '' },
  { key: 'end', get: (o) => o.endDate ?? '', priority: 1 },
  { key: 'cycle', get: (o) => o.currentCycle?.index ?? '', align: 'right', priority: 3 },
  { key: 'type', priority: 4 },
];

/** `2026-11-20 15:00 UTC`: a date inside a longer text (whole rows of dates are formatted by the exporter). */
function short(d: Date | null | undefined): string {
  return d instanceof Date ? `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
}

/** Rows of the readable `orders get` view. */
export function orderRows(o: Order): Array<[string, unknown]> {
  const pauses = (o.pausePeriods ?? []).map((p) => `${short(p.pauseDate)} → ${p.resumeDate instanceof Date ? short(p.resumeDate) : 'still paused'}`);
  const prices = (o.pricing?.prices ?? []).map((s) => {
    const from = s.duration?.cycleFrom ?? 1;
    const n = s.duration?.numberOfCycles;
    const span = n ? (n === 1 ? `cycle ${from}` : `cycles ${from}-${from + n - 1}`) : `cycles ${from}+`;
    const coupon = s.price?.coupon?.code ? ` (coupon ${s.price.coupon.code}: -${s.price.discount})` : '';
    return `${span}: ${s.price?.total ?? '?'} ${s.price?.currency ?? ''}${coupon}`;
  });
  const c = o.cancellation;
  const rows: Array<[string, unknown]> = [
    ['id', o.id],
    ['plan', `${o.planName ?? ''} (${o.planId ?? ''})`],
    ['buyer', o.buyer?.memberId ? `member ${o.buyer.memberId} (contact ${o.buyer.contactId ?? '?'})` : undefined],
    ['status', o.status],
    ['payment', o.lastPaymentStatus],
    ['type', o.orderMethod ? `${o.type} (${o.orderMethod})` : o.type],
    ['prices', prices.join('; ') || undefined],
    ['starts', o.startDate],
    ['ends', o.endDate ?? 'never (until canceled)'],
    ['earliest end', o.earliestEndDate],
    ['free trial', o.freeTrialDays ? `${o.freeTrialDays} days` : undefined],
    ['current cycle', o.currentCycle?.index ? `${o.currentCycle.index} of ${o.pricing?.subscription?.cycleCount || (o.pricing?.subscription ? 'unlimited' : 1)}` : undefined],
    ['cycle started', o.currentCycle?.startedDate],
    ['cycle ends', o.currentCycle?.index ? (o.currentCycle.endedDate ?? (o.status === 'PAUSED' ? 'when the pause ends' : 'never (until canceled)')) : undefined],
    ['auto-renewal', o.autoRenewCanceled ? 'canceled' : undefined],
    ['cancellation', c ? `${c.effectiveAt ?? ''} by ${c.cause ?? ''}${c.requestedDate instanceof Date ? ` on ${c.requestedDate.toISOString()}` : ''}` : undefined],
    ['pauses', pauses.join('; ') || undefined],
    ['created', o.createdDate],
    ['updated', o.updatedDate],
  ];
  return rows.filter(([, v]) => v !== undefined && v !== null && v !== '');
}

/** The orders entity for the shared verbs (list, get, bulk actions): the owner's list, FULL field set. */
export const ORDER_VIEW: EntityView<Order> = {
  keys: async () => (await import('./transitions.js')).orderKeys(),
  noun: { one: 'order', many: 'orders' },
  schema: Order,
  columns: ORDER_COLUMNS,
  sortFields: {
    id: 'id',
    plan: 'planName',
    buyer: 'buyer.memberId',
    status: 'status',
    payment: 'lastPaymentStatus',
    start: 'startDate',
    end: 'endDate',
    cycle: 'currentCycle.index',
    type: 'type',
  },
  rows: orderRows,
  readOnly: ['id', 'createdDate', 'updatedDate', 'status', 'cycles', 'currentCycle', 'buyer', 'planId'],
  query: orderOps.managementListOrders,
  label: (o) => [o.planName, o.buyer?.memberId ? `member ${o.buyer.memberId.slice(0, 8)}` : undefined].filter(Boolean).join(' · '),
  filterExample: '{"status":{"$in":["ACTIVE","PAUSED"]}}',
  listParams: ORDER_LIST_PARAMS,
  params: { fieldSet: 'FULL' },
};

/** One order with every field (FULL). @throws ApiError 404 ORDER_NOT_FOUND */
export async function fetchOrder(api: ApiClient, id: string, signal?: AbortSignal): Promise<Order> {
  return (await orders.managementGetOrder(api, { id, fieldSet: 'FULL' }, { signal })).order;
}

/**
 * The line a cancel prints once sent: canceled now, or, at the next payment date, when the order will end (it
 * stays ACTIVE until then, with auto-renewal off, and is CANCELED at that time).
 */
export function cancelOutcome(order: Pick<Order, 'id' | 'status' | 'endDate'>, effectiveAt: 'IMMEDIATELY' | 'NEXT_PAYMENT_DATE', label?: string): string {
  const which = `order ${order.id}${label ? ` (${label})` : ''}`;
  if (effectiveAt === 'IMMEDIATELY' || order.status === 'CANCELED') return `canceled ${which}`;
  const end = order.endDate ? order.endDate.toISOString() : 'its next payment date';
  return `${which} will end at ${end}: auto-renewal is canceled, and it stays ${order.status ?? 'ACTIVE'} until then`;
}
