/**
 * What every OAuth route of the emulator shares (docs/sign-in.md): the request as the server read it, the reply
 * it writes (JSON or a hosted page, never cached), and reading a body's fields by their camelCase or snake_case
 * names. The routes: token-routes.ts (the token endpoint and its companions) and page-routes.ts (the hosted
 * pages); http.ts dispatches to them.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AdminKey } from '../auth.js';
import type { Store } from '../store/store.js';
import type { IdentityScope } from './identity.js';
import { OAuthError } from './model.js';
import type { OAuthState } from './state.js';

/** What the OAuth routes need of the emulator. */
export interface OAuthDeps {
  store: Store;
  key: AdminKey;
}

/** A request as the server read it. */
export interface OAuthRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  raw: string;
  requestId: string;
}

export type Reply = { status: number; type: 'json' | 'html'; body: string; headers?: Record<string, string> };

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, type: 'json', body: JSON.stringify(body), headers: { 'cache-control': 'no-store', ...headers } });
export const html = (status: number, body: string): Reply => ({ status, type: 'html', body, headers: { 'cache-control': 'no-store' } });
export const redirect = (location: string): Reply => ({ status: 302, type: 'html', body: '', headers: { location, 'cache-control': 'no-store' } });

/** The fields of a JSON or form-urlencoded body (names as sent). @throws OAuthError invalid_request */
export function fieldsOf(req: OAuthRequest): Record<string, unknown> {
  const type = String(req.headers['content-type'] ?? '');
  if (req.raw === '') return {};
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(req.raw));
  try {
    const body = JSON.parse(req.raw) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new OAuthError('invalid_request', 'the body must be a JSON object or form-urlencoded');
}

/** A field by its camelCase or snake_case name. */
export function field(f: Record<string, unknown>, camel: string): string | undefined {
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const v = Object.hasOwn(f, camel) ? f[camel] : Object.hasOwn(f, snake) ? f[snake] : undefined;
  return typeof v === 'string' ? v : undefined;
}

export function scopeOf(oauth: OAuthState, store: Store, site: string): IdentityScope {
  return { oauth, store, site, now: store.now() };
}

export function siteName(store: Store, site: string): string {
  return store.sites().find((s) => s.id === site)?.name ?? 'this site';
}

/**
 * The name of app `clientId`, for a page that says who asks; undefined for the site's default headless app (to a
 * person that app is the site itself, which the page names already) and when the app is gone.
 */
export function appName(oauth: OAuthState, clientId: string): string | undefined {
  const app = oauth.apps().find((a) => a.clientId === clientId);
  return app && !app.default ? app.name : undefined;
}
