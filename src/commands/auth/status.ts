/**
 * `sitectl auth status [--json [fields]]`: `{profile, role, member, expiresAt, storedIn}` with role `none`,
 * `visitor`, `member` or `admin` (a member session wins; then an app's client credentials or the profile's API
 * key; then visitor tokens). `expiresAt` is the access token's expiry (null for an API key). `clientId` (documented
 * in the README) is the OAuth client of the session, or the app's. Follows `--site`: the member and visitor
 * tokens are those of the chosen site; an app's credentials and an API key are the profile's, whatever the site.
 * A member signed in on another site is not signed in here (core/sessions.ts). Reads the stored state only:
 * nothing is sent (except, on a real site, the sites query a `--site NAME` needs), and the local emulator is not
 * started (a session of an earlier sitectl, with no site recorded, gets its site written: shared/target.ts).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { addFormatFlags, fieldsChecker, printRecord, resolveFormat, type FormatFlags } from '../../core/output.js';
import { readSession, sessionsPath } from '../../core/sessions.js';
import { sessionTarget } from './shared/target.js';

export interface AuthStatus {
  profile: string;
  role: 'none' | 'visitor' | 'member' | 'admin';
  member: { id: string; loginEmail: string | null } | null;
  expiresAt: string | null;
  storedIn: string | null;
  clientId: string | null;
}

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(parent.command('status').description('Show who the profile is signed in as, until when, and where the tokens are kept'))
    .addHelpText('after', '\nExamples:\n  sitectl auth status\n  sitectl auth status --json role,member')
    .action(async (o: FormatFlags) => {
      await run(o, ctx);
    });
}

const iso = (epochSec: number) => new Date(epochSec * 1000).toISOString();

/** The status of the resolved profile on the chosen site (stored state only); `site` names the site, for people. */
export async function authStatus(ctx: Context): Promise<AuthStatus & { site?: string }> {
  const t = await sessionTarget(ctx, { startEmulator: false });
  const { profile, key, site: chosen } = t;
  // The chosen site's session only: a member signed in on another site is not signed in here.
  const s = t.read();
  // The app's client credentials are the profile's admin credential, kept with its own session.
  const own = key === profile.name ? s : readSession(ctx.env, profile.name);
  const file = sessionsPath(ctx.env);
  const site = chosen ? (chosen.name === chosen.id ? chosen.id : `${chosen.name} (${chosen.id})`) : undefined;
  const base = { profile: profile.name, member: null, clientId: s.clientId ?? null, ...(site ? { site } : {}) };
  if (s.member && s.member.tokens.refreshToken.role === 'member') {
    return { ...base, role: 'member', member: { id: s.member.id, loginEmail: s.member.loginEmail ?? null }, expiresAt: iso(s.member.tokens.accessToken.expiresAt), storedIn: file };
  }
  if (own.admin) return { ...base, role: 'admin', clientId: own.admin.clientId, expiresAt: iso(own.admin.expiresAt), storedIn: file };
  if (profile.apiKey) return { ...base, role: 'admin', expiresAt: null, storedIn: profile.secretLocation ?? null };
  if (s.visitor && s.visitor.refreshToken.role === 'visitor') return { ...base, role: 'visitor', expiresAt: iso(s.visitor.accessToken.expiresAt), storedIn: file };
  return { ...base, role: 'none', expiresAt: null, storedIn: null };
}

export async function run(o: FormatFlags, ctx: Context): Promise<void> {
  const format = resolveFormat(o, fieldsChecker(['profile', 'role', 'member', 'expiresAt', 'storedIn', 'clientId']));
  const raw = await authStatus(ctx);
  const st: AuthStatus = { profile: raw.profile, role: raw.role, member: raw.member, expiresAt: raw.expiresAt, storedIn: raw.storedIn, clientId: raw.clientId };
  const who = st.member ? `${st.member.loginEmail ?? st.member.id} (member ${st.member.id})` : st.role === 'admin' ? (st.clientId && st.storedIn?.endsWith('sessions.json') ? `app ${st.clientId}` : 'API key') : st.role === 'visitor' ? 'a visitor (not signed in)' : 'nobody';
  await printRecord(ctx.io, format, st, {
    rows: [
      ['profile', st.profile],
      ...(raw.site ? [['site', raw.site] as [string, string]] : []),
      ['signed in as', who],
      ['role', st.role],
      ['expires', st.expiresAt ?? '-'],
      ['stored in', st.storedIn ?? '-'],
    ],
  });
}
