/**
 * Categories (`/bookings/v2/categories`: create, get, update, delete, count, move) and booking policies (`POST /bookings/v1/booking-policies`,
 * also get, update, delete and set-default) of a site. A new category goes last in the sort order; a new policy takes the platform's defaults for every rule
 * it does not give (no booking window limits, free cancellation and rescheduling, no waitlist, one participant
 * per booking) and is never the default policy.
 */
import { randomUUID } from 'node:crypto';
import { bookingPoliciesFamily, categoriesFamily } from '../../api/service-furniture.js';
import { runCount, runSearch } from '../query/index.js';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import { serve } from '../serve.js';
import { type BookingPolicyDoc, type Catalog, type CategoryDoc, catalogOf, type ServiceDoc } from './model.js';
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
  getCategory(ctx) {
    return { category: catalogOf(ctx).categories.require(ctx.body.categoryId) };
  },
  updateCategory(ctx) {
    const cat = catalogOf(ctx);
    const { id, revision, name } = ctx.body.category;
    const current = cat.categories.require(id);
    const category = cat.categories.update({ ...current, ...(name !== undefined ? { name: name.trim() } : {}) }, { expectedRevision: String(revision) });
    // The services of the category show its name (rules.ts normalize embeds it): they follow a rename.
    if (category.name !== current.name) {
      // The category's services first (one service parsed at a time), then their updates.
      const named: ServiceDoc[] = [];
      for (const service of cat.services.all()) if ((service.category as { id?: string } | undefined)?.id === id) named.push(service);
      for (const service of named) cat.services.update({ ...service, category: { ...(service.category as object), id, name: category.name } });
    }
    return { category };
  },
  deleteCategory(ctx) {
    // Its services keep naming it (the module's docs: they stay associated, hidden from customers, and an update
    // of one fails until it names an existing category: rules.ts refuses a category id that does not exist).
    catalogOf(ctx).categories.delete(ctx.body.categoryId);
    return {};
  },
  countCategories(ctx) {
    return { count: runCount([...catalogOf(ctx).categories.all()], ctx.body.filter ?? undefined) };
  },
  moveCategory(ctx) {
    return { category: moveCategory(catalogOf(ctx).categories, ctx.body) };
  },
});

/**
 * Moves a category FIRST, LAST (the default) or AFTER_CATEGORY `afterCategoryId`, by giving it a `sortOrder`
 * between its new neighbours: a whole number when there is one between them, else their midpoint. Only the moved
 * category changes (the platform reassigns other categories' values when gaps become too small; the emulator never
 * needs to, so no other category's revision moves; docs/wire.md §14 "Categories").
 * @throws ValidationFailure for AFTER_CATEGORY without `afterCategoryId` or after itself; 404 for an unknown category
 */
function moveCategory(categories: Catalog['categories'], body: { categoryId: string; position?: string; afterCategoryId?: string | null }): CategoryDoc {
  const moving = categories.require(body.categoryId);
  const position = body.position ?? 'LAST';
  const others = [...categories.all()].filter((c) => c.id !== moving.id).sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0) || a.id.localeCompare(b.id));
  let at = others.length;
  if (position === 'FIRST') at = 0;
  if (position === 'AFTER_CATEGORY') {
    if (!body.afterCategoryId) throw ValidationFailure.field('afterCategoryId', 'is required with position AFTER_CATEGORY', 'REQUIRED_FIELD');
    if (body.afterCategoryId === moving.id) throw ValidationFailure.field('afterCategoryId', 'must be another category than the one moved');
    categories.require(body.afterCategoryId);
    at = others.findIndex((c) => c.id === body.afterCategoryId) + 1;
  }
  const before = others[at - 1]?.sortOrder ?? (at > 0 ? 0 : undefined);
  const after = others[at]?.sortOrder ?? (at < others.length ? 0 : undefined);
  let sortOrder: number;
  if (before === undefined) sortOrder = after === undefined ? 0 : after - 1;
  else if (after === undefined) sortOrder = before + 1;
  else sortOrder = after - before >= 2 ? before + Math.floor((after - before) / 2) : (before + after) / 2;
  return categories.update({ ...moving, sortOrder });
}

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
    const governed: ServiceDoc[] = [];
    for (const service of cat.services.all()) if (service.bookingPolicy?.id === policy.id) governed.push(service);
    for (const service of governed) {
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
