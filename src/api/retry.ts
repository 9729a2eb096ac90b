/**
 * The client's retry loop and its rules (docs/wire.md §7): the attempts of one call with pacing before each, one
 * deadline per attempt within the call's budget, backoff or the reply's `Retry-After`, every wait told as it begins
 * ({@link sendWithRetries}); and what those rules need to know about a failed attempt: whether a transport error
 * means the request never reached the server, the error's code and text, the wait a reply's `Retry-After` asks
 * for, and a backoff wait that ends on Ctrl-C. Used by client.ts only.
 */
import type { Dispatcher } from 'undici';
import { type ApiError, type CallTries, NetworkError, fromResponse, seconds, withTries } from './errors.js';
import type { Pacer } from './pacer.js';

/**
 * Transport error codes that mean the request never reached the server (no connection was made), so even a
 * non-idempotent call can be sent again without risk of applying it twice.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts (a wait never outlasts Ctrl-C). */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A reason an attempt was given up on because it took too long (not because the user interrupted). */
export class AttemptTimeout extends Error {
  override readonly name = 'AttemptTimeout';
  readonly code = 'ETIMEDOUT';
}

/** The first `code` along the error's cause chain (undici wraps system errors such as ECONNREFUSED). */
function errorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when a transport error (or one along its cause chain) means no connection was made: safe to resend. */
export function notSent(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** A one-line description of a transport error: its code (when the message lacks it), message and cause. */
export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = errorCode(err);
    const causeMessage = err.cause instanceof Error && err.cause.message !== err.message ? `: ${err.cause.message}` : '';
    const text = `${err.message}${causeMessage}`;
    return code && !text.includes(code) ? `${code} ${text}` : text;
  }
  return String(err);
}

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Returns ms (>= 0) or undefined when
 * absent or unparseable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The first value of a header that may repeat. */
export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A wait of a call, told to {@link RetryRules.onWait} as it begins:
 * - `reply`: try `attempt` (of at most `attempts`) was sent and its reply has not come yet; it ends when the reply
 *   has come whole, or the try failed;
 * - `retry`: the pause of `ms` before try `attempt`, because of `reason` (`rate limit`, `HTTP 503`, or the transport
 *   error: `no reply headers within 30 s`); `asked` when the reply's `Retry-After` set it, else it is the backoff.
 *
 * `path` is the call's path without its query, secrets redacted; `elapsedMs` the time the call has taken so far,
 * from its first send (ms).
 */
export type CallWait =
  | { kind: 'reply'; method: string; path: string; attempt: number; attempts: number; elapsedMs: number }
  | { kind: 'retry'; method: string; path: string; attempt: number; attempts: number; elapsedMs: number; ms: number; asked: boolean; reason: string };

/** Told of each wait of a call as it begins; the function it returns, if any, is called once when that wait ends. */
export type WaitObserver = (wait: CallWait) => (() => void) | undefined;

/** First backoff step; attempt n waits a random time in [base*2^n/2, base*2^n], capped at maxDelayMs. */
const BASE_DELAY_MS = 500;

/**
 * A monotonic clock in milliseconds, for the call's budget and timings. `process.hrtime` rather than the global
 * `performance`, whose first use loads Node's whole perf_hooks (~1.5 ms of every command's start-up).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** The limits and hooks of a client's retries (ApiClientOptions, with their defaults applied); times in ms. */
export interface RetryRules {
  /** Retries after the first attempt. */
  retries: number;
  /** Most time one attempt may take (send to last byte). */
  timeoutMs: number;
  /** Cap of one backoff delay. */
  maxDelayMs: number;
  /** The longest Retry-After waited. */
  maxRetryAfterMs: number;
  /** Most time one call may take with its retries and waits, from its first send. */
  budgetMs: number;
  /** Waits between attempts (rejects when the signal aborts). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  onWait?: WaitObserver;
}

/** One call as the retry loop sends it: what it is, and the client's ways to send, trace and report it. */
export interface RetriedCall {
  method: string;
  /** The path with its query (for the trace, redacted there) and without it, redacted (for the waits told). */
  tracedUrl: string;
  shownPath: string;
  headers: Record<string, string>;
  idempotent: boolean;
  signal?: AbortSignal;
  /** The pacer of the call's origin and site; undefined: not paced. */
  pacer?: Pacer;
  /** Sends one attempt, ending it when `signal` aborts. */
  send(signal: AbortSignal): Promise<Dispatcher.ResponseData>;
  /** A line of the HTTP trace (with the request's headers on a send). */
  trace(line: string, headers?: Record<string, string>): void;
  /** Scrubs secrets from text. */
  redact(text: string): string;
  /** Redacts a failed reply's error (server text may echo a secret). */
  sanitize(err: ApiError): ApiError;
  /** Hands an error to onError and returns it to be thrown. */
  fail(err: ApiError): ApiError;
}

/** A reply of status 200 with its whole body, for the client to parse. */
export interface Reply {
  res: Dispatcher.ResponseData;
  text: string;
  requestId: string | undefined;
}

/**
 * Sends `call` until a reply of 200 comes, by the client's retry rules (docs/wire.md §7; ApiClient's doc says
 * them): pacing (pacer.ts) before each attempt, one deadline per attempt within the call's budget (which starts as
 * the first attempt leaves the pacer's queue), backoff with jitter or the reply's `Retry-After`, every wait told to
 * `onWait` as it begins and ends.
 * @returns the 200 reply and its body
 * @throws NetworkError after the retries of a transport failure, the ApiError of a failed reply (both carrying
 *   `tries`, and `waitAskedMs` when a Retry-After was longer than the call could wait), the signal's reason when aborted
 */
export async function sendWithRetries(rules: RetryRules, call: RetriedCall): Promise<Reply> {
  const { method, signal: callSignal, pacer, idempotent } = call;
  const { retries, timeoutMs, budgetMs } = rules;
  await paced(pacer, callSignal);
  // The budget starts here, as the first attempt leaves the pacer's queue.
  const callStarted = monotonicMs();
  const elapsed = () => monotonicMs() - callStarted;
  const attempts = retries + 1;
  /** Waits `ms` before try `next` when the call's budget allows it (telling onWait); false when it does not. */
  const mayRetry = async (ms: number, next: number, reason: string, asked: boolean): Promise<boolean> => {
    if (elapsed() + ms > budgetMs) return false;
    const end = rules.onWait?.({ kind: 'retry', method, path: call.shownPath, attempt: next, attempts, elapsedMs: elapsed(), ms, asked, reason });
    try {
      call.trace(`  retrying in ${ms} ms`);
      await rules.sleep(ms, callSignal);
      callSignal?.throwIfAborted();
    } finally {
      end?.();
    }
    return true;
  };

  // What the call went through, for the final error (withTries): "no reply headers within 30 s, 3 attempts over
  // 92 s"; "rate-limited 7 times over 31 s".
  let rateLimited = 0;
  for (let attempt = 0; ; attempt++) {
    callSignal?.throwIfAborted();
    if (attempt > 0) await paced(pacer, callSignal);
    const started = monotonicMs();
    const tries = (): CallTries => ({ attempts: attempt + 1, rateLimited, elapsedMs: elapsed() });
    // An attempt ends at its own limit, or at the end of the call's budget when that comes first.
    const limitMs = Math.max(1, Math.min(timeoutMs, budgetMs - (started - callStarted)));
    let stage: 'headers' | 'body' = 'headers';
    call.trace(`> ${method} ${call.tracedUrl}`, call.headers);
    // One deadline for the whole attempt: headers and every byte of the body. The caller's signal aborts it too
    // (linked by hand: AbortSignal.any costs start-up time and keeps weak references alive).
    const deadline = new AbortController();
    const signal = deadline.signal;
    const timer = setTimeout(() => {
      const within = `within ${Number((limitMs / 1000).toFixed(1))} s${limitMs < timeoutMs ? `: the call's ${seconds(budgetMs)} budget ran out` : ''}`;
      deadline.abort(new AttemptTimeout(stage === 'headers' ? `no reply headers ${within}` : `reply not complete ${within}`));
    }, limitMs);
    const onAbort = () => deadline.abort(callSignal!.reason);
    callSignal?.addEventListener('abort', onAbort, { once: true });
    // The reply's wait ends once: when the reply came whole, or before the pause that follows a failed try.
    let replyWait: (() => void) | undefined;
    const endReply = () => {
      replyWait?.();
      replyWait = undefined;
    };
    let res: Dispatcher.ResponseData;
    let text: string;
    try {
      replyWait = rules.onWait?.({ kind: 'reply', method, path: call.shownPath, attempt: attempt + 1, attempts, elapsedMs: started - callStarted });
      pacer?.sending();
      try {
        res = await call.send(signal);
      } catch (err) {
        pacer?.failed();
        callSignal?.throwIfAborted();
        const cause = signal.aborted ? signal.reason : err;
        const ms = Math.round(monotonicMs() - started);
        const message = call.redact(errorText(cause));
        call.trace(`< ${method} ${call.tracedUrl} failed after ${ms} ms: ${message}`);
        endReply();
        if (attempt < retries && (idempotent || notSent(cause)) && (await mayRetry(backoff(rules, attempt), attempt + 2, message, false))) continue;
        throw call.fail(withTries(new NetworkError(message, cause), tries()));
      }
      stage = 'body';
      try {
        text = await res.body.text();
      } catch (err) {
        pacer?.failed();
        callSignal?.throwIfAborted();
        const cause = signal.aborted ? signal.reason : err;
        const message = call.redact(errorText(cause));
        endReply();
        if (attempt < retries && idempotent && (await mayRetry(backoff(rules, attempt), attempt + 2, message, false))) continue;
        throw call.fail(withTries(new NetworkError(message, cause), tries()));
      }
    } finally {
      clearTimeout(timer);
      callSignal?.removeEventListener('abort', onAbort);
      endReply();
    }
    const ms = Math.round(monotonicMs() - started);
    const requestId = firstHeader(res.headers['x-wix-request-id']);
    call.trace(`< ${method} ${call.tracedUrl} ${res.statusCode} ${ms} ms request-id: ${requestId ?? 'none'}`);

    if (res.statusCode !== 429) pacer?.replied(res.statusCode);
    if (res.statusCode === 200) return { res, text, requestId };

    const err = call.sanitize(fromResponse(res.statusCode, res.statusText, res.headers, call.redact(text)));
    const retryable = res.statusCode === 429 || res.statusCode >= 500;
    if (res.statusCode === 429) {
      rateLimited++;
      // Every send to this site waits what the platform asks, unless the call will not wait it either.
      const asked = parseRetryAfter(res.headers['retry-after']);
      pacer?.replied(429, asked !== undefined && !tooLong(rules, asked, elapsed()) ? asked : undefined);
    }
    if (retryable && (idempotent || res.statusCode === 429) && attempt < retries) {
      const reason = res.statusCode === 429 ? 'rate limit' : `HTTP ${res.statusCode}`;
      const retryAfter = parseRetryAfter(res.headers['retry-after']);
      if (retryAfter !== undefined) {
        const why = tooLong(rules, retryAfter, elapsed());
        if (why) {
          // Waiting would outlast what the call may take: end now, saying what was asked (5xx messages follow as sent).
          err.message = `the platform asks to wait ${seconds(retryAfter)} (${reason}), ${why}: ${err.message}`;
          err.waitAskedMs = retryAfter;
          throw call.fail(withTries(err, tries()));
        }
      }
      if (await mayRetry(retryAfter ?? backoff(rules, attempt), attempt + 2, reason, retryAfter !== undefined)) continue;
    }
    throw call.fail(withTries(err, tries()));
  }
}

/**
 * Why a Retry-After of `askedMs` is not waited when the call has taken `elapsedMs` (`more than the 60 s a wait
 * may take`, `more than the 2 s left of the call's 120 s budget`), or undefined when it is waited.
 */
function tooLong(rules: RetryRules, askedMs: number, elapsedMs: number): string | undefined {
  const left = rules.budgetMs - elapsedMs;
  const budget = seconds(rules.budgetMs);
  if (askedMs > rules.maxRetryAfterMs && rules.maxRetryAfterMs < left) {
    return `more than the ${seconds(rules.maxRetryAfterMs)} a single wait may take (the call's budget is ${budget})`;
  }
  if (askedMs < left) return undefined;
  // Said as the whole budget until the call has used a noticeable part of it.
  return left > rules.budgetMs - 1000 ? `more than the call's ${budget} budget` : `more than the ${seconds(left)} left of the call's ${budget} budget`;
}

/**
 * Waits for the pacer's next slot (pacer.ts), and out any `Retry-After` pause it is in; at once when the site is
 * not paced. @throws the signal's reason when it aborts
 */
async function paced(pacer: Pacer | undefined, signal: AbortSignal | undefined): Promise<void> {
  if (!pacer) return;
  for (;;) {
    const paused = pacer.pausedFor();
    if (paused > 0) {
      await defaultSleep(paused, signal);
      continue;
    }
    const ms = pacer.reserve();
    if (ms <= 0) return;
    await defaultSleep(ms, signal);
    if (pacer.pausedFor() === 0) return;
  }
}

/** The backoff before the retry after attempt `attempt` (0-based): random in [ceiling/2, ceiling], ms. */
function backoff(rules: RetryRules, attempt: number): number {
  const ceiling = Math.min(rules.maxDelayMs, BASE_DELAY_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
