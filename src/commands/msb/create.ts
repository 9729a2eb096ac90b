/**
 * `sitectl msb create --booking SERVICE@START --booking SERVICE[@START] ... [--type sequential|parallel|separate]`:
 * books several services together, all or nothing (docs/wire.md §16). In a
 * sequential group a booking without `@START` starts when the previous one ends; in a parallel one, with the
 * first. The contact flags apply to every booking. A journaled one-item create (commands/shared/writes.ts): in
 * `sitectl history`, and `sitectl undo` cancels the group if none of its bookings changed since.
 */
import type { Command } from 'commander';
import { type BookingCreate, MSB_MAX, MSB_MIN, type MultiServiceBookingType } from '../../api/schemas/booking.js';
import type { Service } from '../../api/schemas/service.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { parseCount } from '../../core/numbers.js';
import { success } from '../../core/log.js';
import { addFormatFlags, type FormatFlags, printValue } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { serviceOf } from '../services/shared/lookup.js';
import { parseWhen, siteZone, tzFlag } from '../shared/time.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { addNotifyFlags, notifyOption, participantNotification } from '../shared/notify.js';
import type { GroupEntity } from './shared/engine.js';
import { groupFormat, printGroup } from './shared/group.js';

const TYPES: Record<string, MultiServiceBookingType> = {
  sequential: 'SEQUENTIAL_BOOKINGS',
  parallel: 'PARALLEL_BOOKINGS',
  separate: 'SEPARATE_BOOKINGS',
};

export interface CreateOptions extends FormatFlags {
  booking?: string[];
  type?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  participants?: string;
  confirmed?: boolean;
  skipAvailability?: boolean;
  tz?: string;
  /** `--notify [message]` (commands/shared/notify.ts): the customer is told once for the group. */
  notify?: string | boolean;
  notifyVia?: string;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('create')
    .description('Book several services together, all or nothing')
    .option('--booking <service@start>', 'a service and its start (repeatable, in order; 2 to 40). Without @start: when the previous ends (sequential)', collect)
    .option('--type <type>', 'sequential (each starts when the previous ends), parallel (same start) or separate', 'sequential')
    .option('--first-name <name>', 'contact first name (every booking)')
    .option('--last-name <name>', 'contact last name')
    .option('--email <email>', 'contact e-mail')
    .option('--phone <phone>', 'contact phone')
    .option('--participants <n>', 'participants of each booking (default 1)')
    .option('--confirmed', 'create them CONFIRMED')
    .option('--skip-availability', 'book even full or taken slots (marked double-booked)')
    .option('--tz <zone>', 'read the starts in this IANA zone (default: the site’s)')
    .addHelpText('after', `\nExamples:\n  sitectl msb create --booking "Women's Haircut@wed 11:15" --booking 'Blow-Dry & Style' --email ana@example.com\n  sitectl msb create --type parallel --booking "Men's Haircut@wed 14:15" --booking 'Color & Highlights@wed 14:15' --email ana@example.com`);
  // A create, as `bookings create` is: acts at once.
  declareRule(addFormatFlags(addNotifyFlags(cmd, 'the customer (once for the group)')), REVERSIBLE).action(async (o: CreateOptions) => {
    await run(o, ctx);
  });
}

/** `SERVICE@START` split at the last `@` (the start may be missing). */
function split(text: string): { service: string; start?: string } {
  const at = text.lastIndexOf('@');
  if (at <= 0) return { service: text.trim() };
  return { service: text.slice(0, at).trim(), start: text.slice(at + 1).trim() || undefined };
}

/** Minutes a service's session lasts (its first duration, default 60). */
function minutesOf(s: Service): number {
  const c = s.schedule?.availabilityConstraints;
  return c?.sessionDurations?.[0] ?? c?.durations?.[0]?.minutes ?? 60;
}

/**
 * @throws UserError (exit 2) for bad flags, fewer than 2 or more than 40 bookings, a missing first start;
 *   (exit 1) unknown service; ApiError when the platform refuses (nothing is created then)
 */
export async function run(opts: CreateOptions, ctx: Context): Promise<void> {
  const format = groupFormat(opts);
  const items = (opts.booking ?? []).map(split);
  if (items.length < MSB_MIN || items.length > MSB_MAX) throw new UserError(`give ${MSB_MIN} to ${MSB_MAX} bookings with --booking SERVICE@START`);
  const type = TYPES[(opts.type ?? 'sequential').toLowerCase()];
  if (!type) throw new UserError(`--type must be sequential, parallel or separate, got '${opts.type}'`);
  if (!items[0]!.start) throw new UserError('the first --booking needs its start: SERVICE@2026-11-24T10:00');
  if (type === 'SEPARATE_BOOKINGS' && items.some((i) => !i.start)) throw new UserError('in a separate group every --booking needs its own @start');
  const tz = tzFlag(opts.tz);
  const notify = participantNotification(notifyOption(opts));
  const participants = opts.participants !== undefined ? parseCount(opts.participants, '--participants', 1, 1000) : undefined;
  const api = await ctx.api();
  // The zone the bookings are shown in: --tz, else the site's (also when the starts carry an offset).
  const zone = tz ?? (await siteZone(ctx, api));
  const starts = items.map((i, n) => (i.start ? parseWhen(i.start, zone, `--booking ${n + 1}`, ctx.now().getTime()) : undefined));
  const services: Service[] = [];
  for (const i of items) services.push(await serviceOf(ctx, api, i.service));
  const courses = services.filter((s) => s.type === 'COURSE');
  if (courses.length) throw new UserError(`"${oneLine(courses[0]!.name ?? '')}" is a course: a multi-service booking holds appointments and class sessions`);
  const contactDetails = {
    ...(opts.firstName !== undefined ? { firstName: opts.firstName } : {}),
    ...(opts.lastName !== undefined ? { lastName: opts.lastName } : {}),
    ...(opts.email !== undefined ? { email: opts.email } : {}),
    ...(opts.phone !== undefined ? { phone: opts.phone } : {}),
  };
  const bookings: BookingCreate[] = [];
  let previousEnd = starts[0]!;
  services.forEach((s, n) => {
    const start = starts[n] ?? (type === 'PARALLEL_BOOKINGS' ? starts[0]! : previousEnd);
    previousEnd = start + minutesOf(s) * 60_000;
    bookings.push({
      bookedEntity: { slot: { serviceId: s.id, startDate: new Date(start).toISOString(), timezone: zone } },
      ...(Object.keys(contactDetails).length ? { contactDetails } : {}),
      ...(participants !== undefined ? { totalParticipants: participants } : {}),
      ...(opts.confirmed ? { status: 'CONFIRMED' as const } : {}),
    });
  });
  // A one-item create through the engine: journaled, so `sitectl history` lists it and `sitectl undo` cancels it.
  const [{ runCreateOne }, { GROUP_WRITES }] = await Promise.all([import('../shared/one.js'), import('./shared/engine.js')]);
  const body = { bookings, multiServiceBookingType: type, returnFullEntity: true, ...(opts.skipAvailability ? { flowControlSettings: { skipAvailabilityValidation: true } } : {}), ...notify };
  const { group: multiServiceBooking } = (await runCreateOne(ctx, GROUP_WRITES, body, `${bookings.length} bookings`)) as GroupEntity;
  success(ctx.io, `Created multi-service booking ${multiServiceBooking.id} with ${bookings.length} bookings`);
  if (format.kind === 'table' && !ctx.io.isStdoutTTY) {
    await printValue(ctx.io, format, multiServiceBooking, { text: multiServiceBooking.id ?? '' });
    return;
  }
  await printGroup(ctx, format, multiServiceBooking);
}
