/**
 * `sitectl bookings list`: bookings through the extended bookings query (cursor pages of up to 100), filtered by
 * `--status`, `--service`, `--from/--to`, `--contact` and/or `--filter`/`--where`, with the extras asked for by
 * `--with` (docs/bookings.md "The CLI"). Times on a terminal are on the booking's own clock, or `--tz`'s.
 */
import { choiceOf } from '../shared/choices.js';
import { listVerb } from '../shared/verbs.js';
import { addCriteriaFlags, criteriaFilter, type CriteriaFlags } from './shared/criteria.js';
import { BOOKING_VIEW, bookingColumns } from './shared/view.js';
import { tzFlag } from '../shared/time.js';

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

export const { register, run } = listVerb({
  keys: async () => (await import('./shared/transitions.js')).bookingKeys(),
  view: BOOKING_VIEW,
  description: 'List bookings (by status, service, dates, contact or any filter), by start time',
  defaultSort: 'startDate',
  examples: [
    'sitectl bookings list --status PENDING,CREATED --from today --to tomorrow',
    "sitectl bookings list --service 'Swedish Massage' --with actions --json id,status,allowedActions",
    'sitectl bookings list --where bookedEntity.slot.resource.id=<staff id> --sort startDate --all --ndjson',
  ],
  flags(cmd) {
    addCriteriaFlags(cmd);
    cmd.option('--with <extras>', `extras to read: ${Object.keys(EXTRAS).join(', ')} or all (comma-separated)`);
  },
  async extra(opts, ctx) {
    const params = extrasOf(opts.with as string | undefined);
    // The interactive table opens at today (its filter line shows it, to edit), not at the oldest booking.
    const dated = opts.interactive && opts.from === undefined && opts.to === undefined ? { ...opts, from: 'today' } : opts;
    return { filter: await criteriaFilter(dated as CriteriaFlags, ctx), params };
  },
  columns: (opts) => bookingColumns(tzFlag(opts.tz as string | undefined)),
});
