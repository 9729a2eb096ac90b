/**
 * What each kind of principal may call (docs/sign-in.md): an admin (API key, or an app's client-credentials
 * token) everything; a visitor the sign-in calls and the public reads; a member those and the calls that act on
 * the signed-in member ("my" member calls, member orders, online checkout). A visitor calling a member's call
 * answers 401 UNAUTHENTICATED (sign in); anything else 403 PERMISSION_DENIED.
 *
 * serve.ts's `runServed` checks every operation here before its handler runs. Which operations a visitor or a
 * member may call each family declares with its handlers (`serve(family, handlers, {visitor, member})`), so this
 * module imports no family: the serving code stays below the families it serves (docs/architecture.md "Layout and
 * dependency direction"). Which token is valid, and whose it is, is oauth/access.ts's.
 */
import type { Principal } from '../auth.js';
import { ApplicationFailure } from '../errors.js';
import { unauthenticated } from './state.js';

/**
 * Who may call an operation (docs/sign-in.md): `admin`, the site's admin credential only (the default);
 * `member`, a signed-in member too (the calls on "my" member, member orders, online checkout); `visitor`, any
 * visitor token too (sign-in calls, public reads).
 */
export type Access = 'admin' | 'member' | 'visitor';

/**
 * Refuses an operation the principal's role may not call (`access`, which each family declares with its
 * handlers: serve() in serve.ts).
 * @throws ApplicationFailure 401 UNAUTHENTICATED (a visitor on a member's call), 403 PERMISSION_DENIED
 */
export function checkAccess(principal: Principal, served: { op: { name: string }; access: Access }): void {
  if (principal.kind === 'admin' || served.access === 'visitor') return;
  if (principal.kind === 'member' && served.access === 'member') return;
  // A member's call made with a visitor token needs a sign-in, not another credential.
  if (principal.kind === 'visitor' && served.access === 'member') throw unauthenticated(`${served.op.name} acts for a signed-in member: sign in first`);
  throw new ApplicationFailure(403, 'PERMISSION_DENIED', `a ${principal.kind} token may not call ${served.op.name}: it needs the site's admin credential`, { operation: served.op.name }, 'Permission denied');
}
