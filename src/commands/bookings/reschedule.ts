/**
 * `sitectl bookings reschedule ID --start WHEN [--staff ID]`: moves a booking to another slot of its service
 * (room is checked there; not for courses; a booking of a multi-service booking moves with its group). The
 * booking's revision is read by the plan unless `--revision` pins it; the move is journaled with the former slot.
 */
import type { Command } from 'commander';
import { services } from '../../api/services.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';
import { needsZone, parseWhen, tzFlag } from '../shared/time.js';
import { staffOf } from '../services/shared/lookup.js';
import type { EntityView } from '../shared/entity-view.js';
import { idOf } from '../shared/verbs.js';
import { rescheduleRun, type RescheduleOptions as RescheduleMoves, unmovable } from './shared/moves.js';
import { fetchBooking } from './shared/read.js';
import { BOOKING_VIEW, type BookingRow, serviceIdOf, zoneOf } from './shared/view.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { addNotifyFlags, notifyOption } from '../shared/notify.js';

export interface RescheduleOptions extends FormatFlags {
  id: string;
  start?: string;
  staff?: string;
  revision?: string;
  ignorePolicy?: boolean;
  skipAvailability?: boolean;
  tz?: string;
  notify?: string | boolean;
  notifyVia?: string;
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
    .addHelpText('after', "\nExamples:\n  sitectl bookings reschedule 7c1e --start 'wed 15:30'\n  sitectl bookings reschedule 7c1e --start 'thu 09:00' --ignore-policy --json");
  declareRule(addFormatFlags(addNotifyFlags(cmd, 'the customer of the move')), REVERSIBLE).action(async (id: string, o: Omit<RescheduleOptions, 'id'>) => {
    await run({ ...o, id }, ctx);
  });
}

/**
 * Moves the booking as a one-item plan of the bulk engine (commands/shared/one.ts runOneVerb): journaled with its
 * former slot, so `sitectl history` lists it and `sitectl undo` moves it back if that slot is still free.
 * @throws UserError (exit 2) for a bad time, zone or revision; (exit 1) for a course or a grouped booking (the
 *   hint names `msb reschedule`), or when the platform refuses the move (409 SLOT_NOT_AVAILABLE /
 *   SESSION_CAPACITY_EXCEEDED / REVISION_MISMATCH, 428 BOOKING_POLICY_VIOLATION); NotFoundError (exit 1)
 */
export async function run(opts: RescheduleOptions, ctx: Context): Promise<void> {
  const tz = tzFlag(opts.tz);
  const notify = notifyOption(opts);
  if (opts.revision !== undefined && !/^\d+$/.test(opts.revision)) throw new UserError(`--revision must be a whole number such as 3, got '${opts.revision}'`);
  const { runOneVerb } = await import('../shared/one.js');
  let id = opts.id;
  let options: RescheduleMoves = { moves: {} };
  await runOneVerb(ctx, {
    view: BOOKING_VIEW as EntityView<unknown>,
    title: 'Rescheduling',
    // The new slot is read on the booking's clock, and --staff among its service's staff: both need the booking.
    async verify(api) {
      id = await idOf(ctx, api, BOOKING_VIEW, opts.id);
      const b = await fetchBooking(api, id, ctx.signal);
      const zone = tz ?? zoneOf(b);
      const start = parseWhen(opts.start!, needsZone(opts.start) ? zone : 'UTC', '--start', ctx.now().getTime());
      const serviceId = serviceIdOf(b) ?? '';
      const staff = opts.staff !== undefined && !unmovable(b) ? staffOf(ctx, (await services.getService(api, { serviceId }, { signal: ctx.signal })).service, opts.staff) : undefined;
      options = {
        moves: { [id]: { to: { serviceId, startDate: new Date(start).toISOString(), timezone: zone, ...(staff ? { staffId: staff } : {}) } } },
        ...(opts.ignorePolicy ? { ignorePolicy: true } : {}),
        ...(opts.skipAvailability ? { skipAvailability: true } : {}),
        ...notify,
      };
    },
    build: (api) => rescheduleRun(api, { options }),
    resolve: async () => id,
    flags: opts,
    command: 'bookings reschedule',
    one: {
      given: opts.id,
      rule: REVERSIBLE,
      revision: opts.revision,
      already: (b: BookingRow) => `booking ${id} starts at ${b.startDate?.toISOString() ?? ''} already`,
      instead: (b: BookingRow) => unmovable(b)?.instead?.(ctx.bin),
      outcome: (after: BookingRow) => `Rescheduled ${id} to ${after.startDate?.toISOString() ?? ''} (revision ${after.revision})`,
      read: async (bid: string) => fetchBooking(await ctx.api(), bid, ctx.signal),
    },
  });
}
