/**
 * The sign-in plumbing every auth command shares (docs/sign-in.md): which OAuth client and base URL a profile
 * signs in with, visitor tokens for the identity calls, finishing a sign-in from a session token or a code,
 * and an API client carrying the member's access token (refreshed before it expires, docs/sign-in.md "Tokens").
 *
 * Sessions follow the chosen site: `--site ID|NAME` (else SITECTL_SITE_ID, else the profile's site) picks the
 * site, and the tokens are kept per profile and site, each session recording its site (core/sessions.ts): one
 * site's tokens are never used on another.
 *
 * The client id comes from `--client-id`, else `SITECTL_CLIENT_ID`, else the one the site's stored session used,
 * else, on the local emulator, that site's default app (admin-key.json `sites[].clientId`), else, on a real
 * site, the one of the profile's own session (a real site's headless app is configured per profile).
 */
import { deadline } from '../../../core/deadline.js';
import { ApiClient } from '../../../api/client.js';
import { ApiError, ApplicationError, ValidationError } from '../../../api/errors.js';
import { EMPTY_TOKENS, SessionExpiredError, TokenManager, type TokenPair } from '../../../api/auth/manager.js';
import { createPkce } from '../../../api/auth/pkce.js';
import { TokenEndpointError, type TokenEndpoint, type TokenReply } from '../../../api/auth/tokens.js';
import { redirects } from '../../../api/auth/families.js';
import { loginFailure, registrationFailure, UNKNOWN_STATE, type LoginResult } from '../../../api/auth/states.js';
import { members } from '../../../api/members.js';
import { requestTimeoutMs, tokenEndpoint } from '../../../context-auth.js';
import { callBudgetMs, type Context } from '../../../context.js';
import { AuthError, UserError } from '../../../core/errors.js';
import { shellWord } from '../../../core/invocation.js';
import type { ProfileSession } from '../../../core/sessions.js';
import { sessionTarget, type SessionTarget } from './target.js';

/**
 * A `--*-stdin` secret asked for while stdin is a terminal on which no prompt may be drawn (`--no-input`, CI set,
 * or stdout not a terminal): reading it would wait silently and echo what is typed, so it is refused (exit 2).
 * @throws UserError naming the flag, why no prompt is drawn, and `example` (the secret piped in)
 */
export function refuseTerminalStdin(ctx: Context, flag: string, what: string, example: string): void {
  if (!ctx.io.isStdinTTY || ctx.io.canPrompt()) return;
  const why = ctx.flags.noInput ? '--no-input was given' : !ctx.io.isStdoutTTY ? 'the output is not a terminal' : 'CI is set';
  throw new UserError(`${flag} reads ${what} from stdin, which is a terminal, and no prompt may be shown (${why}): pipe it in`, example);
}

/**
 * A password given with `--password-stdin`: typed hidden on a terminal (Enter ends it, and stdin stays usable
 * for an e-mail code asked later), else all of stdin without its final newline. Refused on a terminal where no
 * prompt may be drawn ({@link refuseTerminalStdin}).
 * @throws UserError (exit 2) naming `example` when none was given, or stdin is such a terminal
 */
export async function readPassword(ctx: Context, question: string, example: string): Promise<string> {
  let password: string;
  refuseTerminalStdin(ctx, '--password-stdin', 'the password', example);
  if (ctx.io.isStdinTTY) {
    password = await ctx.prompter.secret(question, { what: 'typing the password', flag: '--password-stdin with the password piped in' });
  } else {
    const { readSecret } = await import('../../../core/input.js');
    password = (await readSecret('--password-stdin', ctx.io.stdin)).replace(/\r?\n$/, '');
  }
  if (!password) throw new UserError('no password given', example);
  return password;
}

/** Where and with which OAuth client a profile signs in. */
export interface SignInTarget extends SessionTarget {
  baseUrl: string;
  clientId: string;
  endpoint: TokenEndpoint;
}

/**
 * The profile's base URL and OAuth client for the chosen site (see the module comment).
 * @throws UserError (exit 2) when no client id can be found, or it is not a plausible id
 */
export async function signInTarget(ctx: Context, opts: { clientId?: string } = {}): Promise<SignInTarget> {
  const t = await sessionTarget(ctx, { startEmulator: true });
  const { profile } = t;
  const sameBase = (s: ProfileSession) => (s.baseUrl === profile.baseUrl ? s.clientId : undefined);
  const stored = sameBase(t.read());
  // On the local emulator each site has its own default app. A real site's app belongs to that one site: another
  // site of the account never borrows the profile's own client id (it would sign in on the wrong site).
  const local = profile.dataDir !== undefined;
  const siteApp = local ? (profile.sites?.find((s) => s.id === t.site?.id) as { clientId?: string } | undefined)?.clientId : undefined;
  const clientId = opts.clientId ?? (ctx.env.SITECTL_CLIENT_ID || undefined) ?? stored ?? siteApp;
  if (!clientId) {
    const other = t.key !== profile.name ? ` (a headless app signs members in on its own site only, so the profile's app is not used)` : '';
    throw new UserError(`${t.label} has no OAuth client id to sign in with${other}`, "pass --client-id ID or set SITECTL_CLIENT_ID (the site's headless app client id, from the platform's dashboard)");
  }
  if (!/^[A-Za-z0-9._~-]{1,200}$/.test(clientId)) throw new UserError(`'${clientId}' is not an OAuth client id`, 'a client id is letters, digits and - . _ ~');
  return { ...t, baseUrl: profile.baseUrl, clientId, endpoint: tokenEndpoint(ctx, profile.baseUrl) };
}

/** An API client that sends `token` raw in Authorization, with no site id (docs/wire.md §11). */
export function tokenClient(ctx: Context, baseUrl: string, accessToken: string, opts: { onError?: (err: unknown) => void } = {}): ApiClient {
  const timeoutMs = requestTimeoutMs(ctx);
  return new ApiClient({
    baseUrl,
    credentials: { kind: 'accessToken', accessToken },
    timeoutMs,
    budgetMs: callBudgetMs(ctx.env, timeoutMs),
    onDebug: ctx.flags.debug ? (line) => ctx.io.stderr.write(`debug: ${line}\n`) : undefined,
    onWait: (wait) => ctx.noticeWait(wait),
    ...(opts.onError ? { onError: opts.onError } : {}),
  });
}

/**
 * A token endpoint failure as an exit-4 error: the SDK's wording, the OAuth error and what to do.
 */
export function tokenFailure(err: unknown, ctx: Context): never {
  if (err instanceof TokenEndpointError) {
    const hint = err.error === 'invalid_client' ? 'check the client id or secret (--client-id or SITECTL_CLIENT_ID; an app with a secret takes it on stdin: --client-secret-stdin)' : `sign in again: ${loginCommand(ctx)}`;
    throw new AuthError(err.message, hint);
  }
  throw err;
}

/** Visitor tokens of the target (stored ones reused while valid, docs/sign-in.md "Tokens"). @throws AuthError */
export async function visitorToken(ctx: Context, target: SignInTarget): Promise<string> {
  const stored = target.read();
  const same = stored.clientId === target.clientId && stored.baseUrl === target.baseUrl;
  const manager = new TokenManager({
    endpoint: target.endpoint,
    clientId: target.clientId,
    tokens: same ? stored.visitor : undefined,
    now: () => ctx.now().getTime(),
    save: (visitor) => {
      // A new base URL (the local emulator restarted on another port) keeps the member of the same client.
      target.write((s) => (same ? { ...s, visitor } : { ...s, clientId: target.clientId, baseUrl: target.baseUrl, visitor, member: s.clientId === target.clientId ? s.member : undefined }));
    },
  });
  try {
    return (await manager.visitorTokens(ctx.signal)).accessToken.value;
  } catch (err) {
    return tokenFailure(err, ctx);
  }
}

/** A client with visitor tokens (identity calls, redirect sessions). */
export async function visitorClient(ctx: Context, target: SignInTarget): Promise<ApiClient> {
  return tokenClient(ctx, target.baseUrl, await visitorToken(ctx, target));
}

/** The member of a member token pair, and the pair stored for the profile. @returns the member */
export async function storeMemberTokens(ctx: Context, target: SignInTarget, reply: TokenReply): Promise<{ id: string; loginEmail?: string }> {
  const manager = new TokenManager({ endpoint: target.endpoint, clientId: target.clientId, now: () => ctx.now().getTime() });
  await manager.setMemberTokens(reply);
  const api = tokenClient(ctx, target.baseUrl, reply.access_token);
  try {
    const { member } = await members.getCurrentMember(api, { fieldsets: ['FULL'] }, { signal: ctx.signal });
    const who = { id: member.id, ...(member.loginEmail ? { loginEmail: member.loginEmail } : {}) };
    target.write((s) => ({ ...s, clientId: target.clientId, baseUrl: target.baseUrl, member: { tokens: manager.tokens, ...who }, pending: undefined }));
    return who;
  } finally {
    await api.close();
  }
}

/**
 * Exchanges an authorization code for member tokens and stores them.
 * @throws AuthError (exit 4) when the endpoint refuses the code
 */
export async function exchangeCode(ctx: Context, target: SignInTarget, code: string, redirectUri: string, codeVerifier: string): Promise<{ id: string; loginEmail?: string }> {
  let reply: TokenReply;
  try {
    reply = await target.endpoint.token({ grantType: 'authorization_code', clientId: target.clientId, redirectUri, code, codeVerifier }, ctx.signal);
  } catch (err) {
    return tokenFailure(err, ctx);
  }
  return storeMemberTokens(ctx, target, reply);
}

/**
 * Turns a session token (a direct login's SUCCESS) into member tokens: an auth redirect session with the
 * session token and `prompt: none`, whose URL answers at once with a redirect carrying the code
 * (docs/wire.md §3, "Custom login", step 3, the full-page form). The redirect URI is a loopback
 * address nothing listens on: the code is read from the redirect's Location, never followed.
 * @throws AuthError (exit 4) when no code comes back
 */
export async function completeWithSessionToken(ctx: Context, target: SignInTarget, sessionToken: string): Promise<{ id: string; loginEmail?: string }> {
  const pkce = createPkce();
  const redirectUri = 'http://127.0.0.1:9/sitectl-direct-login';
  const api = await visitorClient(ctx, target);
  let fullUrl: string;
  try {
    const r = await redirects.createRedirectSession(
      api,
      { auth: { authRequest: { clientId: target.clientId, redirectUri, codeChallenge: pkce.codeChallenge, codeChallengeMethod: 'S256', responseMode: 'query', responseType: 'code', scope: 'offline_access', state: pkce.state, sessionToken }, prompt: 'none' } },
      { signal: ctx.signal },
    );
    fullUrl = r.redirectSession.fullUrl;
  } finally {
    await api.close();
  }
  const limit = deadline(ctx.signal, 30_000);
  let res: Response;
  try {
    res = await fetch(fullUrl, { redirect: 'manual', signal: limit.signal });
    await res.body?.cancel();
  } finally {
    limit.dispose();
  }
  const location = res.headers.get('location');
  const back = location ? new URL(location, fullUrl) : undefined;
  const code = back?.searchParams.get('code');
  if (!back || !code || back.searchParams.get('state') !== pkce.state) {
    throw new AuthError(`the sign-in did not complete: ${back?.searchParams.get('error_description') ?? back?.searchParams.get('error') ?? `no code came back (HTTP ${res.status})`}`);
  }
  return exchangeCode(ctx, target, code, redirectUri, pkce.codeVerifier);
}

/** A failed identity call (login, register) in the client's terms (docs/wire.md §22), or the error itself. */
export function identityFailure(err: unknown, kind: 'login' | 'register'): LoginResult {
  if (err instanceof ValidationError) {
    const r = (kind === 'login' ? loginFailure : registrationFailure)({ message: err.message, fieldViolations: err.fieldViolations });
    if (kind === 'register') return r;
  }
  if (err instanceof ApplicationError) return (kind === 'login' ? loginFailure : registrationFailure)({ code: err.code, message: err.description || err.message });
  throw err;
}

/**
 * `sitectl WORDS` with the `--profile` and `--site` this command was given, quoted for the shell, so a hint
 * pasted back works on the same profile and site (SITECTL_* variables carry over by themselves).
 * @param words the rest of the command line, already quoted (use {@link shellWord} for what the user typed)
 */
export function cliCommand(ctx: Pick<Context, 'bin' | 'flags'>, words: string): string {
  const globals = [...(ctx.flags.profile ? ['--profile', shellWord(ctx.flags.profile)] : []), ...(ctx.flags.site ? ['--site', shellWord(ctx.flags.site)] : [])];
  return [ctx.bin, words, ...globals].join(' ');
}

/** `sitectl login`, with the `--profile` and `--site` given (so the hint signs in where the command looked). */
export function loginCommand(ctx: Pick<Context, 'bin' | 'flags'>, words = ''): string {
  return cliCommand(ctx, words ? `login ${words}` : 'login');
}

/**
 * The words for a failed direct login or registration, and what to do. A registration the site refuses for
 * what was given (a malformed e-mail address, a password it does not accept: field violations) is bad input,
 * exit 2; the rest exits 4.
 * @param err the identity call's error, when the failure came from one (its field violations are quoted)
 */
export function failureWords(r: LoginResult, ctx: Context, email: string, kind: 'login' | 'register' = 'login', err?: unknown): UserError {
  const register = kind === 'register';
  const captcha = r.loginState === 'USER_CAPTCHA_REQUIRED' || r.loginState === 'SILENT_CAPTCHA_REQUIRED' || (r.loginState === 'FAILURE' && (r.errorCode === 'missingCaptchaToken' || r.errorCode === 'invalidCaptchaToken'));
  if (captcha) {
    if (register) return new AuthError(`this site requires a captcha to register (${r.errorCode})`, `register in a browser instead: ${loginCommand(ctx)} (the sign-in page links to "Create an account")`);
    return new AuthError(`this site requires a captcha to sign in (${r.errorCode})`, `sign in in a browser instead: ${loginCommand(ctx)}`);
  }
  if (r.loginState !== 'FAILURE') return new AuthError(`${register ? 'registration' : 'sign-in'} ended in state ${r.loginState}`);
  // A server state the client has no step for (STATUS_CHECK, UNKNOWN_STATE, ...): docs/wire.md §22 maps it to
  // FAILURE 'Unknown _state'; the hosted pages may still get through.
  if (r.error === UNKNOWN_STATE) {
    return new AuthError(`the site answered a ${register ? 'registration' : 'sign-in'} state this client cannot complete (${UNKNOWN_STATE})`, `sign in in a browser instead: ${loginCommand(ctx)}`);
  }
  if (register && (r.errorCode === 'invalidEmail' || err instanceof ValidationError)) {
    const why = r.errorCode === 'invalidEmail' ? r.error : violationsText(err as ValidationError);
    return new UserError(`cannot register ${email}: ${why}`, 'give a valid e-mail address and a password the site accepts (the emulator: at least 6 characters), then run auth register again');
  }
  const address = shellWord(email);
  switch (r.errorCode) {
    case 'invalidPassword':
      return new AuthError('wrong e-mail or password', `forgot it? ${cliCommand(ctx, `auth recover --email ${address}`)}`);
    case 'resetPassword':
      return new AuthError('this account must set a new password before signing in', cliCommand(ctx, `auth recover --email ${address}`));
    case 'invalidEmail':
      return new AuthError(`cannot sign in as ${email}: ${r.error}`, `no account? ${cliCommand(ctx, `auth register --email ${address} --password-stdin`)}`);
    case 'emailAlreadyExists':
      return new AuthError(`an account with ${email} exists already`, `sign in: ${loginCommand(ctx, `--email ${address} --password-stdin`)}`);
    default:
      return new AuthError(register ? `the site refused the registration: ${r.error}` : r.error);
  }
}

/** A validation error's field violations in words (`password: must be at least 6 characters`), else its message. */
function violationsText(err: ValidationError): string {
  const v = err.fieldViolations ?? [];
  return v.length ? v.map((f) => `${f.field}: ${f.description}`).join('; ') : err.message;
}

/**
 * The stored member session of a profile on a site as a token manager whose changes are written back. A member
 * signed in on another site is not signed in here (core/sessions.ts: a session is used for its own site only).
 * @param target the profile on its chosen site, and the endpoint to refresh at
 * @throws AuthError (exit 4) when the profile has no member session there
 */
export function memberManager(ctx: Context, target: SessionTarget & { endpoint: TokenEndpoint }): { manager: TokenManager; session: ProfileSession & { member: NonNullable<ProfileSession['member']> } } {
  const session = target.read();
  if (!session.member || !session.clientId || session.member.tokens.refreshToken.role !== 'member') {
    throw new AuthError(`${target.label} is not signed in as a member${target.siteName && target.key === target.profile.name ? ` on site ${target.siteName}` : ''}`, `sign in on ${target.siteName ? `site ${target.siteName}` : 'it'}: ${loginCommand(ctx)}`);
  }
  const manager = new TokenManager({
    endpoint: target.endpoint,
    clientId: session.clientId,
    tokens: session.member.tokens,
    now: () => ctx.now().getTime(),
    save: (tokens: TokenPair) => {
      target.write((s) => (tokens.refreshToken.role === 'member' && s.member ? { ...s, member: { ...s.member, tokens } } : { ...s, member: undefined }));
    },
  });
  return { manager, session: session as ProfileSession & { member: NonNullable<ProfileSession['member']> } };
}

/**
 * A fresh member access token of the resolved profile on the chosen site (refreshed when it expires within a
 * minute).
 * @throws AuthError (exit 4) when not signed in, or when the session has expired or was revoked
 */
export async function memberAccessToken(ctx: Context): Promise<{ token: string; baseUrl: string; profile: string; who: string }> {
  const t = await sessionTarget(ctx, { startEmulator: true });
  const baseUrl = t.profile.baseUrl;
  const { manager, session } = memberManager(ctx, { ...t, endpoint: tokenEndpoint(ctx, baseUrl) });
  const who = session.member.loginEmail ?? session.member.id;
  try {
    return { token: await manager.accessToken(ctx.signal), baseUrl, profile: t.profile.name, who };
  } catch (err) {
    if (err instanceof SessionExpiredError) throw new AuthError(`the signed-in session of ${who} has expired or was revoked`, `sign in again: ${loginCommand(ctx)}`);
    return tokenFailure(err, ctx);
  }
}

/**
 * An API client for the signed-in member's own calls (`members me`, `orders --mine`). Close it when done. A call
 * the server refuses with 401 (the session was revoked there: signed out elsewhere, a refresh token used twice,
 * the member blocked or deleted) throws an AuthError that says so and asks to sign in again, instead of the
 * API-key hint an admin call's 401 gets.
 * @throws AuthError (exit 4) as {@link memberAccessToken}
 */
export async function memberApi(ctx: Context): Promise<ApiClient> {
  const { token, baseUrl, who } = await memberAccessToken(ctx);
  return tokenClient(ctx, baseUrl, token, {
    onError: (err) => {
      // Thrown in place of the client's error (ApiClient throws what onError throws).
      if (err instanceof ApiError && err.status === 401) {
        throw new AuthError(`the signed-in session of ${who} is no longer valid on the server (${err.message})`, `sign in again: ${loginCommand(ctx)}`);
      }
    },
  });
}

export { EMPTY_TOKENS, sessionTarget, type SessionTarget };
