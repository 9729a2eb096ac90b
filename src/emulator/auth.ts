/**
 * Admin credentials of the emulated site and the request check (platform-wire.md section 2).
 *
 * At first start a random admin API key (`IST.` + 48 url-safe chars) and a site id (uuid) are written to
 * `<dataDir>/admin-key.json` with mode 0600. A request authenticates with `Authorization: <key>` plus
 * `wix-site-id: <siteId>`. Missing credentials -> 401 UNAUTHENTICATED; a wrong key or site id -> 403
 * PERMISSION_DENIED, both in the platform's applicationError envelope. Checks are a list of {@link Authenticator}s
 * so OAuth access tokens can be added beside the API key later.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import { ApplicationFailure } from './errors.js';

export interface AdminKey {
  apiKey: string;
  siteId: string;
}

/** Who made a request. */
export interface Principal {
  kind: 'admin';
  siteId: string;
}

/**
 * One way of authenticating. Returns a principal when the headers carry valid credentials of its kind,
 * undefined when they are not of its kind, and throws 403 when they are of its kind but wrong.
 */
export type Authenticator = (authorization: string, headers: IncomingHttpHeaders) => Principal | undefined;

export const ADMIN_KEY_FILE = 'admin-key.json';

/** Reads `<dataDir>/admin-key.json`, creating it (mode 0600) on first use. */
export function loadOrCreateAdminKey(dataDir: string): AdminKey {
  const file = join(dataDir, ADMIN_KEY_FILE);
  if (existsSync(file)) {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<AdminKey>;
    if (typeof parsed.apiKey === 'string' && typeof parsed.siteId === 'string') return { apiKey: parsed.apiKey, siteId: parsed.siteId };
  }
  const key: AdminKey = { apiKey: `IST.${randomBytes(36).toString('base64url')}`, siteId: randomUUID() };
  writeFileSync(file, JSON.stringify(key, null, 2) + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

function same(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

function permissionDenied(description: string): ApplicationFailure {
  return new ApplicationFailure(403, 'PERMISSION_DENIED', description, {}, 'Permission denied');
}

/** The admin API key check: `Authorization: <apiKey>` and `wix-site-id: <siteId>`. */
export function apiKeyAuthenticator(key: AdminKey): Authenticator {
  return (authorization, headers) => {
    // API keys are long dotted tokens; an unrelated token format is left to other authenticators.
    if (!authorization.startsWith('IST.')) return undefined;
    if (!same(authorization, key.apiKey)) throw permissionDenied('the API key is not valid for this site');
    const siteId = headers['wix-site-id'];
    if (typeof siteId !== 'string' || siteId === '') {
      throw new ApplicationFailure(401, 'UNAUTHENTICATED', 'an API key needs the wix-site-id header', {}, 'Unauthenticated');
    }
    if (siteId !== key.siteId) throw permissionDenied(`the API key has no access to site ${siteId}`);
    return { kind: 'admin', siteId };
  };
}

/**
 * Authenticates a request with the first authenticator that recognises its credentials.
 * @throws ApplicationFailure 401 UNAUTHENTICATED without credentials, 403 PERMISSION_DENIED when none accepts them.
 */
export function authenticate(headers: IncomingHttpHeaders, authenticators: readonly Authenticator[]): Principal {
  const authorization = headers.authorization;
  if (!authorization) {
    throw new ApplicationFailure(401, 'UNAUTHENTICATED', 'the Authorization header is missing', {}, 'Unauthenticated');
  }
  for (const check of authenticators) {
    const principal = check(authorization, headers);
    if (principal) return principal;
  }
  throw permissionDenied('the credentials in the Authorization header are not valid');
}
