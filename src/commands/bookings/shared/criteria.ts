/**
 * The selection flags of `bookings list` and of the bulk status actions: `--status`, `--service` (id, prefix or
 * name), `--from`/`--to` or `--days` (start date range, in `--tz` or the site's zone), `--contact` (e-mail or
 * contact id).
 * They become one filter in the booking's JSON paths (sent in the platform's documented form by the view).
 */
import type { Command } from 'commander';
import { BookingStatusValues } from '../../../api/schemas/booking.js';
import type { Filter } from '../../../api/schemas/common.js';
import type { Context } from '../../../context.js';
import { UserError } from '../../../core/errors.js';
import { choicesOf } from '../../shared/choices.js';
import { serviceOf } from '../../services/shared/lookup.js';
import { parseCount } from '../../../core/numbers.js';
import { needsZone, parseWhen, plusCalendarDays, siteZone, tzFlag } from '../../shared/time.js';
import { enumOption } from '../../../core/flag-values.js';

export interface CriteriaFlags {
  status?: string;
  service?: string;
  from?: string;
  to?: string;
  days?: string;
  contact?: string;
  tz?: string;
}

/** Declares the selection flags (and `--tz`, which also sets the zone times are shown in). */
export function addCriteriaFlags(cmd: Command): Command {
  return enumOption(cmd, '--status <list>', `bookings in these statuses, comma-separated (${BookingStatusValues.join(', ')})`, BookingStatusValues)
    .option('--service <service>', 'bookings of this service (id, id prefix or exact name)')
    .option('--from <when>', 'bookings starting at or after (2026-11-24, 2026-11-24T09:00, an ISO instant, today, tomorrow, wed, now)')
    .option('--to <when>', 'bookings starting before')
    .option('--days <n>', 'bookings starting within N calendar days from --from (default now), on the clock of --tz or the site')
    .option('--contact <email|id>', "bookings of this contact (e-mail or contact id)")
    .option('--tz <zone>', "read --from/--to and show times in this IANA zone (default: the booking's own zone)");
}

/** Whether any selection flag was given. */
export function hasCriteria(o: CriteriaFlags): boolean {
  return [o.status, o.service, o.from, o.to, o.days, o.contact].some((v) => v !== undefined);
}

/** The statuses of `--status`, checked. @throws UserError (exit 2) for an unknown status */
export function statusesOf(text: string): string[] {
  return choicesOf(text, BookingStatusValues, '--status');
}

/**
 * The filter the selection flags describe, or undefined when none was given. Flags that need no request are
 * checked first; `--service` and a zone-less `--from`/`--to` read the service and the site's zone.
 * @throws UserError (exit 2) for a bad status, date or zone; (exit 1) for an unknown service
 */
export async function criteriaFilter(o: CriteriaFlags, ctx: Context): Promise<Filter | undefined> {
  const parts: Filter[] = [];
  const tz = tzFlag(o.tz);
  const statuses = o.status !== undefined ? statusesOf(o.status) : undefined;
  if (statuses) parts.push({ status: statuses.length === 1 ? statuses[0] : { $in: statuses } });
  if (o.contact !== undefined) parts.push(o.contact.includes('@') ? { 'contactDetails.email': o.contact } : { 'contactDetails.contactId': o.contact });
  if (o.to !== undefined && o.days !== undefined) throw new UserError('use either --to or --days');
  const days = o.days !== undefined ? parseCount(o.days, '--days', 1, 366) : undefined;
  if (o.from !== undefined || o.to !== undefined || days !== undefined) {
    const zone = tz ?? (needsZone(o.from) || needsZone(o.to) || days !== undefined ? await siteZone(ctx, await ctx.api()) : 'UTC');
    const range: Record<string, string> = {};
    const now = ctx.now().getTime();
    const from = o.from !== undefined ? parseWhen(o.from, zone, '--from', now) : days !== undefined ? now : undefined;
    const to = o.to !== undefined ? parseWhen(o.to, zone, '--to', now) : days !== undefined ? plusCalendarDays(from!, days, zone) : undefined;
    if (from !== undefined && to !== undefined && to <= from) throw new UserError('--to must be after --from');
    if (from !== undefined) range.$gte = new Date(from).toISOString();
    if (to !== undefined) range.$lt = new Date(to).toISOString();
    parts.push({ startDate: range });
  }
  if (o.service !== undefined) {
    const service = await serviceOf(ctx, await ctx.api(), o.service);
    parts.push(service.type === 'COURSE' ? { 'bookedEntity.schedule.serviceId': service.id } : { 'bookedEntity.slot.serviceId': service.id });
  }
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { $and: parts };
}
