/**
 * `sitectl events` on a terminal, in process: the live table drawn by Ink on fake terminal streams over a fake
 * event log (the control plane's `/__emulator/events` reply) and a real local webhook receiver. Checks: events
 * that arrive while it runs appear newest first, the cursor follows the newest, enter shows the event's entity
 * as JSON, the DELIVERY column shows the receiver's answer after a retry, q ends it. Waits for frames, never
 * fixed time.
 */
import '../../helpers/ink-without-ci.js';
import { createServer, type Server } from 'node:http';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeStdin, FakeStdout, untilFrame as until } from '../../helpers/ink-streams.js';
import type { ApiClient } from '../../../src/api/client.js';
import type { Context } from '../../../src/context.js';
import type { EventRecord } from '../../../src/commands/events/feed.js';
import { deliveryText, EventLog, liveTable } from '../../../src/commands/events/live.js';


/** Five minutes after the events below were made. */
const NOW = new Date('2026-11-23T10:05:00Z');

function event(seq: number, type = 'booking.confirmed'): EventRecord {
  return { seq, type, entityId: `b${seq}0000000-aaaa-bbbb-cccc-dddddddddddd`, entity: { id: `b${seq}`, status: 'CONFIRMED', note: 'x\u009by' }, createdDate: `2026-11-23T10:00:0${seq % 10}.000Z` };
}

/** A control plane over an event list the test appends to. */
function fakeApi(log: EventRecord[]): ApiClient {
  return {
    siteId: 'site',
    async request({ query }: { query?: { after: number } }) {
      // The site's locations (its zone), then the control plane's events.
      if (query?.after === undefined) return { businessLocations: { locations: [{ timeZone: 'America/Los_Angeles', default: true }] } };
      const events = log.filter((e) => e.seq > query.after);
      return { events, lastSeq: log.at(-1)?.seq ?? 0 };
    },
  } as unknown as ApiClient;
}

function fakeCtx() {
  const stderr = new FakeStdout();
  const stdin = new FakeStdin();
  const abort = new AbortController();
  const ctx = {
    io: { stderr, stdin, stdout: new PassThrough(), isStdoutTTY: true, isStderrTTY: true, colorEnabled: false, canPrompt: () => true },
    env: { TERM: 'dumb' },
    bin: 'sitectl',
    signal: abort.signal,
    now: () => NOW,
    holdWaitNotices: () => () => {},
  } as unknown as Context;
  return { ctx, stderr, press: (keys: string) => stdin.write(keys), abort };
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

describe('events live table', () => {
  it('shows events as they arrive, newest first, follows the newest, opens one as JSON, and q ends it', async () => {
    const log = [event(1)];
    const { ctx, stderr, press } = fakeCtx();
    const done = liveTable(ctx, fakeApi(log), { after: 0, follow: true, matches: (t) => t.startsWith('booking.'), intervalMs: 50 });
    await until(stderr, (f) => /^> {2}1 {4}4m ago {2}booking\.confirmed {2}b1000000 *$/m.test(f), 'the first event, by its age');
    expect(stderr.last).toMatch(/^ {3}SEQ {2}WHEN +TYPE +ENTITY ID *$/m);
    expect(stderr.last).toMatch(/times in America\/Los_Angeles/);
    log.push(event(2, 'member.approved'), event(3));
    const frame = await until(stderr, (f) => /^> {2}3 /m.test(f), 'the newest event on top');
    expect(frame).not.toMatch(/member\.approved/);
    expect(frame).toMatch(/^ {3}1 /m);
    press('\r');
    const detail = await until(stderr, (f) => /^entity +\{ *$/m.test(f), 'the entity JSON');
    expect(detail).toMatch(/^entity id +b30000000-aaaa-bbbb-cccc-dddddddddddd *$/m);
    expect(detail).toMatch(/^ +"status": "CONFIRMED", *$/m);
    expect(detail).toMatch(/"note": "x\\x9by"/);
    press('\u001b');
    await until(stderr, (f) => /^> {2}3 /m.test(f), 'the table again');
    press('q');
    await done;
    expect(stderr.all).toMatch(/last event shown: #3 \('sitectl events --since 3' continues after it\)/);
  });

  it('shows each delivery to --forward-to in its own column: a 503 retried, then 200', async () => {
    let calls = 0;
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(++calls === 1 ? 503 : 200).end());
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const target = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`);
    const { ctx, stderr, press } = fakeCtx();
    const done = liveTable(ctx, fakeApi([event(4)]), { after: 0, follow: false, matches: () => true, target, intervalMs: 50 });
    const frame = await until(stderr, (f) => /b4000000 +200 \(2 tries\) *$/m.test(f), 'the delivery');
    expect(frame).toMatch(/ENTITY ID {2}DELIVERY *$/m);
    expect(frame).toMatch(/forwarding to http:\/\/127\.0\.0\.1:\d+\/hooks · 1 loaded/);
    press('q');
    await done;
    expect(calls).toBe(2);
  });

  it('Ctrl-C ends it with 130 (a CancelError)', async () => {
    const { ctx, stderr, press } = fakeCtx();
    const done = liveTable(ctx, fakeApi([]), { after: 7, follow: true, matches: () => true, intervalMs: 50 });
    await until(stderr, (f) => /waiting for events after #7/.test(f), 'the empty table');
    press('\u0003');
    await expect(done).rejects.toMatchObject({ name: 'CancelError' });
  });
});

describe('event log of the table', () => {
  it('keeps the newest events up to its limit, newest first, and the same rows until one changes', () => {
    let now = NOW;
    const log = new EventLog(true, 3, 'America/Los_Angeles', () => now);
    log.add([event(1), event(2)]);
    const rows = log.rows();
    expect(log.rows()).toBe(rows);
    expect(rows.map((r) => r.cells)).toEqual([
      ['2', '4m ago', 'booking.confirmed', 'b2000000', '…'],
      ['1', '4m ago', 'booking.confirmed', 'b1000000', '…'],
    ]);
    // A second later the ages are read again; past a day an event shows its time on the site's clock.
    now = new Date('2026-11-24T11:00:00Z');
    expect(log.rows()).not.toBe(rows);
    expect(log.rows()[0]!.cells[1]).toBe('2026-11-23 02:00');
    log.add([event(2), event(3), event(4)]);
    expect(log.rows().map((r) => r.id)).toEqual(['4', '3', '2']);
    log.delivered(3, { status: 200, attempts: 1 });
    expect(log.rows()[1]!.cells[4]).toBe('200');
  });

  it('says how a delivery ended', () => {
    expect(deliveryText(undefined)).toBe('…');
    expect(deliveryText({ status: 200, attempts: 1 })).toBe('200');
    expect(deliveryText({ status: 503, attempts: 4 })).toBe('503 (4 tries)');
    expect(deliveryText({ status: 0, attempts: 4, error: 'connect ECONNREFUSED\n127.0.0.1:9' })).toBe('✗ connect ECONNREFUSED 127.0.0.1:9 (4 tries)');
  });
});
