/**
 * The typed HTTP client of the platform's REST wire (docs/wire.md §12, §4).
 *
 * It speaks undici's Dispatcher API directly (no fetch) and loads only the two undici modules it uses, and
 * only on the first request, so commands that never call the API pay nothing for it.
 */
import type { Dispatcher } from 'undici';
import { safeParse } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { type ApiError, SystemError } from './errors.js';
import { wireForm } from './query.js';
import { type Pacer, type Pacers, sharedPacers } from './pacer.js';
import { redact, redactHeaders } from './redact.js';
import { type RetryRules, type WaitObserver, defaultSleep, parseRetryAfter, sendWithRetries } from './retry.js';
import type * as Transport from './transport.js';

export { parseRetryAfter };
export type { CallWait, WaitObserver } from './retry.js';

/** How requests authenticate (docs/wire.md §2). Neither kind sends a `Bearer` scheme. */
export type Credentials =
  // Authorization: <key>, wix-site-id: <siteId>; account-level calls wix-account-id: <accountId> instead.
  | { kind: 'apiKey'; apiKey: string; siteId: string; accountId?: string }
  | { kind: 'accessToken'; accessToken: string } // Authorization: <raw token>
  | { kind: 'none' };

export interface ApiClientOptions {
  /** `https://www.wixapis.com` or `http://127.0.0.1:PORT`; a path part is kept as a prefix. */
  baseUrl: string;
  credentials: Credentials;
  /** Transport; default an undici `EnvHttpProxyAgent` with keep-alive (honours HTTP(S)_PROXY / NO_PROXY). */
  dispatcher?: Dispatcher;
  /** Retries after the first attempt, default 3. */
  retries?: number;
  /** Cap of one backoff delay in ms, default 30_000. */
  maxDelayMs?: number;
  /**
   * When a reply's Retry-After asks for more than this (ms), or for more than is left of `budgetMs`, the call fails
   * at once (the error says the wait asked and the limit) instead of waiting; default 60_000.
   */
  maxRetryAfterMs?: number;
  /** Receives each error just before the client throws it (the thrown error; a transport error is its cause). */
  onError?: (err: unknown) => void;
  /** HTTP trace, one line per call made and reply received; secrets redacted. */
  onDebug?: (line: string) => void;
  /**
   * Told of every wait as it begins (a reply not come yet, a pause before the next try), so the caller can say
   * on a terminal what is waited for (the context's waiting notices); the client itself prints nothing.
   */
  onWait?: WaitObserver;
  /**
   * Most time one attempt may take, from sending to the last byte of the reply, in ms (default 30_000): a
   * server that accepts and never answers, or trickles its reply, is given up on (`--timeout`, SITECTL_TIMEOUT).
   */
  timeoutMs?: number;
  /** Most time to establish a connection, in ms (default 10_000). */
  connectTimeoutMs?: number;
  /**
   * Most time one call may take with all its retries and waits, in ms (default 120_000), counted from its first
   * send, once it has left the pacer's queue (pacer.ts): no pause is waited past it, an attempt is given up on at its end
   * even within its `timeoutMs`, and a Retry-After asking for more than is left of it ends the call at once.
   */
  budgetMs?: number;
  /** Waits between attempts (ends early, rejecting, when the signal aborts); tests inject one that records the delays. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * The pacers that spread sends to each origin and site and learn the rate from 429s (pacer.ts); default the
   * process's {@link sharedPacers}, so every client of a site shares one; `false`: no pacing (tests of the retries).
   */
  pacers?: Pacers | false;
}

export interface RequestOptions<T> {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The SDK URL (docs/wire.md §1), e.g. `/_api/bookings/v2/services/query`. */
  path: string;
  /** GET/DELETE parameters, flattened per docs/wire.md §5. */
  query?: Record<string, unknown>;
  /** Allow the `.r=<base64url JSON>` form for nested or object-array parameters. */
  complexQuery?: boolean;
  /** JSON body; `Date` values go out as ISO strings. */
  body?: unknown;
  /**
   * Parses the JSON reply (turns ISO strings into `Date`); without it the parsed JSON is returned as is. Typed as
   * zod's core schema so both zod/mini (what src/api/schemas uses) and classic zod schemas are accepted.
   */
  schema?: $ZodType<T>;
  /**
   * Instead of a schema, a check of the JSON reply that returns the problem found (one line) or undefined; the
   * reply is then returned as is. Where a schema would parse far more than the caller reads (a list passed on as
   * sent: paging.ts).
   */
  check?: (json: unknown) => string | undefined;
  /** Safe to repeat: retried on network errors, 429 and 5xx. Default true for GET, false otherwise. */
  idempotent?: boolean;
  /**
   * Whether a GET whose parameters exceed 4000 characters may go out as a POST to the same path with a JSON body
   * (`invoke` sets it from the operation: every GET of the family tables but two whose POST is another call); without
   * it a GET stays a GET, as a raw call's must: its POST form may be a write (query.ts wireForm).
   */
  longGetFallback?: boolean;
  /** An account-level call: `wix-account-id` instead of `wix-site-id` (docs/wire.md §2). */
  accountLevel?: boolean;
  signal?: AbortSignal;
  /**
   * This call's limit on one attempt, in ms, instead of the client's (an interactive view's background read
   * gives up after 2 s, so a server that stopped answering is told at once; `--timeout` is left as it is).
   */
  timeoutMs?: number;
  /** This call's retries after the first attempt, instead of the client's. */
  retries?: number;
}

const DEFAULT_RETRIES = 3;
const DEFAULT_MAX_DELAY_MS = 30_000;
/** The longest Retry-After waited (`--timeout`'s help in program.ts says it, with DEFAULT_BUDGET_MS). */
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
/** Default of one attempt (send to last byte), of a connection, and of a whole call with its retries. */
export const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_BUDGET_MS = 120_000;
/** Idle sockets stay open this long so consecutive calls (paging, bulk chunks) reuse the connection. */
const KEEP_ALIVE_TIMEOUT_MS = 10_000;

/** The origin and the path prefix of a base URL. @throws TypeError when it is not an absolute http(s) URL */
function originAndPath(baseUrl: string): [string, string] {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`Base URL must be http or https, got ${url.protocol}`);
  }
  return [url.origin, url.pathname.replace(/\/+$/, '')];
}

type RequestFn = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

let transportPromise: Promise<typeof Transport> | undefined;

/**
 * undici's `request` implementation and `EnvHttpProxyAgent` without the package index (see
 * undici-internals.d.ts), from one module loaded on first use. The deep paths are resolved when the bundle is
 * built, so an undici release that moves them fails `npm run build` rather than a user's command.
 */
function loadTransport(): Promise<typeof Transport> {
  transportPromise ??= import('./transport.js');
  return transportPromise;
}

async function loadRequestFn(): Promise<RequestFn> {
  return (await loadTransport()).request;
}

async function createDefaultDispatcher(timeoutMs: number, connectTimeoutMs: number): Promise<Dispatcher> {
  const { EnvHttpProxyAgent: Agent } = await loadTransport();
  return new Agent({
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connect: { timeout: connectTimeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}

/**
 * The default dispatcher of a client and of every client made from it by {@link ApiClient.forSite}: one undici
 * agent (one connection pool per origin) however many sites a fan-out reaches, built on first use and closed when
 * the last of its clients is closed. A pool per site, kept for the whole command, made a fan-out's memory grow
 * with its sites (docs/architecture.md "Runtime and memory").
 */
export class SharedDispatcher {
  private pending: Promise<Dispatcher> | undefined;
  private users = 0;
  /** How many dispatchers this holder has built (tests: one per holder, whatever the number of clients). */
  built = 0;

  constructor(
    private readonly timeoutMs: number,
    private readonly connectTimeoutMs: number,
  ) {}

  /** Clients holding it now (each from its construction or its next call after a close, until its close). */
  get holders(): number {
    return this.users;
  }

  /** Counts one more client using it. */
  hold(): void {
    this.users += 1;
  }

  /** The agent, built on the first call. */
  get(): Promise<Dispatcher> {
    if (!this.pending) {
      this.built += 1;
      this.pending = createDefaultDispatcher(this.timeoutMs, this.connectTimeoutMs);
    }
    return this.pending;
  }

  /** One client done with it: the last one closes the agent's sockets (a later call builds a new one). */
  async release(): Promise<void> {
    this.users = Math.max(0, this.users - 1);
    const pending = this.pending;
    if (this.users > 0 || !pending) return;
    this.pending = undefined;
    await (await pending).close();
  }
}

/**
 * Client of the platform's REST API. One instance per base URL and credential; safe to share between
 * concurrent calls. Call {@link close} when done: idle keep-alive sockets otherwise hold the process open for
 * up to 10 s.
 *
 * What is retried, and why (docs/wire.md §7; the loop is retry.ts `sendWithRetries`):
 * - Idempotent calls (GET by default; callers pass `idempotent: true` for reads sent as POST such as
 *   query/search/count, and for revision-checked updates, which the server refuses to apply twice) are retried
 *   on transport errors, 429 and every 5xx: repeating them cannot change the outcome.
 * - Other calls (create, delete, clone, ...) are retried only when the request certainly was not processed:
 *   on 429 (the platform throttles before it handles the request) and on transport errors raised before a
 *   connection existed (ECONNREFUSED, ENOTFOUND, EAI_AGAIN, EHOSTUNREACH, ENETUNREACH, connect timeout). A 5xx
 *   or a reset connection may come after the change was committed, so such a call fails instead of risking a
 *   duplicate.
 * - At most `retries` (3) retries. Delay: exponential with jitter, attempt n waits a random time in
 *   [250·2^n, 500·2^n] ms capped at `maxDelayMs`; a reply's `Retry-After` (seconds or HTTP date) replaces that
 *   delay, and when it asks for more than `maxRetryAfterMs`, or for more than is left of the budget, the error is
 *   thrown at once, saying the wait asked and the limit (`waitAskedMs` set).
 * - An aborted `signal` stops at once with the signal's reason; it is never retried, and a wait between
 *   attempts ends at once too.
 * - Time limits: one attempt may take `timeoutMs` (send to last byte, so a trickling reply ends too), a
 *   connection `connectTimeoutMs`, and the whole call with its retries `budgetMs` (from its first send); a
 *   timed-out attempt counts as a network failure (retried only when the call is idempotent).
 * - Every wait (a reply not come yet, a pause before the next try) is told to `onWait` as it begins and ends.
 * - A failed call's error says what it went through (`err.tries`, errors.ts withTries): `N attempts over S s` of
 *   a transport failure, `rate-limited N times over S s` of repeated 429s, counted over the attempts made.
 */
export class ApiClient {
  private origin: string;
  private basePath: string;
  private readonly credentials: Credentials;
  private readonly retries: number;
  private readonly maxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly onError?: (err: unknown) => void;
  private readonly onDebug?: (line: string) => void;
  private readonly onWait?: WaitObserver;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly timeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly budgetMs: number;
  private readonly pacers: Pacers | false;
  private readonly secrets: string[];
  /** The caller's dispatcher (left to the caller), else undefined. */
  private readonly given: Dispatcher | undefined;
  /** The default dispatcher this client shares with the clients made from it by {@link forSite}. */
  private readonly shared: SharedDispatcher;
  /** Whether this client counts among `shared`'s holders (from its construction, or its first call after a close). */
  private holding = false;
  private options: ApiClientOptions;

  /**
   * @param shared the default dispatcher to share (forSite's; default: a new one of this client's own)
   * @throws TypeError when `baseUrl` is not an absolute http(s) URL.
   */
  constructor(opts: ApiClientOptions, shared?: SharedDispatcher) {
    this.options = opts;
    [this.origin, this.basePath] = originAndPath(opts.baseUrl);
    this.credentials = opts.credentials;
    this.retries = Math.max(0, opts.retries ?? DEFAULT_RETRIES);
    this.maxDelayMs = opts.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
    this.maxRetryAfterMs = opts.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.onError = opts.onError;
    this.onDebug = opts.onDebug;
    this.onWait = opts.onWait;
    this.sleep = opts.sleep ?? defaultSleep;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.budgetMs = opts.budgetMs ?? DEFAULT_BUDGET_MS;
    this.pacers = opts.pacers ?? sharedPacers;
    this.given = opts.dispatcher;
    this.shared = shared ?? new SharedDispatcher(this.timeoutMs, this.connectTimeoutMs);
    if (!this.given) this.hold();
    const c = opts.credentials;
    this.secrets = c.kind === 'apiKey' ? [c.apiKey] : c.kind === 'accessToken' ? [c.accessToken] : [];
  }

  /** The site an API key targets (`wix-site-id`); undefined for tokens. */
  get siteId(): string | undefined {
    return this.credentials.kind === 'apiKey' ? this.credentials.siteId : undefined;
  }

  /** The account of an account-level API key, when known (needed by account-level calls). */
  get accountId(): string | undefined {
    return this.credentials.kind === 'apiKey' ? this.credentials.accountId : undefined;
  }

  /**
   * A client for another site of the same account: the same base URL, key, limits and dispatcher (this client's
   * connections: the platform is one origin, so a fan-out to many sites keeps one pool, not one per site). Close
   * it when done: the dispatcher's sockets close with the last of the clients sharing it.
   * @throws TypeError for token credentials (they belong to one site)
   */
  forSite(siteId: string): ApiClient {
    const c = this.credentials;
    if (c.kind !== 'apiKey') throw new TypeError('only an API key reaches other sites of the account');
    return new ApiClient({ ...this.options, credentials: { ...c, siteId } }, this.shared);
  }

  /**
   * Points this client at another base URL (the local emulator started again on another port): calls from now
   * on go there, with the same credentials and limits. The dispatcher serves any origin, so nothing is rebuilt.
   * @throws TypeError when `baseUrl` is not an absolute http(s) URL
   */
  retarget(baseUrl: string): void {
    [this.origin, this.basePath] = originAndPath(baseUrl);
    this.options = { ...this.options, baseUrl };
  }

  /** The base URL's origin, e.g. `http://127.0.0.1:4010` (for messages). */
  get baseUrl(): string {
    return this.origin + this.basePath;
  }

  /** Scrubs this client's credentials and any secret-looking parameter from `text` (for messages and traces). */
  redact(text: string): string {
    return redact(text, this.secrets);
  }

  /**
   * Sends one call and returns its parsed reply.
   *
   * Wire rules: success is HTTP 200 with a JSON body (docs/wire.md §10; any other status, an empty body or non-JSON is
   * an error). Auth per docs/wire.md §2; `content-type: application/json` only with a body; GET/DELETE `query` flattened
   * per docs/wire.md §5; a GET whose parameters exceed 4000 characters is sent as a POST of the same path with the
   * parameters as the JSON body, unless `longGetFallback` is false (query.ts `wireForm`).
   *
   * @returns the reply JSON, parsed by `schema` when given
   * @throws ValidationError | ApplicationError | SystemError (see errors.ts), NetworkError after the retries,
   *         SystemError when a 200 reply does not match `schema`, the signal's reason when aborted; the API errors
   *         of a failed reply or transport carry `tries` (withTries), and `waitAskedMs` when a Retry-After was
   *         longer than the call could wait
   */
  async request<T>(opts: RequestOptions<T>): Promise<T> {
    // The one long-GET rule (docs/wire.md §5): a GET past 4,000 characters of parameters goes out as a POST.
    const { method, body, search } = wireForm(opts.method, opts.query, opts.body, opts.complexQuery ?? false, opts.longGetFallback ?? false);
    const idempotent = opts.idempotent ?? opts.method === 'GET';
    const path = this.basePath + opts.path + (search ? `?${search}` : '');
    const headers = this.headers(body !== undefined, opts.accountLevel ?? false);
    const payload = body === undefined ? undefined : JSON.stringify(body);

    const dispatcher = await this.getDispatcher();
    const requestFn = await loadRequestFn();
    const rules: RetryRules = {
      retries: opts.retries ?? this.retries,
      timeoutMs: opts.timeoutMs ?? this.timeoutMs,
      maxDelayMs: this.maxDelayMs,
      maxRetryAfterMs: this.maxRetryAfterMs,
      budgetMs: this.budgetMs,
      sleep: this.sleep,
      onWait: this.onWait,
    };
    const reply = await sendWithRetries(rules, {
      method,
      tracedUrl: this.redact(this.origin + path),
      shownPath: this.redact(this.basePath + opts.path),
      headers,
      idempotent,
      signal: opts.signal,
      pacer: this.pacer(opts.accountLevel ?? false),
      send: (signal) => requestFn.call(dispatcher, { origin: this.origin, path, method, headers, body: payload, signal }),
      trace: (line, traced) => this.trace(line, traced),
      redact: (text) => this.redact(text),
      sanitize: (err) => this.sanitize(err),
      fail: (err) => this.fail(err),
    });
    return this.parse(opts.schema, reply.text, reply.res, reply.requestId, opts.check);
  }

  /** The pacer of this client's origin and site (an account-level call: the account's; a token: its own), if pacing. */
  private pacer(accountLevel: boolean): Pacer | undefined {
    if (!this.pacers) return undefined;
    const c = this.credentials;
    const scope = c.kind === 'apiKey' ? (accountLevel ? `account:${c.accountId ?? ''}` : `site:${c.siteId}`) : c.kind === 'accessToken' ? 'token' : 'none';
    return this.pacers.get(this.origin, scope);
  }

  /**
   * Done with the client: a dispatcher passed in is left to the caller; the default one is closed (its sockets)
   * once every client sharing it (this one and those of {@link forSite}) is closed. A later call opens it again.
   */
  async close(): Promise<void> {
    if (!this.holding) return;
    this.holding = false;
    await this.shared.release();
  }

  private hold(): void {
    if (this.holding) return;
    this.holding = true;
    this.shared.hold();
  }

  private getDispatcher(): Promise<Dispatcher> {
    if (this.given) return Promise.resolve(this.given);
    this.hold();
    return this.shared.get();
  }

  /** @throws TypeError for an account-level call without the account id */
  private headers(hasBody: boolean, accountLevel: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const c = this.credentials;
    if (c.kind === 'apiKey') {
      headers.authorization = c.apiKey;
      if (!accountLevel) headers['wix-site-id'] = c.siteId;
      else if (c.accountId) headers['wix-account-id'] = c.accountId;
      else throw new TypeError('an account-level call needs the account id of the API key');
    } else if (c.kind === 'accessToken') {
      headers.authorization = c.accessToken;
    }
    if (hasBody) headers['content-type'] = 'application/json';
    return headers;
  }

  private parse<T>(
    schema: $ZodType<T> | undefined,
    text: string,
    res: Dispatcher.ResponseData,
    requestId: string | undefined,
    check?: (json: unknown) => string | undefined,
  ): T {
    // Built only for an error: redacting the whole reply costs ~3 ms (and garbage) on a 50-service page.
    const init = () => ({ status: res.statusCode, statusText: res.statusText, requestId, body: this.redact(text) });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw this.fail(
        new SystemError({ ...init(), cause }, text.trim() === '' ? 'empty reply' : 'reply is not JSON'),
      );
    }
    if (check) {
      const problem = check(json);
      if (problem) throw this.fail(new SystemError(init(), this.redact(`unexpected reply: ${problem}`)));
      return json as T;
    }
    if (!schema) return json as T;
    const parsed = safeParse(schema, json);
    if (parsed.success) return parsed.data;
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw this.fail(new SystemError({ ...init(), cause: parsed.error }, this.redact(`unexpected reply: ${issues}`)));
  }

  /** Server-provided text could echo a secret; scrub the message before anyone sees it. */
  private sanitize(err: ApiError): ApiError {
    const clean = this.redact(err.message);
    if (clean !== err.message) err.message = clean;
    return err;
  }

  private fail(err: ApiError): ApiError {
    this.onError?.(err);
    return err;
  }

  private trace(line: string, headers?: Record<string, string>): void {
    if (!this.onDebug) return;
    this.onDebug(line);
    if (headers) {
      for (const [name, value] of Object.entries(redactHeaders(headers))) {
        this.onDebug(`>   ${name}: ${this.redact(value)}`);
      }
    }
  }
}
