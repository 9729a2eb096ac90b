/**
 * `sitectl events` against a real emulator: NDJSON when piped, `--type` globs, `--since`, `--follow` until
 * Ctrl-C (exit 130), and `--forward-to` a local webhook receiver that fails once (the event is retried and
 * arrives once as JSON). The interactive commands refuse without a terminal (exit 2, naming the plain command).
 * The bookings confirmed are the file's own (a studio of its own, tests/helpers/studio.ts), so the verdict is the
 * same at any hour.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStudio, runCli, runInProcess, startTestEmulator, type TestEmulator } from '../../helpers/index.js';
import { lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;

/** The file's own bookings awaiting confirmation (two days ahead or more), handed to the tests one by one. */
const own: string[] = [];
function pendingBookings(n: number): string[] {
  expect(own.length).toBeGreaterThanOrEqual(n);
  return own.splice(0, n);
}

async function confirm(id: string): Promise<void> {
  const r = await runCli(['bookings', 'confirm', id, '--json', 'id'], { emulator: emu });
  expect(r.code, r.stderr).toBe(0);
}

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  const studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, ...o }), 'events');
  const service = await studio.appointment();
  for (let i = 0; i < 4; i++) own.push((await studio.book(service.name)).id);
});
afterAll(async () => {
  await emu?.close();
});

describe('sitectl events', () => {
  it('prints NDJSON with seq, type, entityId, entity, createdDate when piped, filtered by --type and --since', async () => {
    const [a, b] = pendingBookings(2);
    const before = await lastEventSeq(emu);
    await confirm(a!);
    await confirm(b!);
    const all = await runCli(['events'], { emulator: emu });
    expect(all.code, all.stderr).toBe(0);
    const events = all.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const confirmed = events.filter((e) => e.type === 'booking.confirmed');
    expect(confirmed.map((e) => e.entityId)).toEqual([a, b]);
    expect(Object.keys(confirmed[0]).sort()).toEqual(['createdDate', 'entity', 'entityId', 'seq', 'type']);
    expect(confirmed[0].entity.status).toBe('CONFIRMED');

    // The whole log holds the studio's making too (staff, a service, the bookings): the glob keeps the bookings' events only.
    const typed = await runCli(['events', '--type', 'booking.*'], { emulator: emu });
    const bookingEvents = events.filter((e) => e.type.startsWith('booking.'));
    expect(bookingEvents.length).toBeLessThan(events.length);
    expect(typed.stdout.trim().split('\n').map((l) => JSON.parse(l).seq)).toEqual(bookingEvents.map((e) => e.seq));
    const typedSince = await runCli(['events', '--type', 'booking.*', '--since', String(before)], { emulator: emu });
    expect(typedSince.stdout.trim().split('\n').map((l) => JSON.parse(l).type)).toEqual(['booking.confirmed', 'booking.confirmed']);
    const none = await runCli(['events', '--type', 'member.*'], { emulator: emu });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    const since = await runCli(['events', '--since', String(confirmed[0].seq)], { emulator: emu });
    expect(since.stdout.trim().split('\n').map((l) => JSON.parse(l).entityId)).toEqual([b]);
  });

  it('refuses bad flags with exit 2 and one line', async () => {
    for (const args of [['--since', 'abc'], ['--type', 'booking.(x)'], ['--forward-to', 'ftp://x'], ['--interval', '5']]) {
      const r = await runCli(['events', ...args], { emulator: emu });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('--follow shows events as they happen and ends on Ctrl-C with 130', async () => {
    const [id] = pendingBookings(1);
    let changed = false;
    const r = await runCli(['events', '--follow', '--type', 'booking.confirmed'], {
      emulator: emu,
      interruptWhen: ({ stdout, stderr }) => {
        if (!changed && stderr.includes('following events')) {
          changed = true;
          void confirm(id!);
        }
        return stdout.includes(id!);
      },
    });
    expect(r.code).toBe(130);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ type: 'booking.confirmed', entityId: id })]);
  });

  it('--forward-to posts each event as JSON to a receiver, retrying a failure', async () => {
    const received: Array<{ body: { type: string; entityId: string; seq: number }; headers: IncomingMessage['headers'] }> = [];
    let calls = 0;
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        calls++;
        if (calls === 1) {
          res.writeHead(503).end();
          return;
        }
        received.push({ body: JSON.parse(body), headers: req.headers });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
    try {
      const [id] = pendingBookings(1);
      let changed = false;
      const r = await runCli(['events', '--follow', '--forward-to', url], {
        emulator: emu,
        interruptWhen: ({ stderr }) => {
          if (!changed && stderr.includes('following events')) {
            changed = true;
            void confirm(id!);
          }
          return stderr.includes('[200]');
        },
      });
      expect(r.code).toBe(130);
      expect(calls).toBe(2);
      expect(received).toHaveLength(1);
      expect(received[0]!.body).toMatchObject({ type: 'booking.confirmed', entityId: id });
      expect(received[0]!.headers['content-type']).toBe('application/json');
      expect(r.stderr).toMatch(new RegExp(`-> POST ${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\[200\\] booking.confirmed #\\d+ after 2 attempts`));
    } finally {
      server.close();
    }
  });
});

describe('interactive commands without a terminal', () => {
  it('refuse with exit 2 and name the command that works piped', async () => {
    const list = await runCli(['bookings', 'list', '--interactive'], { emulator: emu });
    expect(list.code).toBe(2);
    expect(list.stderr).toMatch(/bookings list --interactive needs a terminal/);
    expect(list.stderr).toMatch(/hint: use '.*sitectl(\.js)? bookings list'/);
    const browse = await runCli(['browse', 'members', '--status', 'PENDING'], { emulator: emu });
    expect(browse.code).toBe(2);
    expect(browse.stderr).toMatch(/members list --interactive needs a terminal/);
    const dash = await runCli(['dashboard'], { emulator: emu });
    expect(dash.code).toBe(2);
    expect(dash.stderr).toMatch(/the dashboard needs a terminal/);
    const bad = await runCli(['browse', 'widgets'], { emulator: emu });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/cannot browse 'widgets'/);
    expect(stdoutOf([list, browse, dash, bad])).toBe('');
  });
});

function stdoutOf(results: Array<{ stdout: string }>): string {
  return results.map((r) => r.stdout).join('');
}
