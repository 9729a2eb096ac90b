/**
 * `sitectl bookings actions ID...`: whether each booking may still be cancelled or rescheduled under its
 * service's policy (the bulk allowed-actions call, up to 100 ids per request).
 */
import type { Command } from 'commander';
import { bookings } from '../../api/bookings.js';
import { MAX_BULK_ALLOWED_ACTIONS } from '../../api/schemas/booking.js';
import type { Context } from '../../context.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, printRecords, resolveFormat } from '../../core/output.js';
import { idOf } from '../shared/verbs.js';
import { failIfMissing } from '../shared/ids.js';
import { BOOKING_VIEW } from './shared/view.js';

interface Row {
  id: string;
  cancel?: boolean;
  reschedule?: boolean;
  error?: string;
}

const COLUMNS: Column<Row>[] = [
  { key: 'id', noTruncate: true },
  { key: 'cancel' },
  { key: 'reschedule' },
  { key: 'error' },
];

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('actions')
    .description('What may still be done with bookings: cancel, reschedule')
    .argument('<ids...>', 'bookings (ids or unique prefixes)')
    .addHelpText('after', '\nExample:\n  sitectl bookings actions 7c1e 9a02 --json');
  addFormatFlags(cmd).action(async (ids: string[], o: FormatFlags) => {
    await run({ ...o, ids }, ctx);
  });
}

export async function run(opts: FormatFlags & { ids: string[] }, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['id', 'cancel', 'reschedule', 'error']));
  const api = await ctx.api();
  const ids: string[] = [];
  for (const given of opts.ids) ids.push(await idOf(ctx, api, BOOKING_VIEW, given));
  const rows: Row[] = [];
  for (let at = 0; at < ids.length; at += MAX_BULK_ALLOWED_ACTIONS) {
    const chunk = ids.slice(at, at + MAX_BULK_ALLOWED_ACTIONS);
    const reply = await bookings.bulkCalculateAllowedActions(api, { bookingIds: chunk }, { signal: ctx.signal });
    for (const r of reply.results) {
      const id = chunk[r.itemMetadata.originalIndex] ?? r.itemMetadata.id ?? '';
      rows.push(r.itemMetadata.success ? { id, cancel: r.item?.cancel ?? false, reschedule: r.item?.reschedule ?? false } : { id, error: r.itemMetadata.error?.code ?? 'FAILED' });
    }
  }
  await printRecords(ctx.io, format, rows, COLUMNS, { now: ctx.now() });
  failIfMissing(rows, 'booking');
}
