/**
 * The orders family's wiring of the entity bulk engine: the port over the owner's orders list (its filter sent
 * as the list's parameters; ids read one by one, as the list cannot select by id) and the senders of the order
 * actions (one call per order: the platform has no bulk order call). Orders have no revisions: an action sent
 * again is refused by the order's state (already paused, paid, canceled) and settled by reading the order.
 */
import type { ApiClient } from '../../../api/client.js';
import { ApiError } from '../../../api/errors.js';
import { orderOps } from '../../../api/orders.js';
import { ORDER_LIST_PARAMS } from '../../../api/schemas/order.js';
import { eachSender } from '../../../bulk/actions.js';
import type { ChunkRunner } from '../../../bulk/execute.js';
import { type Entity, type EntityPort, queryPort } from '../../../bulk/port.js';
import { fetchOrder, ORDER_VIEW } from './view.js';

/** Orders as the bulk engine reads them: pages of 50, labelled by plan and buyer. */
export function ordersPort(api: ApiClient): EntityPort {
  return queryPort(api, {
    query: orderOps.managementListOrders,
    noun: ORDER_VIEW.noun,
    listParams: ORDER_LIST_PARAMS,
    params: { fieldSet: 'BASIC' },
    label: (o) => ORDER_VIEW.label(o as never),
    async getOne(id, signal) {
      try {
        return (await fetchOrder(api, id, signal)) as unknown as Entity;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return undefined;
        throw err;
      }
    },
  });
}

/** Orders per chunk (the engine runs several chunks at once). */
export const EACH_CHUNK = 10;

/** The sender of one order action (`pauseOrder`, `cancelOrder`, ...), each order on its own call. */
export function orderSender(api: ApiClient, action: 'pauseOrder' | 'resumeOrder' | 'markAsPaid' | 'cancelOrder' | 'postponeEndDate', options: Record<string, unknown>): ChunkRunner['send'] {
  switch (action) {
    case 'cancelOrder':
      return eachSender(api, orderOps.cancelOrder, (item) => ({ id: item.id, effectiveAt: options.effectiveAt === 'NEXT_PAYMENT_DATE' ? ('NEXT_PAYMENT_DATE' as const) : ('IMMEDIATELY' as const) }));
    case 'postponeEndDate':
      return eachSender(api, orderOps.postponeEndDate, (item) => ({ id: item.id, endDate: String(options.endDate) }));
    default:
      return eachSender(api, orderOps[action], (item) => ({ id: item.id }));
  }
}
