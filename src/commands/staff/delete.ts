/**
 * `sitectl staff delete STAFF`: deletes a staff member (Staff Members v1 deleteStaffMember). Destructive: it
 * asks first (`--yes` to skip; required without a terminal), naming how many future bookings it has.
 *
 * What follows on the platform side: the staff member leaves every service it gave, so availability stops
 * offering its slots (and a class it taught goes to the next staff member the service lists). Its bookings are
 * not canceled or moved: they keep their time and still name the staff member. Its future bookings (not
 * canceled or declined, starting from now) are read before the delete and printed as the command's output,
 * as `bookings list` prints them, so they can be moved (`bookings reschedule ID --staff OTHER`) or canceled.
 */
import type { Command } from 'commander';
import { collect, items, listPages } from '../../api/paging.js';
import { staffMembers } from '../../api/staff-members.js';
import type { Context } from '../../context.js';
import { notice, success } from '../../core/log.js';
import { addFormatFlags, fieldsChecker, printRecords, printValue, resolveFormat, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { BOOKING_VIEW, type BookingRow } from '../bookings/shared/view.js';
import { confirmChange, declareRule, DESTRUCTIVE, requireConfirmable } from '../shared/confirm.js';
import { wireFilter } from '../shared/entity-view.js';
import { staffOf } from './shared/view.js';

/** Statuses of a booking that still takes place. */
const UPCOMING = ['CREATED', 'CONFIRMED', 'PENDING', 'WAITING_LIST'];

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('delete')
    .description('Delete a staff member: it leaves its services, its slots go; its future bookings stay and are listed')
    .argument('<staff>', 'staff member id, unique id prefix, or exact name')
    .option('--dry-run', 'show the staff member and its future bookings; delete nothing')
    .addHelpText(
      'after',
      '\nThe staff member leaves every service it gives, so availability no longer offers its slots. Its bookings are\n' +
        'not canceled: its future ones (not canceled or declined) are printed, as `bookings list` prints them, to move\n' +
        "(`sitectl bookings reschedule ID --staff OTHER`) or cancel. With --json: {id, deleted, bookings}.\n\nExamples:\n" +
        "  sitectl staff delete 'Tom Becker' --yes\n  sitectl staff delete 3f2a --dry-run\n  sitectl staff delete 3f2a --yes --json | jq -r '.bookings[].id'",
    );
  declareRule(addFormatFlags(cmd), DESTRUCTIVE).action(async (staff: string, o: FormatFlags & { yes?: boolean; dryRun?: boolean }) => {
    await run({ ...o, staff }, ctx);
  });
}

/**
 * Reads the staff member and its future bookings, asks, deletes, prints the bookings.
 * @throws UserError (exit 2) for an unknown or empty staff member, or no `--yes` without a terminal; DeclinedError (exit 1)
 */
export async function run(opts: FormatFlags & { staff: string; yes?: boolean; dryRun?: boolean }, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['id', 'deleted', 'bookings']));
  requireConfirmable(ctx, opts, DESTRUCTIVE, 'one', `deleting staff member ${opts.staff}`);
  const api = await ctx.api();
  const staff = await staffOf(ctx, api, opts.staff);
  const label = `staff member "${oneLine(staff.name ?? '')}" (${staff.id})`;
  const filter = { $and: [{ 'bookedEntity.slot.resource.id': staff.id }, { startDate: { $gte: ctx.now().toISOString() } }, { status: { $in: UPCOMING } }] };
  const pages = listPages(api, BOOKING_VIEW.query, { filter: wireFilter(BOOKING_VIEW, filter), sort: [{ fieldName: 'startDate', order: 'ASC' }], pageSize: 100, signal: ctx.signal });
  const bookings = (await collect(items(pages))).map((item) => BOOKING_VIEW.fromItem!(item));
  const those = `${bookings.length} future booking${bookings.length === 1 ? '' : 's'}`;
  if (opts.dryRun) {
    notice(ctx.io, `dry run: would delete ${label}; ${those} would stay and are listed; nothing was changed`);
  } else {
    await confirmChange(ctx, opts, DESTRUCTIVE, 'one', `Delete ${label}? It leaves its services; its ${those} stay as they are. This cannot be undone.`, `deleting staff member ${staff.id}`);
    await staffMembers.deleteStaffMember(api, { staffMemberId: staff.id }, { signal: ctx.signal });
    success(ctx.io, `deleted ${label}; it left its services`);
    if (bookings.length) notice(ctx.io, `its ${those} stay as they are (listed): move them with '${ctx.bin} bookings reschedule ID --staff OTHER' or cancel them`);
  }
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await printValue(ctx.io, format, { id: staff.id, deleted: !opts.dryRun, bookings });
    return;
  }
  await printRecords<BookingRow>(ctx.io, format, bookings, BOOKING_VIEW.columns, { now: ctx.now() });
}
