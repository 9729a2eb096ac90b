/**
 * `sitectl dashboard [--interval S] [--days N] [--tz ZONE]` (docs/architecture.md "Interactive views"): the operator's day on one
 * screen, times on the site's clock (or `--tz`'s). Panes: the bookings of the next N days (7; from today) by
 * staff member, bookings waiting for confirmation, members waiting for approval, orders needing attention
 * (unpaid offline, awaiting payment (DRAFT), starting soon (PENDING), ending soon, paused) and the emulator's
 * recent events.
 * Single keys run the nouns' own verbs (commands/shared/ui-actions.ts: the same revision-checked calls as
 * `bookings confirm ID`, the bulk engine for marked rows). Every pane is read again each `--interval`; on the
 * emulator the event stream is followed too, so a change made elsewhere shows within a second.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { listPages, type ListOperation } from '../../api/paging.js';
import type { Filter } from '../../api/schemas/common.js';
import type { Order } from '../../api/schemas/order.js';
import type { Member } from '../../api/schemas/member.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { parseCount, parseDecimal } from '../../core/numbers.js';
import { type Column, zoned } from '../../core/output.js';
import type { PaneSpec, UiRow } from '../../ui/index.js';
import { BOOKING_VIEW, type BookingRow, contactOf } from '../bookings/shared/view.js';
import { MEMBER_VIEW, memberName } from '../members/shared/view.js';
import { buyerEmail, buyerName, ORDER_VIEW } from '../orders/shared/view.js';
import { detailLines, paneColumns, requireInteractive, uiColor, uiRowOf, viewLink } from '../shared/browse.js';
import { parseWhen, siteZone, tzFlag } from '../shared/time.js';
import { daysText } from '../../core/when.js';
import { uiActions } from '../shared/ui-actions.js';
import { type EntityView, wireFilter } from '../shared/entity-view.js';
import { eventCells, eventDetailLines, readEvents, type EventRecord } from '../events/feed.js';

export interface DashboardOptions {
  interval?: string;
  days?: string;
  tz?: string;
}

const DAY_MS = 24 * 3600 * 1000;
/** Rows read per pane at most (the panes are work lists, not archives). */
const PANE_LIMIT = 300;

/**
 * Why an order needs attention (undefined when it does not), by the SDK's order statuses: paused; unpaid offline
 * (PENDING, ACTIVE or PAUSED); a DRAFT online order still awaiting its payment; a PENDING order starting within
 * `soonMs` (bought, not started: the member gets the plan then); an ACTIVE one ending within `soonMs`. Days are
 * calendar days on the clock of `zone` (`ends tomorrow`, `starts in 3 days`), as the END column's date.
 */
export function attentionOf(o: Order, now: Date, soonMs: number, zone: string): string | undefined {
  if (o.status === 'PAUSED') return 'paused';
  if (o.type === 'OFFLINE' && o.lastPaymentStatus === 'UNPAID' && o.status !== 'CANCELED' && o.status !== 'ENDED') return 'unpaid offline';
  if (o.status === 'DRAFT') return o.lastPaymentStatus === 'FAILED' ? 'payment failed' : 'awaiting payment';
  if (o.status === 'PENDING' && o.startDate instanceof Date && o.startDate.getTime() - now.getTime() <= soonMs) {
    return `starts ${daysText(o.startDate, now, zone)}`;
  }
  if (o.status === 'ACTIVE' && o.endDate instanceof Date && o.endDate.getTime() - now.getTime() <= soonMs && o.endDate.getTime() > now.getTime()) {
    return `ends ${daysText(o.endDate, now, zone)}`;
  }
  return undefined;
}

/** The panes an event type touches (`booking.confirmed` -> the bookings panes), besides the events pane. */
export function panesOfEvent(type: string): string[] {
  const kind = type.split('.')[0];
  if (kind === 'booking' || kind === 'multiServiceBooking') return ['today', 'awaiting', 'events'];
  if (kind === 'member') return ['members', 'events'];
  if (kind === 'order') return ['orders', 'events'];
  return ['events'];
}

async function collect<E>(ctx: Context, api: ApiClient, view: EntityView<E>, op: ListOperation, opts: { filter?: Filter; params?: Record<string, unknown>; sort?: Array<{ fieldName: string; order: 'ASC' | 'DESC' }> }): Promise<E[]> {
  const out: E[] = [];
  const params = { ...view.params, ...opts.params };
  for await (const page of listPages(api, op, { filter: wireFilter(view as EntityView<unknown>, opts.filter), sort: opts.sort, params, pageSize: op.paging.maxLimit, limit: PANE_LIMIT, signal: ctx.signal })) {
    for (const item of page.items) out.push(view.fromItem ? view.fromItem(item) : (item as E));
  }
  return out;
}

/** A pane read whole on each reload, with its entities kept for the detail view; times on the clock of `zone`. */
function pane<E extends { id?: string | null }>(
  ctx: Context,
  api: ApiClient,
  zone: string,
  spec: { id: string; title: string; view: EntityView<E>; columns: Column<E>[]; read(): Promise<E[]>; actions?: PaneSpec['actions'] },
): PaneSpec {
  const keep = new Map<string, E>();
  return {
    id: spec.id,
    title: spec.title,
    ...paneColumns(spec.columns),
    open(server) {
      if (server) throw new UserError('the dashboard filters the loaded rows only: type text without field=');
      let read = false;
      return {
        async next() {
          if (read) return { rows: [], done: true };
          read = true;
          const now = ctx.now();
          const entities = await spec.read();
          await spec.view.prepare?.(api, entities, ctx.signal);
          keep.clear();
          const rows: UiRow[] = [];
          for (const e of entities) {
            const id = String(e.id ?? '');
            keep.set(id, e);
            rows.push(await uiRowOf(id, e, spec.columns, now, zone));
          }
          return { rows, done: true, total: rows.length };
        },
      };
    },
    async detail(id) {
      const e = keep.get(id);
      return e ? detailLines(spec.view, e, ctx.now(), zone) : [['id', id]];
    },
    actions: spec.actions,
  };
}

/**
 * Runs the dashboard until q (Ctrl-C exits 130).
 * @throws UserError (exit 2) for bad flags or without a terminal
 */
export async function run(opts: DashboardOptions, ctx: Context): Promise<void> {
  const intervalSec = opts.interval === undefined ? 10 : parseDecimal(opts.interval, '--interval', { min: 1, max: 3600, inclusive: true, unit: 'seconds' });
  const days = opts.days === undefined ? 7 : parseCount(opts.days, '--days', 1, 60);
  requireInteractive(ctx, 'the dashboard', 'bookings list --status PENDING,CREATED (and members list --status PENDING, orders list --status PAUSED)');
  // The keys live with the nouns' verb declarations.
  const [ui, api, bookingVerbs, memberVerbs, orderVerbs] = await Promise.all([
    import('../../ui/index.js'),
    ctx.api(),
    import('../bookings/shared/transitions.js').then((m) => m.bookingKeys()),
    import('../members/shared/transitions.js').then((m) => m.memberKeys()),
    import('../orders/shared/transitions.js').then((m) => m.orderKeys()),
  ]);
  const zone = tzFlag(opts.tz) ?? (await siteZone(ctx, api));
  const bookingActions = uiActions(ctx, api, bookingVerbs);

  const byStart = [{ fieldName: 'startDate', order: 'ASC' as const }];
  // On a narrow terminal the id gives way first (then the staff, where it is not what the pane is ordered by):
  // start, service, contact and status stay whole at 80 columns.
  const bookingColumns = (first: Column<BookingRow>): Column<BookingRow>[] => [
    first,
    { key: 'start', get: (b) => zoned(b.startDate, zone), fit: 'whole' },
    { key: 'service', get: (b) => b.bookedEntity?.title ?? '', min: 20 },
    { key: 'contact', get: contactOf, min: 12 },
    { key: 'status', fit: 'whole' },
    { key: 'id', id: true, priority: 2 },
  ];
  const staffOf = (b: BookingRow) => b.bookedEntity?.slot?.resource?.name ?? '(no staff)';
  const live = new Set(['CONFIRMED', 'PENDING', 'CREATED', 'WAITING_LIST']);

  const panes: PaneSpec[] = [
    pane(ctx, api, zone, {
      id: 'today',
      // Named for what it lists: today only with --days 1, else the days from today on.
      title: days === 1 ? 'Today by staff' : `${days} days by staff`,
      view: BOOKING_VIEW,
      columns: bookingColumns({ key: 'staff', get: staffOf, min: 8 }),
      async read() {
        const from = parseWhen('today', zone, 'today', ctx.now().getTime());
        const filter = { startDate: { $gte: new Date(from).toISOString(), $lt: new Date(from + days * DAY_MS).toISOString() }, status: { $in: [...live] } };
        const list = await collect(ctx, api, BOOKING_VIEW, BOOKING_VIEW.query, { filter, sort: byStart });
        // Grouped by staff member, each one's bookings by start time (the query's order, kept by a stable sort).
        return list.sort((a, b) => staffOf(a).localeCompare(staffOf(b)));
      },
      actions: bookingActions,
    }),
    pane(ctx, api, zone, {
      id: 'awaiting',
      title: 'To confirm',
      view: BOOKING_VIEW,
      columns: bookingColumns({ key: 'staff', get: staffOf, min: 8, priority: 1 }),
      read: () =>
        collect(ctx, api, BOOKING_VIEW, BOOKING_VIEW.query, {
          filter: { status: { $in: ['PENDING', 'CREATED', 'WAITING_LIST'] }, startDate: { $gte: ctx.now().toISOString() } },
          sort: byStart,
        }),
      actions: bookingActions,
    }),
    pane<Member>(ctx, api, zone, {
      id: 'members',
      title: 'Members to approve',
      view: MEMBER_VIEW,
      columns: [
        { key: 'name', get: memberName, min: 12 },
        { key: 'loginEmail', header: 'EMAIL', min: 16 },
        { key: 'status', fit: 'whole' },
        { key: 'createdDate', header: 'JOINED', fit: 'whole', priority: 1 },
        { key: 'id', id: true, priority: 2 },
      ],
      read: () => collect(ctx, api, MEMBER_VIEW, MEMBER_VIEW.query, { filter: { status: 'PENDING' }, sort: [{ fieldName: 'createdDate', order: 'ASC' }] }),
      actions: uiActions(ctx, api, memberVerbs),
    }),
    pane<Order>(ctx, api, zone, {
      id: 'orders',
      title: 'Orders to check',
      view: ORDER_VIEW,
      columns: [
        { key: 'reason', get: (o) => attentionOf(o, ctx.now(), days * DAY_MS, zone) ?? '', fit: 'whole' },
        { key: 'buyer', get: buyerName, min: 12 },
        { key: 'plan', get: (o) => o.planName ?? o.planId ?? '', min: 12 },
        { key: 'status', fit: 'whole' },
        { key: 'payment', get: (o) => o.lastPaymentStatus ?? '', fit: 'whole', priority: 2 },
        { key: 'end', get: (o) => o.endDate ?? '', fit: 'whole' },
        { key: 'email', get: buyerEmail, priority: 1 },
        { key: 'id', id: true, priority: 3 },
      ],
      async read() {
        const [paused, unpaid, waiting, active] = await Promise.all([
          collect(ctx, api, ORDER_VIEW, ORDER_VIEW.query, { params: { orderStatuses: ['PAUSED'] } }),
          collect(ctx, api, ORDER_VIEW, ORDER_VIEW.query, { params: { paymentStatuses: ['UNPAID'] } }),
          collect(ctx, api, ORDER_VIEW, ORDER_VIEW.query, { params: { orderStatuses: ['DRAFT', 'PENDING'] } }),
          collect(ctx, api, ORDER_VIEW, ORDER_VIEW.query, { params: { orderStatuses: ['ACTIVE'] } }),
        ]);
        const now = ctx.now();
        const seen = new Set<string>();
        const out: Order[] = [];
        for (const o of [...paused, ...unpaid, ...waiting, ...active]) {
          if (seen.has(o.id) || !attentionOf(o, now, days * DAY_MS, zone)) continue;
          seen.add(o.id);
          out.push(o);
        }
        return out;
      },
      actions: uiActions(ctx, api, orderVerbs),
    }),
  ];

  // The events pane and the live feed exist on the emulator only (its control plane); elsewhere the interval
  // polling alone keeps the panes current.
  let after: number | undefined;
  try {
    const state = await api.request<{ events?: { lastSeq?: number } }>({ method: 'GET', path: '/__emulator/state', signal: ctx.signal });
    after = state.events?.lastSeq ?? 0;
  } catch {
    after = undefined;
  }
  if (after !== undefined) {
    const start = after;
    const recent = new Map<string, EventRecord>();
    panes.push({
      id: 'events',
      title: 'Events',
      columns: ['SEQ', 'TIME (UTC)', 'TYPE', 'ENTITY'],
      shapes: [{ fit: 'whole' }, { fit: 'whole', priority: 1 }, {}, { fit: 'whole' }],
      open() {
        let read = false;
        return {
          async next() {
            if (read) return { rows: [], done: true };
            read = true;
            const { events } = await readEvents(api, Math.max(0, (after ?? start) - 200), ctx.signal);
            const rows = events
              .slice(-100)
              .reverse()
              .map((e) => {
                recent.set(String(e.seq), e);
                return { id: String(e.seq), cells: eventCells(e) };
              });
            return { rows, done: true, total: rows.length };
          },
        };
      },
      async detail(id) {
        const e = recent.get(id);
        if (!e) return [['seq', id]];
        return eventDetailLines(e);
      },
    });
  }

  await ui.renderBrowser({
    title: 'sitectl dashboard',
    panes,
    color: uiColor(ctx),
    zone,
    alternateScreen: ctx.env.TERM !== 'dumb',
    intervalMs: intervalSec * 1000,
    reloadAllAfterAction: true,
    strip: after === undefined ? undefined : 'events',
    stdout: ctx.io.stderr as NodeJS.WriteStream,
    stdin: ctx.io.stdin as NodeJS.ReadStream,
    link: viewLink(ctx, api),
    live:
      after === undefined
        ? undefined
        : (notify) => {
            const stop = new AbortController();
            const signal = AbortSignal.any([stop.signal, ctx.signal]);
            void (async () => {
              while (!signal.aborted) {
                try {
                  const { events, lastSeq } = await readEvents(api, after!, signal);
                  after = Math.max(after!, lastSeq);
                  if (events.length) notify([...new Set(events.flatMap((e) => panesOfEvent(e.type)))]);
                } catch {
                  // A failed read is tried again at the next tick; the panes keep their rows.
                }
                await new Promise((r) => setTimeout(r, 300));
              }
            })();
            return () => stop.abort();
          },
  });
}

export function register(cmd: Command, ctx: Context): void {
  cmd
    .option('--interval <seconds>', 'read every pane again this often (default 10; the emulator also pushes its events)')
    .option('--days <n>', 'days of bookings in the first pane, today included (default 7; 1 for today only)')
    .option('--tz <zone>', "show times in this IANA zone (default: the site's)")
    .addHelpText(
      'after',
      '\nKeys: tab/shift-tab panes, ↑↓ move, enter details, / filter, space mark, r refresh, ? help, q quit;\nbookings c confirm, d decline, x cancel; members a approve, b block; orders p pause, u resume, m mark paid.\nDestructive actions (decline, cancel, block, pause) ask first.',
    )
    .action(async (o: DashboardOptions) => {
      await run(o, ctx);
    });
}
