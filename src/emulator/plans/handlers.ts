/**
 * The plans family served from its table (docs/wire.md §19, every row; docs/wire.md §6,
 * 8 and 11): one handler per operation of `plansFamily`, each receiving a request the table has validated.
 * The rules are in rules.ts. Lists are offset-paged (default 75, at most 100) in creation order.
 */
import { plansFamily } from '../../api/plans.js';
import { DEFAULT_PLANS_PAGE } from '../../api/schemas/plan.js';
import { runQuery } from '../query/index.js';
import { RawJson, serve, type RequestContext } from '../serve.js';
import { planBookOf, type PlanBook, type PlanDoc } from './model.js';
import { archivePlan, clearPrimary, createPlan, makePrimary, setVisibility, updatePlan } from './rules.js';

const book = (ctx: RequestContext<unknown>): PlanBook => planBookOf(ctx);

function planReply(b: PlanBook, plan: PlanDoc): RawJson {
  return new RawJson(`{"plan":${b.plans.json(plan)}}`);
}

/** `{"plans": [...], "pagingMetadata": ...}` of one offset page of `docs`. */
function plansPage(b: PlanBook, docs: readonly PlanDoc[], limit: number | undefined, offset: number | undefined): RawJson {
  const from = offset ?? 0;
  const items = docs.slice(from, from + (limit ?? DEFAULT_PLANS_PAGE));
  const meta = { count: items.length, offset: from, total: docs.length, tooManyToCount: false };
  return new RawJson(`{"plans":[${items.map((p) => b.plans.json(p)).join(',')}],"pagingMetadata":${JSON.stringify(meta)}}`);
}

/** Plans whose id is in `ids` (all when absent). */
const byIds = (ids: readonly string[] | undefined) => (p: PlanDoc) => !ids?.length || ids.includes(p.id);
const isPublic = (p: PlanDoc) => p.public && !p.archived;

/** Every plans operation, served. */
export const plansServed = serve(plansFamily, {
  listPublicPlans(ctx) {
    const b = book(ctx);
    const only = byIds(ctx.body.planIds);
    return plansPage(b, [...b.plans.all()].filter((p) => isPublic(p) && only(p)), ctx.body.limit, ctx.body.offset);
  },
  queryPublicPlans(ctx) {
    const b = book(ctx);
    const q = ctx.body.query ?? {};
    const page = runQuery([...b.plans.all()].filter(isPublic), { ...q, paging: { limit: q.paging?.limit ?? DEFAULT_PLANS_PAGE, offset: q.paging?.offset ?? 0 } }, 'query');
    return new RawJson(`{"plans":[${page.items.map((p) => b.plans.json(p)).join(',')}],"pagingMetadata":${JSON.stringify(page.pagingMetadata)}}`);
  },
  getPlan(ctx) {
    const b = book(ctx);
    return planReply(b, b.plans.require(ctx.body.id));
  },
  listPlans(ctx) {
    const b = book(ctx);
    const archived = ctx.body.archived ?? 'ACTIVE';
    const visibility = ctx.body.public ?? 'PUBLIC_AND_HIDDEN';
    const only = byIds(ctx.body.planIds);
    const docs = [...b.plans.all()].filter(
      (p) =>
        only(p) &&
        (archived === 'ARCHIVED_AND_ACTIVE' || (archived === 'ARCHIVED') === p.archived) &&
        (visibility === 'PUBLIC_AND_HIDDEN' || (visibility === 'PUBLIC') === p.public),
    );
    return plansPage(b, docs, ctx.body.limit, ctx.body.offset);
  },
  getPlanStats: (ctx) => ({ totalPlans: book(ctx).plans.size }),
  createPlan(ctx) {
    const b = book(ctx);
    return planReply(b, createPlan(b, ctx.body.plan));
  },
  updatePlan(ctx) {
    const b = book(ctx);
    return planReply(b, updatePlan(b, ctx.body.plan, ctx.body.fieldMask));
  },
  setPlanVisibility(ctx) {
    const b = book(ctx);
    return planReply(b, setVisibility(b, ctx.body.id, ctx.body.visible));
  },
  makePlanPrimary(ctx) {
    const b = book(ctx);
    return planReply(b, makePrimary(b, ctx.body.id));
  },
  clearPrimary(ctx) {
    clearPrimary(book(ctx));
    return {};
  },
  archivePlan(ctx) {
    const b = book(ctx);
    return planReply(b, archivePlan(b, ctx.body.id));
  },
}, { visitor: ['listPublicPlans', 'queryPublicPlans', 'getPlan'] });
