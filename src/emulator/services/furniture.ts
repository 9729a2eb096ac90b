/**
 * Creating categories (`POST /bookings/v2/categories`) and booking policies (`POST /bookings/v1/booking-policies`)
 * of a site. A new category goes last in the sort order; a new policy takes the platform's defaults for every rule
 * it does not give (no booking window limits, free cancellation and rescheduling, no waitlist, one participant
 * per booking) and is never the default policy.
 */
import { randomUUID } from 'node:crypto';
import { bookingPoliciesFamily, categoriesFamily } from '../../api/service-furniture.js';
import { runSearch } from '../query/index.js';
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

/** The booking policies family, served. */
export const bookingPoliciesServed = serve(bookingPoliciesFamily, {
  createBookingPolicy(ctx) {
    const { id: _id, revision: _rev, default: _default, createdDate: _c, updatedDate: _u, ...given } = ctx.body.bookingPolicy as Record<string, unknown> & { name: string };
    const bookingPolicy = catalogOf(ctx).policies.insert({ ...POLICY_DEFAULTS, ...given, id: randomUUID(), name: String(given.name).trim(), default: false });
    return { bookingPolicy };
  },
});
