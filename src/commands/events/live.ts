/**
 * `sitectl events` on a terminal (docs/architecture.md "Interactive views"): the events as a live table in the interactive browser
 * (src/ui, loaded here with a dynamic import), newest first, as the Stripe CLI's `listen` and k9s show them.
 * Columns SEQ, WHEN (the event's age, `12s ago`; past a day its time on the site's clock), TYPE, ENTITY ID, and with `--forward-to` the DELIVERY of each event (the receiver's
 * status, the attempts, or why it failed). enter shows the event with its entity as JSON; `/` filters; q leaves
 * (0), Ctrl-C too (130). With `--follow` the table polls every `--interval` ms; without it, it shows the events
 * so far and `r` reads any newer ones.
 */
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { notice } from '../../core/log.js';
import { oneLine } from '../../core/text.js';
import type { PaneSpec, UiRow } from '../../ui/index.js';
import { uiColor, viewLink, withNoticesHeld } from '../shared/browse.js';
import { shortId } from '../../core/text.js';
import { type Delivery, EVENTS_PAGE, type EventRecord, eventCells, eventDetailLines, forwardEvent, readEvents } from './feed.js';
import { siteZone } from '../shared/time.js';

export interface LiveOptions {
  /** Show the events after this one. */
  after: number;
  follow: boolean;
  matches(type: string): boolean;
  /** Forward each event shown to this receiver. */
  target?: URL;
  /** Poll period while following, ms. */
  intervalMs: number;
}

/** Events a table keeps; older ones leave it (a day of following must not fill the memory). */
export const TABLE_LIMIT = 10_000;

/** What the DELIVERY column says: `200`, `200 (2 tries)`, `✗ connect ECONNREFUSED (4 tries)`, `…` while sent. */
export function deliveryText(d: Delivery | undefined): string {
  if (!d) return '…';
  const tries = d.attempts > 1 ? ` (${d.attempts} tries)` : '';
  return d.status ? `${d.status}${tries}` : `✗ ${oneLine(d.error ?? 'no reply')}${tries}`;
}

/**
 * The events of a table, newest first, with their deliveries: `add` as they are read, `delivered` as the
 * receiver answers; `rows()` is the same array until something changes or a second passes (the ages, `12s ago`,
 * read on the clock `now`; past a day the time on the clock of `zone`), so an idle table redraws once a second at
 * most.
 */
export class EventLog {
  private readonly events = new Map<number, { event: EventRecord; delivery?: Delivery }>();
  private cached: { second: number; rows: UiRow[] } | undefined;

  constructor(
    private readonly forwarding: boolean,
    private readonly limit = TABLE_LIMIT,
    private readonly zone = 'UTC',
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Adds events (any order; one already held is ignored), dropping the oldest past the limit. */
  add(events: readonly EventRecord[]): void {
    for (const event of events) {
      if (this.events.has(event.seq)) continue;
      this.events.set(event.seq, { event });
      this.cached = undefined;
    }
    if (this.events.size > this.limit) {
      const oldest = [...this.events.keys()].sort((a, b) => a - b).slice(0, this.events.size - this.limit);
      for (const seq of oldest) this.events.delete(seq);
    }
  }

  /** Records how the delivery of event `seq` ended. */
  delivered(seq: number, delivery: Delivery): void {
    const entry = this.events.get(seq);
    if (!entry) return;
    entry.delivery = delivery;
    this.cached = undefined;
  }

  /** The table's rows, newest first (row id: the event's seq). */
  rows(): UiRow[] {
    const now = this.now();
    const second = Math.floor(now.getTime() / 1000);
    if (this.cached?.second !== second) {
      this.cached = { second, rows: [...this.events.values()].sort((a, b) => b.event.seq - a.event.seq).map((e) => this.rowOf(e.event, e.delivery, now)) };
    }
    return this.cached.rows;
  }

  /** The readable lines of one event (enter): its fields, its delivery, then its entity as JSON. */
  detail(seq: number): Array<[string, string]> {
    const entry = this.events.get(seq);
    if (!entry) return [['seq', String(seq)]];
    return eventDetailLines(entry.event, this.forwarding ? [['delivery', deliveryText(entry.delivery)]] : []);
  }

  private rowOf(e: EventRecord, delivery: Delivery | undefined, now: Date): UiRow {
    const [seq, time, type, entityId] = eventCells(e, now, this.zone);
    const cells = [seq, time, type, shortId(entityId)];
    return { id: String(e.seq), cells: this.forwarding ? [...cells, deliveryText(delivery)] : cells };
  }
}

/**
 * Runs the live table until the user quits. The first read happens before the table is drawn, so a profile
 * that does not target the emulator fails as the piped command does.
 * @throws UserError (exit 1) off the emulator; CancelError (exit 130) on Ctrl-C
 */
export async function liveTable(ctx: Context, api: ApiClient, opts: LiveOptions): Promise<void> {
  const zone = await siteZone(ctx, api);
  const log = new EventLog(opts.target !== undefined, TABLE_LIMIT, zone, () => ctx.now());
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, ctx.signal]);
  let after = opts.after;
  let changed: () => void = () => undefined;
  let failure: string | undefined;
  let queue = Promise.resolve();
  let pending = 0;

  // Deliveries go one at a time in the order of the events, each row showing `…` until its answer comes.
  const forward = (e: EventRecord, target: URL) => {
    pending++;
    queue = queue
      .then(async () => {
        if (signal.aborted) return;
        log.delivered(e.seq, await forwardEvent(target, e, signal));
        changed();
      })
      .catch(() => undefined)
      .finally(() => pending--);
  };

  /** Reads every event after `after`; @returns whether the table changed. */
  const sync = async (): Promise<boolean> => {
    let added = false;
    for (;;) {
      const { events, lastSeq } = await readEvents(api, after, signal);
      const shown = events.filter((e) => opts.matches(e.type));
      log.add(shown);
      if (opts.target) for (const e of shown) forward(e, opts.target);
      added ||= shown.length > 0;
      after = Math.max(after, lastSeq);
      if (events.length < EVENTS_PAGE) return added;
    }
  };

  await sync();
  const ui = await import('../../ui/index.js');
  const pane: PaneSpec = {
    id: 'events',
    title: opts.target ? `forwarding to ${opts.target.href}` : opts.follow ? 'following' : 'events',
    columns: ['SEQ', 'WHEN', 'TYPE', 'ENTITY ID', ...(opts.target ? ['DELIVERY'] : [])],
    // On a narrow terminal the time goes first, then the entity id: the type says what happened.
    shapes: [{ fit: 'whole' }, { fit: 'whole', priority: 2 }, {}, { fit: 'whole', priority: 1 }, {}],
    empty: opts.follow ? `waiting for events after #${opts.after}: make a change in another terminal…` : 'no events match',
    open(server) {
      if (server) throw new UserError('events filter the rows shown: type text without field=');
      return {
        async next() {
          // Without --follow, r reads what happened since; following, the poll below has read it already.
          if (!opts.follow) await sync();
          if (failure) throw new Error(failure);
          return { rows: log.rows(), done: true };
        },
      };
    },
    detail: async (id) => log.detail(Number(id)),
  };

  try {
    await withNoticesHeld(ctx, () => ui.renderBrowser({
      title: `${ctx.bin.split(/[\\/]/).pop()?.replace(/\.js$/, '') ?? 'sitectl'} events`,
      panes: [pane],
      color: uiColor(ctx),
      zone,
      alternateScreen: ctx.env.TERM !== 'dumb',
      stdout: ctx.io.stderr as NodeJS.WriteStream,
      stdin: ctx.io.stdin as NodeJS.ReadStream,
      link: viewLink(ctx, api),
      signal: ctx.signal,
      live: (notify) => {
        changed = () => notify(['events']);
        if (opts.follow) void poll(() => changed());
        return () => stop.abort();
      },
    }));
  } finally {
    stop.abort();
    const last = log.rows()[0]?.id;
    if (pending) notice(ctx.io, `${pending} event${pending === 1 ? '' : 's'} not forwarded: the table was closed first`);
    if (last) notice(ctx.io, `last event shown: #${last} ('${ctx.bin.split(/[\\/]/).pop()?.replace(/\.js$/, '') ?? 'sitectl'} events --since ${last}' continues after it)`);
  }

  /** Follows the log until the table closes: a failed read shows in the table and is tried again. */
  async function poll(notify: () => void): Promise<void> {
    while (!signal.aborted) {
      try {
        const before = failure;
        failure = undefined;
        if ((await sync()) || before) notify();
      } catch (err) {
        if (signal.aborted) return;
        const text = err instanceof Error ? err.message : String(err);
        if (text !== failure) {
          failure = text;
          notify();
        }
      }
      await new Promise((r) => setTimeout(r, opts.intervalMs));
    }
  }
}
