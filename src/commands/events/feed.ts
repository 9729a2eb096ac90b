/**
 * The emulator's domain events as `events` and the dashboard read them: pages of the control plane's event log
 * (`GET /__emulator/events?after=SEQ&limit=N&site=ID`, contracts.md "src/emulator"), and the delivery of one
 * event to a webhook receiver with retries (`--forward-to`, as the Stripe CLI's `listen --forward-to`).
 */
import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { abortableSleep } from '../../bulk/wait.js';
import { deadline } from '../../core/deadline.js';
import { UserError } from '../../core/errors.js';
import { escapeControl } from '../../core/text.js';
import { ageText } from '../../core/when.js';

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

/** Events read per request (the control plane's most). */
export const EVENTS_PAGE = 1000;

/**
 * Reads the events after `after` (at most {@link EVENTS_PAGE}) of the client's site.
 * @throws UserError (exit 1) when the target is not an emulator (its control plane is missing); ApiError
 */
export async function readEvents(api: ApiClient, after: number, signal: AbortSignal): Promise<{ events: EventRecord[]; lastSeq: number }> {
  try {
    const reply = await api.request<{ events: WireEvent[]; lastSeq: number }>({
      method: 'GET',
      path: '/__emulator/events',
      query: { after, limit: EVENTS_PAGE, ...(api.siteId ? { site: api.siteId } : {}) },
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
export async function lastSeqOf(api: ApiClient, signal: AbortSignal): Promise<number> {
  const state = await api.request<{ events?: { lastSeq?: number } }>({ method: 'GET', path: '/__emulator/state', signal });
  return state.events?.lastSeq ?? 0;
}

/** How one delivery to the receiver ended: the last status (0 when no reply came) and the attempts made. */
export interface Delivery {
  status: number;
  attempts: number;
  error?: string;
}

/**
 * Posts one event as JSON to `url`: up to 4 attempts, on a network failure, 429 or 5xx, waiting 0.25, 0.5, 1 s
 * (each attempt bounded to 10 s). Any other reply is final.
 * @throws AbortError when `signal` aborts (Ctrl-C, or the live table closed)
 */
export async function forwardEvent(url: URL, event: EventRecord, signal: AbortSignal, attempts = 4): Promise<Delivery> {
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

/**
 * The readable lines of one event (its detail view): seq, type, entity id, time, the extra lines given (a
 * delivery), then its entity as indented JSON, every line escaped.
 */
export function eventDetailLines(e: EventRecord, extra: Array<[string, string]> = []): Array<[string, string]> {
  const json = (JSON.stringify(e.entity, null, 2) ?? 'null').split('\n');
  return [
    ['seq', String(e.seq)],
    ['type', escapeControl(e.type)],
    ['entity id', escapeControl(e.entityId)],
    ['created', escapeControl(e.createdDate)],
    ...extra,
    ...json.map((line, i) => [i === 0 ? 'entity' : '', escapeControl(line)] as [string, string]),
  ];
}

/** An event as table cells: seq, its age (`3m ago`, then the time on the clock of `zone`), type, entity id (escaped). */
export function eventCells(e: EventRecord, now: Date, zone: string): [string, string, string, string] {
  return [String(e.seq), ageText(new Date(e.createdDate), now, zone), escapeControl(e.type), escapeControl(e.entityId)];
}
