/**
 * What `profile list` and `profile show` print for a profile: never the secret itself, only its kind and where
 * it is kept (design.md "Profiles and auth": "auth status says where a secret is kept").
 */
import type { ResolvedProfile } from '../../context.js';
import type { Column } from '../../core/output.js';

export interface ProfileView {
  name: string;
  current: boolean;
  /** flag, env, stored or local: what selected this profile (only meaningful for the active one). */
  source?: string;
  baseUrl: string;
  siteId: string | null;
  credential: 'apiKey' | 'none';
  /** Where the secret lives: the config file path, `env SITECTL_API_KEY`, or the emulator's admin-key.json. */
  secretStoredIn: string | null;
}

/** Field names of a profile view, for `--json fields`. */
export const PROFILE_FIELDS: readonly string[] = ['name', 'current', 'source', 'baseUrl', 'siteId', 'credential', 'secretStoredIn'];

export const PROFILE_COLUMNS: Column<ProfileView>[] = [
  { key: 'current', header: ' ', get: (p) => (p.current ? '*' : '') },
  { key: 'name' },
  { key: 'baseUrl', header: 'BASE URL' },
  { key: 'siteId', header: 'SITE ID', noTruncate: true },
  { key: 'credential' },
  { key: 'secretStoredIn', header: 'SECRET STORED IN' },
];

/** The printable view of a resolved profile. */
export function viewOf(p: ResolvedProfile, current: boolean): ProfileView {
  return {
    name: p.name,
    current,
    source: p.source,
    baseUrl: p.baseUrl,
    siteId: p.siteId ?? null,
    credential: p.apiKey ? 'apiKey' : 'none',
    secretStoredIn: p.secretLocation ?? null,
  };
}
