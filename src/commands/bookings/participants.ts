/**
 * `sitectl bookings participants ID N`: changes how many take part in a class or course booking (room is
 * checked for an increase; not for appointments).
 */
import type { Command } from 'commander';
import { bookings } from '../../api/bookings.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { parseCount } from '../../core/numbers.js';
import { notice, success } from '../../core/log.js';
import { addFormatFlags, type FormatFlags, printRecord } from '../../core/output.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { formatOf, idOf } from '../shared/verbs.js';
import { fetchBooking } from './shared/read.js';
import { BOOKING_VIEW } from './shared/view.js';

export interface ParticipantsOptions extends FormatFlags {
  id: string;
  count: string;
  revision?: string;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('participants')
    .description('Change how many take part in a class or course booking')
    .argument('<id>', 'the booking (or a unique id prefix)')
    .argument('<n>', 'participants (1-1000)')
    .option('--revision <n>', "the booking's revision to act on (default: its current one)")
    .addHelpText('after', '\nExample:\n  sitectl bookings participants 7c1e 3');
  // A change to one booking that can be made again the other way, as `bookings reschedule` is: acts at once.
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (id: string, count: string, o: Omit<ParticipantsOptions, 'id' | 'count'>) => {
    await run({ ...o, id, count }, ctx);
  });
}

/** @throws UserError (exit 2) for a bad number; (exit 1) for an appointment; ApiError (409 no room, stale revision) */
export async function run(opts: ParticipantsOptions, ctx: Context): Promise<void> {
  const format = formatOf(ctx, BOOKING_VIEW, opts);
  const n = parseCount(opts.count, 'participants', 1, 1000);
  if (opts.revision !== undefined && !/^\d+$/.test(opts.revision)) throw new UserError(`--revision must be a whole number such as 3, got '${opts.revision}'`);
  const api = await ctx.api();
  const id = await idOf(ctx, api, BOOKING_VIEW, opts.id);
  const b = await fetchBooking(api, id, ctx.signal);
  if (b.bookedEntity?.tags?.includes('INDIVIDUAL')) throw new UserError(`booking ${id} is an appointment: its participants cannot be changed`, undefined, ExitCode.Failure);
  if (b.totalParticipants === n) {
    notice(ctx.io, `booking ${id} already has ${n} participant${n === 1 ? '' : 's'}; nothing changed`);
  } else {
    const { booking } = await bookings.updateNumberOfParticipants(api, { bookingId: id, revision: opts.revision ?? b.revision ?? '', totalParticipants: n }, { signal: ctx.signal });
    success(ctx.io, `booking ${id} now has ${n} participant${n === 1 ? '' : 's'} (revision ${booking.revision})`);
  }
  const full = await fetchBooking(api, id, ctx.signal);
  await printRecord(ctx.io, format, full, { rows: BOOKING_VIEW.rows(full), columns: BOOKING_VIEW.columns, now: ctx.now() });
}
