/**
 * The emulator's hosted sign-in pages (docs/sign-in.md): the sign-in page of an auth redirect session and its
 * e-mail code step, registration, device approval, "Forgot password?" and the recovery link's page. Each answers
 * a browser with a page, or sends it back to the redirect URI with a code or an error; http.ts dispatches here.
 */
import { checkoutSession, CHECKOUT_PATH } from '../checkout-page/sessions.js';
import { login, recoverPassword, recoveryToken, register, sendRecovery, verifyCode, type RecoveryTokenState, type StateAnswer } from './identity.js';
import { codePage, devicePage, failureText, forgotPage, messagePage, recoverPage, registerPage, signInPage, webMessagePage } from './pages.js';
import { appName, fieldsOf, html, redirect, scopeOf, siteName, type OAuthDeps, type OAuthRequest, type Reply } from './reply.js';
import type { AuthRequest } from './model.js';
import type { OAuthState } from './state.js';
import { normalizeUserCode } from './token-routes.js';

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

export function authorize(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
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

export function authorizeVerify(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
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

export function registerRoute(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
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

export function device(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
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
export function postFlowOf(oauth: OAuthState, session: string | null): string | null {
  const p = session ? oauth.postFlow.get(session) : undefined;
  return p && p.expiresAt >= oauth.nowMs() ? p.url : null;
}

/** A URL the hosted pages may send a browser on to: http(s) only. */
export function safeHref(url: string | null): string | undefined {
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

export function recoverRoute(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
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
export function forgotRoute(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
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
