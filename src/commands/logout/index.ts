/**
 * `sitectl logout`: ends the profile's sign-in (docs/sign-in.md "Tokens": both tokens cleared, role none).
 * The member's refresh token and an app's admin token are revoked on the server first (`POST /oauth2/revoke`
 * with the client id that got them, and the app's secret for the app's token; best effort: the local tokens
 * are removed whatever the server says), then the visitor and member tokens, the app credentials and any
 * pending verification are removed from the sessions file. Signing out twice is not an error.
 *
 * Sessions are kept per profile and site: `logout` signs out of every site of the profile; `--site ID|NAME` (or
 * SITECTL_SITE_ID naming another site than the profile's own) of that site only, and only of a session kept for
 * that site (core/sessions.ts: another site's session found under the same key is left alone). The revocations honour
 * `--timeout` (else 10 s each) and `--debug`.
 *
 * `--post-logout-redirect-uri URL` (an absolute http(s) URL, checked before anything is sent) also ends each signed-in
 * member's session on the platform's identity service first: `GET /v1/logout?postLogoutRedirectUri=URL&clientId=ID`
 * (authentication.logout, docs/wire.md "Operations and their verbs") with the member's access token, the URL a
 * browser signing out there is sent to. Best effort as the revocations are; a member whose access token has
 * expired is not sent it (its refresh token is revoked all the same).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { tokenEndpoint } from '../../context-auth.js';
import { notice, success } from '../../core/log.js';
import { readSession, sessionKeysOf, writeSession, type ProfileSession } from '../../core/sessions.js';
import { oneLine } from '../../core/text.js';
import { UserError } from '../../core/errors.js';
import { sessionTarget } from '../auth/shared/target.js';

export function register(cmd: Command, ctx: Context): void {
  cmd
    .option('--post-logout-redirect-uri <url>', "also end the member's session on the identity service (GET /v1/logout), naming where a browser goes next")
    .addHelpText(
      'after',
      '\nExamples:\n  sitectl logout\n  sitectl --profile prod logout\n  sitectl logout --site Uptown      # only the sign-in on that site\n  sitectl logout --post-logout-redirect-uri https://example.com/bye',
    )
    .action(async (o: LogoutOptions) => {
      await run(ctx, o);
    });
}

export interface LogoutOptions {
  postLogoutRedirectUri?: string;
}

export async function run(ctx: Context, o: LogoutOptions = {}): Promise<void> {
  const redirect = o.postLogoutRedirectUri;
  if (redirect !== undefined && !isWebUrl(redirect)) throw new UserError(`--post-logout-redirect-uri takes an absolute http(s) URL, got '${redirect}'`);
  const t = await sessionTarget(ctx, { startEmulator: false });
  const { profile, key, label } = t;
  // `--site` (or a site other than the profile's own) signs out of that site; otherwise every site of the profile.
  const one = ctx.flags.site !== undefined || (t.site !== undefined && t.site.id !== profile.homeSiteId);
  const keys = one ? [key] : sessionKeysOf(ctx.env, profile.name);
  const sessions = (one ? [{ key, session: t.read() }] : keys.map((k) => ({ key: k, session: readSession(ctx.env, k) }))).filter(({ session: s }) => s.member || s.visitor || s.admin || s.pending);
  if (!sessions.length) {
    notice(ctx.io, `Not signed in on ${label}`);
    return;
  }
  let told = true;
  if (redirect !== undefined) for (const { session } of sessions) if (!(await endSession(ctx, session, profile.baseUrl, redirect))) told = false;
  for (const { session } of sessions) if (!(await revokeAll(ctx, session, profile.baseUrl))) told = false;
  if (!told) notice(ctx.io, 'The server could not be told (the tokens expire on their own); removing them here.');
  // What stays (the client id and base URL, for the next sign-in) stays with its site.
  if (one) t.write((s) => ({ clientId: s.clientId, baseUrl: s.baseUrl }));
  else for (const { key: k } of sessions) writeSession(ctx.env, k, (s) => ({ clientId: s.clientId, baseUrl: s.baseUrl, ...(s.siteId !== undefined ? { siteId: s.siteId } : {}) }));
  const members = sessions.flatMap(({ session: s }) => (s.member ? [oneLine(s.member.loginEmail ?? s.member.id)] : []));
  const where = keys.length === 1 ? label : `profile '${profile.name}'${sessions.length > 1 ? ` (${sessions.length} sites)` : ''}`;
  success(ctx.io, `Signed out of ${where}${members.length ? ` (${members.join(', ')})` : ''}`);
}

/**
 * Revokes a session's member refresh token and app admin token on the server (best effort; `--timeout`, else
 * 10 s, per call; `--debug` traces them). @returns false when the server could not be told
 */
async function revokeAll(ctx: Context, session: ProfileSession, profileBaseUrl: string): Promise<boolean> {
  const base = session.baseUrl ?? profileBaseUrl;
  const revocations: Array<{ token: string; clientId: string; clientSecret?: string }> = [];
  const refresh = session.member?.tokens.refreshToken.value;
  if (refresh && session.clientId) {
    revocations.push({ token: refresh, clientId: session.clientId, ...(session.admin?.clientId === session.clientId ? { clientSecret: session.admin.clientSecret } : {}) });
  }
  if (session.admin?.accessToken) revocations.push({ token: session.admin.accessToken, clientId: session.admin.clientId, clientSecret: session.admin.clientSecret });
  if (!revocations.length || !/^https?:\/\//.test(base)) return true;
  const endpoint = tokenEndpoint(ctx, base, 10_000);
  let told = true;
  for (const { token, ...client } of revocations) {
    try {
      await endpoint.revoke(token, client, ctx.signal);
    } catch {
      // Best effort: an unreachable server must not keep the tokens on disk.
      told = false;
    }
  }
  return told;
}

/** True for an absolute http(s) URL. */
function isWebUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/**
 * Ends a session's member sign-in on the identity service: `GET /v1/logout` with the member's access token,
 * `postLogoutRedirectUri` and the client id (best effort, `--timeout`). Nothing to end without a member.
 * @returns false when the server could not be told (no usable access token, or the call failed)
 */
async function endSession(ctx: Context, session: ProfileSession, profileBaseUrl: string, postLogoutRedirectUri: string): Promise<boolean> {
  const member = session.member;
  if (!member) return true;
  const base = session.baseUrl ?? profileBaseUrl;
  if (!/^https?:\/\//.test(base) || member.tokens.accessToken.expiresAt * 1000 <= ctx.now().getTime()) return false;
  const [{ authentication }, { tokenClient }] = await Promise.all([import('../../api/auth/families.js'), import('../auth/shared/session.js')]);
  const api = tokenClient(ctx, base, member.tokens.accessToken.value);
  try {
    await authentication.logout(api, { postLogoutRedirectUri, ...(session.clientId ? { clientId: session.clientId } : {}) }, { signal: ctx.signal });
    return true;
  } catch {
    return false;
  } finally {
    await api.close();
  }
}
