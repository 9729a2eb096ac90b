/**
 * Sign-in state at rest (design.md "Profiles and auth"; issue 8 section 3 "Tokens at rest"): the visitor and
 * member tokens, the OAuth client id that got them, an app's client credentials and a pending e-mail
 * verification, per profile and site ({@link sessionKey}), in `<configDir>/sessions.json` — mode 0600 in a 0700 directory, written
 * atomically (a temporary file, then rename), like the fallbacks of gh, Stripe and wrangler. Tokens are never
 * put in argv, the environment, logs or error messages.
 *
 * An unreadable or invalid file is treated as empty on read (every session is then signed out) and replaced
 * on the next write.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenPair } from '../api/auth/manager.js';
import { configDir } from './config.js';

/** What is kept for one profile. */
export interface ProfileSession {
  /** The OAuth client id the tokens were issued to. */
  clientId?: string;
  /** The base URL they were issued by (a profile pointed elsewhere signs out). */
  baseUrl?: string;
  visitor?: TokenPair;
  member?: { tokens: TokenPair; id: string; loginEmail?: string };
  /** Admin client credentials of a headless app (`login --client-id ID --client-secret-stdin`). */
  admin?: { clientId: string; clientSecret: string; accessToken: string; expiresAt: number };
  /** A sign-in waiting for its e-mail code (`auth verify --code`). */
  pending?: { stateToken: string; email: string; clientId: string };
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
  const file = readFile(env);
  const current = Object.hasOwn(file.profiles, profile) ? (file.profiles[profile] ?? {}) : {};
  const next = change(structuredClone(current));
  const profiles: Record<string, ProfileSession> = Object.create(null) as Record<string, ProfileSession>;
  for (const [k, v] of Object.entries(file.profiles)) if (k !== profile) profiles[k] = v;
  if (next && Object.keys(next).length) profiles[profile] = next;
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
