/** `sitectl availability schedule ID`: a course schedule's places and what its booking policy says. */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { availability } from '../../api/availability.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { addFormatFlags, fieldsChecker, type FormatFlags, printValue, resolveFormat } from '../../core/output.js';

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('schedule')
    .description("A course schedule's places (total, open) and policy violations")
    .argument('<scheduleId>', "the schedule id (a course's schedule.id)")
    .addHelpText('after', '\nExample:\n  sitectl availability schedule 0c5e5b61-... --json');
  addFormatFlags(cmd).action(async (scheduleId: string, o: FormatFlags) => {
    const api = await ctx.api();
    await printSchedule(ctx, api, scheduleId, o);
  });
}

/** Prints the availability of a schedule. @throws UserError (exit 2) without an id; ApiError 404 SCHEDULE_NOT_FOUND */
export async function printSchedule(ctx: Context, api: ApiClient, scheduleId: string, opts: FormatFlags): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['availability', 'bookingPolicySettings']));
  if (!scheduleId) throw new UserError('the course has no schedule id');
  const reply = await availability.getScheduleAvailability(api, { scheduleId }, { signal: ctx.signal });
  const a = reply.availability;
  const v = a.bookingPolicyViolations ?? {};
  const why = [v.tooEarlyToBook && 'too early', v.tooLateToBook && 'too late', v.bookOnlineDisabled && 'online booking off'].filter(Boolean).join(', ');
  const text = [
    `places\t${a.openSpots ?? 0} open of ${a.totalSpots ?? 0}`,
    `bookable\t${(a.openSpots ?? 0) > 0 && !why ? 'yes' : `no${why ? ` (${why})` : ' (full)'}`}`,
    ...(reply.bookingPolicySettings?.maxParticipantsPerBooking ? [`max per booking\t${reply.bookingPolicySettings.maxParticipantsPerBooking}`] : []),
  ].join('\n');
  await printValue(ctx.io, format, reply, { text });
}
