/**
 * The pricing plans family (docs/wire.md §19, 11 calls; docs/wire.md §1, §8 and §11),
 * named by the official SDK's methods. Replies where the spec says "not shown" follow the SDK's typings: list
 * `{plans, pagingMetadata}`, stats `{totalPlans}`, create/update/visibility/make-primary/archive `{plan}`,
 * clear-primary `{}`.
 *
 * The official client sends updatePlan without a field mask (`{"plan":{"description":"…","id":"{id}"}}`): the
 * fields sent are then the ones changed; a mask, when given, names them. Retries (`idempotent`): reads, and the
 * calls that set a state (visibility, make primary, clear primary) may be repeated; create, update and archive
 * are retried only where the request cannot have been processed.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { EmptyReply, requestShapes } from './schemas/common.js';
import { ArchivedFilterValues, MAX_PLANS_PAGE, planInputs, planReplies as replies, PublicFilterValues } from './schemas/plan.js';

const input = () => ({ ...requestShapes(), ...planInputs() });
const listParams = () => ({
  limit: z.optional(input().ListLimit),
  offset: z.optional(input().Offset),
  planIds: z.optional(z.array(input().Id).check(z.maxLength(100))),
});

/** The pricing plans family table (docs/wire.md §19: 11 operations). */
export const plansFamily = defineFamily({
  name: 'plans',
  prefixes: [{ proto: '/v2/plans', urls: ['/pricing-plans/v2/plans'] }],
  operations: {
    listPublicPlans: {
      method: 'GET',
      path: '/v2/plans/public',
      summary: 'Public plans that are not archived (what the site shows), by offset',
      request: () => z.looseObject(listParams()),
      reply: replies.PlansReply,
      paging: { kind: 'offset', items: 'plans', maxLimit: MAX_PLANS_PAGE, filter: false, unsorted: true },
    },
    queryPublicPlans: {
      method: 'POST',
      path: '/v2/plans/public/query',
      summary: 'Public plans matching a filter, sorted, by offset',
      request: () => z.looseObject({ query: z.optional(input().PlanQueryInput) }),
      reply: replies.PlansReply,
      idempotent: true,
      paging: { kind: 'offset', items: 'plans', wrapper: 'query', maxLimit: MAX_PLANS_PAGE, filter: true },
    },
    getPlan: {
      method: 'GET',
      path: '/v2/plans/{id}',
      summary: 'Get one plan (archived and hidden ones too)',
      request: () => z.looseObject({ id: input().Id }),
      reply: replies.PlanReply,
    },
    listPlans: {
      method: 'GET',
      path: '/v2/plans',
      summary: 'Plans by archived state (default ACTIVE) and visibility (default PUBLIC_AND_HIDDEN), by offset',
      request: () => z.looseObject({ archived: z.optional(z.enum(ArchivedFilterValues)), public: z.optional(z.enum(PublicFilterValues)), ...listParams() }),
      reply: replies.PlansReply,
      paging: { kind: 'offset', items: 'plans', maxLimit: MAX_PLANS_PAGE, filter: false, unsorted: true },
    },
    getPlanStats: {
      method: 'GET',
      path: '/v2/plans/stats',
      summary: 'How many plans the site has (active and archived)',
      request: () => z.looseObject({}),
      reply: replies.PlanStatsReply,
    },
    createPlan: {
      method: 'POST',
      path: '/v2/plans',
      summary: 'Create a plan (public, not primary, not archived)',
      request: () => z.looseObject({ plan: input().PlanCreate }),
      reply: replies.PlanReply,
    },
    updatePlan: {
      method: 'PATCH',
      path: '/v2/plans/{plan.id}',
      summary: 'Change the fields sent (or those of the field mask) of a plan that is not archived',
      request: () => z.looseObject({ plan: input().PlanPatch, fieldMask: z.optional(input().FieldMaskInput) }),
      reply: replies.PlanReply,
    },
    setPlanVisibility: {
      method: 'PUT',
      path: '/v2/plans/{id}/visibility',
      summary: 'Show a plan on the site or hide it (a hidden plan is no longer primary)',
      request: () => z.looseObject({ id: input().Id, visible: z.boolean() }),
      reply: replies.PlanReply,
      idempotent: true,
    },
    makePlanPrimary: {
      method: 'POST',
      path: '/v2/plans/{id}/make-primary',
      summary: 'Highlight a public, active plan (the previous primary plan stops being primary)',
      request: () => z.looseObject({ id: input().Id }),
      reply: replies.PlanReply,
      idempotent: true,
    },
    clearPrimary: {
      method: 'POST',
      path: '/v2/plans/clear-primary',
      summary: 'No plan is primary any more',
      request: () => z.looseObject({}),
      reply: () => EmptyReply,
      idempotent: true,
    },
    archivePlan: {
      method: 'POST',
      path: '/v2/plans/{id}/archive',
      summary: 'Archive a plan: it can no longer be bought, changed or made primary; its orders go on',
      request: () => z.looseObject({ id: input().Id }),
      reply: replies.PlanReply,
    },
  },
});

/** One typed call per plans operation: `plans.getPlan(api, {id})`. */
export const plans = callsOf(plansFamily);
/** The plans operations, by SDK method name. */
export const planOps = plansFamily.operations;
