/**
 * `sitectl events [--follow] [--type GLOB] [--since SEQ] [--forward-to URL] [--json|--ndjson|--csv [fields]]`
 * (docs/architecture.md "Interactive views"): the emulator's domain events (`booking.confirmed`,
 * `service.updated`, ...) of the current site, read from its control plane (`GET
 * /__emulator/events?after=SEQ&limit=N&site=ID`, contracts.md "src/emulator"), printed by the one exporter
 * (core/output.ts). Piped: NDJSON, one event a line with `seq`, `type`, `entityId`, `entity`, `createdDate`
 * (`--csv [fields]` and `--json [fields]` as for every list; `--json` needs an end, so not with `--follow`); on a
 * terminal: a live table, newest first (live.ts, which alone loads Ink), or a table printed as the events come
 * when the terminal cannot take keys (`CI`, `--no-input`).
 * `--forward-to` posts each event as JSON to a webhook receiver with retries, as the Stripe CLI's
 * `listen --forward-to` does. Every wait ends at once on Ctrl-C (exit 130).
 */
import type { Command } from 'commander';
import { abortableSleep } from '../../bulk/wait.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { parseCount } from '../../core/numbers.js';
import { notice } from '../../core/log.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, ndjsonWhenPiped, printRecords, resolveFormat } from '../../core/output.js';
import { EVENTS_PAGE, type EventRecord, forwardEvent, lastSeqOf, readEvents } from './feed.js';
import { siteZone } from '../shared/time.js';

export interface EventsOptions extends FormatFlags {
  follow?: boolean;
  type?: string[];
  since?: string;
  forwardTo?: string;
  /** Poll period while following, ms. */
  interval?: string;
}

/** The fields of an event, for `--json` and `--csv` field lists (dotted paths reach into `entity`). */
const EVENT_FIELDS = ['seq', 'type', 'entityId', 'entity', 'createdDate'];

/** Columns of the printed table and of CSV/TSV: seq, time (a terminal: the time rule; else ISO), type, entity id. */
const COLUMNS: Column<EventRecord>[] = [
  { key: 'seq', align: 'right', width: 6 },
  { key: 'createdDate', header: 'TIME', get: (e) => new Date(e.createdDate), width: 16 },
  { key: 'type', width: 28 },
  { key: 'entityId', header: 'ENTITY', width: 36 },
];

/**
 * A matcher of `--type` patterns: dotted names where `*` stands for any run of characters (`booking.*`,
 * `*.created`); several patterns (repeated or comma-separated) match any of them; none matches everything.
 * @throws UserError (exit 2) for an empty pattern or one with characters an event type never has
 */
export function typeMatcher(patterns: readonly string[] | undefined): (type: string) => boolean {
  const list = (patterns ?? []).flatMap((p) => p.split(',')).map((p) => p.trim());
  if (list.length === 0) return () => true;
  const res = list.map((p) => {
    if (!/^[A-Za-z0-9_.*-]+$/.test(p)) throw new UserError(`--type: '${p}' is not an event type pattern`, "use dotted names with * for any part, e.g. 'booking.*' or '*.created'");
    return new RegExp(`^${p.replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`);
  });
  return (type) => res.some((re) => re.test(type));
}

/**
 * `--forward-to` checked: an http(s) URL.
 * @throws UserError (exit 2) otherwise
 */
export function forwardUrl(raw: string | undefined): URL | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    throw new UserError(`--forward-to: '${raw}' is not a URL`, 'e.g. --forward-to http://localhost:4242/webhooks');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserError(`--forward-to takes an http or https URL, got '${raw}'`);
  return url;
}

/**
 * Runs the command.
 * @throws UserError (exit 2) for bad flags, (exit 1) off the emulator; AbortError (exit 130) on Ctrl-C
 */
export async function run(opts: EventsOptions, ctx: Context): Promise<void> {
  const asked = resolveFormat(opts, fieldsChecker(EVENT_FIELDS), { columns: COLUMNS.map((c) => c.key) });
  if (asked.kind === 'json' && opts.follow) throw new UserError('--json prints one array when the events end, and --follow does not end', 'use --ndjson or --csv, which print each event as it comes');
  const format = ndjsonWhenPiped(ctx.io, asked);
  const matches = typeMatcher(opts.type);
  const target = forwardUrl(opts.forwardTo);
  const since = opts.since !== undefined ? parseCount(opts.since, '--since (an event number, seq)', 0) : undefined;
  const interval = opts.interval === undefined ? 250 : parseCount(opts.interval, '--interval (milliseconds)', 50, 60_000);
  const api = await ctx.api();
  const table = format.kind === 'table';
  let after = since !== undefined ? since : opts.follow ? await lastSeqOf(api, ctx.signal) : 0;
  if (table && ctx.io.canPrompt() && ctx.io.isStderrTTY) {
    const { liveTable } = await import('./live.js');
    return liveTable(ctx, api, { after, follow: Boolean(opts.follow), matches, target, intervalMs: interval });
  }
  if (opts.follow) notice(ctx.io, `following events after ${after}${target ? `, forwarding to ${target.href}` : ''}; Ctrl-C stops`);
  // Each event is printed, then forwarded, before the next is read.
  async function* feed(): AsyncGenerator<EventRecord> {
    for (;;) {
      const { events, lastSeq } = await readEvents(api, after, ctx.signal);
      for (const e of events) {
        if (!matches(e.type)) continue;
        yield e;
        if (target) {
          const r = await forwardEvent(target, e, ctx.signal);
          const tries = r.attempts > 1 ? ` after ${r.attempts} attempts` : '';
          notice(ctx.io, r.status ? `  -> POST ${target.href} [${r.status}] ${e.type} #${e.seq}${tries}` : `  -> POST ${target.href} failed${tries}: ${r.error ?? 'no reply'} (${e.type} #${e.seq})`);
        }
      }
      after = Math.max(after, lastSeq);
      if (events.length === EVENTS_PAGE) continue;
      if (!opts.follow) return;
      await abortableSleep(interval, ctx.signal);
    }
  }
  // A terminal shows times on the site's clock (the table's own zone line names it); piped output stays ISO.
  const zone = format.kind === 'table' && ctx.io.isStdoutTTY ? await siteZone(ctx, api) : undefined;
  await printRecords(ctx.io, format, feed(), COLUMNS, { now: ctx.now(), zone, stream: true, empty: 'No events match.' });
}

export function register(noun: Command, ctx: Context): void {
  const cmd = noun
    .option('-f, --follow', 'keep running and show events as they happen (from now on, unless --since)')
    .option('--type <pattern>', "only these types, e.g. 'booking.*' or 'member.approved,order.*' (repeatable)", (v: string, prev: string[] = []) => [...prev, v])
    .option('--since <seq>', 'events after this event number (default: all; with --follow, from now)')
    .option('--forward-to <url>', 'POST each event as JSON to this URL (retried on failure), like a webhook')
    .option('--interval <ms>', 'how often --follow asks for new events (default 250)')
    .addHelpText(
      'after',
      '\nOn a terminal the events are a live table, newest first (with --forward-to, a DELIVERY column): ↑↓ move,\nenter the event and its entity as JSON, / filter, s sort, r read new events, ? help, q quit. Piped: NDJSON\n(--ndjson on a terminal too; --csv [fields]; --json [fields] without --follow).\n\nExamples:\n  sitectl events --type booking.confirmed\n  sitectl events --follow --type \'booking.*\'\n  sitectl events --follow --forward-to http://localhost:4242/webhooks\n  sitectl events --since 120 | jq -r .type\n  sitectl events --type \'member.*\' --csv seq,type,entityId',
    );
  addFormatFlags(cmd).action(async (o: EventsOptions) => {
    await run(o, ctx);
  });
}
