/**
 * The OAuth token endpoint, client side (docs/wire.md §23, §2 and
 * §11): `POST <base>/oauth2/token` with a JSON body and no site id (the server finds the site by the client or
 * the token), answered in snake_case `{access_token, expires_in, refresh_token}`. Each grant's body is the one
 * the official SDK sends (`@wix/sdk`):
 *
 * - anonymous, refresh_token, authorization_code: camelCase (`OAuthStrategy` generateVisitorTokens, renewToken,
 *   getMemberTokens);
 * - authorized_client (member tokens an admin issues): `{grant_type, scope: 'offline_access', member_id}` with
 *   `Authorization: <access token>,<api key>` (`OAuthStrategy.getMemberTokensForExternalLogin`; docs/wire.md §22: "an Authorization header holding the access token plus a second token");
 * - client_credentials (an app's admin token): `{grant_type, client_id, client_secret, instance_id}`
 *   (`AppStrategy` with `instanceId`);
 * - the device-code grant of RFC 8628 with its device-authorization call `POST /oauth2/device/code`, answered as
 *   the SDK's identity oauth typings have it (`DeviceCodeResponse`: `deviceCode`, `userCode`, `verificationUri`,
 *   `verificationUriComplete`, `expiresIn`, `interval`); {@link TokenEndpoint.deviceCode} also reads RFC 8628's
 *   snake_case names.
 */
import { redact } from '../redact.js';
import { NetworkError } from '../errors.js';

/** Access tokens live 4 hours on the platform (docs/wire.md §2). */
export const ACCESS_TOKEN_SECONDS = 14_400;
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** A token request body (one per grant). */
export type TokenRequest =
  | { grantType: 'anonymous'; clientId: string }
  | { grantType: 'refresh_token'; clientId: string; refreshToken: string }
  | { grantType: 'authorization_code'; clientId: string; redirectUri: string; code: string; codeVerifier: string }
  | { grant_type: 'authorized_client'; scope: 'offline_access'; member_id: string }
  | { grant_type: 'client_credentials'; client_id: string; client_secret: string; instance_id?: string }
  | { grantType: typeof DEVICE_CODE_GRANT; clientId: string; deviceCode: string };

/** The endpoint's answer (snake_case, as the wire has it). */
export interface TokenReply {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  token_type?: string;
}

/**
 * The device-authorization answer, in the SDK typings' names (`@wix/auto_sdk_identity_oauth`
 * `DeviceCodeResponse`/`DeviceAuthorizeResponse`; RFC 8628 section 3.2 has the same fields in snake_case).
 */
export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete?: string;
  /** Seconds the codes stay valid. */
  expiresIn: number;
  /** Seconds between polls (5 when the server names none). */
  interval: number;
}

/**
 * A device-authorization answer read in either casing (the SDK's camelCase first, else RFC 8628's snake_case).
 * @throws TypeError when the device code, user code, verification URI or lifetime is missing
 */
export function readDeviceAuthorization(body: Record<string, unknown>): DeviceAuthorization {
  const pick = (camel: string, snake: string) => body[camel] ?? body[snake];
  const str = (camel: string, snake: string) => {
    const v = pick(camel, snake);
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const deviceCode = str('deviceCode', 'device_code');
  const userCode = str('userCode', 'user_code');
  const verificationUri = str('verificationUri', 'verification_uri');
  const expiresIn = pick('expiresIn', 'expires_in');
  if (!deviceCode || !userCode || !verificationUri || typeof expiresIn !== 'number') {
    throw new TypeError(`the device authorization answer lacks ${!deviceCode ? 'deviceCode' : !userCode ? 'userCode' : !verificationUri ? 'verificationUri' : 'expiresIn'}`);
  }
  const interval = pick('interval', 'interval');
  const complete = str('verificationUriComplete', 'verification_uri_complete');
  return { deviceCode, userCode, verificationUri, ...(complete ? { verificationUriComplete: complete } : {}), expiresIn, interval: typeof interval === 'number' && interval > 0 ? interval : 5 };
}

/**
 * A non-200 answer of the token endpoint, worded as the SDK words it: 'Failed to fetch tokens from OAuth API:
 * <statusText>. request id: <id>. Response: <body>'. `error` is the body's OAuth error code when it has one
 * (`authorization_pending`, `slow_down`, `expired_token`, `access_denied`, `invalid_grant`, ...).
 */
export class TokenEndpointError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly requestId: string | undefined,
    readonly body: string,
    readonly error: string | undefined,
  ) {
    // The body is quoted with anything token- or secret-like scrubbed: a server may echo what it was sent.
    super(`Failed to fetch tokens from OAuth API: ${statusText}. request id: ${requestId ?? 'unknown'}. Response: ${redact(body)}`);
    this.name = 'TokenEndpointError';
  }
}

/** How the endpoint is reached: the base URL, and a fetch with a signal (tests inject one). */
export interface TokenEndpointOptions {
  baseUrl: string;
  /** Per-call timeout (ms), default 30 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** `--debug`: one line per call and answer (the path, the grant type, the status; never a token or secret). */
  onDebug?: (line: string) => void;
}

/** The OAuth endpoints of one base URL. */
export class TokenEndpoint {
  private readonly fetchFn: typeof fetch;
  constructor(private readonly opts: TokenEndpointOptions) {
    this.fetchFn = opts.fetch ?? fetch;
  }

  private async post<T>(path: string, body: object, signal?: AbortSignal, authorization?: string): Promise<T> {
    const ms = this.opts.timeoutMs ?? 30_000;
    const timeout = AbortSignal.timeout(ms);
    const url = this.opts.baseUrl.replace(/\/+$/, '') + path;
    const grant = (body as { grantType?: unknown }).grantType ?? (body as { grant_type?: unknown }).grant_type;
    this.opts.onDebug?.(`> POST ${redact(url)}${typeof grant === 'string' ? ` (grant ${grant})` : ''}`);
    const started = Date.now();
    let res: Response;
    let text: string;
    try {
      res = await this.fetchFn(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await res.text();
      this.opts.onDebug?.(`< POST ${redact(url)} ${res.status} in ${Date.now() - started} ms (request id ${res.headers.get('x-wix-request-id') ?? '-'})`);
    } catch (err) {
      // The caller's abort (Ctrl-C, a deadline) stays an abort; our own timeout and connection failures are
      // network errors (exit 1 with the "is the server reachable?" hint), never a bare TypeError.
      if (signal?.aborted) throw signal.reason;
      const why = timeout.aborted ? `no answer from ${path} within ${Math.round(ms / 1000)} s` : `${path}: ${err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err)}`;
      throw new NetworkError(why, err);
    }
    if (res.status !== 200) {
      let error: string | undefined;
      try {
        const parsed = JSON.parse(text) as { error?: unknown };
        if (typeof parsed.error === 'string') error = parsed.error;
      } catch {
        // not JSON: the text is quoted as it is
      }
      throw new TokenEndpointError(res.status, res.statusText || String(res.status), res.headers.get('x-wix-request-id') ?? undefined, text, error);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new TokenEndpointError(res.status, 'Invalid JSON', res.headers.get('x-wix-request-id') ?? undefined, text.slice(0, 200), undefined);
    }
  }

  /**
   * Sends one grant to `/oauth2/token`.
   * @param authorization only for `authorized_client`: `<access token>,<api key>` (the SDK's form)
   * @throws TokenEndpointError on a non-200 or a reply that is not JSON; NetworkError when the server does not
   *   answer (timeout, connection refused); the signal's reason when `signal` aborts
   */
  token(request: TokenRequest, signal?: AbortSignal, authorization?: string): Promise<TokenReply> {
    return this.post<TokenReply>('/oauth2/token', request, signal, authorization);
  }

  /**
   * Starts a device authorization (RFC 8628 section 3.1; the SDK's `DeviceCodeRequest` `{clientId, scope}` to
   * `/oauth2/device/code`, the `/oauth2` -> `/v1/oauth` mapping of `@wix/auto_sdk_identity_oauth`).
   * @returns the answer in the SDK's names, whichever casing the server used
   * @throws TokenEndpointError on a non-200 or an answer without the codes
   */
  async deviceCode(clientId: string, signal?: AbortSignal): Promise<DeviceAuthorization> {
    const body = await this.post<Record<string, unknown>>('/oauth2/device/code', { clientId, scope: 'offline_access' }, signal);
    try {
      return readDeviceAuthorization(body ?? {});
    } catch (err) {
      throw new TokenEndpointError(200, (err as Error).message, undefined, JSON.stringify(body).slice(0, 200), undefined);
    }
  }

  /**
   * What the server knows of a token (`POST /oauth2/token-info {token}`): `{active, subjectType, subjectId,
   * siteId, exp, iat, clientId}`. @throws TokenEndpointError on a non-200
   */
  tokenInfo(token: string, signal?: AbortSignal): Promise<{ active: boolean; subjectType?: string; subjectId?: string; siteId?: string; exp?: number; clientId?: string }> {
    return this.post('/oauth2/token-info', { token }, signal);
  }

  /**
   * Revokes a token and the others of its session (`POST /oauth2/revoke {token, clientId, clientSecret?}`,
   * RFC 7009; emulator-only path). The client authenticates as on the token endpoint: its id, and its secret
   * when it is a confidential app (RFC 7009 section 2.1); the server refuses a token of another client.
   * @throws TokenEndpointError on a non-200
   */
  revoke(token: string, client: { clientId: string; clientSecret?: string }, signal?: AbortSignal): Promise<unknown> {
    return this.post('/oauth2/revoke', { token, clientId: client.clientId, ...(client.clientSecret ? { clientSecret: client.clientSecret } : {}) }, signal);
  }
}
