/**
 * Creating categories (`POST /bookings/v2/categories`) and booking policies (`POST /bookings/v1/booking-policies`,
 * also get, update, delete and set-default) of a site. A new category goes last in the sort order; a new policy takes the platform's defaults for every rule
 * it does not give (no booking window limits, free cancellation and rescheduling, no waitlist, one participant
 * per booking) and is never the default policy.
 */
import { randomUUID } from 'node:crypto';
import { bookingPoliciesFamily, categoriesFamily } from '../../api/service-furniture.js';
import { runSearch } from '../query/index.js';
import { ApplicationFailure } from '../errors.js';
import { serve } from '../serve.js';
import { catalogOf } from './model.js';

/** Rules of a new booking policy that its request leaves out. */
const POLICY_DEFAULTS = {
  customPolicyDescription: { enabled: false, description: '' },
  limitEarlyBookingPolicy: { enabled: false },
  limitLateBookingPolicy: { enabled: false },
  bookAfterStartPolicy: { enabled: false },
  cancellationPolicy: { enabled: false, limitLatestCancellation: false, latestCancellationInMinutes: 0 },
  reschedulePolicy: { enabled: false, limitLatestReschedule: false, latestRescheduleInMinutes: 0 },
  waitlistPolicy: { enabled: false, capacity: 0, reservationTimeInMinutes: 10 },
  participantsPolicy: { enabled: true, maxParticipantsPerBooking: 1 },
};

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

/** The stored policy without the fields a request may not set. */
function givenRules(policy: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, revision: _rev, default: _default, createdDate: _c, updatedDate: _u, ...given } = policy;
  return given;
}

/**
 * The booking policies family, served. Each write records the seed's policy events (docs/bookings.md "Statuses": created,
 * updated, deleted, default policy set): `booking_policy.created`, `booking_policy.updated`,
 * `booking_policy.deleted`, `booking_policy.default_set` (with the new default; the previous default's change is
 * `booking_policy.updated`). Deleting a policy moves its
 * services to the default policy (`service.updated` each); the default policy cannot be deleted (428).
 */
export const bookingPoliciesServed = serve(bookingPoliciesFamily, {
  createBookingPolicy(ctx) {
    const given = givenRules(ctx.body.bookingPolicy as Record<string, unknown>);
    const bookingPolicy = catalogOf(ctx).policies.insert({ ...POLICY_DEFAULTS, ...given, id: randomUUID(), name: String(given.name).trim(), default: false });
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
    const next = { ...current, ...given, ...(typeof given.name === 'string' ? { name: given.name.trim() } : {}) };
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
});
