/**
 * The emulator's OAuth server state (docs/sign-in.md): apps, signed tokens, single-use codes, device codes,
 * pending sign-ins, site sign-in policies and the outbox.
 *
 * - Apps: each site has a default headless app whose client id is {@link defaultClientId} of the site id, no
 *   secret, and whose allowed redirect URIs are loopback addresses on any port (RFC 8252 section 7.3:
 *   `http://127.0.0.1:<any>/...`, `http://[::1]:<any>/...`, `http://localhost:<any>/...`). More apps, with a client
 *   secret (kept as a SHA-256) and exact redirect URIs, come from the control plane (store meta `oauth.apps`).
 * - Tokens are self-contained and signed (HMAC-SHA256 with a per-store secret in meta `oauth.secret`):
 *   `OAT.<base64url JSON>.<signature>`. Access tokens last 4 hours, refresh tokens 30 days; times are real
 *   time (the CLI's token manager reads real time too), not the emulator clock. A refresh token is single use:
 *   using it rotates it, and using one twice revokes its whole session (RFC 6819 section 5.2.2.3). Revocation
 *   and rotation are recorded in store meta, so tokens survive an emulator restart.
 * - Authorization codes live 60 s, are single use and are bound to the client, the redirect URI and the PKCE
 *   challenge. A code used a second time is refused and revokes the session its first use issued (access and
 *   refresh tokens, rotated ones included: RFC 6749 section 4.1.2); a used code is remembered as long as the
 *   refresh tokens it may have issued live. Device codes follow RFC 8628 (10 minutes, polling interval 2 s, `slow_down` adds 5 s). Both
 *   live in memory: a restart ends flows under way, as a real server's restart would not, but nothing stored.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { defaultClientId } from '../auth.js';
import { ApplicationFailure } from '../errors.js';
import type { Store } from '../store/store.js';
import { ACCESS_TTL_SEC, CODE_TTL_MS, DEFAULT_POLICY, OAuthError, REFRESH_TTL_SEC, same, type AuthRequest, type CodeGrant, type DeviceGrant, type OAuthApp, type PendingVerification, type SignInPolicy, type TokenClaims, type TokenRole } from './model.js';

/** Mail kept in the outbox (the newest); a bulk cancel's notifications fit. */
const MAX_OUTBOX = 1000;

export interface Mail {
  id: string;
  site: string;
  to: string;
  subject: string;
  text: string;
  /** A verification code, when the mail carries one. */
  code?: string;
  /** A recovery token, when the mail carries a recovery link. */
  recoveryToken?: string;
  link?: string;
  date: string;
  /** The channel: EMAIL (absent on sign-in e-mail), SMS or CALL (a sign-in code by phone; `to` is then a phone number). */
  channel?: 'EMAIL' | 'SMS' | 'CALL';
  /** A participant notification (bookings/notify.ts): the booking, the change, who, the operator's message. */
  bookingId?: string;
  action?: string;
  contact?: { name?: string; email?: string; phone?: string };
  message?: string;
  multiServiceBookingId?: string;
  /** Why it could not have been delivered (the contact has no address for the channel). */
  undeliverable?: string;
}

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The OAuth state of one store (one emulator). */
export class OAuthState {
  /** The emulator's base URL (set once it listens): hosted pages are under it. */
  url = '';
  readonly requests = new Map<string, AuthRequest>();
  readonly codes = new Map<string, CodeGrant>();
  /** Codes redeemed (or refused) once, with the session their exchange issued, until its tokens expire. */
  readonly usedCodes = new Map<string, { sid: string; until: number }>();
  readonly devices = new Map<string, DeviceGrant>();
  readonly pending = new Map<string, PendingVerification>();
  /**
   * Where a login or logout redirect session sends the browser afterwards (`callbacks.postFlowUrl`), by session
   * id: kept here, never read from the page's URL, so a crafted link cannot make a hosted page point elsewhere.
   */
  readonly postFlow = new Map<string, { url: string; expiresAt: number }>();
  private readonly secret: Buffer;

  constructor(
    readonly store: Store,
    readonly accountId: string,
    // Read at each call (not the function as it was at construction), as the checkout sessions read Date.now.
    private readonly realNow: () => number = () => Date.now(),
  ) {
    let s = store.getMeta('oauth.secret');
    if (!s) {
      s = randomBytes(32).toString('base64url');
      store.setMeta('oauth.secret', s);
    }
    this.secret = Buffer.from(s, 'base64url');
  }

  nowMs(): number {
    return this.realNow();
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }

  /** A new signed token. */
  issue(claims: Omit<TokenClaims, 'jti' | 'iat' | 'exp'>, ttlSec: number): { token: string; claims: TokenClaims } {
    const iat = Math.floor(this.nowMs() / 1000);
    const full: TokenClaims = { ...claims, jti: randomUUID(), iat, exp: iat + ttlSec };
    const payload = b64(full);
    return { token: `OAT.${payload}.${this.sign(payload)}`, claims: full };
  }

  /** The claims of a well-signed token (expired or not), or undefined. */
  decode(token: string): TokenClaims | undefined {
    const m = /^OAT\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
    if (!m || !same(this.sign(m[1]!), m[2]!)) return undefined;
    try {
      return JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8')) as TokenClaims;
    } catch {
      return undefined;
    }
  }

  /** The claims of a token that is well signed, of type `typ`, not expired and not revoked; else undefined. */
  verify(token: string, typ: TokenClaims['typ']): TokenClaims | undefined {
    const c = this.decode(token);
    if (!c || c.typ !== typ || c.exp * 1000 < this.nowMs() || this.isRevoked(c.sid)) return undefined;
    if (!this.store.hasSite(c.site)) return undefined;
    return c;
  }

  isRevoked(sid: string): boolean {
    return this.store.getMeta(`oauth.revoked.${sid}`) !== undefined;
  }

  /** Ends a session: every token issued in it stops working. */
  revoke(sid: string): void {
    this.store.setMeta(`oauth.revoked.${sid}`, new Date(this.nowMs()).toISOString());
  }

  /**
   * Spends a sign-in's session token (a login's, registration's, verification's, recovery's or sign-on's
   * SUCCESS): once, for one code. @returns its claims, or undefined when it is not a valid, unused session
   * token of a member of `site`
   */
  useSessionToken(token: string, site: string): TokenClaims | undefined {
    const c = this.verify(token, 'session');
    if (!c || c.site !== site || c.sub.startsWith('recover:')) return undefined;
    // Each session token has a session of its own: revoking it spends this token and nothing else.
    this.revoke(c.sid);
    return c;
  }

  /**
   * Marks a refresh token used. @returns false when it was used before (then its session is revoked: a
   * replayed refresh token means it leaked)
   */
  useRefresh(c: TokenClaims): boolean {
    const key = `oauth.used.${c.jti}`;
    if (this.store.getMeta(key) !== undefined) {
      this.revoke(c.sid);
      return false;
    }
    this.store.setMeta(key, '1');
    return true;
  }

  /** An access and refresh token pair of one session, in the token endpoint's snake_case. */
  pair(role: TokenRole, site: string, sub: string, cid: string, sid: string = randomUUID()) {
    const access = this.issue({ typ: 'access', role, site, sub, cid, sid }, ACCESS_TTL_SEC);
    const refresh = this.issue({ typ: 'refresh', role, site, sub, cid, sid }, REFRESH_TTL_SEC);
    return { access_token: access.token, refresh_token: refresh.token, expires_in: ACCESS_TTL_SEC, token_type: 'Bearer' };
  }

  // --- apps ---

  private extraApps(): OAuthApp[] {
    const raw = this.store.getMeta('oauth.apps');
    return raw ? (JSON.parse(raw) as OAuthApp[]) : [];
  }

  /** Every app of the account: each site's default app, then those added. */
  apps(): OAuthApp[] {
    const defaults = this.store.sites().map((s) => ({ clientId: defaultClientId(s.id), siteId: s.id, name: 'Default headless app', redirectUris: [], default: true }));
    return [...defaults, ...this.extraApps().filter((a) => this.store.hasSite(a.siteId))];
  }

  /** The app of a client id. @throws OAuthError 401 invalid_client when unknown */
  app(clientId: unknown): OAuthApp {
    const app = typeof clientId === 'string' ? this.apps().find((a) => a.clientId === clientId) : undefined;
    if (!app) throw new OAuthError('invalid_client', `unknown client id ${JSON.stringify(clientId)}`, 401);
    return app;
  }

  /** Adds an app with a client secret. @returns the app and its secret (shown once) */
  addApp(siteId: string, name: string, redirectUris: string[]): { app: OAuthApp; clientSecret: string } {
    const clientSecret = randomBytes(24).toString('base64url');
    const app: OAuthApp = { clientId: randomUUID(), siteId, name, secretHash: sha256(clientSecret), redirectUris, default: false };
    this.store.setMeta('oauth.apps', JSON.stringify([...this.extraApps(), app]));
    return { app, clientSecret };
  }

  /**
   * The app's instance on its site (the `instance_id` of the client-credentials grant, the SDK's AppStrategy):
   * derived from the client id and the site, so it is stable without being stored. Not a secret.
   */
  instanceIdOf(app: OAuthApp): string {
    const h = createHash('sha256').update(`sitectl-emulator-app-instance:${app.clientId}:${app.siteId}`).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-b${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** True when `secret` is the app's client secret. */
  checkSecret(app: OAuthApp, secret: unknown): boolean {
    return !!app.secretHash && typeof secret === 'string' && same(sha256(secret), app.secretHash);
  }

  /**
   * True when the app allows `uri` as an authorization redirect URI: exactly one of its URIs, or, for the
   * default app, a loopback http URI on any port (RFC 8252 section 7.3).
   */
  allowsRedirect(app: OAuthApp, uri: string): boolean {
    // RFC 6749 section 3.1.2: a redirection endpoint has no fragment (the code could end up inside it).
    if (uri.includes('#')) return false;
    if (app.redirectUris.includes(uri)) return true;
    if (!app.default) return false;
    let u: URL;
    try {
      u = new URL(uri);
    } catch {
      return false;
    }
    return u.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(u.hostname) && u.username === '' && u.password === '';
  }

  /**
   * True when the app allows `url` as an onward URL of a redirect session (a checkout's `thankYouPageUrl`,
   * `postFlowUrl`): on the origin of one of its redirect URIs (its allowed redirect domains), or, for the
   * default app, a loopback http URL on any port (as {@link allowsRedirect}).
   */
  allowsCallback(app: OAuthApp, url: string): boolean {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return false;
    }
    if (u.username !== '' || u.password !== '' || (u.protocol !== 'http:' && u.protocol !== 'https:')) return false;
    const origins = app.redirectUris.flatMap((r) => {
      try {
        return [new URL(r).origin];
      } catch {
        return [];
      }
    });
    if (origins.includes(u.origin)) return true;
    return app.default && u.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(u.hostname);
  }

  // --- policies and outbox ---

  policy(site: string): SignInPolicy {
    const raw = this.store.getMeta(`oauth.policy.${site}`);
    return raw ? { ...DEFAULT_POLICY, ...(JSON.parse(raw) as Partial<SignInPolicy>) } : { ...DEFAULT_POLICY };
  }

  setPolicy(site: string, policy: SignInPolicy): void {
    this.store.setMeta(`oauth.policy.${site}`, JSON.stringify(policy));
  }

  outbox(): Mail[] {
    const raw = this.store.getMeta('oauth.outbox');
    return raw ? (JSON.parse(raw) as Mail[]) : [];
  }

  /** Puts a mail in the outbox (the newest {@link MAX_OUTBOX} are kept). */
  send(mail: Omit<Mail, 'id' | 'date'>): Mail {
    const full: Mail = { ...mail, id: randomUUID(), date: new Date(this.nowMs()).toISOString() };
    this.store.setMeta('oauth.outbox', JSON.stringify([...this.outbox(), full].slice(-MAX_OUTBOX)));
    return full;
  }

  // --- codes ---

  /** A single-use authorization code for `memberId`, bound to the request's client, redirect URI and challenge. */
  issueCode(req: Pick<AuthRequest, 'site' | 'clientId' | 'redirectUri' | 'codeChallenge'>, memberId: string): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, { site: req.site, clientId: req.clientId, redirectUri: req.redirectUri, codeChallenge: req.codeChallenge, memberId, sid: randomUUID(), expiresAt: this.nowMs() + CODE_TTL_MS });
    return code;
  }

  /**
   * Redeems a code (once: it is used up afterwards, whatever the outcome). Issue the tokens in the grant's `sid`.
   * A code used before is refused and its session revoked: whoever holds it now, one of the two uses was not
   * the client's (RFC 6749 section 4.1.2).
   * @throws OAuthError invalid_grant for an unknown, used or expired code, another client or redirect URI, or a
   *   verifier whose S256 challenge is not the one bound to the code
   */
  redeemCode(code: unknown, clientId: string, redirectUri: unknown, verifier: unknown): CodeGrant {
    const used = typeof code === 'string' ? this.usedCodes.get(code) : undefined;
    if (used) {
      this.revoke(used.sid);
      throw new OAuthError('invalid_grant', 'the authorization code was used already: the tokens issued for it are revoked');
    }
    const grant = typeof code === 'string' ? this.codes.get(code) : undefined;
    if (!grant) throw new OAuthError('invalid_grant', 'the authorization code is unknown or was used already');
    this.codes.delete(code as string);
    this.usedCodes.set(code as string, { sid: grant.sid, until: grant.expiresAt + REFRESH_TTL_SEC * 1000 });
    if (grant.expiresAt < this.nowMs()) throw new OAuthError('invalid_grant', 'the authorization code has expired');
    if (grant.clientId !== clientId) throw new OAuthError('invalid_grant', 'the authorization code was issued to another client');
    if (grant.redirectUri !== redirectUri) throw new OAuthError('invalid_grant', 'redirectUri differs from the one of the authorization request');
    if (grant.codeChallenge) {
      const challenge = typeof verifier === 'string' ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : '';
      if (!same(challenge, grant.codeChallenge)) throw new OAuthError('invalid_grant', 'the code verifier does not match the code challenge');
    }
    return grant;
  }

  /** Drops expired codes, requests, device grants and pending verifications. */
  sweep(): void {
    const now = this.nowMs();
    for (const [k, v] of this.codes) if (v.expiresAt < now) this.codes.delete(k);
    for (const [k, v] of this.usedCodes) if (v.until < now) this.usedCodes.delete(k);
    for (const [k, v] of this.postFlow) if (v.expiresAt < now) this.postFlow.delete(k);
    for (const [k, v] of this.requests) if (v.expiresAt < now) this.requests.delete(k);
    for (const [k, v] of this.devices) if (v.expiresAt + 60_000 < now) this.devices.delete(k);
    for (const [k, v] of this.pending) if (v.expiresAt < now) this.pending.delete(k);
  }
}

const STATES = new WeakMap<Store, OAuthState>();

/** The OAuth state of a store (made on first use). */
export function oauthOf(store: Store, accountId = ''): OAuthState {
  let s = STATES.get(store);
  if (!s) STATES.set(store, (s = new OAuthState(store, accountId)));
  return s;
}

/** 401 UNAUTHENTICATED in the platform's envelope. */
export function unauthenticated(description: string): ApplicationFailure {
  return new ApplicationFailure(401, 'UNAUTHENTICATED', description, {}, 'Unauthenticated');
}
