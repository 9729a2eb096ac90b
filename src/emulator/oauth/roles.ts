/**
 * What each kind of principal may call (docs/sign-in.md): an admin (API key, or an app's client-credentials
 * token) everything; a visitor the sign-in calls and the public reads; a member those and the calls that act on
 * the signed-in member ("my" member calls, member orders, online checkout). A visitor calling a member's call
 * answers 401 UNAUTHENTICATED (sign in); anything else 403 PERMISSION_DENIED.
 *
 * serve.ts's `runServed` checks every operation here before its handler runs. This module names operations by
 * their family and SDK name only and imports no family: the serving code stays below the families it serves
 * (docs/architecture.md "Layout and dependency direction"). Which token is valid, and whose it is, is
 * oauth/access.ts's.
 */
import type { Operation } from '../../api/family.js';
import type { Principal } from '../auth.js';
import { ApplicationFailure } from '../errors.js';
import { unauthenticated } from './state.js';

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
