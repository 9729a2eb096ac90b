/**
 * The bookings' work lists on the dashboard (commands/shared/work-lists.ts): the bookings of the next `--days`
 * days by staff member, and the bookings waiting for confirmation; the keys are the bookings' own (bookingKeys).
 */
import { zoned, type Column } from '../../../core/output.js';
import { daysLater } from '../../../core/when.js';
import { andFilters } from '../../shared/browse.js';
import { parseWhen } from '../../shared/time.js';
import { uiActions } from '../../shared/ui-actions.js';
import { collectPages, type WorkLists, workListPane } from '../../shared/work-lists.js';
import { BOOKING_READS } from './reads.js';
import { bookingKeys } from './transitions.js';
import { BOOKING_VIEW, type BookingRow, contactOf } from './view.js';

const staffOf = (b: BookingRow) => b.bookedEntity?.slot?.resource?.name ?? '(no staff)';
const LIVE = ['CONFIRMED', 'PENDING', 'CREATED', 'WAITING_LIST'];
const TO_CONFIRM = ['PENDING', 'CREATED', 'WAITING_LIST'];
const byStart = [{ fieldName: 'startDate', order: 'ASC' as const }];

/** The panes `today` (the next `days` days by staff) and `awaiting` (to confirm, from now on). */
export const workLists: WorkLists = async (setting) => {
  const { ctx, api, zone, days } = setting;
  const actions = uiActions(ctx, api, await bookingKeys());
  // On a narrow terminal the id gives way first (then the staff, where it is not what the pane is ordered by):
  // start, service, contact and status stay whole at 80 columns.
  const columns = (first: Column<BookingRow>): Column<BookingRow>[] => [
    first,
    { key: 'start', get: (b) => zoned(b.startDate, zone), fit: 'whole' },
    { key: 'service', get: (b) => b.bookedEntity?.title ?? '', min: 20 },
    { key: 'contact', get: contactOf, min: 12 },
    { key: 'status', fit: 'whole' },
    { key: 'id', id: true, priority: 2 },
  ];
  const events = ['booking', 'multiServiceBooking'];
  return [
    {
      events,
      pane: workListPane(setting, {
        id: 'today',
        // Named for what it lists: today only with --days 1, else the days from today on.
        title: days === 1 ? 'Today by staff' : `${days} days by staff`,
        view: BOOKING_VIEW,
        columns: columns({ key: 'staff', get: staffOf, min: 8 }),
        async *read(where) {
          const from = parseWhen('today', zone, 'today', ctx.now().getTime());
          const filter = { startDate: { $gte: new Date(from).toISOString(), $lt: daysLater(from, days, zone).toISOString() }, status: { $in: LIVE } };
          for await (const step of collectPages(ctx, api, BOOKING_VIEW, BOOKING_VIEW.query, { filter: andFilters(filter, where), sort: byStart, count: BOOKING_READS.count })) {
            // Grouped by staff member, each one's bookings by start time (the query's order, kept by a stable sort).
            step.items.sort((a, b) => staffOf(a).localeCompare(staffOf(b)));
            yield step;
          }
        },
        actions,
      }),
    },
    {
      events,
      pane: workListPane(setting, {
        id: 'awaiting',
        title: 'To confirm',
        view: BOOKING_VIEW,
        columns: columns({ key: 'staff', get: staffOf, min: 8, priority: 1 }),
        read: (where) => collectPages(ctx, api, BOOKING_VIEW, BOOKING_VIEW.query, { filter: andFilters({ status: { $in: TO_CONFIRM }, startDate: { $gte: ctx.now().toISOString() } }, where), sort: byStart, count: BOOKING_READS.count }),
        actions,
      }),
    },
  ];
};
