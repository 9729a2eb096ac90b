import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiClient, parseRetryAfter } from '../../../src/api/client.js';
import { ApplicationError, NetworkError, SystemError } from '../../../src/api/errors.js';
import { fromBase64UrlJson } from '../../../src/api/query.js';
import { isoDate } from '../../../src/api/schemas/common.js';
import { API_KEY, harness, on, SITE_ID, type Harness } from './helpers.js';

const ok = (data: unknown = {}) => () => ({ status: 200, data, headers: { 'x-wix-request-id': 'ok-1' } });

function connRefused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' });
}
function connReset(): Error {
  return Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
}

let current: Harness | undefined;
afterEach(async () => {
  await current?.agent.close();
  current = undefined;
});
function setup(...args: Parameters<typeof harness>): Harness {
  current = harness(...args);
  return current;
}

describe('auth and headers (docs/wire.md §2)', () => {
  it('API key: raw key in authorization plus wix-site-id; no content-type without a body', async () => {
    const h = setup();
    on(h, 'GET', '/x', ok({ a: 1 }));
    await expect(h.api.request({ method: 'GET', path: '/x' })).resolves.toEqual({ a: 1 });
    expect(h.seen[0].headers.authorization).toBe(API_KEY);
    expect(h.seen[0].headers['wix-site-id']).toBe(SITE_ID);
    expect(h.seen[0].headers['content-type']).toBeUndefined();
  });

  it('access token: raw token, no Bearer, no site id; content-type with a body', async () => {
    const h = setup({ credentials: { kind: 'accessToken', accessToken: 'OauthNG.JWS.tok-abcdef' } });
    on(h, 'POST', '/y', ok());
    await h.api.request({ method: 'POST', path: '/y', body: { when: new Date('2026-01-30T13:30:00Z') } });
    expect(h.seen[0].headers.authorization).toBe('OauthNG.JWS.tok-abcdef');
    expect(h.seen[0].headers['wix-site-id']).toBeUndefined();
    expect(h.seen[0].headers['content-type']).toBe('application/json');
    expect(h.seen[0].body).toBe('{"when":"2026-01-30T13:30:00.000Z"}');
    expect(h.debug.join('\n')).not.toContain('tok-abcdef');
  });

  it('none: no authorization header', async () => {
    const h = setup({ credentials: { kind: 'none' } });
    on(h, 'GET', '/z', ok());
    await h.api.request({ method: 'GET', path: '/z' });
    expect(h.seen[0].headers.authorization).toBeUndefined();
  });

  it('keeps a base URL path prefix', async () => {
    const h = setup({ baseUrl: 'https://api.test/prefix/' });
    on(h, 'GET', '/prefix/_api/thing', ok());
    await h.api.request({ method: 'GET', path: '/_api/thing' });
    expect(h.seen[0].path).toBe('/prefix/_api/thing');
  });
});

describe('debug trace', () => {
  it('shows method, URL, status, ms and request id, with secrets redacted', async () => {
    const h = setup();
    on(h, 'GET', (p) => p.startsWith('/cb'), ok());
    await h.api.request({ method: 'GET', path: '/cb', query: { code: 'auth-code-999', state: 's1' } });
    const trace = h.debug.join('\n');
    expect(trace).toContain('> GET https://api.test/cb?code=[REDACTED]&state=s1');
    expect(trace).toMatch(/< GET https:\/\/api\.test\/cb\?code=\[REDACTED\]&state=s1 200 \d+ ms request-id: ok-1/);
    expect(trace).toContain('authorization: [REDACTED]');
    expect(trace).toContain(`wix-site-id: ${SITE_ID}`);
    expect(trace).not.toContain(API_KEY);
    expect(trace).not.toContain('auth-code-999');
  });
});

describe('retries', () => {
  it('idempotent GET: retried on 5xx with growing, capped, jittered delays, then succeeds', async () => {
    const h = setup();
    on(h, 'GET', '/r', () => ({ status: 503 }), 3);
    on(h, 'GET', '/r', ok({ done: true }));
    await expect(h.api.request({ method: 'GET', path: '/r' })).resolves.toEqual({ done: true });
    expect(h.seen).toHaveLength(4);
    expect(h.delays).toHaveLength(3);
    const [d0, d1, d2] = h.delays;
    expect(d0).toBeGreaterThanOrEqual(250);
    expect(d0).toBeLessThanOrEqual(500);
    expect(d1).toBeGreaterThanOrEqual(500);
    expect(d1).toBeLessThanOrEqual(1000);
    expect(d2).toBeGreaterThanOrEqual(1000);
    expect(d2).toBeLessThanOrEqual(2000);
    expect(h.errors).toEqual([]);
  });

  it('gives up after `retries` retries with the last error', async () => {
    const h = setup({ retries: 2 });
    on(h, 'GET', '/r', () => ({ status: 500, headers: { 'x-wix-request-id': 'boom' } }), 3);
    const err = await h.api.request({ method: 'GET', path: '/r' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SystemError);
    expect((err as SystemError).message).toBe('System error occurred, request-id: boom');
    expect(h.seen).toHaveLength(3);
    expect(h.delays).toHaveLength(2);
    expect(h.errors).toEqual([err]);
  });

  it('caps the backoff at maxDelayMs', async () => {
    const h = setup({ retries: 3, maxDelayMs: 600 });
    on(h, 'GET', '/r', () => ({ status: 502 }), 3);
    on(h, 'GET', '/r', ok());
    await h.api.request({ method: 'GET', path: '/r' });
    expect(Math.max(...h.delays)).toBeLessThanOrEqual(600);
    expect(h.delays[2]).toBeGreaterThanOrEqual(300);
  });

  it('idempotent call: retried on network errors', async () => {
    const h = setup();
    h.pool.intercept({ path: '/q', method: 'POST' }).replyWithError(connReset());
    on(h, 'POST', '/q', ok({ items: [] }));
    await expect(h.api.request({ method: 'POST', path: '/q', body: {}, idempotent: true })).resolves.toEqual({ items: [] });
    expect(h.delays).toHaveLength(1);
  });

  it('honours Retry-After in seconds on 429', async () => {
    const h = setup();
    on(h, 'GET', '/t', () => ({ status: 429, headers: { 'retry-after': '7' } }));
    on(h, 'GET', '/t', ok());
    await h.api.request({ method: 'GET', path: '/t' });
    expect(h.delays).toEqual([7000]);
  });

  it('honours Retry-After as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('2', now)).toBe(2000);
  });

  it('fails at once with the 429 when Retry-After asks for more than 60 s', async () => {
    const h = setup();
    on(h, 'GET', '/t', () => ({ status: 429, data: { message: 'slow down' }, headers: { 'retry-after': '61', 'x-wix-request-id': 'th' } }));
    const err = await h.api.request({ method: 'GET', path: '/t' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationError);
    expect((err as ApplicationError).code).toBe('TOO_MANY_REQUESTS');
    expect((err as ApplicationError).message).toBe("the platform asks to wait 61 s (rate limit), more than the 60 s a single wait may take (the call's budget is 120 s): slow down");
    expect((err as ApplicationError).waitAskedMs).toBe(61_000);
    expect((err as ApplicationError).requestId).toBe('th');
    expect(h.delays).toEqual([]);
    expect(h.seen).toHaveLength(1);
  });

  it('fails at once when Retry-After asks for more than is left of the budget, naming the wait and the budget', async () => {
    const h = setup({ budgetMs: 10_000 });
    on(h, 'GET', '/t', () => ({ status: 429, data: { message: 'slow down' }, headers: { 'retry-after': '4' } }), 2);
    on(h, 'GET', '/t', () => ({ status: 429, data: { message: 'slow down' }, headers: { 'retry-after': '11' } }));
    const err = await h.api.request({ method: 'GET', path: '/t' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationError);
    // The injected sleep does not wait: nothing of the budget is spent, so the whole of it is named.
    expect((err as ApplicationError).message).toMatch(/^rate-limited 3 times over [\d.]+ s: the platform asks to wait 11 s \(rate limit\), more than the call's 10 s budget: slow down$/);
    expect((err as ApplicationError).tries).toMatchObject({ attempts: 3, rateLimited: 3 });
    expect(h.delays).toEqual([4000, 4000]);
    expect(h.seen).toHaveLength(3);
  });

  it("a 429 counts as many times as it came, in the message and in err.tries", async () => {
    const h = setup({ retries: 2 });
    on(h, 'POST', '/c', () => ({ status: 429, headers: { 'retry-after': '0' } }), 3);
    const err = await h.api.request({ method: 'POST', path: '/c', body: {} }).catch((e: unknown) => e);
    expect((err as ApplicationError).message).toMatch(/^rate-limited 3 times over [\d.]+ s: Too Many Requests$/);
    expect((err as ApplicationError).tries).toMatchObject({ attempts: 3, rateLimited: 3 });
    expect(h.seen).toHaveLength(3);
  });

  it('non-idempotent POST: not retried on 5xx', async () => {
    const h = setup();
    on(h, 'POST', '/c', () => ({ status: 500, headers: { 'x-wix-request-id': 'c500' } }));
    const err = await h.api.request({ method: 'POST', path: '/c', body: { service: {} } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SystemError);
    expect(h.seen).toHaveLength(1);
    expect(h.delays).toEqual([]);
  });

  it('non-idempotent POST: not retried on a reset connection (it may have been processed)', async () => {
    const h = setup();
    h.pool.intercept({ path: '/c', method: 'POST' }).replyWithError(connReset());
    const err = await h.api.request({ method: 'POST', path: '/c', body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).message).toBe('System error occurred, request-id: none (UND_ERR_SOCKET other side closed)');
    expect(h.delays).toEqual([]);
    expect(h.errors).toEqual([err]);
  });

  it('non-idempotent POST: retried on 429 and on ECONNREFUSED (not processed)', async () => {
    const h = setup();
    on(h, 'POST', '/c', () => ({ status: 429 }));
    h.pool.intercept({ path: '/c', method: 'POST' }).replyWithError(connRefused());
    on(h, 'POST', '/c', ok({ service: { id: 's1' } }));
    await expect(h.api.request({ method: 'POST', path: '/c', body: {} })).resolves.toEqual({ service: { id: 's1' } });
    expect(h.delays).toHaveLength(2);
  });

  it('4xx other than 429 is never retried, even when idempotent', async () => {
    const h = setup();
    on(h, 'GET', '/n', () => ({ status: 404, data: { message: 'no such service' } }));
    const err = await h.api.request({ method: 'GET', path: '/n' }).catch((e: unknown) => e);
    expect((err as ApplicationError).code).toBe('NOT_FOUND');
    expect(h.seen).toHaveLength(1);
  });

  it('an aborted signal stops before sending and is not wrapped', async () => {
    const h = setup();
    const ctrl = new AbortController();
    ctrl.abort(new Error('user pressed Ctrl-C'));
    await expect(h.api.request({ method: 'GET', path: '/x', signal: ctrl.signal })).rejects.toThrow('user pressed Ctrl-C');
    expect(h.seen).toHaveLength(0);
  });

  it('aborting during a backoff wait stops the retries', async () => {
    const ctrl = new AbortController();
    const h = setup({
      sleep: async () => {
        ctrl.abort(new Error('stop'));
      },
    });
    on(h, 'GET', '/r', () => ({ status: 503 }), 4);
    await expect(h.api.request({ method: 'GET', path: '/r', signal: ctrl.signal })).rejects.toThrow('stop');
    expect(h.seen).toHaveLength(1);
  });
});

describe('GET encoding and long-GET fallback (docs/wire.md §5)', () => {
  it('flattens query parameters with dots and repeated arrays', async () => {
    const h = setup();
    on(h, 'GET', (p) => p.startsWith('/l'), ok());
    await h.api.request({ method: 'GET', path: '/l', query: { sort: { fieldName: 'name', order: 'ASC' }, ids: ['a', 'b'] } });
    expect(h.seen[0].path).toBe('/l?sort.fieldName=name&sort.order=ASC&ids=a&ids=b');
  });

  it('uses .r= when complexQuery is set', async () => {
    const h = setup();
    on(h, 'GET', (p) => p.startsWith('/m'), ok());
    await h.api.request({ method: 'GET', path: '/m', query: { paging: { limit: 10 }, fieldsets: ['FULL'] }, complexQuery: true });
    expect(h.seen[0].path).toBe('/m?.r=eyJwYWdpbmciOnsibGltaXQiOjEwfSwiZmllbGRzZXRzIjpbIkZVTEwiXX0');
  });

  it('above 4000 characters sends a POST with the parameters as JSON body', async () => {
    const h = setup();
    const ids = Array.from({ length: 400 }, (_, i) => `service-${String(i).padStart(6, '0')}`);
    on(h, 'POST', '/_api/bookings/v2/services/categories', ok({ categories: [] }));
    await h.api.request({ method: 'GET', path: '/_api/bookings/v2/services/categories', query: { ids }, longGetFallback: true });
    expect(h.seen[0].method).toBe('POST');
    expect(h.seen[0].path).toBe('/_api/bookings/v2/services/categories');
    expect(JSON.parse(h.seen[0].body ?? '')).toEqual({ ids });
    expect(h.seen[0].headers['content-type']).toBe('application/json');
  });

  it('at or below 4000 characters stays a GET', async () => {
    const h = setup();
    on(h, 'GET', (p) => p.startsWith('/s'), ok());
    // "ids=" + 3996 chars = 4000 characters exactly
    await h.api.request({ method: 'GET', path: '/s', query: { ids: 'x'.repeat(3996) }, longGetFallback: true });
    expect(h.seen[0].method).toBe('GET');
    expect(h.seen[0].path.length).toBe('/s?'.length + 4000);
  });

  it('a raw long GET (no operation says it has a POST form) stays a GET', async () => {
    const h = setup();
    on(h, 'GET', (p) => p.startsWith('/s'), ok());
    await h.api.request({ method: 'GET', path: '/s', query: { ids: 'x'.repeat(5000) } });
    expect(h.seen[0].method).toBe('GET');
  });

  it('a long GET without a POST form stays a GET, as the official client sends it', async () => {
    const h = setup();
    on(h, 'GET', (p) => p.startsWith('/p'), ok());
    const planIds = Array.from({ length: 100 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    await h.api.request({ method: 'GET', path: '/p', query: { planIds }, longGetFallback: false });
    expect(h.seen[0].method).toBe('GET');
    expect(h.seen[0].path.length).toBeGreaterThan(4000);
  });

  it('.r= payload decodes back to the request', async () => {
    const h = setup();
    on(h, 'GET', (p) => p.startsWith('/m'), ok());
    const query = { query: { filter: { type: 'CLASS' } }, list: [{ a: 1 }] };
    await h.api.request({ method: 'GET', path: '/m', query, complexQuery: true });
    const r = new URLSearchParams(h.seen[0].path.split('?')[1]).get('.r');
    expect(fromBase64UrlJson(r ?? '')).toEqual(query);
  });
});

describe('reply parsing', () => {
  it('applies the schema: ISO strings become Dates', async () => {
    const h = setup();
    on(h, 'GET', '/d', ok({ when: '2026-01-30T13:30:00Z', extra: 'kept' }));
    const schema = z.looseObject({ when: isoDate });
    const out = await h.api.request({ method: 'GET', path: '/d', schema });
    expect(out.when).toBeInstanceOf(Date);
    expect(out.when.toISOString()).toBe('2026-01-30T13:30:00.000Z');
    expect(out.extra).toBe('kept');
  });

  it('a reply that does not match the schema is a system error naming the path', async () => {
    const h = setup();
    on(h, 'GET', '/d', () => ({ status: 200, data: { when: 'not a date' }, headers: { 'x-wix-request-id': 'sx' } }));
    const err = await h.api.request({ method: 'GET', path: '/d', schema: z.object({ when: isoDate }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SystemError);
    expect((err as SystemError).message).toMatch(/^System error occurred, request-id: sx \(unexpected reply: when: Invalid ISO date/);
  });

  it('a wrongly typed field is named with zod\'s English message, not a bare "Invalid input"', async () => {
    const h = setup();
    on(h, 'GET', '/d', () => ({ status: 200, data: { when: 5 }, headers: { 'x-wix-request-id': 'sy' } }));
    const err = await h.api.request({ method: 'GET', path: '/d', schema: z.object({ when: isoDate }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SystemError);
    expect((err as SystemError).message).toContain('unexpected reply: when: Invalid input: expected string, received number');
  });
});

describe('default dispatcher (real socket, no mock)', () => {
  it('talks to a local server through EnvHttpProxyAgent and retries ECONNREFUSED for a POST', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      res.setHeader('x-wix-request-id', 'real-1');
      res.setHeader('content-type', 'application/json');
      res.end('{"service":{"id":"s"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const saved = { NO_PROXY: process.env.NO_PROXY, no_proxy: process.env.no_proxy };
    process.env.NO_PROXY = '127.0.0.1';
    try {
      const api = new ApiClient({
        baseUrl: `http://127.0.0.1:${port}`,
        credentials: { kind: 'apiKey', apiKey: 'k-12345', siteId: 's' },
      });
      await expect(api.request({ method: 'POST', path: '/_api/x', body: {} })).resolves.toEqual({ service: { id: 's' } });
      await api.close();
      expect(seen).toEqual(['POST /_api/x k-12345']);

      // A closed port: refused before anything was sent, so even a POST is retried (3 times) and then fails.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const delays: number[] = [];
      const down = new ApiClient({
        baseUrl: `http://127.0.0.1:${port}`,
        credentials: { kind: 'none' },
        sleep: async (ms) => void delays.push(ms),
      });
      const err = await down.request({ method: 'POST', path: '/_api/x', body: {} }).catch((e: unknown) => e);
      await down.close();
      expect(err).toBeInstanceOf(NetworkError);
      expect((err as NetworkError).message).toContain('ECONNREFUSED');
      expect((err as NetworkError).message).toMatch(/^System error occurred, request-id: none \(/);
      expect(delays).toHaveLength(3);
    } finally {
      process.env.NO_PROXY = saved.NO_PROXY;
      if (saved.NO_PROXY === undefined) delete process.env.NO_PROXY;
      if (saved.no_proxy !== undefined) process.env.no_proxy = saved.no_proxy;
      server.close();
    }
  });
});

describe('time limits (docs/architecture.md "Safety rules": no request hangs)', () => {
  /** A real server that accepts connections and then does what `behave` says (or nothing at all). */
  async function slowServer(behave: (res: http.ServerResponse) => void) {
    const sockets = new Set<Socket>();
    const timers: NodeJS.Timeout[] = [];
    const server = http.createServer((_req, res) => behave(res));
    server.on('connection', (s) => sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url,
      timers,
      async close() {
        for (const t of timers) clearInterval(t);
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }
  /** Sends one request to `srv` with a client made of `opts`; closes both; returns the error and the time it took. */
  async function attempt(srv: { url: string; close(): Promise<void> }, request: Parameters<ApiClient['request']>[0], opts: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
    const api = new ApiClient({ baseUrl: srv.url, credentials: { kind: 'none' }, timeoutMs: 300, sleep: async () => {}, ...opts });
    const t0 = performance.now();
    const err = await api.request(request).catch((e: unknown) => e);
    const ms = performance.now() - t0;
    await api.close();
    await srv.close();
    return { err, ms };
  }

  it('a server that never answers: a POST fails after one attempt of timeoutMs, saying no headers came', async () => {
    const { err, ms } = await attempt(await slowServer(() => {}), { method: 'POST', path: '/create', body: {} });
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain('no reply headers within');
    expect(ms).toBeLessThan(2000);
  });

  it('a server that never answers: a GET retries, then gives up inside the budget', async () => {
    let attempts = 0;
    const { err } = await attempt(await slowServer(() => void attempts++), { method: 'GET', path: '/list' }, { budgetMs: 5000 });
    expect(err).toBeInstanceOf(NetworkError);
    expect(attempts).toBe(4);
  });

  it('the budget stops retries that would run past it', async () => {
    let attempts = 0;
    const { err, ms } = await attempt(await slowServer(() => void attempts++), { method: 'GET', path: '/list' }, { timeoutMs: 200, budgetMs: 300, sleep: undefined });
    expect(err).toBeInstanceOf(NetworkError);
    expect(attempts).toBe(1);
    expect(ms).toBeLessThan(1500);
  });

  it('an attempt ends at the end of the budget when that comes before its timeoutMs, and the error says so', async () => {
    let attempts = 0;
    const { err, ms } = await attempt(await slowServer(() => void attempts++), { method: 'GET', path: '/list' }, { timeoutMs: 5000, budgetMs: 400, sleep: undefined });
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe("System error occurred, request-id: none (ETIMEDOUT no reply headers within 0.4 s: the call's 0.4 s budget ran out)");
    expect(attempts).toBe(1);
    expect(ms).toBeLessThan(3000);
  });

  it("a call's own timeoutMs and retries win over the client's (a view's probe): one attempt, given up at its limit", async () => {
    let attempts = 0;
    const { err, ms } = await attempt(await slowServer(() => void attempts++), { method: 'GET', path: '/list', timeoutMs: 200, retries: 0 }, { timeoutMs: 30_000, budgetMs: 120_000 });
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain('no reply headers within');
    expect(attempts).toBe(1);
    expect(ms).toBeLessThan(2000);
  });

  it('retarget points the client at another base URL: the next call goes there, the same key with it', async () => {
    const seen: string[] = [];
    const serve = (name: string) => async () => {
      const server = http.createServer((req, res) => {
        seen.push(`${name} ${req.url} ${req.headers.authorization}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
    };
    const [a, b] = [await serve('a')(), await serve('b')()];
    const api = new ApiClient({ baseUrl: a.url, credentials: { kind: 'apiKey', apiKey: 'k1', siteId: 's1' } });
    try {
      await api.request({ method: 'GET', path: '/one' });
      api.retarget(`${b.url}/`);
      expect(api.baseUrl).toBe(b.url);
      await api.request({ method: 'GET', path: '/two' });
      const other = api.forSite('s2');
      await other.request({ method: 'GET', path: '/three' });
      await other.close();
      expect(seen).toEqual(['a /one k1', 'b /two k1', 'b /three k1']);
      expect(() => api.retarget('ftp://x')).toThrow(TypeError);
    } finally {
      await api.close();
      await a.close();
      await b.close();
    }
  });

  it('a trickling reply (headers, then a byte every 50 ms forever) ends at timeoutMs', async () => {
    const srv = await slowServer((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
      srv.timers.push(setInterval(() => res.write(' '), 50));
    });
    const { err, ms } = await attempt(srv, { method: 'GET', path: '/list' }, { retries: 0 });
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain('reply not complete within');
    expect(ms).toBeLessThan(2000);
  });
});

describe('waits are told (onWait): no silent wait', () => {
  it('each try is a reply wait, each pause a retry wait with its reason, length and try number; each ends', async () => {
    const events: string[] = [];
    const h = setup({
      onWait: (w) => {
        events.push(w.kind === 'reply' ? `reply ${w.method} ${w.path} ${w.attempt}/${w.attempts}` : `retry ${w.ms} ${w.asked} ${w.reason} ${w.attempt}/${w.attempts}`);
        return () => events.push(`end ${w.kind}`);
      },
    });
    on(h, 'GET', (p) => p.startsWith('/t'), () => ({ status: 429, headers: { 'retry-after': '7' } }));
    on(h, 'GET', (p) => p.startsWith('/t'), () => ({ status: 503 }));
    on(h, 'GET', (p) => p.startsWith('/t'), ok());
    await h.api.request({ method: 'GET', path: '/t', query: { code: 'secret-code' } });
    expect(events.slice(0, 4)).toEqual(['reply GET /t 1/4', 'end reply', 'retry 7000 true rate limit 2/4', 'end retry']);
    expect(events.slice(4, 6)).toEqual(['reply GET /t 2/4', 'end reply']);
    expect(events[6]).toMatch(/^retry \d+ false HTTP 503 3\/4$/);
    expect(events.slice(7)).toEqual(['end retry', 'reply GET /t 3/4', 'end reply']);
  });

  it('a transport failure ends its reply wait before the pause, which names the failure', async () => {
    const events: string[] = [];
    const h = setup({ onWait: (w) => (events.push(w.kind === 'reply' ? 'reply' : `retry ${w.reason}`), () => events.push('end')) });
    h.pool.intercept({ path: '/q', method: 'GET' }).replyWithError(connReset());
    on(h, 'GET', '/q', ok());
    await h.api.request({ method: 'GET', path: '/q' });
    expect(events).toEqual(['reply', 'end', 'retry UND_ERR_SOCKET other side closed', 'end', 'reply', 'end']);
  });
});
