/**
 * The shared setup of the official-client flow files (sdk-flows-*.test.ts; docs/contracts.md "The official SDK as
 * the reference"): a real emulator on port 0, the global `fetch` replaced so that every request the SDK makes to
 * the platform's hosts (`www.wixapis.com`, `edge.wixapis.com`) goes to the emulator's loopback origin (the SDK's
 * token calls use the global `fetch` with a fixed host), a record of what the SDK sent, the contract fixtures and a
 * studio of the file's own (staff who work around the clock, tests/helpers/studio.ts).
 *
 * Call {@link useOfficialClient} once at the top level of a test file: it registers the file's `beforeAll` and
 * `afterAll`. The URL is rewritten, not proxied: the Host header is the emulator's own.
 */
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { runInProcess, startTestEmulator, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';
import { fixtures, type Fixtures } from './examples.js';

/** One request the SDK sent, as the emulator received it. */
export interface SentRequest {
  method: string;
  /** Path and query, without the origin. */
  url: string;
  /** The path alone (no query). */
  path: string;
  /** The host it went to (the emulator's, once rewritten). */
  host: string;
  authorization: string | null;
  siteId: string | null;
  /** The parsed JSON body (undefined when there was none). */
  body: unknown;
}

/** What a flow file works with; valid from its first test on (filled by the `beforeAll`). */
export interface OfficialClientContext {
  emu: TestEmulator;
  fx: Fixtures;
  studio: Studio;
  /** Every request the SDK sent to a platform host, in order. */
  sent: SentRequest[];
  /** The last request sent to `path` (compared without the query), if any. */
  lastTo(path: string): SentRequest | undefined;
  /** A unique word for names made by one test (process id and a counter). */
  stamp(): string;
}

/** The platform's hosts, rewritten to the emulator's origin (path and query kept). */
const PLATFORM = /^https:\/\/(www|edge)\.wixapis\.com(?=\/)/;

/**
 * Registers the file's emulator, fetch rewrite, fixtures and studio.
 * @param tag a word naming the file, in the names its studio makes
 * @param seed the demo seed's `size` (services per type and so on; default 5) and, when given, its `bookings`
 * @returns the context; its fields are set once the `beforeAll` has run
 */
export function useOfficialClient(tag: string, seed: { size?: number; bookings?: number } = {}): OfficialClientContext {
  const realFetch = globalThis.fetch;
  let counter = 0;
  const ctx = {
    sent: [] as SentRequest[],
    lastTo(path: string) {
      return [...ctx.sent].reverse().find((r) => r.url.split('?')[0] === path);
    },
    stamp: () => `${process.pid}-${++counter}`,
  } as OfficialClientContext;

  async function toEmulator(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const original = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    // The test's own calls to the emulator (control plane, fixtures, the CLI in process) go through untouched.
    if (original.startsWith(`${ctx.emu.url}/`)) return realFetch(input, init);
    if (!PLATFORM.test(original)) throw new Error(`the SDK called ${original}, not a platform host`);
    const url = original.replace(PLATFORM, ctx.emu.url);
    const request = new Request(url, input instanceof Request ? input : init);
    const text = request.body ? await request.clone().text() : '';
    const sentUrl = new URL(url);
    ctx.sent.push({
      method: request.method,
      url: url.slice(ctx.emu.url.length),
      path: sentUrl.pathname,
      host: sentUrl.host,
      authorization: request.headers.get('authorization'),
      siteId: request.headers.get('wix-site-id'),
      body: text ? JSON.parse(text) : undefined,
    });
    return realFetch(request);
  }

  beforeAll(async () => {
    ctx.emu = await startTestEmulator({ seed: 'demo', size: seed.size ?? 5, ...(seed.bookings !== undefined ? { bookings: seed.bookings } : {}) });
    ctx.fx = fixtures(ctx.emu);
    ctx.studio = await makeStudio((args, o) => runInProcess(args, { emulator: ctx.emu, ...o }), tag);
    vi.stubGlobal('fetch', toEmulator);
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await ctx.fx?.api.close();
    await ctx.emu?.close();
  });
  return ctx;
}

/** An official client of `modules` with the emulator's admin API key and site (`ApiKeyStrategy`). */
export function apiKeyClient<M extends Record<string, unknown>>(ctx: OfficialClientContext, modules: M) {
  return createClient({ auth: ApiKeyStrategy({ apiKey: ctx.emu.apiKey, siteId: ctx.emu.siteId }), modules });
}

/**
 * The next free slot of the file's studio service `service` (a name or id, tests/helpers/studio.ts `slot`), as a
 * plain object in the wire form `createBooking` takes for `bookedEntity.slot` (service id, start, end, resource).
 */
export async function studioSlot(ctx: OfficialClientContext, service: string, opts: { staff?: string } = {}): Promise<Record<string, unknown>> {
  return JSON.parse(JSON.stringify(await ctx.studio.slot(service, opts))) as Record<string, unknown>;
}

/** One mail of the emulator's outbox, as its control plane lists it (docs/wire.md §25 participant notifications). */
export interface OutboxMail {
  to: string;
  bookingId?: string;
  action?: string;
  message?: string;
  channel?: string;
  contact?: { name?: string };
}

/** The emulator's outbox through its control plane (`GET /__emulator/mail`, the newest 1000). */
export async function outbox(ctx: OfficialClientContext): Promise<OutboxMail[]> {
  const r = await ctx.emu.request('GET', '/__emulator/mail?limit=1000');
  expect(r.status).toBe(200);
  return r.body.mail;
}
