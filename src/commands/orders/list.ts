/**
 * `sitectl orders list`: the site's orders through the owner's list (offset pages of up to 50, newest first),
 * by `--status`, `--plan`, `--buyer`, `--payment-status` and/or `--filter`/`--where` on those fields.
 */
import { listVerb } from '../shared/verbs.js';
import { addCriteriaFlags, criteriaFilter, type CriteriaFlags } from './shared/criteria.js';
import { ORDER_VIEW } from './shared/view.js';

export const { register, run } = listVerb({
  view: ORDER_VIEW,
  description: 'List orders (by status, plan, buyer, payment status), newest first',
  examples: [
    'sitectl orders list --status ACTIVE,PAUSED',
    "sitectl orders list --plan 'Gold Monthly' --payment-status UNPAID --json id,status,buyer",
    'sitectl orders list --buyer ada.abbott@example.com --all --ndjson',
  ],
  flags: (cmd) => addCriteriaFlags(cmd),
  extra: async (opts, ctx) => ({ filter: await criteriaFilter(opts as CriteriaFlags, ctx) }),
});
