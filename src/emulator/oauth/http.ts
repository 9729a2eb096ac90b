/**
 * The emulator's OAuth server over HTTP (docs/sign-in.md): the token endpoint and its companions, and the
 * hosted pages a redirect session points at. Nothing here takes the API's `Authorization` (the token call
 * carries no credentials, docs/wire.md §11; pages are for browsers); every answer has an
 * `x-wix-request-id`.
 *
 * | route | what |
 * | --- | --- |
 * | `POST /oauth2/token` | grants: anonymous, refresh_token (rotating), authorization_code (+ PKCE verifier), authorized_client (`Authorization: <access token>,<api key>`, the site the token's), client_credentials (`client_id`, `client_secret`, `instance_id`), device code (RFC 8628) |
 * | `POST /oauth2/device/code` | device authorization (RFC 8628 section 3.1), answered in the SDK typings' camelCase (`DeviceCodeResponse`) |
 * | `POST /oauth2/token-info`, `GET /oauth2/user-info`, `POST /oauth2/revoke` | what a token is; the member of a member token; RFC 7009 revocation (client id, and secret for a confidential app) |
 * | `GET|POST /oauth2/authorize` | the sign-in page of an auth redirect session; on success the browser goes to the redirect URI with `code` and `state` (fragment or query as asked) |
 * | `/oauth2/authorize/verify`, `/oauth2/register`, `/oauth2/device`, `/oauth2/logout`, `/oauth2/login`, `/oauth2/forgot`, `/oauth2/recover`, `/hosted/<section>` | e-mail code, registration, device approval (codes typed in any case, with or without the dash), logout, login, forgotten password and recovery pages; the paid-plans checkout page (src/emulator/checkout-page); the other redirect-session sections |
 *
 * Every POST to a hosted form from another site is refused (403) before anything else (origin.ts).
 *
 * Token endpoint errors are RFC 6749's `{error, error_description}` (400; 401 for an unknown client).
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { DEVICE_CODE_GRANT } from '../../api/auth/tokens.js';
import { checkoutPageRoute } from '../checkout-page/http.js';
import { CHECKOUT_PATH, checkoutSession } from '../checkout-page/sessions.js';
import type { AdminKey } from '../auth.js';
import { EmulatorError } from '../errors.js';
import { MEMBERS } from '../members/model.js';
import type { Store } from '../store/store.js';
import { login, recoverPassword, recoveryToken, register, sendRecovery, verifyCode, type IdentityScope, type RecoveryTokenState, type StateAnswer } from './identity.js';
import { crossSitePage, crossSitePost } from './origin.js';
import { codePage, devicePage, failureText, forgotPage, messagePage, recoverPage, registerPage, signInPage, webMessagePage } from './pages.js';
import { DEVICE_INTERVAL_SEC, DEVICE_TTL_SEC, OAuthError, oauthOf, same, type AuthRequest, type OAuthState } from './state.js';

/** What the OAuth routes need of the emulator. */
export interface OAuthDeps {
  store: Store;
  key: AdminKey;
}

/** A request as the server read it. */
export interface OAuthRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  raw: string;
  requestId: string;
}

type Reply = { status: number; type: 'json' | 'html'; body: string; headers?: Record<string, string> };

const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, type: 'json', body: JSON.stringify(body), headers: { 'cache-control': 'no-store', ...headers } });
const html = (status: number, body: string): Reply => ({ status, type: 'html', body, headers: { 'cache-control': 'no-store' } });
const redirect = (location: string): Reply => ({ status: 302, type: 'html', body: '', headers: { location, 'cache-control': 'no-store' } });

/** The fields of a JSON or form-urlencoded body (names as sent). @throws OAuthError invalid_request */
function fieldsOf(req: OAuthRequest): Record<string, unknown> {
  const type = String(req.headers['content-type'] ?? '');
  if (req.raw === '') return {};
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(req.raw));
  try {
    const body = JSON.parse(req.raw) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new OAuthError('invalid_request', 'the body must be a JSON object or form-urlencoded');
}

/** A field by its camelCase or snake_case name. */
function field(f: Record<string, unknown>, camel: string): string | undefined {
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const v = Object.hasOwn(f, camel) ? f[camel] : Object.hasOwn(f, snake) ? f[snake] : undefined;
  return typeof v === 'string' ? v : undefined;
}

function scopeOf(oauth: OAuthState, store: Store, site: string): IdentityScope {
  return { oauth, store, site, now: store.now() };
}

function siteName(store: Store, site: string): string {
  return store.sites().find((s) => s.id === site)?.name ?? 'this site';
}

/**
 * The name of app `clientId`, for a page that says who asks; undefined for the site's default headless app (to a
 * person that app is the site itself, which the page names already) and when the app is gone.
 */
function appName(oauth: OAuthState, clientId: string): string | undefined {
  const app = oauth.apps().find((a) => a.clientId === clientId);
  return app && !app.default ? app.name : undefined;
}

/** The token endpoint. */
function token(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
  if (req.method !== 'POST') throw new OAuthError('invalid_request', 'the token endpoint takes POST', 405);
  const f = fieldsOf(req);
  const grant = field(f, 'grantType');
  if (grant === 'authorized_client') {
    // The admin issues member tokens (docs/wire.md §22; the SDK's OAuthStrategy.getMemberTokensForExternalLogin):
    // Authorization holds an access token of the site (the caller's visitor token) and the API key, joined by a
    // comma; no wix-site-id: the token names the site.
    const [token, apiKey, ...rest] = String(req.headers.authorization ?? '').split(',');
    if (!token || !apiKey || rest.length || !same(apiKey.trim(), deps.key.apiKey)) {
      throw new OAuthError('invalid_client', 'authorized_client needs Authorization: <access token>,<admin API key>', 401);
    }
    const caller = oauth.verify(token.trim(), 'access');
    if (!caller || !deps.store.hasSite(caller.site)) throw new OAuthError('invalid_client', 'the access token in Authorization is not valid (get visitor tokens first: grant anonymous)', 401);
    const site = caller.site;
    const memberId = field(f, 'memberId');
    if (!memberId) throw new OAuthError('invalid_request', 'member_id is required');
    const member = deps.store.collection(MEMBERS).at(site).get(memberId);
    if (!member) throw new OAuthError('invalid_grant', `site ${site} has no member ${memberId}`);
    // Issued to the site's default app, so the member's refresh token renews like any other.
    return json(200, oauth.pair('member', site, memberId, caller.cid));
  }
  const app = oauth.app(field(f, 'clientId'));
  // A confidential app (one with a secret) authenticates on every grant that issues or renews its tokens.
  if (app.secretHash && grant !== 'anonymous' && !oauth.checkSecret(app, field(f, 'clientSecret'))) {
    throw new OAuthError('invalid_client', 'the client secret is not valid for this client', 401);
  }
  switch (grant) {
    case 'anonymous':
      return json(200, oauth.pair('visitor', app.siteId, randomUUID(), app.clientId));
    case 'client_credentials': {
      // The SDK's AppStrategy body: {grant_type, client_id, client_secret, instance_id}. An app lives on one site
      // here, so a missing instance means that one; a given one must be this app's.
      if (!oauth.checkSecret(app, field(f, 'clientSecret'))) throw new OAuthError('invalid_client', 'the client secret is not valid for this client', 401);
      const instance = field(f, 'instanceId');
      if (instance !== undefined && instance !== oauth.instanceIdOf(app)) throw new OAuthError('invalid_request', `instance_id ${JSON.stringify(instance)} is not an instance of this app`);
      const access = oauth.issue({ typ: 'access', role: 'admin', site: app.siteId, sub: app.clientId, cid: app.clientId, sid: randomUUID() }, 14_400);
      return json(200, { access_token: access.token, token_type: 'Bearer', expires_in: 14_400 });
    }
    case 'refresh_token': {
      const c = oauth.verify(field(f, 'refreshToken') ?? '', 'refresh');
      if (!c || c.cid !== app.clientId) throw new OAuthError('invalid_grant', 'the refresh token is not valid, has expired or was revoked');
      if (!oauth.useRefresh(c)) throw new OAuthError('invalid_grant', 'the refresh token was used already: its session is revoked');
      if (c.role === 'member') {
        const member = deps.store.collection(MEMBERS).at(c.site).get(c.sub);
        if (!member) throw new OAuthError('invalid_grant', 'the member of this session no longer exists');
        // As a sign-in of theirs is refused (-19956), so is a renewal: the session ends with its access token.
        if (member.status === 'BLOCKED' || member.status === 'OFFLINE') {
          oauth.revoke(c.sid);
          throw new OAuthError('invalid_grant', `the member of this session may no longer sign in (${member.status})`);
        }
      }
      return json(200, oauth.pair(c.role, c.site, c.sub, c.cid, c.sid));
    }
    case 'authorization_code': {
      const g = oauth.redeemCode(field(f, 'code'), app.clientId, field(f, 'redirectUri'), field(f, 'codeVerifier'));
      // In the code's own session: a replay of the code revokes these tokens and every rotation of them.
      return json(200, oauth.pair('member', g.site, g.memberId, app.clientId, g.sid));
    }
    case DEVICE_CODE_GRANT: {
      const d = oauth.devices.get(field(f, 'deviceCode') ?? '');
      if (!d || d.clientId !== app.clientId) throw new OAuthError('invalid_grant', 'the device code is unknown');
      const now = oauth.nowMs();
      if (d.expiresAt < now) throw new OAuthError('expired_token', 'the device code has expired: start again');
      if (d.status === 'denied') throw new OAuthError('access_denied', 'the sign-in was denied on the device page');
      if (d.status === 'done') throw new OAuthError('invalid_grant', 'the device code was used already');
      if (d.status === 'approved' && d.memberId) {
        d.status = 'done';
        return json(200, oauth.pair('member', d.site, d.memberId, app.clientId));
      }
      const early = now - d.lastPoll < d.interval * 1000;
      d.lastPoll = now;
      if (early) {
        d.interval += 5;
        throw new OAuthError('slow_down', `polling faster than every ${d.interval - 5} s: wait ${d.interval} s between polls`);
      }
      throw new OAuthError('authorization_pending', 'the sign-in has not been approved yet');
    }
    default:
      throw new OAuthError('unsupported_grant_type', `grant type ${JSON.stringify(grant)} is not supported`);
  }
}

/** A user code of 8 letters without look-alikes, shown as XXXX-XXXX (RFC 8628 section 6.1). */
function userCode(): string {
  const alphabet = 'BCDFGHJKLMNPQRSTVWXZ';
  let s = '';
  for (let i = 0; i < 8; i++) s += alphabet[randomInt(alphabet.length)];
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

/**
 * A user code as typed, in the form {@link userCode} makes (RFC 8628 section 6.1: the server compares codes
 * case-insensitively and ignores the punctuation people type): every character that is not a letter or a
 * digit dropped, the rest in upper case, a dash after the fourth of eight. `gjwckcgd`, `GJWC KCGD` and
 * `gjwc-kcgd` are all `GJWC-KCGD`; anything that is not eight characters is returned without the dash
 * (it matches no code).
 */
export function normalizeUserCode(typed: string): string {
  const s = typed.replace(/[^0-9a-z]/gi, '').toUpperCase();
  return s.length === 8 ? `${s.slice(0, 4)}-${s.slice(4)}` : s;
}

function deviceCode(oauth: OAuthState, req: OAuthRequest): Reply {
  const app = oauth.app(field(fieldsOf(req), 'clientId'));
  oauth.sweep();
  const code = randomBytes(32).toString('base64url');
  const user = userCode();
  oauth.devices.set(code, { deviceCode: code, userCode: user, site: app.siteId, clientId: app.clientId, expiresAt: oauth.nowMs() + DEVICE_TTL_SEC * 1000, interval: DEVICE_INTERVAL_SEC, lastPoll: 0, status: 'pending' });
  // The names of the SDK's typings (@wix/auto_sdk_identity_oauth DeviceCodeResponse / DeviceAuthorizeResponse).
  return json(200, {
    deviceCode: code,
    userCode: user,
    verificationUri: `${oauth.url}/oauth2/device`,
    verificationUriComplete: `${oauth.url}/oauth2/device?user_code=${user}`,
    expiresIn: DEVICE_TTL_SEC,
    interval: DEVICE_INTERVAL_SEC,
  });
}

function tokenInfo(oauth: OAuthState, req: OAuthRequest): Reply {
  const t = field(fieldsOf(req), 'token') ?? '';
  const c = oauth.verify(t, 'access') ?? oauth.verify(t, 'refresh');
  if (!c) return json(200, { active: false });
  const subjectType = c.role === 'member' ? 'MEMBER' : c.role === 'visitor' ? 'VISITOR' : 'APP';
  return json(200, { active: true, subjectType, subjectId: c.sub, siteId: c.site, clientId: c.cid, exp: c.exp, iat: c.iat, tokenType: c.typ });
}

function userInfo(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
  const c = oauth.verify(String(req.headers.authorization ?? ''), 'access');
  if (!c || c.role !== 'member') throw new OAuthError('invalid_token', 'user info needs a member access token', 401);
  const m = deps.store.collection(MEMBERS).at(c.site).get(c.sub);
  if (!m) throw new OAuthError('invalid_token', 'the member of this token no longer exists', 401);
  return json(200, { sub: m.id, email: m.loginEmail, email_verified: m.loginEmailVerified ?? false, name: m.profile.nickname, site_id: c.site });
}

/**
 * RFC 7009 revocation. The client authenticates as on the token endpoint (section 2.1): its `clientId` (an
 * unknown or missing one is 401 `invalid_client`), and a confidential app its `clientSecret` too. A token
 * issued to another client is refused (400 `unauthorized_client`) and stays valid; a token the server cannot
 * read is not an error (section 2.2). Revoking a token ends its whole session: access and refresh tokens.
 */
function revoke(oauth: OAuthState, req: OAuthRequest): Reply {
  const f = fieldsOf(req);
  const app = oauth.app(field(f, 'clientId'));
  if (app.secretHash && !oauth.checkSecret(app, field(f, 'clientSecret'))) throw new OAuthError('invalid_client', 'the client secret is not valid for this client', 401);
  const c = oauth.decode(field(f, 'token') ?? '');
  if (!c) return json(200, {});
  if (c.cid !== app.clientId) throw new OAuthError('unauthorized_client', 'the token was not issued to this client: it is not revoked');
  oauth.revoke(c.sid);
  return json(200, {});
}

/** Where the browser goes with a result: the redirect URI with the fields in the fragment or the query. */
function back(r: AuthRequest, fields: Record<string, string>): Reply {
  const all = { ...fields, ...(r.state !== undefined ? { state: r.state } : {}) };
  if (r.responseMode === 'web_message') return html(200, webMessagePage(new URL(r.redirectUri).origin, all));
  const params = new URLSearchParams(all).toString();
  if (r.responseMode === 'query') return redirect(`${r.redirectUri}${r.redirectUri.includes('?') ? '&' : '?'}${params}`);
  return redirect(`${r.redirectUri.split('#')[0]}#${params}`);
}

function requestOf(oauth: OAuthState, id: string | null | undefined): AuthRequest | undefined {
  const r = id ? oauth.requests.get(id) : undefined;
  return r && r.expiresAt >= oauth.nowMs() ? r : undefined;
}

const EXPIRED = () => html(400, messagePage('This sign-in link has expired', 'Start the sign-in again from your application.', { error: true }));

/** The sign-in result of the hosted page: a code back to the app, the code page, or the page again with why. */
function afterSignIn(oauth: OAuthState, r: AuthRequest, answer: StateAnswer, email: string): Reply {
  if (answer.state === 'SUCCESS') {
    const c = oauth.useSessionToken(answer.sessionToken!, r.site)!;
    oauth.requests.delete(r.id);
    return back(r, { code: oauth.issueCode(r, c.sub) });
  }
  if (answer.state === 'REQUIRE_EMAIL_VERIFICATION') return html(200, codePage({ action: '/oauth2/authorize/verify', fields: { session: r.id, stateToken: answer.stateToken }, email }));
  if (answer.state === 'MFA_CHALLENGE') {
    const c = answer.mfaChallengeData as { factorType: string; verificationChallengeData?: { hint?: string } };
    return html(200, codePage({ action: '/oauth2/authorize/verify', fields: { session: r.id, stateToken: answer.stateToken }, email, phone: { factorType: c.factorType, hint: c.verificationChallengeData?.hint } }));
  }
  return html(200, messagePage('Waiting for approval', 'Your account is waiting for the site owner to approve it. You can sign in once it is approved.'));
}

function captchaTokens(f: Record<string, unknown>) {
  return typeof f.captcha === 'string' && f.captcha !== '' ? [{ Recaptcha: f.captcha }] : undefined;
}

function authorize(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
  const f = req.method === 'POST' ? fieldsOf(req) : {};
  const r = requestOf(oauth, req.method === 'POST' ? (f.session as string) : req.query.get('session'));
  if (!r) return EXPIRED();
  const name = siteName(deps.store, r.site);
  const form = (o: { email?: string; error?: string; info?: string } = {}) =>
    html(
      o.error ? 400 : 200,
      signInPage({ action: '/oauth2/authorize', fields: { session: r.id }, siteName: name, appName: appName(oauth, r.clientId), registerHref: `/oauth2/register?session=${r.id}`, forgotHref: `/oauth2/forgot?session=${r.id}`, captcha: oauth.policy(r.site).requireCaptcha, ...o }),
    );
  if (req.method === 'GET') {
    if (r.sessionToken) {
      // A session token gives one code: a second redirect session with it finds it spent (login_required).
      const c = oauth.useSessionToken(r.sessionToken, r.site);
      if (c) {
        oauth.requests.delete(r.id);
        return back(r, { code: oauth.issueCode(r, c.sub) });
      }
    }
    if (r.prompt === 'none') {
      oauth.requests.delete(r.id);
      return back(r, { error: 'login_required', error_description: 'no signed-in session: sign in with prompt login' });
    }
    return form();
  }
  if (f.action === 'cancel') {
    oauth.requests.delete(r.id);
    return back(r, { error: 'access_denied', error_description: 'The sign-in was canceled on the sign-in page' });
  }
  const email = typeof f.email === 'string' ? f.email : '';
  const password = typeof f.password === 'string' ? f.password : '';
  try {
    const answer = deps.store.tx(() => login(scopeOf(oauth, deps.store, r.site), { email, password, captchaTokens: captchaTokens(f) }));
    if (answer.state === 'REQUIRE_OWNER_APPROVAL') return form({ email, info: 'Your account is waiting for the site owner to approve it. You can sign in once it is approved.' });
    return afterSignIn(oauth, r, answer, email);
  } catch (err) {
    return form({ email, error: failureText(err) });
  }
}

function authorizeVerify(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
  const f = fieldsOf(req);
  const r = requestOf(oauth, f.session as string);
  if (!r) return EXPIRED();
  const stateToken = typeof f.stateToken === 'string' ? f.stateToken : '';
  try {
    const answer = deps.store.tx(() => verifyCode(scopeOf(oauth, deps.store, r.site), stateToken, typeof f.code === 'string' ? f.code : ''));
    return afterSignIn(oauth, r, answer, 'your address');
  } catch (err) {
    const factor = oauth.pending.get(stateToken)?.factor;
    return html(400, codePage({ action: '/oauth2/authorize/verify', fields: { session: r.id, stateToken }, email: 'your address', error: failureText(err), ...(factor ? { phone: { factorType: factor } } : {}) }));
  }
}

function registerRoute(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
  const f = req.method === 'POST' ? fieldsOf(req) : {};
  const r = requestOf(oauth, req.method === 'POST' ? (f.session as string) : req.query.get('session'));
  if (!r) return EXPIRED();
  const name = siteName(deps.store, r.site);
  const form = (o: { email?: string; error?: string } = {}) => html(o.error ? 400 : 200, registerPage({ action: '/oauth2/register', fields: { session: r.id }, siteName: name, signInHref: `/oauth2/authorize?session=${r.id}`, ...o }));
  if (req.method === 'GET') return form();
  const email = typeof f.email === 'string' ? f.email : '';
  try {
    const answer = deps.store.tx(() =>
      register(scopeOf(oauth, deps.store, r.site), { email, password: typeof f.password === 'string' ? f.password : '', nickname: typeof f.nickname === 'string' && f.nickname ? f.nickname : undefined, captchaTokens: captchaTokens(f) }),
    );
    if (answer.state === 'REQUIRE_OWNER_APPROVAL') return html(200, messagePage('Account created', 'Your account is waiting for the site owner to approve it. You can sign in once it is approved.'));
    return afterSignIn(oauth, r, answer, email);
  } catch (err) {
    return form({ email, error: failureText(err) });
  }
}

/** The pending, unexpired device authorization whose user code is `typed` (normalized: {@link normalizeUserCode}). */
function pendingDevice(oauth: OAuthState, typed: string) {
  const code = normalizeUserCode(typed);
  oauth.sweep();
  return [...oauth.devices.values()].find((x) => x.userCode === code && x.status === 'pending' && x.expiresAt >= oauth.nowMs());
}

function device(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
  if (req.method === 'GET') {
    // The complete verification URI carries the code: filled in, and who asks named when it is a live one.
    const code = normalizeUserCode(req.query.get('user_code') ?? '');
    const d = code ? pendingDevice(oauth, code) : undefined;
    return html(200, devicePage({ action: '/oauth2/device', userCode: code, ...(d ? { siteName: siteName(deps.store, d.site), appName: appName(oauth, d.clientId) } : {}) }));
  }
  const f = fieldsOf(req);
  const code = normalizeUserCode(typeof f.user_code === 'string' ? f.user_code : '');
  const email = typeof f.email === 'string' ? f.email : '';
  const d = pendingDevice(oauth, code);
  // What was typed stays, and the focus goes to the field in error.
  if (!d) return html(400, devicePage({ action: '/oauth2/device', userCode: code, email, error: 'That code is not valid or has expired. Check the code in your terminal.', invalid: 'user_code' }));
  const asker = { siteName: siteName(deps.store, d.site), appName: appName(oauth, d.clientId) };
  if (f.action === 'deny') {
    d.status = 'denied';
    return html(200, devicePage({ action: '/oauth2/device', done: 'The sign-in was denied.' }));
  }
  try {
    const answer = deps.store.tx(() => login(scopeOf(oauth, deps.store, d.site), { email, password: typeof f.password === 'string' ? f.password : '', captchaTokens: captchaTokens(f) }));
    if (answer.state !== 'SUCCESS') {
      const why =
        answer.state === 'REQUIRE_OWNER_APPROVAL'
          ? 'Your account is waiting for the site owner to approve it.'
          : answer.state === 'MFA_CHALLENGE'
            ? 'Your account signs in with a code sent to your phone: sign in with the browser flow instead.'
            : 'This site requires a verified e-mail: sign in once in the browser flow first.';
      return html(400, devicePage({ action: '/oauth2/device', userCode: code, email, ...asker, error: why }));
    }
    d.status = 'approved';
    d.memberId = oauth.useSessionToken(answer.sessionToken!, d.site)!.sub;
    return html(200, devicePage({ action: '/oauth2/device', done: `Device approved: ${email} is signed in on ${asker.siteName}.` }));
  } catch (err) {
    return html(400, devicePage({ action: '/oauth2/device', userCode: code, email, ...asker, error: failureText(err), invalid: 'password' }));
  }
}

/** The post-flow URL the redirect session `session` was created with (undefined when none, or expired). */
function postFlowOf(oauth: OAuthState, session: string | null): string | null {
  const p = session ? oauth.postFlow.get(session) : undefined;
  return p && p.expiresAt >= oauth.nowMs() ? p.url : null;
}

/** A URL the hosted pages may send a browser on to: http(s) only. */
function safeHref(url: string | null): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a recovery ends: `redirect` of the recovery link when it is a page of this emulator (the sign-in page
 * the person came from), else nowhere. Anything else is dropped: the link is in an e-mail anyone can forge.
 */
function ownPage(oauth: OAuthState, redirect: unknown): string | undefined {
  if (typeof redirect !== 'string' || redirect === '') return undefined;
  try {
    const u = new URL(redirect);
    return u.origin === new URL(oauth.url).origin && !u.username && !u.password ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** Why a recovery link does not work, in words: already used, expired, or not a link of ours. */
const RECOVERY_LINK: Record<Exclude<RecoveryTokenState, 'valid'>, [title: string, message: string]> = {
  used: ['This link was already used', 'A new password was set with this link already: sign in with it. To change it again, ask for a new link with "Forgot password?" on the sign-in page.'],
  expired: ['This link has expired', 'A link to set a new password works for 1 hour. Ask for a new one with "Forgot password?" on the sign-in page.'],
  invalid: ['This link is not valid', 'Open the whole link from the e-mail, or ask for a new one with "Forgot password?" on the sign-in page.'],
};

/** The page of a recovery link that does not work, with the way back to the sign-in page it came from. */
function recoveryLinkPage(state: Exclude<RecoveryTokenState, 'valid'>, next: string | undefined): Reply {
  const [title, message] = RECOVERY_LINK[state];
  return html(400, messagePage(title, message, { error: true, ...(next ? { href: next, hrefText: 'Back to sign in' } : {}) }));
}

function recoverRoute(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
  const f = req.method === 'POST' ? fieldsOf(req) : {};
  const t = req.method === 'POST' ? (typeof f.token === 'string' ? f.token : '') : (req.query.get('token') ?? '');
  const next = ownPage(oauth, req.method === 'POST' ? f.redirect : req.query.get('redirect'));
  const token = recoveryToken(oauth, t);
  if (token.state !== 'valid') return recoveryLinkPage(token.state, next);
  if (req.method === 'GET') return html(200, recoverPage({ action: '/oauth2/recover', token: t, redirect: next }));
  try {
    deps.store.tx(() => recoverPassword(scopeOf(oauth, deps.store, token.site!), t, typeof f.password === 'string' ? f.password : ''));
    return html(200, messagePage('Password changed', 'Your new password is set. Sign in with it.', next ? { href: next, hrefText: 'Sign in' } : {}));
  } catch (err) {
    return html(400, recoverPage({ action: '/oauth2/recover', token: t, redirect: next, error: failureText(err) }));
  }
}

/**
 * The "Forgot password?" page of a sign-in page: `session` names an auth redirect session, `checkout` a
 * checkout session (its sign-in step). It sends the recovery e-mail (identity.ts `sendRecovery`, as the API's
 * `sendRecoveryEmail`) whose link leads to the recovery page and from there back to that sign-in page, and
 * answers the same whether or not an account uses the address.
 */
function forgotRoute(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
  const f = req.method === 'POST' ? fieldsOf(req) : {};
  const value = (k: string) => (req.method === 'POST' ? (typeof f[k] === 'string' ? (f[k] as string) : undefined) : (req.query.get(k) ?? undefined));
  const r = requestOf(oauth, value('session'));
  const cs = r ? undefined : checkoutSession(deps.store, value('checkout'));
  const site = r?.site ?? cs?.site;
  if (!site) return EXPIRED();
  const fields = r ? { session: r.id } : { checkout: cs!.id };
  const back = r ? `/oauth2/authorize?session=${r.id}` : `${CHECKOUT_PATH}/sign-in?session=${cs!.id}`;
  const form = (o: { email?: string; sent?: boolean } = {}) => html(200, forgotPage({ action: '/oauth2/forgot', fields, siteName: siteName(deps.store, site), backHref: back, ...o }));
  if (req.method === 'GET') return form();
  const email = (typeof f.email === 'string' ? f.email : '').trim();
  if (email !== '') deps.store.tx(() => sendRecovery(scopeOf(oauth, deps.store, site), email, `${oauth.url}${back}`));
  return form({ email, sent: email !== '' });
}

/**
 * Answers a request under `/oauth2/` or `/hosted/`.
 * @returns false when the path is not one of these routes (the API router takes it)
 */
export function handleOAuth(deps: OAuthDeps, req: OAuthRequest, res: ServerResponse): boolean {
  if (!req.path.startsWith('/oauth2/') && !req.path.startsWith('/hosted/')) return false;
  const oauth = oauthOf(deps.store, deps.key.accountId);
  let reply: Reply;
  try {
    // Before anything else about the request: a form posted from another site is not read at all.
    reply = crossSitePost(req) ? html(403, crossSitePage()) : route(oauth, deps, req);
  } catch (err) {
    if (err instanceof OAuthError) reply = json(err.status, { error: err.error, error_description: err.description });
    else if (err instanceof EmulatorError) reply = json(err.status, err.body());
    else throw err;
  }
  const payload = Buffer.from(reply.body);
  res.writeHead(reply.status, {
    'content-type': reply.type === 'json' ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'content-length': payload.length,
    'x-wix-request-id': req.requestId,
    // Hosted pages carry a session id in their URL: never sent on as a Referer (to the thank-you URL, a link).
    ...(reply.type === 'html' ? { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; frame-ancestors 'none'", 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' } : {}),
    ...reply.headers,
  });
  res.end(payload);
  return true;
}

function route(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
  const { method, path } = req;
  const key = `${method} ${path}`;
  switch (key) {
    case 'POST /oauth2/token':
      return token(oauth, deps, req);
    case 'POST /oauth2/device/code':
      return deviceCode(oauth, req);
    case 'POST /oauth2/token-info':
      return tokenInfo(oauth, req);
    case 'GET /oauth2/user-info':
      return userInfo(oauth, deps, req);
    case 'POST /oauth2/revoke':
      return revoke(oauth, req);
    case 'GET /oauth2/authorize':
    case 'POST /oauth2/authorize':
      return authorize(oauth, deps, req);
    case 'POST /oauth2/authorize/verify':
      return authorizeVerify(oauth, deps, req);
    case 'GET /oauth2/register':
    case 'POST /oauth2/register':
      return registerRoute(oauth, deps, req);
    case 'GET /oauth2/device':
    case 'POST /oauth2/device':
      return device(oauth, deps, req);
    case 'GET /oauth2/recover':
    case 'POST /oauth2/recover':
      return recoverRoute(oauth, deps, req);
    case 'GET /oauth2/forgot':
    case 'POST /oauth2/forgot':
      return forgotRoute(oauth, deps, req);
    case 'GET /oauth2/logout': {
      const next = safeHref(postFlowOf(oauth, req.query.get('session')));
      return html(200, messagePage('Signed out', 'You are signed out of the site.', next ? { href: next, hrefText: 'Back to the application' } : {}));
    }
    case 'GET /oauth2/login': {
      const next = safeHref(postFlowOf(oauth, req.query.get('session')));
      return html(200, messagePage('Sign in', 'Sign-in for this site starts from an auth redirect session (sitectl login).', next ? { href: next } : {}));
    }
  }
  const checkout = checkoutPageRoute(oauth, deps.store, req);
  if (checkout) return checkout;
  if (method === 'GET' && path.startsWith('/hosted/')) {
    const section = path.slice('/hosted/'.length);
    return html(200, messagePage(`Hosted page: ${section}`, `The emulator hosts no ${section} page; on the platform this session opens the site's ${section} page.`));
  }
  if (path.startsWith('/oauth2/')) throw new OAuthError('not_found', `no OAuth route ${method} ${path}`, 404);
  return html(404, messagePage('Not found', `No hosted page at ${path}.`, { error: true }));
}
