/**
 * `sitectl staff delete STAFF`: deletes a staff member (Staff Members v1 deleteStaffMember): it goes to the
 * trash bin, from which `staff restore` (or `sitectl undo`) brings it back with its id, hours and services.
 * Destructive: it asks first (`--yes` to skip; required without a terminal), naming how many future bookings it has.
 *
 * What follows on the platform side: the staff member leaves every service it gave, so availability stops
 * offering its slots (and a class it taught goes to the next staff member the service lists). Its bookings are
 * not canceled or moved: they keep their time and still name the staff member. Its future bookings (not
 * canceled or declined, starting from now) are read before the delete and printed as the command's output,
 * as `bookings list` prints them, so they can be moved (`bookings reschedule ID --staff OTHER`) or canceled.
 */
import type { Command } from 'commander';
import { collect, items, listPages } from '../../api/paging.js';
import type { ApiClient } from '../../api/client.js';
import type { StaffMemberRecord } from '../../api/schemas/staff.js';
import type { Context } from '../../context.js';
import { notice } from '../../core/log.js';
import { addFormatFlags, fieldsChecker, printRecords, printValue, resolveFormat, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { BOOKING_VIEW, type BookingRow } from '../bookings/shared/view.js';
import { declareRule, DESTRUCTIVE, requireConfirmable } from '../shared/confirm.js';
import { deleteRun } from '../shared/delete.js';
import type { EntityView } from '../shared/entity-view.js';
import { wireFilter } from '../shared/entity-view.js';
import { STAFF_VIEW, staffOf } from './shared/view.js';
import { STAFF_DELETE } from './shared/writes.js';

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
 * Reads the staff member and its future bookings, asks, deletes (a one-item plan of the shared delete, journaled
 * with the staff member, so `sitectl undo` restores it from the trash bin), prints the bookings.
 * @throws UserError (exit 2) for an unknown or empty staff member, or no `--yes` without a terminal; DeclinedError (exit 1)
 */
export async function run(opts: FormatFlags & { staff: string; yes?: boolean; dryRun?: boolean }, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['id', 'deleted', 'bookings']));
  requireConfirmable(ctx, opts, DESTRUCTIVE, 'one', `deleting staff member ${opts.staff}`);
  let staff: StaffMemberRecord | undefined;
  let bookings: BookingRow[] = [];
  const read = async (api: ApiClient) => {
    staff = await staffOf(ctx, api, opts.staff);
    const filter = { $and: [{ 'bookedEntity.slot.resource.id': staff.id }, { startDate: { $gte: ctx.now().toISOString() } }, { status: { $in: UPCOMING } }] };
    const pages = listPages(api, BOOKING_VIEW.query, { filter: wireFilter(BOOKING_VIEW, filter), sort: [{ fieldName: 'startDate', order: 'ASC' }], pageSize: 100, signal: ctx.signal });
    bookings = (await collect(items(pages))).map((item) => BOOKING_VIEW.fromItem!(item));
    return staff.id;
  };
  const labelOf = (s: StaffMemberRecord) => `staff member "${oneLine(s.name ?? '')}" (${s.id})`;
  const those = () => `${bookings.length} future booking${bookings.length === 1 ? '' : 's'}`;
  if (opts.dryRun) {
    await read(await ctx.api());
    notice(ctx.io, `dry run: would delete ${labelOf(staff!)}; ${those()} would stay and are listed; nothing was changed`);
  } else {
    const { runOneVerb } = await import('../shared/one.js');
    await runOneVerb(ctx, {
      view: STAFF_VIEW as EntityView<unknown>,
      title: 'Deleting',
      build: (api) => deleteRun(STAFF_DELETE, api, {}),
      resolve: read,
      // The bookings go to stdout below, as a table or in the JSON: the engine prints nothing of its own.
      flags: { ...opts, json: undefined, ndjson: undefined } as FormatFlags,
      command: 'staff delete',
      one: {
        given: opts.staff,
        rule: DESTRUCTIVE,
        question: (s: StaffMemberRecord) => `Delete ${labelOf(s)}? It leaves its services; its ${those()} stay as they are. It goes to the trash bin ('${ctx.bin} staff restore ${s.id}' brings it back).`,
        outcome: (_after: never, _label: string, s: StaffMemberRecord) => `deleted ${labelOf(s)}; it left its services (in the trash bin: '${ctx.bin} staff restore ${s.id}' or '${ctx.bin} undo' brings it back)`,
        result: { fields: ['id', 'deleted', 'bookings'], value: (id) => ({ id, deleted: true, bookings }) },
      },
    });
    if (bookings.length) notice(ctx.io, `its ${those()} stay as they are (listed): move them with '${ctx.bin} bookings reschedule ID --staff OTHER' or cancel them`);
  }
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await printValue(ctx.io, format, { id: staff!.id, deleted: !opts.dryRun, bookings });
    return;
  }
  await printRecords<BookingRow>(ctx.io, format, bookings, BOOKING_VIEW.columns, { now: ctx.now() });
}
