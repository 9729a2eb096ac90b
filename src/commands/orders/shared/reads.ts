/**
 * What the orders read verbs (`list`, `count`, `export`) select (commands/shared/verbs.ts ReadSpec): `--status`,
 * `--plan`, `--buyer`, `--payment-status` and `--filter`/`--where` on the fields the owner's list takes as
 * parameters (view.ts). The platform has no count of orders: `count` takes the list's exact
 * `pagingMetadata.total` (an offset list).
 */
import type { Order } from '../../../api/schemas/order.js';
import type { ReadSpec } from '../../shared/verbs.js';
import { addCriteriaFlags, criteriaFilter, type CriteriaFlags } from './criteria.js';
import { ORDER_VIEW } from './view.js';

export const ORDER_READS: ReadSpec<Order> = {
  view: ORDER_VIEW,
  flags: (cmd) => addCriteriaFlags(cmd),
  extra: async (opts, ctx) => ({ filter: await criteriaFilter(opts as CriteriaFlags, ctx) }),
};
