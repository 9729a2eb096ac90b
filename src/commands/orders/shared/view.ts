/**
 * How a pricing plan order looks on the command line (docs/wire.md §13). The owner's list is a GET
 * list with parameters, not a filter: `--filter`/`--where` may select by status, planId, buyer.memberId,
 * lastPaymentStatus and autoRenewCanceled (equality or `$in`), sent as orderStatuses, planIds, buyerIds,
 * paymentStatuses and autoRenewCanceled.
 */
import type { ApiClient } from '../../../api/client.js';
import { orderOps, orders } from '../../../api/orders.js';
import { Order, ORDER_LIST_PARAMS } from '../../../api/schemas/order.js';
import type { Column } from '../../../core/output.js';
import type { EntityView } from '../../shared/entity-view.js';
import { knownBuyer } from './buyer-cache.js';

/** The first price of an order, after its coupon: `44.10 USD`. */
export function priceText(o: Order): string {
  const p = o.pricing?.prices?.[0]?.price;
  return p?.total !== undefined ? `${p.total} ${p.currency ?? ''}`.trim() : o.planPrice ?? '';
}

/** The buyer's name (else e-mail) once read, else the member id (what piped output shows: nothing is read there). */
export function buyerName(o: Order): string {
  const id = o.buyer?.memberId;
  if (!id) return '';
  const b = knownBuyer(id);
  return b?.name || b?.email || id;
}

/** The buyer's e-mail, when known. */
export function buyerEmail(o: Order): string {
  const id = o.buyer?.memberId;
  return (id && knownBuyer(id)?.email) || '';
}

/**
 * Columns of `orders list`: id, plan, buyer (name) and e-mail, status, payment, start, end, cycle, type. On a
 * narrow terminal type, cycle, start, payment and e-mail go first, before the buyer's name or the plan is cut.
 */
export const ORDER_COLUMNS: Column<Order>[] = [
  { key: 'id', id: true, noTruncate: true },
  { key: 'plan', get: (o) => o.planName ?? o.planId ?? '', min: 12 },
  { key: 'buyer', get: buyerName, min: 12 },
  { key: 'email', get: buyerEmail, priority: 1 },
  { key: 'status', fit: 'whole' },
  { key: 'payment', get: (o) => o.lastPaymentStatus ?? '', priority: 2 },
  { key: 'start', get: (o) => o.startDate ?? '', priority: 3 },
  { key: 'end', get: (o) => o.endDate ?? '' },
  { key: 'cycle', get: (o) => o.currentCycle?.index ?? '', align: 'right', priority: 4 },
  { key: 'type', priority: 5 },
];

/** `2026-11-20 15:00 UTC`: a date inside a longer text (whole rows of dates are formatted by the exporter). */
function short(d: Date | null | undefined): string {
  return d instanceof Date ? `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
}

/** `Ada Lovelace <ada@example.com> (member 1a2b…)`, as far as the buyer is known. */
function buyerText(o: Order): string {
  const id = o.buyer!.memberId!;
  const b = knownBuyer(id);
  const person = [b?.name, b?.email ? `<${b.email}>` : undefined].filter(Boolean).join(' ');
  return person ? `${person} (member ${id})` : `member ${id} (contact ${o.buyer?.contactId ?? '?'})`;
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
    ['buyer', o.buyer?.memberId ? buyerText(o) : undefined],
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
  noun: { one: 'order', many: 'orders' },
  schema: Order,
  columns: ORDER_COLUMNS,
  sortFields: {
    id: 'id',
    plan: 'planName',
    status: 'status',
    payment: 'lastPaymentStatus',
    start: 'startDate',
    end: 'endDate',
    cycle: 'currentCycle.index',
    type: 'type',
  },
  rows: orderRows,
  prepare: async (api, list, signal) => (await import('./buyers.js')).lookupBuyers(api, list, signal),
  readOnly: ['id', 'createdDate', 'updatedDate', 'status', 'cycles', 'currentCycle', 'buyer', 'planId'],
  query: orderOps.managementListOrders,
  label: (o) => [o.planName, o.buyer?.memberId ? buyerName(o) : undefined].filter(Boolean).join(' · '),
  filterExample: '{"status":{"$in":["ACTIVE","PAUSED"]}}',
  listParams: ORDER_LIST_PARAMS,
  params: { fieldSet: 'FULL' },
  // The list cannot select by id: the bulk engine reads the orders of an ids selection one by one.
  getOne: (api, id, signal) => fetchOrder(api, id, signal),
  // The orders list takes no text (docs/wire.md §20): the members' search finds the buyers, whose orders are
  // then listed by buyerIds.
  textSearch: { what: "the buyer's name or login e-mail (the members' search)", query: async (text, api, signal) => (await import('./buyers.js')).buyersMatching(api, text, signal) },
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
