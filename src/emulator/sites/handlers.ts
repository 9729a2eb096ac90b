/**
 * The account-level sites query (issue 10 section 1): the emulated account's sites, oldest first, each with
 * `name` and `displayName` (the emulator keeps one name), filtered by `id` or `name` (`$eq`/`$in` or a plain
 * value) and cursor-paged. A request carries `wix-account-id` (or any site of the account in `wix-site-id`).
 */
import { sitesFamily, MAX_SITES_PAGE } from '../../api/sites.js';
import { ValidationFailure } from '../errors.js';
import { serve } from '../serve.js';

type Cond = unknown;

/** Whether `value` meets one filter condition: a plain value, `{$eq}` or `{$in: [...]}`. */
function meets(value: string, cond: Cond): boolean {
  if (cond !== null && typeof cond === 'object' && !Array.isArray(cond)) {
    const c = cond as { $eq?: unknown; $in?: unknown };
    if (c.$eq !== undefined) return value === c.$eq;
    if (Array.isArray(c.$in)) return c.$in.includes(value);
    throw ValidationFailure.field('query.filter', 'sites filter by id or name with a value, $eq or $in', 'INVALID');
  }
  return value === cond;
}

/** Every sites operation, served. */
export const sitesServed = serve(sitesFamily, {
  querySites(ctx) {
    const filter = (ctx.body.query?.filter ?? {}) as Record<string, Cond>;
    for (const key of Object.keys(filter)) {
      if (key !== 'id' && key !== 'name' && key !== 'displayName') throw ValidationFailure.field(`query.filter.${key}`, 'sites filter by id or name', 'INVALID');
    }
    const all = ctx.store
      .sites()
      .map((s) => ({ id: s.id, name: s.name, displayName: s.name, createdDate: s.createdDate, updatedDate: s.createdDate }))
      .filter((s) => Object.entries(filter).every(([k, cond]) => meets(k === 'id' ? s.id : s.name, cond)));
    const paging = ctx.body.query?.cursorPaging;
    const limit = Math.min(MAX_SITES_PAGE, Math.max(1, paging?.limit ?? 50));
    const offset = paging?.cursor ? Number.parseInt(Buffer.from(paging.cursor, 'base64url').toString('utf8'), 10) : 0;
    if (!Number.isInteger(offset) || offset < 0) throw ValidationFailure.field('query.cursorPaging.cursor', 'cursor is not valid', 'INVALID_CURSOR');
    const page = all.slice(offset, offset + limit);
    const hasNext = offset + page.length < all.length;
    return {
      sites: page,
      pagingMetadata: { count: page.length, cursors: { next: hasNext ? Buffer.from(String(offset + page.length)).toString('base64url') : null }, hasNext },
    };
  },
});
