/**
 * OAuth access tokens as request credentials (docs/wire.md §2 and §11: the raw token in
 * `Authorization`, no site id: the token names its site). A member token whose member was deleted, or may no
 * longer sign in (BLOCKED, OFFLINE: -19956 at login, and no refresh), answers 401 and its session ends: on the
 * platform a blocked member's session ends, so its access tokens stop working at once, not when they expire.
 * What the principal of a valid token may then call is oauth/roles.ts's.
 */
import type { Authenticator } from '../auth.js';
import { ApplicationFailure } from '../errors.js';
import { MEMBERS } from '../members/model.js';
import { oauthOf, unauthenticated } from './state.js';
import type { Store } from '../store/store.js';

/** True when `authorization` holds one of the emulator's OAuth tokens (`OAT.…`, state.ts), not the API key. */
export function isOAuthToken(authorization: string | undefined): boolean {
  return typeof authorization === 'string' && authorization.startsWith('OAT.');
}

/**
 * The OAuth access-token check: `Authorization: OAT.…` (the emulator's token format, state.ts). A token that
 * is not valid (bad signature, expired, revoked, of a removed site) answers 401, as does a member token whose
 * member is gone or BLOCKED/OFFLINE (the session is revoked); a `wix-site-id` naming another site than the
 * token's answers 403.
 */
export function accessTokenAuthenticator(store: Store, accountId: string): Authenticator {
  return (authorization, headers) => {
    if (!isOAuthToken(authorization)) return undefined;
    const oauth = oauthOf(store, accountId);
    const c = oauth.verify(authorization, 'access');
    if (!c) throw unauthenticated('the access token is not valid, has expired or was revoked');
    const site = headers['wix-site-id'];
    if (typeof site === 'string' && site !== '' && site !== c.site) {
      throw new ApplicationFailure(403, 'PERMISSION_DENIED', `the access token belongs to another site than ${site}`, {}, 'Permission denied');
    }
    if (c.role === 'admin') return { kind: 'admin', accountId, siteId: c.site };
    if (c.role === 'member') {
      const member = store.collection(MEMBERS).at(c.site).get(c.sub);
      if (!member || member.status === 'BLOCKED' || member.status === 'OFFLINE') {
        oauth.revoke(c.sid);
        throw unauthenticated(member ? `the member of this token may no longer sign in (${member.status}): its session has ended` : 'the member of this token no longer exists: its session has ended');
      }
      return { kind: 'member', accountId, siteId: c.site, memberId: c.sub, clientId: c.cid, sessionId: c.sid };
    }
    return { kind: 'visitor', accountId, siteId: c.site, visitorId: c.sub, clientId: c.cid, sessionId: c.sid };
  };
}
