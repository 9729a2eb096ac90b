/**
 * The staff members query (Staff Members v1, `POST /bookings/v1/staff-members/query`): the site's staff as
 * seeded (name, e-mail, phone, description, image, resource id), filtered with the platform's query language
 * and cursor-paged (default 50, at most 100), ordered by name unless the query sorts.
 */
import { staffMembersFamily } from '../../api/staff-members.js';
import { runSearch } from '../query/index.js';
import { serve } from '../serve.js';
import { catalogOf } from './model.js';

/** Every staff members operation, served. */
export const staffMembersServed = serve(staffMembersFamily, {
  queryStaffMembers(ctx) {
    const all = [...catalogOf(ctx).staff.all()]
      .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.id.localeCompare(b.id))
      .map(({ workingHours: _hours, timeOff: _off, ...member }) => member);
    const query = ctx.body.query ?? {};
    const page = runSearch(all, { ...query, cursorPaging: { limit: 50, ...query.cursorPaging } }, 'query');
    return { staffMembers: page.items, pagingMetadata: page.pagingMetadata };
  },
});
