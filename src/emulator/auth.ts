/**
 * The emulated account, its admin key, and the request check (docs/wire.md §2).
 *
 * At first start an account-level admin API key (`IST.` + 48 url-safe chars), an account id, a default site
 * ("Downtown") and a second site ("Uptown") are created and written to `<dataDir>/admin-key.json` (mode 0600):
 * `{apiKey, accountId, siteId, sites: [{id, name}]}`, `siteId` being the default site. As on the platform, the
 * key reaches every site of the account, chosen per request by `wix-site-id`. Missing credentials -> 401
 * UNAUTHENTICATED; a wrong key, or a site outside the account -> 403 PERMISSION_DENIED, both in the platform's
 * applicationError envelope. Checks are a list of {@link Authenticator}s: this API key check, and the OAuth
 * access tokens of sign-in (`accessTokenAuthenticator` in oauth/access.ts: visitors, members, and apps with
 * client credentials; docs/sign-in.md). Each site's default OAuth app has the client id {@link defaultClientId}.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { ApplicationFailure } from './errors.js';

export interface AdminKey {
  apiKey: string;
  accountId: string;
  /** The default site. */
  siteId: string;
  /** The default OAuth app of the default site (sign-in): {@link defaultClientId} of `siteId`. */
  clientId?: string;
  /** Each site with the `clientId` of its default OAuth app. */
  sites: { id: string; name: string; clientId?: string }[];
}

/**
 * The client id of a site's default headless OAuth app: derived from the site id (a UUID of its SHA-256), so
 * the key file, the control plane and the token endpoint agree without storing it. Client ids are public.
 */
export function defaultClientId(siteId: string): string {
  const h = createHash('sha256').update(`sitectl-emulator-oauth-app:${siteId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Who made a request, and for which site: the admin (an API key or an app's client-credentials token), or
 * the visitor or member of an OAuth access token (sign-in, docs/sign-in.md).
 */
export type Principal =
  | {
      kind: 'admin';
      accountId: string;
      /** The request's site; empty for an account-level request (`wix-account-id` alone). */
      siteId: string;
      /** Set when the request named the account, not a site: only account-level operations accept it. */
      accountLevel?: boolean;
    }
  | { kind: 'member'; accountId: string; siteId: string; memberId: string; clientId: string; sessionId: string; accountLevel?: undefined }
  | { kind: 'visitor'; accountId: string; siteId: string; visitorId: string; clientId: string; sessionId: string; accountLevel?: undefined };

/** The sites a key may reach (the store's `sites` table). */
export interface SiteDirectory {
  hasSite(id: string): boolean;
}

/**
 * One way of authenticating. Returns a principal when the headers carry valid credentials of its kind,
 * undefined when they are not of its kind, and throws 401/403 when they are of its kind but not valid.
 */
export type Authenticator = (authorization: string, headers: IncomingHttpHeaders) => Principal | undefined;

export const ADMIN_KEY_FILE = 'admin-key.json';
/** Name of the site created with the account (the default site, with the demo data). */
export const DEFAULT_SITE_NAME = 'Downtown';
/** Name of the second site of a new account: its own locations, staff and policies, no services. */
export const SECOND_SITE_NAME = 'Uptown';

/**
 * Reads `<dataDir>/admin-key.json`, creating it (mode 0600) on first use. A key file written by an earlier
 * version (`{apiKey, siteId}`) gets an account id and a `sites` list and is written back.
 */
export function loadOrCreateAdminKey(dataDir: string): AdminKey {
  const file = join(dataDir, ADMIN_KEY_FILE);
  if (existsSync(file)) {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<AdminKey>;
    if (typeof parsed.apiKey === 'string' && typeof parsed.siteId === 'string') {
      const key: AdminKey = {
        apiKey: parsed.apiKey,
        accountId: typeof parsed.accountId === 'string' ? parsed.accountId : randomUUID(),
        siteId: parsed.siteId,
        sites: Array.isArray(parsed.sites) && parsed.sites.length ? parsed.sites : [{ id: parsed.siteId, name: DEFAULT_SITE_NAME }],
      };
      if (parsed.accountId === undefined || parsed.sites === undefined || parsed.clientId === undefined) writeAdminKey(dataDir, key);
      key.clientId = defaultClientId(key.siteId);
      return key;
    }
  }
  const siteId = randomUUID();
  const key: AdminKey = {
    apiKey: `IST.${randomBytes(36).toString('base64url')}`,
    accountId: randomUUID(),
    siteId,
    sites: [
      { id: siteId, name: DEFAULT_SITE_NAME },
      { id: randomUUID(), name: SECOND_SITE_NAME },
    ],
  };
  writeAdminKey(dataDir, key);
  return { ...key, clientId: defaultClientId(siteId) };
}

/**
 * Writes the key file atomically with mode 0600 (whatever the umask), with the default OAuth app's `clientId`
 * at the top (the default site's) and in each entry of `sites`.
 */
export function writeAdminKey(dataDir: string, key: AdminKey): void {
  const file = join(dataDir, ADMIN_KEY_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  const withApps: AdminKey = {
    apiKey: key.apiKey,
    accountId: key.accountId,
    siteId: key.siteId,
    clientId: defaultClientId(key.siteId),
    sites: key.sites.map((s) => ({ id: s.id, name: s.name, clientId: defaultClientId(s.id) })),
  };
  writeFileSync(tmp, JSON.stringify(withApps, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

function same(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

function permissionDenied(description: string): ApplicationFailure {
  return new ApplicationFailure(403, 'PERMISSION_DENIED', description, {}, 'Permission denied');
}

/**
 * The admin API key check: `Authorization: <apiKey>` and `wix-site-id: <a site of the account>`, or
 * `wix-account-id: <the account>` for account-level calls (the server refuses it on site operations).
 */
export function apiKeyAuthenticator(key: Pick<AdminKey, 'apiKey' | 'accountId'>, sites: SiteDirectory): Authenticator {
  return (authorization, headers) => {
    // API keys are long dotted tokens; an unrelated token format is left to other authenticators.
    if (!authorization.startsWith('IST.')) return undefined;
    if (!same(authorization, key.apiKey)) throw permissionDenied('the API key is not valid for this account');
    const siteId = headers['wix-site-id'];
    const accountId = headers['wix-account-id'];
    if ((typeof siteId !== 'string' || siteId === '') && typeof accountId === 'string' && accountId !== '') {
      if (!same(accountId, key.accountId)) throw permissionDenied(`the API key has no access to account ${accountId}`);
      return { kind: 'admin', accountId: key.accountId, siteId: '', accountLevel: true };
    }
    if (typeof siteId !== 'string' || siteId === '') {
      throw new ApplicationFailure(401, 'UNAUTHENTICATED', 'an API key needs the wix-site-id header', {}, 'Unauthenticated');
    }
    if (!sites.hasSite(siteId)) throw permissionDenied(`the API key has no access to site ${siteId}`);
    return { kind: 'admin', accountId: key.accountId, siteId };
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
