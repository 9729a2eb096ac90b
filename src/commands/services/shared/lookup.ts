/**
 * A service as the user names it on the command line (availability, bookings, multi-service bookings): its id,
 * a unique id prefix, or its exact name (any case). Names are what people remember ("Swedish Massage").
 */
import type { ApiClient } from '../../../api/client.js';
import { listPages } from '../../../api/paging.js';
import { suggest } from '../../../api/schemas/introspect.js';
import type { Service } from '../../../api/schemas/service.js';
import { services, serviceOps } from '../../../api/services.js';
import type { Context } from '../../../context.js';
import { UserError } from '../../../core/errors.js';
import { oneLine } from '../../../core/text.js';
import { isIdPrefix } from '../../shared/ids.js';
import { idOf } from '../../shared/verbs.js';
import { SERVICE_VIEW } from './view.js';

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The service `given` names.
 * @throws UserError (exit 2) when no service has that id, prefix or name (with the closest name as a hint), or
 *   when a prefix or name is ambiguous; ApiError 404 for a full id that does not exist
 */
export async function serviceOf(ctx: Context, api: ApiClient, given: string): Promise<Service> {
  if (FULL_ID.test(given) || isIdPrefix(given)) {
    try {
      const id = await idOf(ctx, api, SERVICE_VIEW, given);
      return (await services.getService(api, { serviceId: id }, { signal: ctx.signal })).service;
    } catch (err) {
      // A hex-looking name ("Face 2025") that is no id prefix: try it as a name below.
      if (!(err instanceof UserError) || FULL_ID.test(given)) throw err;
    }
  }
  // The exact name first (one query); then any case, over every page (a small catalogue's names).
  const matches: Service[] = [];
  for await (const page of listPages(api, serviceOps.queryServices, { filter: { name: given }, signal: ctx.signal })) matches.push(...page.items);
  const names: string[] = [];
  if (matches.length === 0) {
    const wanted = given.trim().toLowerCase();
    for await (const page of listPages(api, serviceOps.queryServices, { signal: ctx.signal })) {
      for (const s of page.items) {
        if (s.name?.trim().toLowerCase() === wanted) matches.push(s);
        else if (s.name) names.push(s.name);
      }
    }
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    const guess = suggest(given.trim(), names);
    throw new UserError(`no service has the id or name '${oneLine(given)}'`, guess ? `did you mean '${oneLine(guess)}'?` : `'${ctx.bin} services list' shows them`);
  }
  throw new UserError(`${matches.length} services are named '${oneLine(given)}'`, `give the id: ${matches.map((m) => m.id).join(', ')}`);
}

/**
 * The staff member `given` names among those who give `service` (`service.staffMemberIds`): a full id or a unique
 * prefix of at least 4 characters. The platform offers no staff query to the families this tool covers, so names
 * are not matched here; availability lists each slot's staff member with name and id.
 * @throws UserError (exit 2) when no staff member of the service matches, or a prefix matches several
 */
export function staffOf(ctx: Context, service: Service, given: string): string {
  const ids = service.staffMemberIds ?? [];
  const wanted = given.trim().toLowerCase();
  const exact = ids.find((id) => id.toLowerCase() === wanted);
  if (exact) return exact;
  const found = isIdPrefix(wanted) ? ids.filter((id) => id.toLowerCase().startsWith(wanted)) : [];
  if (found.length === 1) return found[0]!;
  const name = oneLine(service.name ?? service.id);
  if (found.length > 1) throw new UserError(`--staff '${oneLine(given)}' matches ${found.length} staff members of "${name}"`, `give more of the id: ${found.join(', ')}`);
  throw new UserError(
    `--staff '${oneLine(given)}' is not a staff member of "${name}"`,
    ids.length ? `its staff: ${ids.join(', ')} ('${ctx.bin} availability SERVICE --json' shows their names)` : `"${name}" has no staff members`,
  );
}
