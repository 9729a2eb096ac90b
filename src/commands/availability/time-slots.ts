/**
 * `sitectl availability time-slots SERVICE [--from WHEN] [--to WHEN | --days N] [--staff ID]... [--bookable]
 * [--tz ZONE] [--per-day N] [--page-size N]` and `sitectl availability time-slot SERVICE START [--tz ZONE]
 * [--staff ID]...`: an appointment service's time slots through the Time Slots API (docs/wire.md "Time slots";
 * docs/manual/commands.md "availability"), beside the availability calendar (`availability SERVICE`). One row per start,
 * however many staff members are free then; dates are local to the zone of the reply, which the table names.
 *
 * Named `time-slots`, not `slots`: `slots` is the calendar's verb (and the noun's default), and Time Slots is the
 * platform's name for this API.
 */
import { TZDate } from '@date-fns/tz';
import type { Command } from 'commander';
import { format as formatDate } from 'date-fns/format';
import type { ApiClient } from '../../api/client.js';
import { TimeSlot as TimeSlotSchema, type TimeSlot } from '../../api/schemas/time-slot.js';
import type { Service } from '../../api/schemas/service.js';
import { timeSlots } from '../../api/time-slots.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { notice } from '../../core/log.js';
import { parseCount } from '../../core/numbers.js';
import { addFormatFlags, type Column, type FormatFlags, printRecords, printValue, resolveFormat, zoned } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { serviceOf, staffOf } from '../services/shared/lookup.js';
import { schemaChecker } from '../shared/fields.js';
import { parseWhen, siteZone, tzFlag } from '../shared/time.js';
import { rangeOf, rangeText } from './slots.js';

/** A time slot as printed: the platform's, with the reply's zone its local dates are on. */
export type ZonedTimeSlot = TimeSlot & { timeZone: string };

/** `YYYY-MM-DDThh:mm:ss` of an instant on `zone`'s clock (the Time Slots API's local dates). */
export function localDateTime(ms: number, zone: string): string {
  return formatDate(new TZDate(ms, zone), "yyyy-MM-dd'T'HH:mm:ss");
}

/** The instant of a time slot's local date on `zone`'s clock (undefined when it has none). */
function instantOf(local: string | null | undefined, zone: string): Date | undefined {
  return local ? new Date(parseWhen(local.slice(0, 19), zone, 'localStartDate')) : undefined;
}

/** Why a time slot cannot be booked, in words (empty when it can). */
export function whyNotBookable(s: TimeSlot): string {
  const v = s.bookingPolicyViolations ?? {};
  const out: string[] = [];
  if (s.nonBookableReasons?.noRemainingCapacity || (s.remainingCapacity ?? 0) <= 0) out.push('full');
  if (v.tooEarlyToBook) out.push('too early');
  if (v.tooLateToBook) out.push('too late');
  if (v.bookOnlineDisabled) out.push('online booking off');
  if (s.nonBookableReasons?.reservedForWaitingList) out.push('kept for the waiting list');
  if (s.nonBookableReasons?.eventCancelled) out.push('cancelled');
  return out.join(', ');
}

const staffNames = (s: TimeSlot): string => (s.availableResources ?? []).flatMap((r) => (r.resources ?? []).map((x) => x.name ?? x.id ?? '')).join(', ');

/** Table columns of time slots, times on their zone's clock. */
export function timeSlotColumns(): Column<ZonedTimeSlot>[] {
  return [
    { key: 'start', get: (s) => zoned(instantOf(s.localStartDate, s.timeZone), s.timeZone) },
    { key: 'end', get: (s) => zoned(instantOf(s.localEndDate, s.timeZone), s.timeZone, 'HH:mm') },
    { key: 'open', get: (s) => `${s.remainingCapacity ?? 0}/${s.totalCapacity ?? 0}`, align: 'right' },
    { key: 'bookable', get: (s) => (s.bookable ? 'yes' : 'no') },
    { key: 'why', header: 'WHY NOT', get: whyNotBookable, priority: 1 },
    { key: 'staff', get: staffNames, priority: 2 },
    { key: 'location', get: (s) => s.location?.name ?? s.location?.formattedAddress ?? s.location?.locationType ?? '', priority: 3 },
  ];
}

interface ListOptions extends FormatFlags {
  from?: string;
  to?: string;
  days?: string;
  staff?: string[];
  bookable?: boolean;
  tz?: string;
  perDay?: string;
  pageSize?: string;
}

interface GetOptions extends FormatFlags {
  staff?: string[];
  tz?: string;
}

/** `resourceTypes` of the staff members `--staff` names (ids or unique prefixes among the service's staff). */
function staffTypes(ctx: Context, service: Service, given: string[] | undefined) {
  return given?.length ? [{ resourceIds: given.map((g) => staffOf(ctx, service, g)) }] : undefined;
}

export function register(parent: Command, ctx: Context): void {
  const list = parent
    .command('time-slots')
    .description("An appointment service's time slots (the Time Slots API): one per start, with the staff free then")
    .argument('<service>', 'the appointment service (id, id prefix or exact name)')
    .option('--from <when>', 'from (2026-11-24, 2026-11-24T09:00 in --tz or the site’s zone, an ISO instant, today; default now)')
    .option('--to <when>', 'until (exclusive: slots starting before it)')
    .option('--days <n>', 'calendar days from --from, on the clock of --tz or the site (default 7)')
    .option('--staff <id>', 'only slots this staff member is free for (id or unique prefix; repeatable)', collect)
    .option('--bookable', 'only slots that can be booked now')
    .option('--tz <zone>', 'read and show times in this IANA zone (default: the site’s)')
    .option('--per-day <n>', 'at most this many slots per day (bookable ones first)')
    .option('--page-size <n>', 'slots per request (1-1000, default 1000); every page is fetched')
    .addHelpText('after', "\nExamples:\n  sitectl availability time-slots 'Swedish Massage' --days 7\n  sitectl availability time-slots 'Sports Massage' --from tomorrow --days 1 --bookable --json");
  addFormatFlags(list).action(async (service: string, o: ListOptions) => {
    await runList(ctx, service, o);
  });

  const get = parent
    .command('time-slot')
    .description('One time slot of an appointment service, with every staff member free then')
    .argument('<service>', 'the appointment service (id, id prefix or exact name)')
    .argument('<start>', 'its start (2026-11-24T09:00 in --tz or the site’s zone, an ISO instant, tomorrow 10:00)')
    .option('--staff <id>', 'only this staff member (id or unique prefix; repeatable)', collect)
    .option('--tz <zone>', 'read and show times in this IANA zone (default: the site’s)')
    .addHelpText('after', "\nExamples:\n  sitectl availability time-slot 'Swedish Massage' 'wed 14:15'\n  sitectl availability time-slot SERVICE_ID 'tomorrow 10:00' --json");
  addFormatFlags(get).action(async (service: string, start: string, o: GetOptions) => {
    await runGet(ctx, service, start, o);
  });
}

/**
 * Lists the time slots of [from, to), following the reply's cursor until the last page.
 * @throws UserError (exit 2) for bad flags or a service that is not an appointment; ApiError from the platform
 */
async function runList(ctx: Context, given: string, opts: ListOptions): Promise<void> {
  const format = resolveFormat(opts, schemaChecker(TimeSlotSchema, ctx.flags.allowUnknownFields), { columns: timeSlotColumns().map((c) => c.key) });
  const tz = tzFlag(opts.tz);
  const perDay = opts.perDay !== undefined ? parseCount(opts.perDay, '--per-day', 1, 1000) : undefined;
  const pageSize = opts.pageSize !== undefined ? parseCount(opts.pageSize, '--page-size', 1, 1000) : undefined;
  const api = await ctx.api();
  const zone = tz ?? (await siteZone(ctx, api));
  const [from, to] = rangeOf(opts, zone, ctx.now().getTime());
  const service = await appointment(ctx, api, given);
  const resourceTypes = staffTypes(ctx, service, opts.staff);
  const found: ZonedTimeSlot[] = [];
  let cursor: string | undefined;
  do {
    const paging = { ...(pageSize !== undefined ? { limit: pageSize } : {}), ...(cursor ? { cursor } : {}) };
    const reply = await timeSlots.listAvailabilityTimeSlots(
      api,
      cursor
        ? { cursorPaging: paging }
        : {
            serviceId: service.id,
            fromLocalDate: localDateTime(from, zone),
            toLocalDate: localDateTime(to, zone),
            timeZone: zone,
            ...(resourceTypes ? { resourceTypes } : {}),
            ...(opts.bookable ? { bookable: true } : {}),
            ...(perDay !== undefined ? { timeSlotsPerDay: perDay } : {}),
            ...(pageSize !== undefined ? { cursorPaging: paging } : {}),
          },
      { signal: ctx.signal },
    );
    const replyZone = reply.timeZone ?? zone;
    for (const s of reply.timeSlots) found.push({ ...s, timeZone: replyZone });
    cursor = reply.cursorPagingMetadata?.hasNext ? (reply.cursorPagingMetadata.cursors?.next ?? undefined) : undefined;
  } while (cursor);
  await printRecords(ctx.io, format, found, timeSlotColumns(), { now: ctx.now(), empty: `No ${opts.bookable ? 'bookable ' : ''}time slots found ${rangeText(from, to, zone)}.` });
  if (ctx.io.isStdoutTTY && format.kind === 'table' && found.length) {
    // printRecords has named the zone of the times already.
    notice(ctx.io, `${found.length} time slots of "${oneLine(service.name ?? '')}", ${found.filter((s) => s.bookable).length} bookable`);
  }
}

/**
 * Shows the time slot of `service` that starts at `start` (its length the service's; its location the service's
 * first), with every staff member free then.
 * @throws UserError (exit 2) for bad input; ApiError 404 SLOT_NOT_FOUND when no staff member works then
 */
async function runGet(ctx: Context, given: string, start: string, opts: GetOptions): Promise<void> {
  const format = resolveFormat(opts, schemaChecker(TimeSlotSchema, ctx.flags.allowUnknownFields));
  const tz = tzFlag(opts.tz);
  const api = await ctx.api();
  const zone = tz ?? (await siteZone(ctx, api));
  const at = parseWhen(start, zone, 'START', ctx.now().getTime());
  const service = await appointment(ctx, api, given);
  const resourceTypes = staffTypes(ctx, service, opts.staff);
  const c = service.schedule?.availabilityConstraints;
  const minutes = c?.sessionDurations?.[0] ?? c?.durations?.[0]?.minutes ?? 60;
  const l = service.locations?.[0];
  const location = l?.type === 'BUSINESS' ? { id: l.business?.id ?? l.id, locationType: 'BUSINESS' as const } : l?.type === 'CUSTOM' ? { locationType: 'CUSTOM' as const } : l?.type === 'CUSTOMER' ? { locationType: 'CUSTOMER' as const } : { locationType: 'BUSINESS' as const };
  const reply = await timeSlots.getAvailabilityTimeSlot(
    api,
    { serviceId: service.id, localStartDate: localDateTime(at, zone), localEndDate: localDateTime(at + minutes * 60_000, zone), timeZone: zone, location, ...(resourceTypes ? { resourceTypes } : {}) },
    { signal: ctx.signal },
  );
  const slot: ZonedTimeSlot = { ...reply.timeSlot, timeZone: reply.timeZone ?? zone };
  const why = whyNotBookable(slot);
  const shown = (local: string | null | undefined) => (local ? `${local.slice(0, 16).replace('T', ' ')}` : '');
  const text = [
    `service\t${oneLine(service.name ?? service.id)}`,
    `start\t${shown(slot.localStartDate)} (${slot.timeZone})`,
    `end\t${shown(slot.localEndDate)}`,
    `open\t${slot.remainingCapacity ?? 0} of ${slot.totalCapacity ?? 0}`,
    `bookable\t${slot.bookable ? 'yes' : `no${why ? ` (${why})` : ''}`}`,
    ...(slot.bookingPolicyViolations?.earliestBookingDate ? [`bookable from\t${slot.bookingPolicyViolations.earliestBookingDate.toISOString()}`] : []),
    `staff free\t${staffNames(slot) || '-'}`,
  ].join('\n');
  await printValue(ctx.io, format, slot, { text });
}

/** The service `given` names, which must be an appointment (the Time Slots API serves only those). @throws UserError (exit 2) */
async function appointment(ctx: Context, api: ApiClient, given: string): Promise<Service> {
  const service = await serviceOf(ctx, api, given);
  if (service.type !== 'APPOINTMENT') {
    throw new UserError(
      `"${oneLine(service.name ?? service.id)}" is a ${String(service.type ?? 'service').toLowerCase()}: time slots are for appointment services`,
      `its ${service.type === 'COURSE' ? 'places' : 'sessions'}: ${ctx.bin} availability '${oneLine(service.name ?? service.id)}'`,
    );
  }
  return service;
}
