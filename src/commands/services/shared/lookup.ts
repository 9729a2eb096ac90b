/**
 * A service as the user names it on the command line (availability, bookings, multi-service bookings): its id,
 * a unique id prefix, or its exact name (any case). Names are what people remember ("Swedish Massage").
 */
import type { ApiClient } from '../../../api/client.js';
import { listPages } from '../../../api/paging.js';
import type { Service } from '../../../api/schemas/service.js';
import { services, serviceOps } from '../../../api/services.js';
import type { Context } from '../../../context.js';
import { ExitCode, UserError } from '../../../core/errors.js';
import { oneLine } from '../../../core/text.js';
import { isIdPrefix } from '../../shared/ids.js';
import { idOf } from '../../shared/verbs.js';
import { SERVICE_VIEW } from './view.js';

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The service `given` names.
 * @throws UserError exit 1 when no service has that id, prefix or name; exit 2 when a prefix or name is ambiguous
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
  if (matches.length === 0) {
    const wanted = given.trim().toLowerCase();
    for await (const page of listPages(api, serviceOps.queryServices, { signal: ctx.signal })) {
      for (const s of page.items) if (s.name?.trim().toLowerCase() === wanted) matches.push(s);
    }
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new UserError(`no service has the id or name '${oneLine(given)}'`, `'${ctx.bin} services list' shows them`, ExitCode.Failure);
  throw new UserError(`${matches.length} services are named '${oneLine(given)}'`, `give the id: ${matches.map((m) => m.id).join(', ')}`);
}
