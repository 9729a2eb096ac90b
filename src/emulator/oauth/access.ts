/**
 * OAuth access tokens as request credentials (docs/wire.md §2 and §11: the raw token in
 * `Authorization`, no site id: the token names its site), and what a visitor or a member may call. An admin
 * (API key, or an app's client-credentials token) may call everything; a visitor the sign-in calls and the
 * public reads; a member those and the calls that act on the signed-in member ("my" member calls, member
 * orders, online checkout). A visitor calling a member's call answers 401 UNAUTHENTICATED (sign in); anything
 * else 403 PERMISSION_DENIED. A member token whose member was deleted, or may no longer sign in (BLOCKED,
 * OFFLINE: -19956 at login, and no refresh), answers 401 and its session ends: on the platform a blocked member's
 * session ends, so its access tokens stop working at once, not when they expire.
 */
import type { Operation } from '../../api/family.js';
import type { Authenticator, Principal } from '../auth.js';
import { ApplicationFailure } from '../errors.js';
import { MEMBERS } from '../members/model.js';
import { oauthOf, unauthenticated } from './state.js';
import type { Store } from '../store/store.js';

const VISITOR_CALLS = new Set([
  'redirects.createRedirectSession',
  'authentication.registerV2',
  'authentication.loginV2',
  'authentication.logout',
  'authentication.loginCallback',
  'authentication.verify',
  'recovery.sendRecoveryEmail',
  'recovery.recover',
  'verification.verifyDuringAuthentication',
  'verification.resendDuringAuthentication',
  'plans.listPublicPlans',
  'plans.queryPublicPlans',
  'plans.getPlan',
  'checkout.getPricePreview',
]);

const MEMBER_CALLS = new Set([
  ...VISITOR_CALLS,
  'authentication.changePassword',
  'members.getCurrentMember',
  'members.updateCurrentMemberSlug',
  'members.joinCommunity',
  'members.leaveCommunity',
  'members.deleteMyMember',
  'members.getMember',
  'member-orders.memberGetOrder',
  'member-orders.memberListOrders',
  'member-orders.requestCancellation',
  'checkout.createOnlineOrder',
  'checkout.getOnlineOrderPreview',
]);

/**
 * Refuses an operation the principal's role may not call.
 * @throws ApplicationFailure 401 UNAUTHENTICATED (a visitor on a member's call), 403 PERMISSION_DENIED
 */
export function checkAccess(principal: Principal, op: Pick<Operation, 'family' | 'name'>): void {
  if (principal.kind === 'admin') return;
  const key = `${op.family}.${op.name}`;
  if ((principal.kind === 'member' ? MEMBER_CALLS : VISITOR_CALLS).has(key)) return;
  // A member's call made with a visitor token needs a sign-in, not another credential.
  if (principal.kind === 'visitor' && MEMBER_CALLS.has(key)) throw unauthenticated(`${op.name} acts for a signed-in member: sign in first`);
  throw new ApplicationFailure(403, 'PERMISSION_DENIED', `a ${principal.kind} token may not call ${op.name}: it needs the site's admin credential`, { operation: op.name }, 'Permission denied');
}

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
