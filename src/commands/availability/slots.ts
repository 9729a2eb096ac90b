/**
 * `sitectl availability SERVICE [--from WHEN] [--to WHEN | --days N] [--staff ID]... [--bookable] [--tz ZONE]
 * [--slots-per-day N]`: open slots of an appointment service or sessions of a class, with their spots and what
 * the booking policy says, times on the clock of `--tz` or the site (docs/bookings.md "The CLI"). A course has no slots:
 * it shows the course's places instead.
 */
import type { Command } from 'commander';
import { availability } from '../../api/availability.js';
import type { SlotAvailability } from '../../api/schemas/booking.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { parseCount } from '../../core/numbers.js';
import { notice } from '../../core/log.js';
import { addFormatFlags, type Column, type FormatFlags, printRecords, zoned } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { fullTimeText } from '../../core/when.js';
import { serviceOf, staffOf } from '../services/shared/lookup.js';
import { schemaChecker } from '../shared/fields.js';
import { parseWhen, plusCalendarDays, siteZone, tzFlag } from '../shared/time.js';
import { resolveFormat } from '../../core/output.js';
import { SlotAvailability as SlotSchema } from '../../api/schemas/booking.js';
import { printSchedule } from './schedule.js';

/** Days covered without --to or --days. */
const DEFAULT_DAYS = 7;
/** Longest range one command covers (the platform's limit is a year). */
const MAX_DAYS = 366;

export interface SlotsOptions extends FormatFlags {
  service: string;
  from?: string;
  to?: string;
  days?: string;
  staff?: string[];
  bookable?: boolean;
  tz?: string;
  slotsPerDay?: string;
}

/** Why a slot cannot be booked, in words (empty when it can). */
export function whyNot(e: SlotAvailability): string {
  const v = e.bookingPolicyViolations ?? {};
  const out: string[] = [];
  if ((e.openSpots ?? 0) <= 0) out.push(e.waitingList && (e.waitingList.openSpots ?? 0) > 0 ? 'full (waiting list)' : 'full');
  if (v.tooEarlyToBook) out.push('too early');
  if (v.tooLateToBook) out.push('too late');
  if (v.bookOnlineDisabled) out.push('online booking off');
  return out.join(', ');
}

/** Table columns of slots, times on `zone`'s clock. */
export function slotColumns(zone: string): Column<SlotAvailability>[] {
  return [
    { key: 'start', get: (e) => zoned(e.slot?.startDate, zone) },
    { key: 'end', get: (e) => zoned(e.slot?.endDate, zone, 'HH:mm') },
    { key: 'staff', get: (e) => e.slot?.resource?.name ?? e.slot?.resource?.id ?? '', priority: 2 },
    { key: 'open', get: (e) => `${e.openSpots ?? 0}/${e.totalSpots ?? 0}`, align: 'right' },
    { key: 'bookable', get: (e) => (e.bookable ? 'yes' : 'no') },
    { key: 'why', header: 'WHY NOT', get: whyNot, priority: 1 },
    { key: 'location', get: (e) => e.slot?.location?.name ?? e.slot?.location?.formattedAddress ?? '', priority: 3 },
  ];
}

/**
 * [from, to) of `--from` and `--to`/`--days`, read in `zone`. `--days N` (default 7) counts calendar days in the
 * zone, so `--from 2027-03-14 --days 2` ends at midnight of the 16th there, though that is 47 hours.
 * @throws UserError (exit 2)
 */
export function rangeOf(opts: { from?: string; to?: string; days?: string }, zone: string, now: number): [number, number] {
  if (opts.to !== undefined && opts.days !== undefined) throw new UserError('use either --to or --days');
  const from = opts.from !== undefined ? parseWhen(opts.from, zone, '--from', now) : now;
  const days = opts.days !== undefined ? parseCount(opts.days, '--days', 1, MAX_DAYS) : DEFAULT_DAYS;
  const to = opts.to !== undefined ? parseWhen(opts.to, zone, '--to', now) : plusCalendarDays(from, days, zone);
  if (to <= from) throw new UserError('--to must be after --from');
  if (to > plusCalendarDays(from, MAX_DAYS, zone)) throw new UserError(`the range covers at most ${MAX_DAYS} days`);
  return [from, to];
}

/** `between Mon 2026-11-30 09:00 and Wed 2026-12-02 09:00 (America/Los_Angeles)`: a range searched, said when nothing was found. */
export function rangeText(from: number, to: number, zone: string): string {
  return `between ${fullTimeText(new Date(from), zone)} and ${fullTimeText(new Date(to), zone)} (${zone})`;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('slots', { isDefault: true })
    .description('Open slots of a service (the default: `availability SERVICE`)')
    .argument('<service>', 'the service (id, id prefix or exact name)')
    .option('--from <when>', 'from (2026-11-24, 2026-11-24T09:00 in --tz or the site’s zone, an ISO instant, today; default now)')
    .option('--to <when>', 'until (exclusive)')
    .option('--days <n>', `calendar days from --from, on the clock of --tz or the site (default ${DEFAULT_DAYS})`)
    .option('--staff <id>', 'only this staff member (id or unique prefix; repeatable)', collect)
    .option('--bookable', 'only slots that can be booked now')
    .option('--tz <zone>', 'show and read times in this IANA zone (default: the site’s)')
    .option('--slots-per-day <n>', 'at most this many slots per day (bookable ones first)')
    .addHelpText(
      'after',
      "\nExamples:\n  sitectl availability 'Swedish Massage' --days 3 --bookable\n  sitectl availability 4f1c --from tomorrow --days 7 --tz Europe/London --json\n  sitectl availability 'Wheel Throwing Pottery Course'   # a course: its places",
    );
  addFormatFlags(cmd).action(async (service: string, o: Omit<SlotsOptions, 'service'>) => {
    await run({ ...o, service }, ctx);
  });
}

/**
 * @throws UserError (exit 2) for bad flags; (exit 1) for an unknown service; ApiError from the platform
 */
export async function run(opts: SlotsOptions, ctx: Context): Promise<void> {
  // `--csv` may name the table's columns too (`--csv start,staff`).
  const format = resolveFormat(opts, schemaChecker(SlotSchema, ctx.flags.allowUnknownFields), { columns: slotColumns('UTC').map((c) => c.key) });
  const tz = tzFlag(opts.tz);
  const perDay = opts.slotsPerDay !== undefined ? parseCount(opts.slotsPerDay, '--slots-per-day', 1, 1000) : undefined;
  const api = await ctx.api();
  const zone = tz ?? (await siteZone(ctx, api));
  const [from, to] = rangeOf(opts, zone, ctx.now().getTime());
  const service = await serviceOf(ctx, api, opts.service);
  if (service.type === 'COURSE') {
    notice(ctx.io, `"${oneLine(service.name ?? service.id)}" is a course: it is booked whole; its places:`);
    return printSchedule(ctx, api, service.schedule?.id ?? '', opts);
  }
  const { availabilityEntries } = await availability.queryAvailability(
    api,
    {
      query: {
        filter: {
          serviceId: [service.id],
          startDate: new Date(from).toISOString(),
          endDate: new Date(to).toISOString(),
          ...(opts.staff?.length ? { resourceId: opts.staff.map((given) => staffOf(ctx, service, given)) } : {}),
          ...(opts.bookable ? { bookable: true } : {}),
        },
      },
      ...(perDay !== undefined ? { slotsPerDay: perDay } : {}),
    },
    { signal: ctx.signal },
  );
  const what = service.type === 'CLASS' ? 'sessions' : 'slots';
  await printRecords(ctx.io, format, availabilityEntries, slotColumns(zone), { now: ctx.now(), empty: `No ${opts.bookable ? 'bookable ' : ''}${what} found ${rangeText(from, to, zone)}.` });
  if (ctx.io.isStdoutTTY && format.kind === 'table' && availabilityEntries.length) {
    const bookable = availabilityEntries.filter((e) => e.bookable).length;
    notice(ctx.io, `${availabilityEntries.length} ${what} of "${oneLine(service.name ?? '')}", ${bookable} bookable (times in ${zone})`);
  }
}
