/**
 * Staff names for a service's readable view: a service names its staff by id, so the staff members behind a
 * page of services are read in one staff query per 100 ids and kept for the session (services/shared/staff-cache.ts
 * holds the cache the view's rows read).
 */
import type { ApiClient } from '../../../api/client.js';
import { items, listPages } from '../../../api/paging.js';
import type { Service } from '../../../api/schemas/service.js';
import { MAX_STAFF_PAGE, staffMembersFamily } from '../../../api/staff-members.js';
import { knownStaff, rememberStaff, staffIdsOf } from './staff-cache.js';

/**
 * Reads the names of the staff of `services` not read before this session. A failed read leaves the ids as
 * they are (the view shows them), to be tried again with the next service.
 */
export async function lookupStaff(api: ApiClient, services: readonly Service[], signal: AbortSignal): Promise<void> {
  const ids = [...new Set(services.flatMap(staffIdsOf).filter((id) => knownStaff(id) === undefined))];
  for (let i = 0; i < ids.length; i += MAX_STAFF_PAGE) {
    const chunk = ids.slice(i, i + MAX_STAFF_PAGE);
    try {
      for await (const s of items(listPages(api, staffMembersFamily.operations.queryStaffMembers, { filter: { id: { $in: chunk } }, pageSize: MAX_STAFF_PAGE, signal }))) {
        if (s.id && s.name) rememberStaff(s.id, s.name);
      }
    } catch (err) {
      if (signal.aborted) throw err;
      return;
    }
  }
}
