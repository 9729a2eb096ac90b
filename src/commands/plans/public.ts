/**
 * `sitectl plans public list|query`: the plans the site shows its visitors, through the platform's public plans
 * calls (docs/wire.md §19, "Operations and their verbs"): public, not archived, as a visitor (or a member) reads
 * them. `list` is `GET /v2/plans/public` (listPublicPlans: offset pages, selected only by id, `--where id=...` or
 * `--filter '{"id":{"$in":[...]}}'` as `planIds`); `query` is `POST /v2/plans/public/query` (queryPublicPlans:
 * any filter, a sort).
 *
 * A group of its own rather than `plans list --public`: `plans list --visibility public` already exists and is
 * the owner's listPlans (the site's own view, hidden plans on request); the public calls answer what a visitor
 * sees and take other selections (a filter and sort for query), so they read as their own two verbs, named as
 * the platform names them.
 */
import type { Command } from 'commander';
import { planOps } from '../../api/plans.js';
import type { Plan } from '../../api/schemas/plan.js';
import type { Context } from '../../context.js';
import type { Invocation } from '../manifest.js';
import type { EntityView } from '../shared/entity-view.js';
import { listVerb } from '../shared/verbs.js';
import { PLAN_VIEW } from './shared/view.js';

/** The public plans by listPublicPlans: the plans view's id selection (`planIds`) over the public list. */
const PUBLIC_LIST_VIEW: EntityView<Plan> = { ...PLAN_VIEW, query: planOps.listPublicPlans };
/** The public plans by queryPublicPlans: a filter and sort, sent as the query's. */
const PUBLIC_QUERY_VIEW: EntityView<Plan> = {
  ...PLAN_VIEW,
  query: planOps.queryPublicPlans,
  listParams: undefined,
  filterExample: '{"name":{"$startsWith":"Gold"}}',
};

const list = listVerb({
  view: PUBLIC_LIST_VIEW,
  description: 'List the plans the site shows its visitors (public, not archived), by listPublicPlans',
  examples: ['sitectl plans public list', 'sitectl plans public list --all --json id,name,pricing'],
});

const query = listVerb({
  view: PUBLIC_QUERY_VIEW,
  name: 'query',
  description: 'Query the plans the site shows its visitors with a filter and sort, by queryPublicPlans',
  examples: ['sitectl plans public query --sort name', `sitectl plans public query --filter '{"name":{"$startsWith":"Gold"}}'`],
});

export function register(parent: Command, ctx: Context, inv?: Invocation): void {
  const group = parent.command('public').description('The plans the site shows its visitors: list, query');
  list.register(group, ctx, inv);
  query.register(group, ctx, inv);
}
