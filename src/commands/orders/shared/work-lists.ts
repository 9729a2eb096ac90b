/**
 * The orders' work list on the dashboard (commands/shared/work-lists.ts): the orders needing attention, with why
 * (attentionOf); the keys are the orders' own (orderKeys).
 */
import type { Order } from '../../../api/schemas/order.js';
import { daysText } from '../../../core/when.js';
import { uiActions } from '../../shared/ui-actions.js';
import { andParams, collect, type WorkLists, workListPane } from '../../shared/work-lists.js';
import { type EntityView, listParamsOf } from '../../shared/entity-view.js';
import { orderKeys } from './transitions.js';
import { buyerEmail, buyerName, ORDER_VIEW } from './view.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Why an order needs attention (undefined when it does not), by the SDK's order statuses: paused; unpaid offline
 * (PENDING, ACTIVE or PAUSED); a DRAFT online order still awaiting its payment; a PENDING order starting within
 * `soonMs` (bought, not started: the member gets the plan then); an ACTIVE one ending within `soonMs`. Days are
 * calendar days on the clock of `zone` (`ends tomorrow`, `starts in 3 days`), as the END column's date.
 */
export function attentionOf(o: Order, now: Date, soonMs: number, zone: string): string | undefined {
  if (o.status === 'PAUSED') return 'paused';
  if (o.type === 'OFFLINE' && o.lastPaymentStatus === 'UNPAID' && o.status !== 'CANCELED' && o.status !== 'ENDED') return 'unpaid offline';
  if (o.status === 'DRAFT') return o.lastPaymentStatus === 'FAILED' ? 'payment failed' : 'awaiting payment';
  if (o.status === 'PENDING' && o.startDate instanceof Date && o.startDate.getTime() - now.getTime() <= soonMs) {
    return `starts ${daysText(o.startDate, now, zone)}`;
  }
  if (o.status === 'ACTIVE' && o.endDate instanceof Date && o.endDate.getTime() - now.getTime() <= soonMs && o.endDate.getTime() > now.getTime()) {
    return `ends ${daysText(o.endDate, now, zone)}`;
  }
  return undefined;
}

/** The pane `orders`: orders to check, within `--days` for those starting or ending soon. */
export const workLists: WorkLists = async (setting) => {
  const { ctx, api, zone, days } = setting;
  const soonMs = days * DAY_MS;
  const actions = uiActions(ctx, api, await orderKeys());
  // One of the pane's selections ANDed with the parameters `/field=value` stands for (none when they exclude each other).
  const query = async (own: Record<string, unknown>, where: Record<string, unknown> | null | undefined): Promise<Order[]> => {
    const params = where === null ? null : andParams(own, where);
    return params ? (await collect(ctx, api, ORDER_VIEW, ORDER_VIEW.query, { params })).items : [];
  };
  return [
    {
      events: ['order'],
      pane: workListPane<Order>(setting, {
        id: 'orders',
        title: 'Orders to check',
        view: ORDER_VIEW,
        columns: [
          { key: 'reason', get: (o) => attentionOf(o, ctx.now(), soonMs, zone) ?? '', fit: 'whole' },
          { key: 'buyer', get: buyerName, min: 12 },
          { key: 'plan', get: (o) => o.planName ?? o.planId ?? '', min: 12 },
          { key: 'status', fit: 'whole' },
          { key: 'payment', get: (o) => o.lastPaymentStatus ?? '', fit: 'whole', priority: 2 },
          { key: 'end', get: (o) => o.endDate ?? '', fit: 'whole' },
          { key: 'email', get: buyerEmail, priority: 1 },
          { key: 'id', id: true, priority: 3 },
        ],
        async read(filter) {
          // The orders list takes parameters, not a filter: `/status=PAUSED` is its `orderStatuses`.
          const where = filter ? listParamsOf(ORDER_VIEW as EntityView<unknown>, filter, '/') : undefined;
          const lists = await Promise.all([
            query({ orderStatuses: ['PAUSED'] }, where),
            query({ paymentStatuses: ['UNPAID'] }, where),
            query({ orderStatuses: ['DRAFT', 'PENDING'] }, where),
            query({ orderStatuses: ['ACTIVE'] }, where),
          ]);
          const now = ctx.now();
          const seen = new Set<string>();
          const out: Order[] = [];
          for (const o of lists.flat()) {
            if (seen.has(o.id) || !attentionOf(o, now, soonMs, zone)) continue;
            seen.add(o.id);
            out.push(o);
          }
          // Several lists, some rows dropped: the rows kept are the count.
          return { items: out };
        },
        actions,
      }),
    },
  ];
};
