/**
 * The sign-in families, served (src/api/auth/families.ts): redirect sessions that point at the emulator's
 * hosted pages (http.ts), and the identity, recovery and verification calls over identity.ts. A redirect
 * session for `auth` checks the client id (an app of the request's site) and the redirect URI (exact, or
 * loopback on any port for the default app) before it is made; with a session token and `prompt: none` its
 * URL sends the browser straight back with a code.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { authenticationFamily, recoveryFamily, redirectsFamily, verificationFamily } from '../../api/auth/families.js';
import { createCheckoutSession } from '../checkout-page/sessions.js';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import { serve, type RequestContext } from '../serve.js';
import { changePassword, IDENTITIES, login, recoverPassword, register, resendCode, sendRecovery, signOn, verifyCode, type IdentityScope, type StateAnswer } from './identity.js';
import { oauthOf, unauthenticated } from './state.js';

const REQUEST_TTL_MS = 10 * 60_000;

function scope(ctx: RequestContext<unknown>): IdentityScope {
  return { oauth: oauthOf(ctx.store), store: ctx.store, site: ctx.site, now: ctx.now };
}

/**
 * The answer of loginV2 or registerV2, or, when the site's policy says so (`answerState`, control plane), that
 * state alone with the identity and no tokens (the SDK's StateType STATUS_CHECK, UNKNOWN_STATE).
 */
function forced(s: IdentityScope, answer: StateAnswer): StateAnswer | { state: string; identity: StateAnswer['identity'] } {
  const state = s.oauth.policy(s.site).answerState;
  return state ? { state, identity: answer.identity } : answer;
}

/** The member of a member token. @throws 401 UNAUTHENTICATED otherwise */
function memberOf(ctx: RequestContext<unknown>, what: string): string {
  if (ctx.principal.kind === 'member') return ctx.principal.memberId;
  throw unauthenticated(`${what} acts for a signed-in member: call it with a member's access token`);
}

export const redirectsServed = serve(redirectsFamily, {
  createRedirectSession(ctx) {
    const oauth = oauthOf(ctx.store);
    const b = ctx.body;
    const id = randomUUID();
    const base = oauth.url;
    const sections = ['auth', 'login', 'logout', 'bookingsCheckout', 'ecomCheckout', 'eventsCheckout', 'paidPlansCheckout', 'storesProduct', 'bookingsBook', 'membersAccount'] as const;
    const given = sections.filter((k) => b[k] !== undefined);
    if (given.length !== 1) throw ValidationFailure.field('body', `must hold exactly one of ${sections.join(', ')}`, 'INVALID');
    const section = given[0]!;
    let fullUrl: string;
    if (section === 'auth') {
      const r = b.auth!.authRequest;
      let app;
      try {
        app = oauth.app(r.clientId);
      } catch {
        throw new ApplicationFailure(400, 'INVALID_CLIENT_ID', `unknown client id ${r.clientId}`, { clientId: r.clientId });
      }
      if (app.siteId !== ctx.site) throw new ApplicationFailure(400, 'INVALID_CLIENT_ID', `client ${r.clientId} is an app of another site`, { clientId: r.clientId });
      if (!oauth.allowsRedirect(app, r.redirectUri)) {
        throw new ApplicationFailure(400, 'INVALID_REDIRECT_URI', `${r.redirectUri} is not an allowed authorization redirect URI of the app`, { redirectUri: r.redirectUri });
      }
      if (r.codeChallenge !== undefined && r.codeChallengeMethod !== 'S256') throw ValidationFailure.field('auth.authRequest.codeChallengeMethod', 'must be S256', 'INVALID_ENUM_VALUE');
      // A public client (no secret, as the default headless app) must prove the code is its own: PKCE (RFC 7636).
      if (!app.secretHash && !r.codeChallenge) throw ValidationFailure.field('auth.authRequest.codeChallenge', 'a public client must send a PKCE code challenge (S256)', 'REQUIRED_FIELD');
      oauth.sweep();
      oauth.requests.set(id, {
        id,
        site: ctx.site,
        clientId: r.clientId,
        redirectUri: r.redirectUri,
        codeChallenge: r.codeChallenge,
        state: r.state,
        responseMode: r.responseMode ?? 'fragment',
        prompt: b.auth!.prompt ?? r.prompt ?? 'login',
        sessionToken: r.sessionToken,
        expiresAt: oauth.nowMs() + REQUEST_TTL_MS,
      });
      fullUrl = `${base}/oauth2/authorize?session=${id}`;
    } else if (section === 'logout' || section === 'login') {
      const post = b.callbacks?.postFlowUrl;
      if (post) oauth.postFlow.set(id, { url: post, expiresAt: oauth.nowMs() + REQUEST_TTL_MS });
      fullUrl = `${base}/oauth2/${section}?session=${id}`;
    } else if (section === 'paidPlansCheckout') {
      // The hosted checkout page (src/emulator/checkout-page): a plan to buy, or (emulator-only) an order to pay.
      fullUrl = createCheckoutSession(ctx, id, { ...b.paidPlansCheckout, callbacks: b.callbacks }, base);
    } else {
      fullUrl = `${base}/hosted/${section}?session=${id}`;
    }
    const u = new URL(fullUrl);
    return {
      redirectSession: {
        id,
        fullUrl,
        urlDetails: { endpoint: `${u.origin}${u.pathname}`, searchParams: Object.fromEntries(u.searchParams) },
        sessionToken: randomUUID(),
        shortUrl: fullUrl,
      },
    };
  },
}, { visitor: ['createRedirectSession'] });

export const authenticationServed = serve(authenticationFamily, {
  registerV2(ctx) {
    const b = ctx.body;
    const s = scope(ctx);
    return forced(s, register(s, { email: b.loginId.email, password: b.password, nickname: b.profile?.nickname, firstName: b.profile?.firstName, lastName: b.profile?.lastName, captchaTokens: b.captchaTokens }));
  },
  loginV2(ctx) {
    const s = scope(ctx);
    return forced(s, login(s, { email: ctx.body.loginId.email, password: ctx.body.password, captchaTokens: ctx.body.captchaTokens }));
  },
  changePassword(ctx) {
    changePassword(scope(ctx), memberOf(ctx, 'changePassword'), ctx.body.newPassword);
    return {};
  },
  signOn(ctx) {
    if (ctx.principal.kind !== 'admin') throw new ApplicationFailure(403, 'PERMISSION_DENIED', 'signOn is an elevated call: it needs the admin credential', {}, 'Permission denied');
    return signOn(scope(ctx), ctx.body.loginId.email, ctx.body.verifyEmail ?? false);
  },
  logout(ctx) {
    if (ctx.principal.kind !== 'admin') oauthOf(ctx.store).revoke(ctx.principal.sessionId);
    return {};
  },
  loginCallback(ctx) {
    const c = oauthOf(ctx.store).verify(ctx.body.sessionToken, 'session');
    if (!c || c.site !== ctx.site) return { valid: false };
    const identities = ctx.db(IDENTITIES);
    const identity = [...identities.all()].find((i) => i.memberId === c.sub);
    return { valid: true, ...(identity ? { identityId: identity.id } : {}) };
  },
  verify(ctx) {
    const b = ctx.body;
    // The factors a code completes; TOTP, PUSH, WEBAUTHN and PASSWORD are not emulated (docs/wire.md §22).
    const data = { EMAIL: b.emailData, SMS: b.smsData, CALL: b.callData }[b.factorType as 'EMAIL' | 'SMS' | 'CALL'];
    if (!['EMAIL', 'SMS', 'CALL'].includes(b.factorType)) {
      throw new ApplicationFailure(400, 'FACTOR_NOT_ENABLED', `the ${b.factorType} factor is not enabled on this site (the emulator completes EMAIL, SMS and CALL codes)`, { factorType: b.factorType });
    }
    const field = `${b.factorType.toLowerCase()}Data.code`;
    if (!data?.code) throw ValidationFailure.field(field, `the ${b.factorType} code is required`, 'REQUIRED_FIELD');
    return verifyCode(scope(ctx), b.stateToken, data.code, b.factorType);
  },
}, { visitor: ['registerV2', 'loginV2', 'logout', 'loginCallback', 'verify'], member: ['changePassword'] });

export const recoveryServed = serve(recoveryFamily, {
  sendRecoveryEmail(ctx) {
    sendRecovery(scope(ctx), ctx.body.email, ctx.body.redirect?.url);
    return {};
  },
  sendActivationEmail(ctx) {
    const s = scope(ctx);
    const i = ctx.db(IDENTITIES).require(ctx.body.identityId);
    s.oauth.send({ site: ctx.site, to: i.email, subject: 'Activate your account', text: `Your account on this site is ready. Sign in with ${i.email}.` });
    return {};
  },
  recover(ctx) {
    return recoverPassword(scope(ctx), ctx.body.recoveryToken, ctx.body.password);
  },
}, { visitor: ['sendRecoveryEmail', 'recover'] });

export const verificationServed = serve(verificationFamily, {
  start(ctx) {
    const s = scope(ctx);
    const i = ctx.db(IDENTITIES).require(ctx.body.identityId);
    const answer = verifyStart(s, i.id);
    return { verificationId: answer };
  },
  verifyDuringAuthentication(ctx) {
    return verifyCode(scope(ctx), ctx.body.stateToken, ctx.body.code);
  },
  resendDuringAuthentication(ctx) {
    return resendCode(scope(ctx), ctx.body.stateToken);
  },
}, { visitor: ['verifyDuringAuthentication', 'resendDuringAuthentication'] });

/** Starts an e-mail verification of an identity outside a sign-in: a code to the outbox. @returns its state token */
function verifyStart(s: IdentityScope, identityId: string): string {
  const i = s.store.collection(IDENTITIES).at(s.site).require(identityId);
  const stateToken = randomUUID();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  s.oauth.pending.set(stateToken, { stateToken, site: s.site, identityId, code, expiresAt: s.oauth.nowMs() + 15 * 60_000 });
  s.oauth.send({ site: s.site, to: i.email, subject: 'Your verification code', text: `Your verification code is ${code}.`, code });
  return stateToken;
}

/** Every served operation of the sign-in families. */
export const signInServed = [...redirectsServed, ...authenticationServed, ...recoveryServed, ...verificationServed];
