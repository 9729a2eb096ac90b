/**
 * What the client's retry rules need to know about a failed attempt (docs/wire.md §7): whether a transport error means the request never reached the server, the error's code and
 * text, the wait a reply's `Retry-After` asks for, and a backoff wait that ends on Ctrl-C. Used by client.ts only.
 */

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
