/**
 * Multi-service bookings on the command line: reading a group with its bookings, the per-booking infos of the
 * group actions (each booking at its current revision), and printing a group (a table of its bookings on a
 * terminal, the group's JSON otherwise).
 */
import type { ApiClient } from '../../../api/client.js';
import { multiServiceBookings } from '../../../api/multi-service-bookings.js';
import type { MultiServiceBooking } from '../../../api/schemas/booking.js';
import type { Context } from '../../../context.js';
import { notice } from '../../../core/log.js';
import { fieldsChecker, type FormatFlags, type OutputFormat, printRecords, printValue, resolveFormat } from '../../../core/output.js';
import { bookingColumns, type BookingRow } from '../../bookings/shared/view.js';

/** The `--json` fields of a group. */
export const GROUP_FIELDS = ['id', 'bookings'];

/** `--json [fields]` of a group verb. @throws UserError (exit 2) for an unknown field */
export function groupFormat(opts: FormatFlags): OutputFormat {
  return resolveFormat(opts, fieldsChecker(GROUP_FIELDS));
}

/** The group with every booking. @throws ApiError 404 MULTI_SERVICE_BOOKING_NOT_FOUND */
export async function readGroup(ctx: Context, api: ApiClient, id: string): Promise<MultiServiceBooking & { id: string }> {
  const { multiServiceBooking } = await multiServiceBookings.getMultiServiceBooking(api, { multiServiceBookingId: id }, { signal: ctx.signal });
  return { ...multiServiceBooking, id: multiServiceBooking.id ?? id };
}

/** `{bookingId, revision}` of every booking of the group, as the group actions take them. */
export function infosOf(group: MultiServiceBooking): Array<{ bookingId: string; revision: string }> {
  return (group.bookings ?? []).map((e) => ({ bookingId: e.bookingId ?? e.booking?.id ?? '', revision: e.booking?.revision ?? '' }));
}

/** Prints a group: its bookings as a table (or TSV), or the group as JSON. */
export async function printGroup(ctx: Context, format: OutputFormat, group: MultiServiceBooking): Promise<void> {
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await printValue(ctx.io, format, group);
    return;
  }
  const rows = (group.bookings ?? []).map((e) => (e.booking ?? { id: e.bookingId }) as BookingRow);
  const type = rows[0]?.multiServiceBookingInfo?.type;
  if (ctx.io.isStdoutTTY) notice(ctx.io, `Multi-service booking ${group.id}${type ? ` (${type})` : ''}: ${rows.length} booking${rows.length === 1 ? '' : 's'}`);
  await printRecords(ctx.io, format, rows, bookingColumns(), { now: ctx.now() });
}
