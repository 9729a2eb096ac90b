/**
 * The buyers of orders as people: each order names its buyer by member id only, so the members behind a page of
 * orders are read in one members query per 100 ids (id `$in`, FULL fieldset) and kept for the session
 * (orders/shared/buyer-cache.ts holds the cache the view's columns read).
 */
import type { ApiClient } from '../../../api/client.js';
import { invoke } from '../../../api/family.js';
import { memberOps } from '../../../api/members.js';
import type { Filter } from '../../../api/schemas/common.js';
import { UserError } from '../../../core/errors.js';
import { items, listPages } from '../../../api/paging.js';
import type { Order } from '../../../api/schemas/order.js';
import { memberName } from '../../members/shared/view.js';
import { knownBuyer, rememberBuyer } from './buyer-cache.js';

/** Members the buyer search takes at most: one members page (the orders list is then asked for their orders). */
export const MAX_SEARCHED_BUYERS = 100;

/**
 * The text search of the orders list (EntityView.textSearch): the members the members' search finds for `text`
 * (names, nickname, login e-mail; `members list --search`), as the filter `buyer.memberId $in` (sent as
 * `buyerIds`); none found: an `$in` of nothing, which lists nothing. They are kept as known buyers.
 * @throws UserError when more than {@link MAX_SEARCHED_BUYERS} members match (type more of the name)
 */
export async function buyersMatching(api: ApiClient, text: string, signal: AbortSignal): Promise<{ filter: Filter }> {
  const { members: found, metadata } = await invoke(api, memberOps.queryMembers, { query: { paging: { limit: MAX_SEARCHED_BUYERS } }, search: { expression: text }, fieldsets: ['FULL'] }, { signal });
  const list = found ?? [];
  if ((metadata?.total ?? list.length) > MAX_SEARCHED_BUYERS) throw new UserError(`more than ${MAX_SEARCHED_BUYERS} members match "${text}": type more of the buyer's name or e-mail`);
  for (const m of list) rememberBuyer(m.id, { name: memberName(m), email: m.loginEmail ?? m.contact?.emails?.[0] ?? '' });
  return { filter: { 'buyer.memberId': { $in: list.map((m) => m.id) } } };
}

/** Ids per members query. */
const BATCH = 100;

/**
 * Reads the buyers of `orders` not read before this session, in batches; a member that is not found is kept as
 * unknown (the columns then show the member id). A failed read leaves the ids unread, to be tried with the next
 * page: the orders still show.
 */
export async function lookupBuyers(api: ApiClient, orders: readonly Order[], signal: AbortSignal): Promise<void> {
  const ids = [...new Set(orders.map((o) => o.buyer?.memberId).filter((id): id is string => typeof id === 'string' && id !== '' && knownBuyer(id) === undefined))];
  for (let i = 0; i < ids.length; i += BATCH) {
    const chunk = ids.slice(i, i + BATCH);
    try {
      for await (const m of items(listPages(api, memberOps.queryMembers, { filter: { id: { $in: chunk } }, params: { fieldsets: ['FULL'] }, pageSize: BATCH, signal }))) {
        rememberBuyer(m.id, { name: memberName(m), email: m.loginEmail ?? m.contact?.emails?.[0] ?? '' });
      }
      for (const id of chunk) if (knownBuyer(id) === undefined) rememberBuyer(id, null);
    } catch (err) {
      if (signal.aborted) throw err;
      return;
    }
  }
}
