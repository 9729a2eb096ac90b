/**
 * Creating categories (`POST /bookings/v2/categories`) and booking policies (`POST /bookings/v1/booking-policies`,
 * also get, update, delete and set-default) of a site. A new category goes last in the sort order; a new policy takes the platform's defaults for every rule
 * it does not give (no booking window limits, free cancellation and rescheduling, no waitlist, one participant
 * per booking) and is never the default policy.
 */
import { randomUUID } from 'node:crypto';
import { bookingPoliciesFamily, categoriesFamily } from '../../api/service-furniture.js';
import { runCount, runSearch } from '../query/index.js';
import { ApplicationFailure } from '../errors.js';
import { serve } from '../serve.js';
import { type BookingPolicyDoc, catalogOf } from './model.js';
import { parseMask } from './rules.js';
import { checkPolicyRules, givenRules, strictestPolicy, updatedPolicy, withPolicyDefaults } from './policy-rules.js';

/** Default page of the booking policies query (the SDK's query builder: `limit` is 50). */
const DEFAULT_POLICIES_PAGE = 50;

/** The categories family, served. */
export const categoriesServed = serve(categoriesFamily, {
  queryCategories(ctx) {
    const query = ctx.body.query ?? {};
    const page = runSearch([...catalogOf(ctx).categories.all()], { ...query, cursorPaging: { limit: 50, ...query.cursorPaging } }, 'query');
    return { categories: page.items, pagingMetadata: page.pagingMetadata };
  },
  createCategory(ctx) {
    const c = catalogOf(ctx).categories;
    const last = Math.max(-1, ...[...c.all()].map((x) => x.sortOrder ?? 0));
    const category = c.insert({ id: randomUUID(), name: ctx.body.category.name.trim(), sortOrder: ctx.body.category.sortOrder ?? last + 1 });
    return { category };
  },
});

/**
 * The booking policies family, served. Each write records the seed's policy events (docs/bookings.md "Statuses": created,
 * updated, deleted, default policy set): `booking_policy.created`, `booking_policy.updated`,
 * `booking_policy.deleted`, `booking_policy.default_set` (with the new default; the previous default's change is
 * `booking_policy.updated`). Deleting a policy moves its
 * services to the default policy (`service.updated` each); the default policy cannot be deleted (428). Create
 * and update merge deeply and keep the policy rules (policy-rules.ts checkPolicyRules: 400 with the module's
 * rule names). The query pages 50 by default, in creation order unless sorted; the strictest policy of unknown
 * ids is 404 `BOOKING_POLICY_NOT_FOUND`.
 */
export const bookingPoliciesServed = serve(bookingPoliciesFamily, {
  createBookingPolicy(ctx) {
    const given = givenRules(ctx.body.bookingPolicy as Record<string, unknown>);
    const rules = withPolicyDefaults(given);
    checkPolicyRules(rules, given);
    const bookingPolicy = catalogOf(ctx).policies.insert({ id: randomUUID(), ...rules, name: String(given.name).trim(), default: false } as BookingPolicyDoc);
    return { bookingPolicy };
  },
  getBookingPolicy(ctx) {
    return { bookingPolicy: catalogOf(ctx).policies.require(ctx.body.bookingPolicyId) };
  },
  updateBookingPolicy(ctx) {
    const policies = catalogOf(ctx).policies;
    const { id, revision } = ctx.body.bookingPolicy;
    const current = policies.require(id);
    const given = givenRules(ctx.body.bookingPolicy as Record<string, unknown>);
    const mask = parseMask((ctx.body as { mask?: string }).mask);
    const merged = updatedPolicy(current as Record<string, unknown>, given, mask);
    checkPolicyRules(merged, given);
    const next = { ...merged, ...(typeof merged.name === 'string' ? { name: merged.name.trim() } : {}) } as BookingPolicyDoc;
    return { bookingPolicy: policies.update(next, { expectedRevision: String(revision) }) };
  },
  deleteBookingPolicy(ctx) {
    const cat = catalogOf(ctx);
    const policy = cat.policies.require(ctx.body.bookingPolicyId);
    if (policy.default) throw new ApplicationFailure(428, 'DEFAULT_POLICY_CANNOT_BE_DELETED', `booking policy ${policy.id} is the default policy: make another one the default first`, { bookingPolicyId: policy.id });
    const fallback = [...cat.policies.all()].find((p) => p.default);
    for (const service of [...cat.services.all()]) {
      if (service.bookingPolicy?.id !== policy.id) continue;
      cat.services.update({ ...service, bookingPolicy: fallback ? { ...service.bookingPolicy, id: fallback.id } : undefined } as never);
    }
    cat.policies.delete(policy.id);
    return {};
  },
  setDefaultBookingPolicy(ctx) {
    const policies = catalogOf(ctx).policies;
    const target = policies.require(ctx.body.bookingPolicyId);
    if (target.default) return { currentDefaultBookingPolicy: target };
    const before = [...policies.all()].find((p) => p.default);
    const previous = before ? policies.update({ ...before, default: false }) : undefined;
    const current = policies.update({ ...target, default: true }, { event: 'booking_policy.default_set' });
    return { currentDefaultBookingPolicy: current, ...(previous ? { previousDefaultBookingPolicy: previous } : {}) };
  },
  queryBookingPolicies(ctx) {
    const query = ctx.body.query ?? {};
    const page = runSearch([...catalogOf(ctx).policies.all()], { ...query, cursorPaging: { limit: DEFAULT_POLICIES_PAGE, ...query.cursorPaging } }, 'query');
    return { bookingPolicies: page.items, pagingMetadata: page.pagingMetadata };
  },
  countBookingPolicies(ctx) {
    return { count: runCount(catalogOf(ctx).policies.all(), ctx.body.filter, 'filter') };
  },
  getStrictestBookingPolicy(ctx) {
    const policies = catalogOf(ctx).policies;
    const found = [...new Set(ctx.body.bookingPolicyIds)].map((id) => policies.require(id) as Record<string, unknown>);
    return { bookingPolicy: strictestPolicy(found) };
  },
});
