/**
 * The account's sites (docs/catalogue.md "Sites of an account"; docs/wire.md §2): the account-level Query Sites call,
 * `POST /site-list/v2/sites/query` with `{query: {filter?, cursorPaging}}`, answered `{sites: [{id, name,
 * displayName, createdDate, updatedDate, ...}], pagingMetadata}`. It carries `wix-account-id`, not
 * `wix-site-id` (`accountLevel`). `--site NAME` and `sitectl sites list` read it; the emulator serves it from
 * its account's sites.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { CursorPaging, isoDate, PagingMetadata } from './schemas/common.js';

/** Largest page of the sites query (the platform serves at most 1,000 sites in all). */
export const MAX_SITES_PAGE = 100;

/** A site of the account as the sites query answers it (the platform adds more fields: kept as they come). */
export const Site = z.looseObject({
  id: z.string(),
  name: z.optional(z.nullable(z.string())),
  displayName: z.optional(z.nullable(z.string())),
  createdDate: z.optional(z.nullable(isoDate)),
  updatedDate: z.optional(z.nullable(isoDate)),
});
export type Site = z.infer<typeof Site>;

/** The sites family table (one account-level operation). */
export const sitesFamily = defineFamily({
  name: 'sites',
  prefixes: [{ proto: '/v2/sites', urls: ['/site-list/v2/sites'] }],
  operations: {
    querySites: {
      method: 'POST',
      path: '/v2/sites/query',
      summary: 'The sites of the account (account-level: wix-account-id)',
      request: () =>
        z.looseObject({
          query: z.optional(
            z.looseObject({
              filter: z.optional(z.record(z.string(), z.unknown())),
              cursorPaging: z.optional(CursorPaging),
            }),
          ),
        }),
      reply: () => z.looseObject({ sites: z.array(Site), pagingMetadata: z.optional(PagingMetadata) }),
      paging: { kind: 'cursor', items: 'sites', wrapper: 'query', maxLimit: MAX_SITES_PAGE, filter: true },
      accountLevel: true,
      idempotent: true,
    },
  },
});

/** Typed calls of the sites family: `sites.querySites(api, {query})`. */
export const sites = callsOf(sitesFamily);
