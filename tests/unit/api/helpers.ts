import { MockAgent, type MockPool } from 'undici';
import { ApiClient, type ApiClientOptions, type Credentials } from '../../../src/api/client.js';

export const ORIGIN = 'https://api.test';
export const API_KEY = 'IST.secret-api-key-0123456789';
export const SITE_ID = 'site-1234';

/** A request as the mock server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface Harness {
  agent: MockAgent;
  pool: MockPool;
  api: ApiClient;
  delays: number[];
  debug: string[];
  errors: unknown[];
  seen: SeenRequest[];
}

function normaliseHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
    return out;
  }
  if (headers instanceof Headers) {
    headers.forEach((v, k) => (out[k.toLowerCase()] = v));
    return out;
  }
  for (const [k, v] of Object.entries(headers as Record<string, string>)) out[k.toLowerCase()] = String(v);
  return out;
}

/**
 * An ApiClient over an undici MockAgent (no network), without pacing, with an injected sleep that records each delay instead
 * of waiting, and recorders for the debug trace and onError.
 */
export function harness(overrides: Partial<ApiClientOptions> & { credentials?: Credentials } = {}): Harness {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN) as MockPool;
  const delays: number[] = [];
  const debug: string[] = [];
  const errors: unknown[] = [];
  const api = new ApiClient({
    baseUrl: ORIGIN,
    credentials: { kind: 'apiKey', apiKey: API_KEY, siteId: SITE_ID },
    dispatcher: agent,
    sleep: async (ms) => {
      delays.push(ms);
    },
    onDebug: (line) => debug.push(line),
    onError: (err) => errors.push(err),
    // The retry rules are tested alone: pacing (pacer.ts) would add real waits after a 429 (tested in pacer.test.ts).
    pacers: false,
    ...overrides,
  });
  return { agent, pool, api, delays, debug, errors, seen: [] };
}

/**
 * Intercepts one request (any path/method matching) and records what was sent, then replies.
 * `reply` gets the seen request and returns status, JSON-able data (or a string) and reply headers.
 */
export function on(
  h: Harness,
  method: string,
  path: string | RegExp | ((p: string) => boolean),
  reply: (req: SeenRequest) => { status: number; data?: unknown; headers?: Record<string, string> },
  times = 1,
): void {
  h.pool
    .intercept({ path, method })
    .reply((opts) => {
      const req: SeenRequest = {
        method: opts.method,
        path: opts.path,
        headers: normaliseHeaders(opts.headers),
        body: typeof opts.body === 'string' ? opts.body : opts.body == null ? undefined : String(opts.body),
      };
      h.seen.push(req);
      const r = reply(req);
      const data = r.data === undefined ? '' : typeof r.data === 'string' ? r.data : JSON.stringify(r.data);
      return { statusCode: r.status, data, responseOptions: { headers: r.headers ?? {} } };
    })
    .times(times);
}
