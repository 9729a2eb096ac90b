/**
 * No silent wait (docs/architecture.md "Output and interaction", "Safety rules"): the CLI against hostile servers
 * on port 0 (one that never answers; a proxy in front of the emulator that answers some calls with 429 and a
 * Retry-After). Every wait that lasts says so on stderr (one line per wait off a terminal, one line redrawn on
 * one), a call ends within its budget, a Retry-After longer than what is left of it ends the call at once, the
 * counts in messages are the requests the server really got, and a create refused with 429 says it was not made.
 *
 * Small numbers keep each run short: `--timeout 0.2`, Retry-After of a fraction of a second, SITECTL_CALL_BUDGET
 * (the call's budget) and SITECTL_WAIT_NOTICE (after how long a wait is told; 3 s otherwise).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runCli, runInProcess, startTestEmulator, type TestEmulator } from '../../helpers/index.js';
import { lastEventSeq, updatesPerService } from '../bulk/support.js';

let emu: TestEmulator;
beforeAll(async () => {
  // More than one bulk chunk (100) of services, for a run that is partly done.
  emu = await startTestEmulator({ seed: 'demo', size: 120 });
});
afterAll(async () => {
  await emu?.close();
});

/** What the hostile server does with one request: say nothing, answer this, or pass it on to the emulator. */
type Behaviour = 'silent' | { status: number; headers?: Record<string, string>; body?: unknown } | undefined;

/**
 * A server on port 0 in front of the emulator: `rule` decides each request (method and path); what it leaves
 * undecided goes to the emulator. `answered` counts the requests `rule` took, by status ('silent' for none).
 */
async function hostile(rule: (method: string, path: string) => Behaviour) {
  const sockets = new Set<Socket>();
  const answered = new Map<string | number, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const b = rule(req.method!, req.url!.split('?')[0]!);
      if (b === 'silent') {
        answered.set('silent', (answered.get('silent') ?? 0) + 1);
        return;
      }
      if (b) {
        answered.set(b.status, (answered.get(b.status) ?? 0) + 1);
        res.writeHead(b.status, { 'content-type': 'application/json', 'x-wix-request-id': 'hostile-1', ...b.headers });
        res.end(JSON.stringify(b.body ?? { message: 'Too Many Requests', details: {} }));
        return;
      }
      // The emulator answers only its own host and port: the Host header is the upstream's.
      const headers = { ...req.headers, host: new URL(emu.url).host };
      const up = http.request(emu.url + req.url, { method: req.method, headers }, (reply) => {
        res.writeHead(reply.statusCode!, reply.headers);
        reply.pipe(res);
      });
      up.end(Buffer.concat(chunks));
    });
  });
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    target: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: emu.apiKey, siteId: emu.siteId },
    answered,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const QUERY = '/_api/bookings/v2/services/query';
const BULK_UPDATE = '/bookings/v2/bulk/services/update';
/** What `services update --filter` sends, one job per chunk of 100 planned services (docs/wire.md §26). */
const UPDATE_BY_FILTER = '/bookings/v2/bulk/services/update-by-filter';
const CREATE = '/_api/bookings/v2/services';
const tooMany = (retryAfter: string): Behaviour => ({ status: 429, headers: { 'retry-after': retryAfter } });

/** The lines of stderr that are not the closing `error:`/`hint:` lines. */
const noticeLines = (stderr: string) => stderr.trimEnd().split('\n').filter((l) => !/^(error|hint): /.test(l));

describe('a server that never answers', () => {
  it('off a terminal: one line per try and per pause, each saying what it waits for; the call ends within its budget', async () => {
    const srv = await hostile(() => 'silent');
    try {
      const t0 = performance.now();
      const r = await runInProcess(['--timeout', '0.2', 'services', 'list'], { emulator: srv.target, env: { SITECTL_WAIT_NOTICE: '0.1', SITECTL_CALL_BUDGET: '1' } });
      const ms = performance.now() - t0;
      expect(r.code, r.stderr).toBe(1);
      // A guard against a hang only: the first run in process also loads the commands.
      expect(ms).toBeLessThan(10_000);
      // The 1 s budget ends it: 4 tries with their pauses take 2.5 s at least.
      const tries = srv.answered.get('silent')!;
      expect(tries).toBeGreaterThanOrEqual(2);
      expect(tries).toBeLessThan(4);
      const over = Number(/attempts over ([\d.]+) s/.exec(r.stderr)?.[1]);
      expect(over).toBeLessThanOrEqual(2);
      const lines = noticeLines(r.stderr);
      const replies = lines.filter((l) => l.startsWith('waiting'));
      const pauses = lines.filter((l) => l.startsWith('trying again'));
      expect(replies).toEqual(Array.from({ length: tries }, (_, i) => `waiting for the platform's reply to POST ${QUERY} (0.1 s, try ${i + 1} of 4) - Ctrl-C to stop`));
      expect(pauses).toHaveLength(tries - 1);
      for (const p of pauses) expect(p).toMatch(/^trying again in [\d.]+ s \(ETIMEDOUT no reply headers within 0\.2 s, try \d of 4\) - Ctrl-C to stop$/);
      expect(lines).toHaveLength(replies.length + pauses.length);
      // The count is the requests the server got.
      expect(r.stderr).toMatch(new RegExp(`^error: .*no reply headers within 0\\.2 s, ${tries} attempts over [\\d.]+ s\\)$`, 'm'));
    } finally {
      await srv.close();
    }
  });

  it('on a terminal: one status line, redrawn in place and erased before the error (built CLI under a pseudo-terminal)', async () => {
    const srv = await hostile(() => 'silent');
    try {
      const r = await runCli(['--timeout', '0.2', 'services', 'list'], { emulator: srv.target, tty: true, env: { SITECTL_WAIT_NOTICE: '0.1', SITECTL_CALL_BUDGET: '1' } });
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).toContain(`\r\u001b[Kwaiting for the platform's reply to POST ${QUERY} (0.1 s, try 1 of 4) - Ctrl-C to stop`);
      // Each frame starts by erasing the line (ESC, shown as \e here): the pause is drawn over the reply's line.
      const frames = r.stdout.replaceAll('\u001b', '\\e');
      expect(frames).toMatch(/\r\\e\[Ktrying again in [\d.]+ s \(ETIMEDOUT no reply headers within 0\.2 s, try 2 of 4\) - Ctrl-C to stop/);
      // Never a line of its own: the status line is erased, and the error starts where it was.
      expect(frames).not.toMatch(/Ctrl-C to stop\n/);
      expect(frames).toMatch(/\r\\e\[K(\r\\e\[K)*error: .*no reply headers within 0\.2 s/);
    } finally {
      await srv.close();
    }
  });
});

describe('429 with Retry-After', () => {
  it('each pause says the seconds asked and the try; the final count is the 429s the server sent', async () => {
    const srv = await hostile((method, path) => (path === QUERY ? tooMany('0.2') : undefined));
    try {
      const r = await runInProcess(['services', 'list'], { emulator: srv.target, env: { SITECTL_WAIT_NOTICE: '0.1' } });
      expect(r.code, r.stderr).toBe(1);
      expect(noticeLines(r.stderr)).toEqual([2, 3, 4].map((n) => `the platform asks to wait 0.2 s (rate limit, try ${n} of 4) - Ctrl-C to stop`));
      expect(srv.answered.get(429)).toBe(4);
      expect(r.stderr).toMatch(/^error: rate-limited 4 times over 0\.\d s: Too Many Requests/m);
    } finally {
      await srv.close();
    }
  });

  it('a bulk run sent again by the engine counts every 429 of every send (16, not the last call 4)', async () => {
    const sandbox = createCliSandbox();
    const srv = await hostile((method, path) => (path === BULK_UPDATE ? tooMany('0.1') : undefined));
    try {
      const ids = (await emu.request('POST', QUERY, { query: { paging: { limit: 8 } } })).body.services.map((s: { id: string }) => s.id);
      const file = join(sandbox.root, 'ids.txt');
      writeFileSync(file, `${ids.join('\n')}\n`);
      const r = await runInProcess(['services', 'update', '--ids-file', file, '--set', 'description=waited', '--yes', '--json'], { emulator: srv.target, sandbox, env: { SITECTL_WAIT_NOTICE: '0.05' } });
      expect(r.code, r.stderr).toBe(3);
      // One chunk of 8, sent 4 times by the engine, each send tried 4 times by the client.
      expect(srv.answered.get(429)).toBe(16);
      const report = JSON.parse(r.stdout);
      expect(report.counts.failed).toBe(8);
      expect(report.problems[0].error).toMatch(/^rate-limited 16 times over [\d.]+ s: /);
      // Each client pause was told (3 per send); none of them is silent.
      expect(noticeLines(r.stderr).filter((l) => l.startsWith('the platform asks to wait 0.1 s (rate limit, try '))).toHaveLength(12);
    } finally {
      await srv.close();
      sandbox.cleanup();
    }
  });
});

describe('a Retry-After longer than the budget allows ends the call at once', () => {
  it('a single call: exit 1 at once, one line naming the wait asked and the budget', async () => {
    const srv = await hostile((method, path) => (path === QUERY ? tooMany('10') : undefined));
    try {
      const t0 = performance.now();
      const r = await runInProcess(['services', 'list'], { emulator: srv.target, env: { SITECTL_CALL_BUDGET: '5' } });
      expect(performance.now() - t0).toBeLessThan(5000);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: the platform asks to wait 10 s \(rate limit\), more than the call's 5 s budget: Too Many Requests/);
      expect(r.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
      expect(srv.answered.get(429)).toBe(1);
    } finally {
      await srv.close();
    }
  });

  it('after a wait: what is left of the budget is named', async () => {
    let sent = 0;
    const srv = await hostile((method, path) => (path === QUERY ? tooMany(++sent === 1 ? '1.2' : '2.5') : undefined));
    try {
      const r = await runInProcess(['services', 'list'], { emulator: srv.target, env: { SITECTL_CALL_BUDGET: '3', SITECTL_WAIT_NOTICE: '1' } });
      expect(r.code).toBe(1);
      expect(noticeLines(r.stderr)).toEqual(['the platform asks to wait 1.2 s (rate limit, try 2 of 4) - Ctrl-C to stop']);
      expect(r.stderr).toMatch(/^error: rate-limited 2 times over [\d.]+ s: the platform asks to wait 2\.5 s \(rate limit\), more than the [\d.]+ s left of the call's 3 s budget: Too Many Requests/m);
      expect(srv.answered.get(429)).toBe(2);
    } finally {
      await srv.close();
    }
  });

  it('a bulk run partly done: exit 3, the rest failed with that line, not sent again, and resumable', async () => {
    const sandbox = createCliSandbox();
    let updates = 0;
    const srv = await hostile((method, path) => (path === UPDATE_BY_FILTER && ++updates > 1 ? tooMany('10') : undefined));
    const seq = await lastEventSeq(emu);
    try {
      const t0 = performance.now();
      const r = await runInProcess(['services', 'update', '--filter', '{}', '--set', 'tagLine=partly', '--yes', '--json', '--concurrency', '1'], { emulator: srv.target, sandbox, env: { SITECTL_CALL_BUDGET: '5' } });
      expect(performance.now() - t0).toBeLessThan(10_000);
      expect(r.code, r.stderr).toBe(3);
      const report = JSON.parse(r.stdout);
      expect(report.counts.updated).toBe(100);
      expect(report.counts.failed).toBeGreaterThan(0);
      expect(report.problems[0].error).toBe("the platform asks to wait 10 s (rate limit), more than the call's 5 s budget: Too Many Requests");
      expect(report.problems[0].permanent).toBeUndefined();
      expect(srv.answered.get(429)).toBe(1);
      expect(r.stderr).toMatch(/^hint: failed items are retried by: sitectl services update --resume /m);
      // Resumed without the limit: the rest is updated, what the first run updated is not sent again.
      const journal = /--resume (\S+)/.exec(r.stderr)![1]!;
      const resumed = await runInProcess(['services', 'update', '--resume', journal, '--yes', '--json'], { emulator: emu, sandbox });
      expect(resumed.code, resumed.stderr).toBe(0);
      const total = report.counts.updated + report.counts.failed;
      const updatesOf = await updatesPerService(emu, seq);
      expect(updatesOf.size).toBe(total);
      expect([...updatesOf.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await srv.close();
      sandbox.cleanup();
    }
  });
});

describe('a create refused with 429', () => {
  it('says it was not created (the platform refuses before acting), and records no change', async () => {
    const sandbox = createCliSandbox();
    const srv = await hostile((method, path) => (method === 'POST' && path === CREATE ? tooMany('0.05') : undefined));
    try {
      const r = await runInProcess(['services', 'create', '--name', 'Never made', '--type', 'CLASS'], { emulator: srv.target, sandbox });
      expect(r.code, r.stderr).toBe(1);
      const [error, hint] = r.stderr.trimEnd().split('\n');
      expect(error).toMatch(/^error: the service was not created: rate-limited 4 times over [\d.]+ s: /);
      expect(hint).toBe('hint: the platform refused it before acting on it (rate limit), so nothing was created: run the command again later');
      expect(r.stderr).not.toContain('all the same');
      expect(srv.answered.get(429)).toBe(4);
      const history = await runInProcess(['history', '--json'], { emulator: emu, sandbox });
      expect(history.stdout).not.toContain('Never made');
    } finally {
      await srv.close();
      sandbox.cleanup();
    }
  });
});
