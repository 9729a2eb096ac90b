/**
 * The emulator's token endpoint and its companions (docs/sign-in.md, docs/wire.md §11): `POST /oauth2/token`
 * (every grant), `POST /oauth2/device/code` (RFC 8628), `POST /oauth2/token-info`, `GET /oauth2/user-info` and
 * `POST /oauth2/revoke` (RFC 7009). Errors are RFC 6749's (OAuthError), written by http.ts.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { DEVICE_CODE_GRANT } from '../../api/auth/tokens.js';
import { MEMBERS } from '../members/model.js';
import { field, fieldsOf, json, type OAuthDeps, type OAuthRequest, type Reply } from './reply.js';
import { DEVICE_INTERVAL_SEC, DEVICE_TTL_SEC, OAuthError, same } from './model.js';
import type { OAuthState } from './state.js';

/** The token endpoint. */
export function token(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
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

export function deviceCode(oauth: OAuthState, req: OAuthRequest): Reply {
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

export function tokenInfo(oauth: OAuthState, req: OAuthRequest): Reply {
  const t = field(fieldsOf(req), 'token') ?? '';
  const c = oauth.verify(t, 'access') ?? oauth.verify(t, 'refresh');
  if (!c) return json(200, { active: false });
  const subjectType = c.role === 'member' ? 'MEMBER' : c.role === 'visitor' ? 'VISITOR' : 'APP';
  return json(200, { active: true, subjectType, subjectId: c.sub, siteId: c.site, clientId: c.cid, exp: c.exp, iat: c.iat, tokenType: c.typ });
}

export function userInfo(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
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
export function revoke(oauth: OAuthState, req: OAuthRequest): Reply {
  const f = fieldsOf(req);
  const app = oauth.app(field(f, 'clientId'));
  if (app.secretHash && !oauth.checkSecret(app, field(f, 'clientSecret'))) throw new OAuthError('invalid_client', 'the client secret is not valid for this client', 401);
  const c = oauth.decode(field(f, 'token') ?? '');
  if (!c) return json(200, {});
  if (c.cid !== app.clientId) throw new OAuthError('unauthorized_client', 'the token was not issued to this client: it is not revoked');
  oauth.revoke(c.sid);
  return json(200, {});
}
