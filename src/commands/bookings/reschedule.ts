/**
 * `sitectl bookings reschedule ID --start WHEN [--staff ID]`: moves a booking to another slot of its service
 * (room is checked there; not for courses; a booking of a multi-service booking moves with its group). The
 * booking's revision is read first unless `--revision` pins it.
 */
import type { Command } from 'commander';
import { bookings } from '../../api/bookings.js';
import { services } from '../../api/services.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { addFormatFlags, type FormatFlags, printRecord } from '../../core/output.js';
import { needsZone, parseWhen, tzFlag } from '../shared/time.js';
import { staffOf } from '../services/shared/lookup.js';
import { formatOf, idOf } from '../shared/verbs.js';
import { fetchBooking } from './shared/read.js';
import { BOOKING_VIEW, serviceIdOf, zoneOf } from './shared/view.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';

export interface RescheduleOptions extends FormatFlags {
  id: string;
  start?: string;
  staff?: string;
  revision?: string;
  ignorePolicy?: boolean;
  skipAvailability?: boolean;
  tz?: string;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('reschedule')
    .description('Move a booking to another slot of its service')
    .argument('<id>', 'the booking (or a unique id prefix)')
    .requiredOption('--start <when>', "the new start (2026-11-24T10:00 on the booking's clock or --tz's, or an ISO instant)")
    .option('--staff <id>', 'the staff member at the new time (id or unique prefix; appointments; default: any free one)')
    .option('--revision <n>', "the booking's revision to act on (default: its current one)")
    .option('--ignore-policy', "move it even inside the reschedule window of the service's booking policy")
    .option('--skip-availability', 'move it even into a full or taken slot (marked double-booked)')
    .option('--tz <zone>', 'read --start in this IANA zone')
    .addHelpText('after', '\nExamples:\n  sitectl bookings reschedule 7c1e --start 2026-11-25T15:00\n  sitectl bookings reschedule 7c1e --start 2026-11-25T23:00Z --ignore-policy --json');
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (id: string, o: Omit<RescheduleOptions, 'id'>) => {
    await run({ ...o, id }, ctx);
  });
}

/**
 * @throws UserError (exit 2) for a bad time, zone or revision; (exit 1) for a course or a grouped booking;
 *   ApiError from the platform (409 SLOT_NOT_AVAILABLE / SESSION_CAPACITY_EXCEEDED / REVISION_MISMATCH, 428
 *   BOOKING_POLICY_VIOLATION)
 */
export async function run(opts: RescheduleOptions, ctx: Context): Promise<void> {
  const format = formatOf(ctx, BOOKING_VIEW, opts);
  const tz = tzFlag(opts.tz);
  if (opts.revision !== undefined && !/^\d+$/.test(opts.revision)) throw new UserError(`--revision must be a whole number such as 3, got '${opts.revision}'`);
  const api = await ctx.api();
  const id = await idOf(ctx, api, BOOKING_VIEW, opts.id);
  const b = await fetchBooking(api, id, ctx.signal);
  if (b.bookedEntity?.schedule) throw new UserError(`booking ${id} is of a course, which is booked whole: it cannot be rescheduled`, undefined, ExitCode.Failure);
  if (b.multiServiceBookingInfo?.id) throw new UserError(`booking ${id} belongs to multi-service booking ${b.multiServiceBookingInfo.id}`, `move the group: ${ctx.bin} msb reschedule ${b.multiServiceBookingInfo.id} --start WHEN`, ExitCode.Failure);
  const zone = tz ?? zoneOf(b);
  const start = parseWhen(opts.start!, needsZone(opts.start) ? zone : 'UTC', '--start', ctx.now().getTime());
  const staff = opts.staff !== undefined ? staffOf(ctx, (await services.getService(api, { serviceId: serviceIdOf(b)! }, { signal: ctx.signal })).service, opts.staff) : undefined;
  const { booking } = await bookings.rescheduleBooking(
    api,
    {
      bookingId: id,
      revision: opts.revision ?? b.revision ?? '',
      slot: { serviceId: serviceIdOf(b)!, startDate: new Date(start).toISOString(), timezone: zone, ...(staff ? { resource: { id: staff } } : {}) },
      ...(opts.ignorePolicy || opts.skipAvailability
        ? { flowControlSettings: { ...(opts.ignorePolicy ? { ignoreReschedulePolicy: true } : {}), ...(opts.skipAvailability ? { skipAvailabilityValidation: true } : {}) } }
        : {}),
    },
    { signal: ctx.signal },
  );
  success(ctx.io, `Rescheduled ${id} to ${booking.startDate?.toISOString() ?? ''} (revision ${booking.revision})`);
  const full = await fetchBooking(api, id, ctx.signal);
  await printRecord(ctx.io, format, full, { rows: BOOKING_VIEW.rows(full), columns: BOOKING_VIEW.columns, now: ctx.now() });
}
