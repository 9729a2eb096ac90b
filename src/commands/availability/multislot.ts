/**
 * `sitectl availability multislot --service A --service B ... [--from] [--to | --days] [--bookable] [--tz]`:
 * start times at which the services can be booked back to back, each starting when the previous ends (for a
 * multi-service booking: `msb create`).
 */
import type { Command } from 'commander';
import { availability } from '../../api/availability.js';
import { MAX_MULTISLOT, type SlotAvailability } from '../../api/schemas/booking.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { addFormatFlags, type Column, type FormatFlags, printRecords, resolveFormat, zoned } from '../../core/output.js';
import { serviceOf } from '../services/shared/lookup.js';
import { schemaChecker } from '../shared/fields.js';
import { siteZone, tzFlag } from '../shared/time.js';
import { SlotAvailability as SlotSchema } from '../../api/schemas/booking.js';
import { rangeOf, rangeText, whyNot } from './slots.js';

export interface MultislotOptions extends FormatFlags {
  service?: string[];
  from?: string;
  to?: string;
  days?: string;
  bookable?: boolean;
  tz?: string;
}

function columns(zone: string, names: Map<string, string>): Column<SlotAvailability>[] {
  return [
    { key: 'start', get: (e) => zoned(e.slot?.startDate, zone) },
    { key: 'end', get: (e) => zoned(e.slot?.endDate, zone, 'HH:mm') },
    {
      key: 'chain',
      get: (e) => (e.nestedTimeSlots ?? []).map((n) => `${names.get(n.serviceId ?? '') ?? n.serviceId}${n.resource?.name ? ` (${n.resource.name})` : ''}`).join(' → '),
    },
    { key: 'open', get: (e) => String(e.openSpots ?? 0), align: 'right', priority: 2 },
    { key: 'bookable', get: (e) => (e.bookable ? 'yes' : 'no') },
    { key: 'why', header: 'WHY NOT', get: whyNot, priority: 1 },
  ];
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('multislot')
    .description('Start times for several services back to back')
    .option('--service <service>', 'a service in the order they follow (repeatable, 2 to 6)', collect)
    .option('--from <when>', 'from (default now)')
    .option('--to <when>', 'until (exclusive)')
    .option('--days <n>', 'calendar days from --from, on the clock of --tz or the site (default 7)')
    .option('--bookable', 'only chains that can be booked now')
    .option('--tz <zone>', 'show and read times in this IANA zone (default: the site’s)')
    .addHelpText('after', `\nExample:\n  sitectl availability multislot --service "Women's Haircut" --service 'Blow-Dry & Style' --from tomorrow --days 7 --bookable`);
  addFormatFlags(cmd).action(async (o: MultislotOptions) => {
    await run(o, ctx);
  });
}

/** @throws UserError (exit 2) for fewer than 2 or more than 6 services or bad times; (exit 1) unknown service */
export async function run(opts: MultislotOptions, ctx: Context): Promise<void> {
  // `--csv` may name the table's columns too (`--csv start,service`).
  const format = resolveFormat(opts, schemaChecker(SlotSchema, ctx.flags.allowUnknownFields), { columns: columns('UTC', new Map()).map((c) => c.key) });
  const given = opts.service ?? [];
  if (given.length < 2 || given.length > MAX_MULTISLOT) throw new UserError(`give 2 to ${MAX_MULTISLOT} services with --service, in the order they follow`);
  const tz = tzFlag(opts.tz);
  const api = await ctx.api();
  const zone = tz ?? (await siteZone(ctx, api));
  const [from, to] = rangeOf(opts, zone, ctx.now().getTime());
  const services = [];
  for (const g of given) services.push(await serviceOf(ctx, api, g));
  const names = new Map(services.map((s) => [s.id, s.name ?? s.id]));
  const out: SlotAvailability[] = [];
  let cursor: string | undefined;
  do {
    const reply = await availability.calculateMultiSlotAvailability(
      api,
      cursor
        ? { from: new Date(from).toISOString(), to: new Date(to).toISOString(), slots: services.map((s) => ({ serviceId: s.id })), cursorPaging: { cursor, limit: 100 } }
        : { from: new Date(from).toISOString(), to: new Date(to).toISOString(), slots: services.map((s) => ({ serviceId: s.id })), ...(opts.bookable ? { bookable: true } : {}), cursorPaging: { limit: 100 } },
      { signal: ctx.signal },
    );
    out.push(...reply.slots);
    cursor = reply.cursorPagingMetadata?.hasNext ? (reply.cursorPagingMetadata.cursors?.next ?? undefined) : undefined;
  } while (cursor);
  await printRecords(ctx.io, format, out, columns(zone, names), { now: ctx.now(), empty: `No ${opts.bookable ? 'bookable ' : ''}chains found ${rangeText(from, to, zone)}.` });
}
