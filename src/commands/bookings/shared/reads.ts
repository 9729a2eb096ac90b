/**
 * What the bookings read verbs (`list`, `count`, `export`) select and show (commands/shared/verbs.ts ReadSpec):
 * `--status`, `--service`, `--from/--to`, `--contact` and `--tz`, `--filter`/`--where`, sorted by start time;
 * `--with` adds the extras of the extended bookings query to the rows. Counts through the extended bookings
 * count (docs/bookings.md "The CLI").
 */
import { extendedBookingOps } from '../../../api/extended-bookings.js';
import { choiceOf } from '../../shared/choices.js';
import { tzFlag } from '../../shared/time.js';
import { countCall, type ReadSpec } from '../../shared/verbs.js';
import { addCriteriaFlags, criteriaFilter, type CriteriaFlags } from './criteria.js';
import { BOOKING_VIEW, bookingColumns, type BookingRow } from './view.js';

/** `--with` names and the request flags they set. */
const EXTRAS: Record<string, string> = {
  actions: 'withBookingAllowedActions',
  attendance: 'withBookingAttendanceInfo',
  conferencing: 'withBookingConferencingDetails',
  policy: 'withBookingPolicySettings',
  fees: 'withBookingFeeDetails',
};

/** The request flags of `--with a,b` (`all` for every one). @throws UserError (exit 2) for an unknown name */
export function extrasOf(text: string | undefined): Record<string, boolean> {
  if (text === undefined) return {};
  const names = text.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const out: Record<string, boolean> = {};
  for (const n of names) {
    if (n === 'all') for (const v of Object.values(EXTRAS)) out[v] = true;
    else if (EXTRAS[n]) out[EXTRAS[n]] = true;
    else choiceOf(n, [...Object.keys(EXTRAS), 'all'], '--with', { fold: (v) => v });
  }
  return out;
}

export const BOOKING_READS: ReadSpec<BookingRow> = {
  view: BOOKING_VIEW,
  defaultSort: 'startDate',
  flags: addCriteriaFlags,
  rowFlags(cmd) {
    cmd.option('--with <extras>', `extras to read: ${Object.keys(EXTRAS).join(', ')} or all (comma-separated)`);
  },
  async extra(opts, ctx) {
    const params = extrasOf(opts.with as string | undefined);
    return { filter: await criteriaFilter(opts as CriteriaFlags, ctx), params };
  },
  // The interactive table opens at today (its filter line shows `--from today`, to edit), not at the oldest booking.
  interactiveFlags: (opts): Record<string, string> => (opts.from === undefined && opts.to === undefined ? { from: 'today' } : {}),
  columns: (opts) => bookingColumns(tzFlag(opts.tz as string | undefined)),
  count: countCall(extendedBookingOps.countExtendedBookings, (filter) => ({ filter: filter ?? {} }), (reply) => reply.count),
};
