/**
 * `sitectl events [--follow] [--type GLOB] [--since SEQ] [--forward-to URL]` (issue 9 section 3): the
 * emulator's domain events (`booking.confirmed`, `service.updated`, ...) of the current site, read from its
 * control plane (`GET /__emulator/events?after=SEQ&limit=N&site=ID`, contracts.md "src/emulator"). Piped: NDJSON,
 * one event a line with `seq`, `type`, `entityId`, `entity`, `createdDate`; on a terminal: a table that grows
 * as events come. `--forward-to` posts each event as JSON to a webhook receiver with retries, as the Stripe
 * CLI's `listen --forward-to` does. Every wait ends at once on Ctrl-C (exit 130).
 */
import { deadline } from '../../core/deadline.js';
import '../../startup.js';
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { abortableSleep } from '../../bulk/wait.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { notice } from '../../core/log.js';
import { escapeControl } from '../../core/text.js';

/** One event as the command prints and forwards it. */
export interface EventRecord {
  seq: number;
  type: string;
  entityId: string;
  entity: unknown;
  createdDate: string;
}

interface WireEvent extends EventRecord {
  siteId?: string;
}

export interface EventsOptions {
  follow?: boolean;
  type?: string[];
  since?: string;
  forwardTo?: string;
  ndjson?: boolean;
  /** Poll period while following, ms. */
  interval?: string;
}

/** Events read per request (the control plane's most). */
const PAGE = 1000;

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
 * Reads the events after `after` (at most {@link PAGE}) of the client's site.
 * @throws UserError (exit 1) when the target is not an emulator (its control plane is missing); ApiError
 */
export async function readEvents(api: ApiClient, after: number, signal: AbortSignal): Promise<{ events: EventRecord[]; lastSeq: number }> {
  try {
    const reply = await api.request<{ events: WireEvent[]; lastSeq: number }>({
      method: 'GET',
      path: '/__emulator/events',
      query: { after, limit: PAGE, ...(api.siteId ? { site: api.siteId } : {}) },
      signal,
    });
    return { events: reply.events.map(({ seq, type, entityId, entity, createdDate }) => ({ seq, type, entityId, entity, createdDate })), lastSeq: reply.lastSeq };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      throw new UserError('events come from the local emulator, and this profile does not target one', 'run against the emulator (the default local profile), or use --profile local', 1);
    }
    throw err;
  }
}

/** The newest event's number, so `--follow` without `--since` shows only what happens from now on. */
async function lastSeqOf(api: ApiClient, signal: AbortSignal): Promise<number> {
  const state = await api.request<{ events?: { lastSeq?: number } }>({ method: 'GET', path: '/__emulator/state', signal });
  return state.events?.lastSeq ?? 0;
}

/**
 * Posts one event as JSON to `url`: up to 4 attempts, on a network failure, 429 or 5xx, waiting 0.25, 0.5, 1 s
 * (each attempt bounded to 10 s). Any other reply is final.
 * @returns the last status (0 when no reply came) and the attempts made
 */
export async function forwardEvent(url: URL, event: EventRecord, signal: AbortSignal, attempts = 4): Promise<{ status: number; attempts: number; error?: string }> {
  let last: { status: number; error?: string } = { status: 0 };
  for (let i = 1; i <= attempts; i++) {
    const limit = deadline(signal, 10_000);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'sitectl-events', 'sitectl-event-type': event.type, 'sitectl-event-seq': String(event.seq) },
        body: JSON.stringify(event),
        signal: limit.signal,
      });
      await res.arrayBuffer().catch(() => undefined);
      last = { status: res.status };
      if (res.status < 500 && res.status !== 429) return { ...last, attempts: i };
    } catch (err) {
      signal.throwIfAborted();
      last = { status: 0, error: err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err) };
    } finally {
      limit.dispose();
    }
    if (i < attempts) await abortableSleep(250 * 2 ** (i - 1), signal);
  }
  return { ...last, attempts };
}

/** One terminal line of an event: seq, time, type, entity id. */
export function eventLine(e: EventRecord): string {
  const time = e.createdDate.slice(0, 19).replace('T', ' ');
  return `${String(e.seq).padStart(6)}  ${time}  ${escapeControl(e.type).padEnd(28)}  ${escapeControl(e.entityId)}`;
}

/**
 * Runs the command.
 * @throws UserError (exit 2) for bad flags, (exit 1) off the emulator; AbortError (exit 130) on Ctrl-C
 */
export async function run(opts: EventsOptions, ctx: Context): Promise<void> {
  const matches = typeMatcher(opts.type);
  const target = forwardUrl(opts.forwardTo);
  if (opts.since !== undefined && !/^\d+$/.test(opts.since)) throw new UserError(`--since takes an event number (seq) such as 120, got '${opts.since}'`);
  const interval = opts.interval === undefined ? 250 : Number(opts.interval);
  if (!Number.isInteger(interval) || interval < 50 || interval > 60_000) throw new UserError(`--interval takes milliseconds from 50 to 60000, got '${opts.interval}'`);
  const api = await ctx.api();
  const table = ctx.io.isStdoutTTY && !opts.ndjson;
  let after = opts.since !== undefined ? Number(opts.since) : opts.follow ? await lastSeqOf(api, ctx.signal) : 0;
  if (table) ctx.io.stdout.write(`${'SEQ'.padStart(6)}  ${'TIME (UTC)'.padEnd(19)}  ${'TYPE'.padEnd(28)}  ENTITY\n`);
  if (opts.follow) notice(ctx.io, `following events after ${after}${target ? `, forwarding to ${target.href}` : ''}; Ctrl-C stops`);
  let shown = 0;
  for (;;) {
    const { events, lastSeq } = await readEvents(api, after, ctx.signal);
    for (const e of events) {
      if (!matches(e.type)) continue;
      shown++;
      ctx.io.stdout.write(table ? `${eventLine(e)}\n` : `${JSON.stringify(e)}\n`);
      if (target) {
        const r = await forwardEvent(target, e, ctx.signal);
        const tries = r.attempts > 1 ? ` after ${r.attempts} attempts` : '';
        notice(ctx.io, r.status ? `  -> POST ${target.href} [${r.status}] ${e.type} #${e.seq}${tries}` : `  -> POST ${target.href} failed${tries}: ${r.error ?? 'no reply'} (${e.type} #${e.seq})`);
      }
    }
    after = Math.max(after, lastSeq);
    if (events.length === PAGE) continue;
    if (!opts.follow) break;
    await abortableSleep(interval, ctx.signal);
  }
  if (table && shown === 0) notice(ctx.io, 'No events match.');
}

export function register(program: Command, ctx: Context): void {
  program
    .command('events')
    .description("The emulator's domain events of the site: list, follow, filter by type, forward to a webhook")
    .option('-f, --follow', 'keep running and show events as they happen (from now on, unless --since)')
    .option('--type <pattern>', "only these types, e.g. 'booking.*' or 'member.approved,order.*' (repeatable)", (v: string, prev: string[] = []) => [...prev, v])
    .option('--since <seq>', 'events after this event number (default: all; with --follow, from now)')
    .option('--forward-to <url>', 'POST each event as JSON to this URL (retried on failure), like a webhook')
    .option('--ndjson', 'one JSON event a line even on a terminal (the default when piped)')
    .option('--interval <ms>', 'how often --follow asks for new events (default 250)')
    .addHelpText(
      'after',
      '\nExamples:\n  sitectl events --type booking.confirmed\n  sitectl events --follow --type \'booking.*\'\n  sitectl events --follow --forward-to http://localhost:4242/webhooks\n  sitectl events --since 120 | jq -r .type',
    )
    .action(async (o: EventsOptions) => {
      await run(o, ctx);
    });
}
