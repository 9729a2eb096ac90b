/**
 * The token endpoint as every command reaches it, and an app's client credentials as the profile's admin
 * credential.
 *
 * - {@link tokenEndpoint}: the one way to build a TokenEndpoint from the context, so every token call (sign-in,
 *   member refresh, logout's revocation, the app's client-credentials fetch) honours `--timeout` /
 *   SITECTL_TIMEOUT and traces with `--debug` (never a token or secret: tokens.ts redacts).
 * - {@link appAccessToken} (docs/sign-in.md "App client credentials": `sitectl login --client-id ID --client-secret-stdin`, for CI): the
 *   stored access token while it has more than a minute left, else a new one from the client_credentials grant
 *   (the SDK's AppStrategy body: `grant_type`, `client_id`, `client_secret`, `instance_id` when the profile has
 *   one), written back to the sessions file. Loaded by context.ts only when a profile has no API key.
 *
 * The dependency runs one way: context.ts loads this module (by a dynamic import), and this module does not
 * import context.ts; what it needs of a Context is {@link TokenCallContext}, declared here (docs/architecture.md
 * "Layout and dependency direction").
 */
import { TokenEndpoint, TokenEndpointError, type TokenRequest } from './api/auth/tokens.js';
import { AuthError, UserError } from './core/errors.js';
import type { IOStreams } from './core/iostreams.js';
import { readSession, writeSession } from './core/sessions.js';

/**
 * What the token calls take of a command's Context (context.ts's Context has all of it): the global flags
 * they honour (`--timeout`, `--debug`), the environment (SITECTL_TIMEOUT, the sessions file's place), stderr for
 * the debug trace, the abort signal, the clock, and the command name for hints.
 */
export interface TokenCallContext {
  flags: { timeoutSec?: number; debug: boolean };
  env: NodeJS.ProcessEnv;
  io: Pick<IOStreams, 'stderr'>;
  signal: AbortSignal;
  now(): Date;
  bin: string;
}

/**
 * `--timeout SECONDS` (else SITECTL_TIMEOUT) in ms; undefined when neither is given.
 * @throws UserError (exit 2) for a value that is not a number of seconds above 0 and at most 3600
 */
export function requestTimeoutMs(ctx: Pick<TokenCallContext, 'flags' | 'env'>): number | undefined {
  const raw = ctx.flags.timeoutSec ?? (ctx.env.SITECTL_TIMEOUT ? Number(ctx.env.SITECTL_TIMEOUT) : undefined);
  if (raw === undefined) return undefined;
  if (!Number.isFinite(raw) || raw <= 0 || raw > 3600) {
    throw new UserError(`the timeout must be a number of seconds above 0 and at most 3600, got '${ctx.flags.timeoutSec ?? ctx.env.SITECTL_TIMEOUT}'`, 'e.g. --timeout 60 or SITECTL_TIMEOUT=60');
  }
  return Math.round(raw * 1000);
}

/**
 * The OAuth endpoints of `baseUrl` with the context's per-call timeout (`--timeout`, else `defaultTimeoutMs`,
 * else the endpoint's 30 s) and `--debug` trace on stderr.
 * @throws UserError (exit 2) for a bad `--timeout`
 */
export function tokenEndpoint(ctx: Pick<TokenCallContext, 'flags' | 'env' | 'io'>, baseUrl: string, defaultTimeoutMs?: number): TokenEndpoint {
  return new TokenEndpoint({
    baseUrl,
    timeoutMs: requestTimeoutMs(ctx) ?? defaultTimeoutMs,
    onDebug: ctx.flags.debug ? (line) => ctx.io.stderr.write(`debug: ${line}\n`) : undefined,
  });
}

/**
 * The client-credentials grant as the SDK's `AppStrategy` sends it (`@wix/sdk` build/auth/AppStrategy.js):
 * `{grant_type: 'client_credentials', client_id, client_secret, instance_id}`, the instance left out when none
 * is configured (the emulator's apps live on one site each; the platform's need it).
 */
export function clientCredentials(clientId: string, clientSecret: string, instanceId?: string): TokenRequest {
  return { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, ...(instanceId ? { instance_id: instanceId } : {}) };
}

/**
 * A valid admin access token of the profile's app credentials, or undefined when it holds none.
 * @param instanceId the app instance (`profile add --instance-id`, SITECTL_INSTANCE_ID), sent as `instance_id`
 * @throws AuthError (exit 4) when the endpoint refuses the credentials
 */
export async function appAccessToken(ctx: TokenCallContext, profile: string, baseUrl: string, instanceId?: string): Promise<string | undefined> {
  const s = readSession(ctx.env, profile);
  if (!s.admin) return undefined;
  const nowMs = ctx.now().getTime();
  if (s.admin.expiresAt * 1000 - 60_000 > nowMs) return s.admin.accessToken;
  try {
    const reply = await tokenEndpoint(ctx, baseUrl).token(clientCredentials(s.admin.clientId, s.admin.clientSecret, instanceId), ctx.signal);
    const expiresAt = Math.floor(nowMs / 1000) + reply.expires_in;
    writeSession(ctx.env, profile, (cur) => (cur.admin ? { ...cur, admin: { ...cur.admin, accessToken: reply.access_token, expiresAt } } : cur));
    return reply.access_token;
  } catch (err) {
    if (err instanceof TokenEndpointError) throw new AuthError(`the app credentials of profile '${profile}' were refused: ${err.message}`, `check the client id, secret and instance id (profile add --instance-id, SITECTL_INSTANCE_ID), and sign in again: printf %s "$CLIENT_SECRET" | ${ctx.bin} login --client-id ID --client-secret-stdin`);
    throw err;
  }
}
