/** `sitectl orders get ID`: one order with every field (cycles, pauses, prices, cancellation). */
import { getVerb } from '../shared/verbs.js';
import { fetchOrder, ORDER_VIEW } from './shared/view.js';

export const { register, run } = getVerb({
  view: ORDER_VIEW,
  description: 'Show one order: its plan, buyer, status, payment, cycles, pauses and cancellation',
  fetch: (api, id, signal) => fetchOrder(api, id, signal),
});
