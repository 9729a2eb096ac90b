/**
 * `sitectl dashboard [--interval S] [--days N] [--tz ZONE]` (docs/architecture.md "Interactive views"): the operator's day on one
 * screen, times on the site's clock (or `--tz`'s). Panes: the bookings of the next N days (7; from today) by
 * staff member, bookings waiting for confirmation, members waiting for approval, orders needing attention
 * (unpaid offline, awaiting payment (DRAFT), starting soon (PENDING), ending soon, paused) and the emulator's
 * recent events.
 * Each noun declares its panes (its work lists, commands/shared/work-lists.ts); the dashboard reads them from the
 * list of nouns. Single keys run the nouns' own verbs (commands/shared/ui-actions.ts: the same revision-checked calls as
 * `bookings confirm ID`, the bulk engine for marked rows). Every pane is read again each `--interval`; on the
 * emulator the event stream is followed too, so a change made elsewhere shows within a second.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { parseCount, parseDecimal } from '../../core/numbers.js';
import type { PaneSpec } from '../../ui/index.js';
import type { Invocation, LoadableNoun } from '../noun-list.js';
import { requireInteractive, uiColor, viewLink, withNoticesHeld } from '../shared/browse.js';
import { nounJump } from '../shared/jump.js';
import { siteZone, tzFlag } from '../shared/time.js';
import { type DeskSetting, eventPanes } from '../shared/work-lists.js';
import { eventCells, eventDetailLines, readEvents, type EventRecord } from '../events/feed.js';
import { shortId } from '../../core/text.js';

export interface DashboardOptions {
  interval?: string;
  days?: string;
  tz?: string;
}

/**
 * Runs the dashboard until q (Ctrl-C exits 130): the work lists of every noun whose header says `dashboard`
 * (commands/noun-list.ts), in the list's order, then the emulator's events.
 * @throws UserError (exit 2) for bad flags or without a terminal
 */
export async function run(opts: DashboardOptions, ctx: Context, nouns: readonly LoadableNoun[]): Promise<void> {
  const intervalSec = opts.interval === undefined ? 10 : parseDecimal(opts.interval, '--interval', { min: 1, max: 3600, inclusive: true, unit: 'seconds' });
  const days = opts.days === undefined ? 7 : parseCount(opts.days, '--days', 1, 60);
  requireInteractive(ctx, 'the dashboard', 'bookings list --status PENDING,CREATED (and members list --status PENDING, orders list --status PAUSED)');
  const [ui, api] = await Promise.all([import('../../ui/index.js'), ctx.api()]);
  const zone = tzFlag(opts.tz) ?? (await siteZone(ctx, api));
  const setting: DeskSetting = { ctx, api, zone, days };
  const declared = await Promise.all(
    nouns
      .filter((n) => n.dashboard)
      .map(async (n) => {
        const lists = await (await n.load()).workLists?.();
        if (!lists) throw new Error(`noun ${n.name} says dashboard but declares no workLists`);
        return lists(setting);
      }),
  );
  const workLists = declared.flat();
  const panes: PaneSpec[] = workLists.map((w) => w.pane);
  // An event reloads the panes whose work list names its kind, and the events pane.
  const panesOfEvent = (type: string): string[] => [...eventPanes(workLists, type), 'events'];

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
      columns: ['SEQ', 'WHEN', 'TYPE', 'ENTITY'],
      shapes: [{ fit: 'whole' }, { fit: 'whole', priority: 1 }, {}, { fit: 'whole' }],
      open(server) {
        // The recent events are the emulator's feed, not a query: a field=value is refused, never dropped.
        if (server) throw new UserError('the events pane filters the rows shown: type text without field=');
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
                // The entity's short id, as every table shows one (enter shows it whole, with the entity).
                const [seq, when, type, entityId] = eventCells(e, ctx.now(), zone);
                return { id: String(e.seq), cells: [seq, when, type, shortId(entityId)] };
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

  await withNoticesHeld(ctx, () => ui.renderBrowser({
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
    signal: ctx.signal,
    // :NOUN opens the noun's list in place of the dashboard (as `sitectl browse NOUN`), whatever its panes.
    jump: nounJump(ctx, nouns),
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
  }));
}

export function register(cmd: Command, ctx: Context, inv: Invocation): void {
  cmd
    .option('--interval <seconds>', 'read every pane again this often (default 10; the emulator also pushes its events)')
    .option('--days <n>', 'days of bookings in the first pane, today included (default 7; 1 for today only)')
    .option('--tz <zone>', "show times in this IANA zone (default: the site's)")
    .addHelpText(
      'after',
      "\nKeys: tab/shift-tab panes, ↑↓ move, enter details, / filter, s/S and shift+letter sort, space mark, r refresh,\n? every key, q quit; bookings c confirm, d decline, x cancel, a attended; members a approve, b block; orders\np pause, u resume, m mark paid. Destructive actions (decline, cancel, block, pause) ask first. :NOUN (:members,\n:plans) leaves the dashboard for that noun's list, as 'sitectl browse NOUN' shows it.",
    )
    .action(async (o: DashboardOptions) => {
      await run(o, ctx, inv.nouns ?? []);
    });
}
