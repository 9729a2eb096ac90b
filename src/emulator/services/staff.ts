/**
 * The staff members query (Staff Members v1, `POST /bookings/v1/staff-members/query`): the site's staff as
 * seeded (name, e-mail, phone, description, image, resource id), filtered with the platform's query language
 * and cursor-paged by position (default 50, at most 100), ordered by name.
 */
import { MAX_STAFF_PAGE, staffMembersFamily } from '../../api/staff-members.js';
import { ValidationFailure } from '../errors.js';
import { compileFilter } from '../query/index.js';
import { serve } from '../serve.js';
import { catalogOf } from './model.js';

/** Every staff members operation, served. */
export const staffMembersServed = serve(staffMembersFamily, {
  queryStaffMembers(ctx) {
    const predicate = compileFilter(ctx.body.query?.filter, 'query.filter');
    const all = [...catalogOf(ctx).staff.all()]
      .filter(predicate)
      .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.id.localeCompare(b.id))
      .map(({ workingHours: _hours, timeOff: _off, ...member }) => member);
    const paging = ctx.body.query?.cursorPaging;
    const limit = Math.min(MAX_STAFF_PAGE, Math.max(1, paging?.limit ?? 50));
    const offset = paging?.cursor ? Number.parseInt(Buffer.from(paging.cursor, 'base64url').toString('utf8'), 10) : 0;
    if (!Number.isInteger(offset) || offset < 0) throw ValidationFailure.field('query.cursorPaging.cursor', 'cursor is not valid', 'INVALID_CURSOR');
    const page = all.slice(offset, offset + limit);
    const hasNext = offset + page.length < all.length;
    return {
      staffMembers: page,
      pagingMetadata: { count: page.length, cursors: { next: hasNext ? Buffer.from(String(offset + page.length)).toString('base64url') : null }, hasNext },
    };
  },
});
