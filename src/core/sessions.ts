/**
 * Sign-in state at rest (docs/architecture.md "Profiles and auth"; docs/sign-in.md "Tokens"): the visitor and
 * member tokens, the OAuth client id that got them, an app's client credentials and a pending e-mail
 * verification, per profile and site ({@link sessionKey}), in `<configDir>/sessions.json` — mode 0600 in a 0700 directory, written
 * atomically (a temporary file, then rename), like the fallbacks of gh, Stripe and wrangler. Tokens are never
 * put in argv, the environment, logs or error messages.
 *
 * An unreadable or invalid file is treated as empty on read (every session is then signed out) and replaced
 * on the next write.
 *
 * Each session records the site its tokens were issued for (`siteId`; `null`: no site was chosen), and a
 * session is used only for that site ({@link findSession}): a profile whose site changed, or the environment-only
 * profile (`SITECTL_SITE_ID` differs per run, so its "own" site is whatever the run names), never sends one
 * site's member tokens to another. A session written before sessions kept their site belongs to the site its key
 * names: `<profile>@<siteId>`, or, under the plain name, the profile's own site (as it is now: the one it had when
 * the session was written is not known).
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from './config.js';

/**
 * A token pair as a session keeps it: the access token and its expiry (ms since the epoch), the refresh token and
 * the role it was issued for. The token manager's TokenPair (api/auth/manager.ts) has this shape; core declares
 * what it stores rather than importing it (docs/architecture.md "Layout and dependency direction").
 */
export interface StoredTokens {
  accessToken: { value: string; expiresAt: number };
  refreshToken: { value: string; role: 'none' | 'visitor' | 'member' };
}

/** What is kept for one profile. */
export interface ProfileSession {
  /** The site the tokens were issued for; `null` when no site was chosen; absent in sessions written before. */
  siteId?: string | null;
  /** The OAuth client id the tokens were issued to. */
  clientId?: string;
  /** The base URL they were issued by (a profile pointed elsewhere signs out). */
  baseUrl?: string;
  visitor?: StoredTokens;
  member?: { tokens: StoredTokens; id: string; loginEmail?: string };
  /** Admin client credentials of a headless app (`login --client-id ID --client-secret-stdin`). */
  admin?: { clientId: string; clientSecret: string; accessToken: string; expiresAt: number };
  /**
   * A sign-in waiting for its code (`auth verify`): the e-mail's, or with `factorType` a second factor's (SMS or
   * CALL; `hint` names the phone as the platform shows it).
   */
  pending?: { stateToken: string; email: string; clientId: string; factorType?: 'SMS' | 'CALL'; hint?: string };
}

interface SessionsFile {
  profiles: Record<string, ProfileSession>;
}

/** Absolute path of the sessions file. */
export function sessionsPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'sessions.json');
}

function readFile(env: NodeJS.ProcessEnv): SessionsFile {
  try {
    const data = JSON.parse(readFileSync(sessionsPath(env), 'utf8')) as Partial<SessionsFile>;
    if (data && typeof data === 'object' && data.profiles && typeof data.profiles === 'object' && !Array.isArray(data.profiles)) return { profiles: data.profiles };
  } catch {
    // missing or unreadable: no sessions
  }
  return { profiles: {} };
}

/**
 * The key a session is stored under: the profile's name for the profile's own site (what it was before sessions
 * followed `--site`), `<profile>@<siteId>` for another site of its account. Profile names never hold `@`.
 */
export function sessionKey(profile: string, siteId: string | undefined, homeSiteId: string | undefined): string {
  return siteId && siteId !== homeSiteId ? `${profile}@${siteId}` : profile;
}

/** Which site a session is wanted for. */
export interface SessionPlace {
  profile: string;
  /** The chosen site (`--site`, SITECTL_SITE_ID, else the profile's); undefined when there is none. */
  siteId?: string;
  /** The profile's own site: its stored site id, the emulator's default site, SITECTL_SITE_ID for the env-only profile. */
  homeSiteId?: string;
}

/** Whether `s`, stored under `key`, holds tokens of `place`'s site (see the module comment). */
export function sessionBelongs(s: ProfileSession, key: string, place: SessionPlace): boolean {
  if (s.siteId !== undefined) return s.siteId === (place.siteId ?? null);
  if (key === place.profile) return place.siteId === undefined || place.siteId === place.homeSiteId;
  return place.siteId !== undefined && key === `${place.profile}@${place.siteId}`;
}

/** What of a session is the profile's whatever the site: an app's client credentials (and their base URL). */
function profileWide(s: ProfileSession): ProfileSession {
  return s.admin ? { baseUrl: s.baseUrl, admin: s.admin } : {};
}

/**
 * The session of a profile on a site: the one under {@link sessionKey}, or under the profile's other key for that
 * site (the plain name of a profile whose own site changed, `<profile>@<site>` of a site that became its own),
 * when it holds that site's tokens. Otherwise the session is absent there: `session` holds only what is the
 * profile's whatever the site (an app's credentials), and `key` is where that site's session is to be written.
 */
export function findSession(env: NodeJS.ProcessEnv, place: SessionPlace): { key: string; session: ProfileSession } {
  const { profiles } = readFile(env);
  const preferred = sessionKey(place.profile, place.siteId, place.homeSiteId);
  const other = place.siteId === undefined ? undefined : preferred === place.profile ? `${place.profile}@${place.siteId}` : place.profile;
  for (const key of other ? [preferred, other] : [preferred]) {
    const s = Object.hasOwn(profiles, key) ? profiles[key] : undefined;
    if (s && sessionBelongs(s, key, place)) return { key, session: s };
  }
  const s = Object.hasOwn(profiles, preferred) ? profiles[preferred] : undefined;
  return { key: preferred, session: s ? profileWide(s) : {} };
}

/**
 * Like {@link writeSession} for the session of `place`'s site under `key` (from {@link findSession}), which then
 * records that site. Another site's session found there (a profile whose own site changed) moves to
 * `<profile>@<its site>` when nothing is kept there yet, else is dropped; an app's credentials stay.
 */
export function writeSiteSession(env: NodeJS.ProcessEnv, key: string, place: SessionPlace, change: (current: ProfileSession) => ProfileSession | undefined): ProfileSession | undefined {
  return update(env, (profiles) => {
    let current = Object.hasOwn(profiles, key) ? (profiles[key] ?? {}) : {};
    if (!sessionBelongs(current, key, place)) {
      const { admin: _admin, ...theirs } = current;
      const away = typeof current.siteId === 'string' ? `${place.profile}@${current.siteId}` : undefined;
      if (away && away !== key && !Object.hasOwn(profiles, away) && (theirs.member || theirs.visitor || theirs.pending)) profiles[away] = theirs;
      current = profileWide(current);
    }
    const next = change(structuredClone(current));
    return next && Object.keys(next).length ? { ...next, siteId: place.siteId ?? null } : next;
  }, key);
}

/** The keys of every session stored for `profile`: its own site's first, then those of its other sites. */
export function sessionKeysOf(env: NodeJS.ProcessEnv, profile: string): string[] {
  const keys = Object.keys(readFile(env).profiles);
  return [...keys.filter((k) => k === profile), ...keys.filter((k) => k.startsWith(`${profile}@`))];
}

/** The stored session of `profile` (a {@link sessionKey}; {} when none). */
export function readSession(env: NodeJS.ProcessEnv, profile: string): ProfileSession {
  const file = readFile(env);
  return Object.hasOwn(file.profiles, profile) ? (file.profiles[profile] ?? {}) : {};
}

/**
 * Replaces the stored session of `profile` with `change(current)` (undefined removes it), atomically, 0600.
 * @throws the file-system error when the config directory cannot be written
 */
export function writeSession(env: NodeJS.ProcessEnv, profile: string, change: (current: ProfileSession) => ProfileSession | undefined): ProfileSession | undefined {
  return update(env, (profiles) => change(structuredClone(Object.hasOwn(profiles, profile) ? (profiles[profile] ?? {}) : {})), profile);
}

/**
 * Rewrites the file: `change` may edit the other sessions in the map it gets and returns the new session of
 * `key` (undefined or empty removes it). Atomic, 0600 in a 0700 directory.
 */
function update(env: NodeJS.ProcessEnv, change: (profiles: Record<string, ProfileSession>) => ProfileSession | undefined, key: string): ProfileSession | undefined {
  const file = readFile(env);
  const profiles: Record<string, ProfileSession> = Object.create(null) as Record<string, ProfileSession>;
  for (const [k, v] of Object.entries(file.profiles)) profiles[k] = v;
  const next = change(profiles);
  delete profiles[key];
  if (next && Object.keys(next).length) profiles[key] = next;
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const path = sessionsPath(env);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ profiles }, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
  return next;
}
