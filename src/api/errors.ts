/**
 * Errors of the typed client, built from a non-200 reply exactly as docs/wire.md §4 and
 * docs/wire.md §4 describe:
 *
 * 1. `details.validationError.fieldViolations` -> {@link ValidationError},
 *    message `INVALID_ARGUMENT: "<field>" <description>, "<field2>" <description2>` sorted by field name.
 * 2. `details.applicationError` -> {@link ApplicationError}, message `<message>: <description>` (just the
 *    message when they are equal or the description is empty), with code, description and data.
 * 3. any other 4xx with a JSON (or empty) body -> {@link ApplicationError} whose code is the HTTP status text in
 *    UPPER_SNAKE_CASE (404 -> NOT_FOUND, 409 -> CONFLICT, 429 -> TOO_MANY_REQUESTS) and whose message is the
 *    server's message or else the status text.
 * 4. everything else (5xx, other statuses, a body that is not JSON) -> {@link SystemError}
 *    `System error occurred, request-id: <id>`; transport failures -> {@link NetworkError}, the same message
 *    with `none` as the id and the raw error text in parentheses.
 *
 * Every error carries the HTTP status (0 when no reply arrived) and the `x-wix-request-id` reply header.
 */
import type * as Http from 'node:http';

/**
 * The reason phrase of an HTTP status (`404` -> `Not Found`), or ''. node:http is taken with
 * `process.getBuiltinModule`, not an ESM import: importing node:http as ESM reads every export of it, and its
 * lazy `WebSocket`/`CloseEvent` getters then load Node's internal undici with tls, crypto, http2 and zlib
 * (~15 ms of every command's start-up on Node 22-26).
 */
function reasonPhrase(status: number): string {
  return (process.getBuiltinModule('node:http') as typeof Http).STATUS_CODES[status] ?? '';
}

/** One entry of `details.validationError.fieldViolations`. `field` is a dotted path such as `service.name`. */
export interface FieldViolation {
  field: string;
  description: string;
  violatedRule?: string;
  ruleName?: string;
  data?: unknown;
}

export interface ApiErrorInit {
  status: number;
  statusText?: string;
  requestId?: string;
  details?: unknown;
  body?: string;
  cause?: unknown;
}

/** Base class: any failed call. `body` is the raw reply text (may be empty); `details` its parsed `details`. */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  /** A stable machine code: `INVALID_ARGUMENT`, the application code, `SYSTEM_ERROR` or `NETWORK_ERROR`. */
  readonly code: string = 'API_ERROR';
  /** HTTP status of the reply; 0 when the request got no reply at all. */
  readonly status: number;
  readonly statusText: string;
  /** The `x-wix-request-id` reply header; undefined when the reply had none or there was no reply. */
  readonly requestId: string | undefined;
  readonly details: unknown;
  readonly body: string;
  /** What the call went through before it failed (set by the client, totals replaced by {@link withTries}). */
  tries?: CallTries;
  /**
   * The wait in ms a reply's `Retry-After` asked for, when the call ended instead of waiting it because it was more
   * than the call's budget allowed: sending the request again at once would be refused the same way.
   */
  waitAskedMs?: number;

  constructor(message: string, init: ApiErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.statusText = init.statusText ?? reasonPhrase(init.status);
    this.requestId = init.requestId;
    this.details = init.details;
    this.body = init.body ?? '';
  }
}

/** Rule 1: the server rejected one or more fields. */
export class ValidationError extends ApiError {
  override readonly name = 'ValidationError';
  override readonly code = 'INVALID_ARGUMENT';
  readonly fieldViolations: FieldViolation[];

  constructor(fieldViolations: FieldViolation[], init: ApiErrorInit, serverMessage?: string) {
    super(validationMessage(fieldViolations, serverMessage), init);
    this.fieldViolations = fieldViolations;
  }
}

/** Rules 2 and 3: a business rule failed (code from the server) or a plain 4xx (code from the status text). */
export class ApplicationError extends ApiError {
  override readonly name = 'ApplicationError';
  override readonly code: string;
  readonly description: string;
  readonly data: unknown;

  constructor(
    fields: { code: string; message: string; description?: string; data?: unknown },
    init: ApiErrorInit,
  ) {
    super(applicationMessage(fields.message, fields.description), init);
    this.code = fields.code;
    this.description = fields.description ?? '';
    this.data = fields.data;
  }
}

/** Rule 4: the platform failed (5xx), or replied with something that is not the wire format. */
export class SystemError extends ApiError {
  override readonly name: string = 'SystemError';
  override readonly code: string = 'SYSTEM_ERROR';

  /** @param rawError appended in parentheses when given (docs/wire.md §4 rule 4 "or with the raw error"). */
  constructor(init: ApiErrorInit, rawError?: string) {
    super(systemMessage(init.requestId, rawError), init);
  }
}

/** Rule 4 for transport failures (connection refused/reset, timeout, abort) that outlived the retries. */
export class NetworkError extends SystemError {
  override readonly name = 'NetworkError';
  override readonly code = 'NETWORK_ERROR';

  /** @param cause the transport error; its message (redacted by the caller) is the raw text. */
  constructor(rawError: string, cause: unknown) {
    super({ status: 0, statusText: '', cause }, rawError);
  }
}

/** `System error occurred, request-id: <id or none>[ (<raw error>)]`. */
export function systemMessage(requestId: string | undefined, rawError?: string): string {
  const base = `System error occurred, request-id: ${requestId || 'none'}`;
  return rawError ? `${base} (${rawError})` : base;
}

/** `INVALID_ARGUMENT: "a" d1, "b" d2`, sorted by field name (docs/wire.md §4 and §8 rule 1). */
export function validationMessage(violations: readonly FieldViolation[], serverMessage?: string): string {
  if (violations.length === 0) return serverMessage ? `INVALID_ARGUMENT: ${serverMessage}` : 'INVALID_ARGUMENT';
  const parts = [...violations]
    .sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0))
    .map((v) => `"${v.field}" ${v.description}`.trimEnd());
  return `INVALID_ARGUMENT: ${parts.join(', ')}`;
}

/** `<message>: <description>`, or one of them alone when they are equal or one is empty (docs/wire.md §4 rule 2). */
export function applicationMessage(message: string, description?: string): string {
  if (!description || description === message) return message;
  if (!message) return description;
  return `${message}: ${description}`;
}

/** `Not Found` -> `NOT_FOUND`, `I'm a Teapot` -> `I_M_A_TEAPOT` (docs/wire.md §4 rule 3). */
export function toUpperSnake(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : value === undefined || value === null ? undefined : String(value);
}

function toViolation(raw: unknown): FieldViolation {
  const v = isRecord(raw) ? raw : {};
  const out: FieldViolation = { field: str(v.field) ?? '', description: str(v.description) ?? '' };
  if (v.violatedRule !== undefined) out.violatedRule = str(v.violatedRule);
  if (v.ruleName !== undefined) out.ruleName = str(v.ruleName);
  if (v.data !== undefined) out.data = v.data;
  return out;
}

/**
 * Builds the error for a non-200 reply (rules 1-4 above).
 *
 * @param status     HTTP status code
 * @param statusText reason phrase; empty -> Node's standard text for the status
 * @param headers    reply headers (lower-case names); `x-wix-request-id` becomes `requestId`
 * @param bodyText   raw reply body (may be empty: the platform sends 5xx without a body)
 * @param cause      optional underlying error
 */
export function fromResponse(
  status: number,
  statusText: string,
  headers: Record<string, string | string[] | undefined>,
  bodyText: string,
  cause?: unknown,
): ApiError {
  const rawId = headers['x-wix-request-id'];
  const requestId = (Array.isArray(rawId) ? rawId[0] : rawId) || undefined;
  const text = statusText || reasonPhrase(status);
  const init = { status, statusText: text, requestId, body: bodyText, cause };

  let parsed: unknown = {};
  if (bodyText.trim() !== '') {
    try {
      parsed = JSON.parse(bodyText);
    } catch {
      return new SystemError(init);
    }
  }
  const body = isRecord(parsed) ? parsed : {};
  const details = body.details;
  const message = str(body.message) ?? '';
  const withDetails = { ...init, details };

  if (status >= 400 && status < 500) {
    const validation = isRecord(details) ? details.validationError : undefined;
    if (isRecord(validation)) {
      const raw = Array.isArray(validation.fieldViolations) ? validation.fieldViolations : [];
      return new ValidationError(raw.map(toViolation), withDetails, message || undefined);
    }
    const application = isRecord(details) ? details.applicationError : undefined;
    if (isRecord(application)) {
      const description = str(application.description);
      return new ApplicationError(
        {
          code: str(application.code) ?? toUpperSnake(text),
          message: message || (description ? '' : text),
          description,
          data: application.data,
        },
        withDetails,
      );
    }
    return new ApplicationError({ code: toUpperSnake(text), message: message || text }, withDetails);
  }
  return new SystemError(withDetails);
}

/**
 * What a call went through before it failed: the attempts sent, how many of them the platform refused with 429,
 * and the time from the first send to the failure in ms.
 */
export interface CallTries {
  attempts: number;
  rateLimited: number;
  elapsedMs: number;
}

/** The message each error had before {@link withTries} first said what its call went through. */
const untried = new WeakMap<ApiError, string>();

/**
 * Seconds for messages: one decimal under 10 s (`0.3 s`, `2.5 s`, `4 s`), whole seconds above (`59 s`).
 * @param ms a duration in ms (negative counts as 0)
 */
export function seconds(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  return `${s < 10 ? Number(s.toFixed(1)) : Math.round(s)} s`;
}

/**
 * Says on `err`'s message what its call went through, and keeps it as `err.tries`: a transport failure of more
 * than one attempt ends its parenthesis with `, N attempts over S s`; a 429 refused more than once starts with
 * `rate-limited N times over S s: `; any other error keeps its message (5xx messages keep the wire's form).
 * Called again with larger totals (the bulk engine sent the request again), it replaces what it said before, so
 * the counts are those of every attempt made.
 * @returns `err`
 */
export function withTries<E extends ApiError>(err: E, tries: CallTries): E {
  if (!untried.has(err)) untried.set(err, err.message);
  const bare = untried.get(err)!;
  err.tries = tries;
  const over = `over ${seconds(tries.elapsedMs)}`;
  if (err.status === 0 && tries.attempts > 1 && bare.endsWith(')')) err.message = `${bare.slice(0, -1)}, ${tries.attempts} attempts ${over})`;
  else if (err.status === 429 && tries.rateLimited > 1) err.message = `rate-limited ${tries.rateLimited} times ${over}: ${bare}`;
  else err.message = bare;
  return err;
}
