/**
 * The account-level sites query (docs/catalogue.md "Sites of an account"): the emulated account's sites, oldest first, each with
 * `name` and `displayName` (the emulator keeps one name), filtered with the platform's query language and
 * cursor-paged (default 50, at most 100). A request carries `wix-account-id` (or any site of the account in `wix-site-id`).
 */
import { sitesFamily } from '../../api/sites.js';
import { runSearch } from '../query/index.js';
import { serve } from '../serve.js';

/** Every sites operation, served. */
export const sitesServed = serve(sitesFamily, {
  querySites(ctx) {
    const all = ctx.store.sites().map((s) => ({ id: s.id, name: s.name, displayName: s.name, createdDate: s.createdDate, updatedDate: s.createdDate }));
    const query = ctx.body.query ?? {};
    const page = runSearch(all, { ...query, cursorPaging: { limit: 50, ...query.cursorPaging } }, 'query');
    return { sites: page.items, pagingMetadata: page.pagingMetadata };
  },
});
