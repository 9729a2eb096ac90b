/**
 * What `profile list` and `profile show` print for a profile: never the secret itself, only its kind and where
 * it is kept (docs/architecture.md "Profiles and auth": "auth status says where a secret is kept").
 */
import type { ResolvedProfile } from '../../context.js';
import type { Column } from '../../core/output.js';
import { readSession, sessionsPath } from '../../core/sessions.js';

export interface ProfileView {
  name: string;
  current: boolean;
  /** flag, env, stored or local: what selected this profile (only meaningful for the active one). */
  source?: string;
  baseUrl: string;
  siteId: string | null;
  /** The app instance sent as `instance_id` with client credentials (not a secret). */
  instanceId: string | null;
  /** `clientCredentials`: an app's client id and secret from `login --client-id ID --client-secret-stdin`. */
  credential: 'apiKey' | 'clientCredentials' | 'none';
  /**
   * Where the secret lives: the config file path, `env SITECTL_API_KEY`, the emulator's admin-key.json, or, for
   * client credentials, the sessions file.
   */
  secretStoredIn: string | null;
}

/** Field names of a profile view, for `--json fields`. */
export const PROFILE_FIELDS: readonly string[] = ['name', 'current', 'source', 'baseUrl', 'siteId', 'instanceId', 'credential', 'secretStoredIn'];

export const PROFILE_COLUMNS: Column<ProfileView>[] = [
  { key: 'current', header: ' ', get: (p) => (p.current ? '*' : '') },
  { key: 'name' },
  { key: 'baseUrl', header: 'BASE URL' },
  { key: 'siteId', header: 'SITE ID', noTruncate: true },
  { key: 'credential' },
  { key: 'secretStoredIn', header: 'SECRET STORED IN' },
];

/**
 * A profile's admin credential and where its secret is kept: the API key when it has one (it wins, as in
 * context.ts), else an app's client credentials in the sessions file, else none.
 */
export function credentialOf(env: NodeJS.ProcessEnv, name: string, apiKey: boolean, apiKeyLocation: string | undefined): Pick<ProfileView, 'credential' | 'secretStoredIn'> {
  if (apiKey) return { credential: 'apiKey', secretStoredIn: apiKeyLocation ?? null };
  if (readSession(env, name).admin) return { credential: 'clientCredentials', secretStoredIn: sessionsPath(env) };
  return { credential: 'none', secretStoredIn: null };
}

/** The printable view of a resolved profile. */
export function viewOf(p: ResolvedProfile, current: boolean, env: NodeJS.ProcessEnv): ProfileView {
  return {
    name: p.name,
    current,
    source: p.source,
    baseUrl: p.baseUrl,
    siteId: p.siteId ?? null,
    instanceId: p.instanceId ?? null,
    ...credentialOf(env, p.name, !!p.apiKey, p.secretLocation),
  };
}
