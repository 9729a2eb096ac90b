/**
 * Where a hosted form's POST came from: every form of the hosted pages (sign-in, registration, e-mail code,
 * forgotten password, recovery, device approval, the checkout and its sign-in) is posted only from its own page.
 * oauth/http.ts asks {@link crossSitePost} before anything else about such a request (its session, its fields),
 * and answers 403 with {@link crossSitePage}.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { messagePage } from './pages.js';

/** The hosted pages' form paths under `/oauth2/` (every POST under `/hosted/` is a form too). */
const FORM_PATHS = new Set(['/oauth2/authorize', '/oauth2/authorize/verify', '/oauth2/register', '/oauth2/device', '/oauth2/forgot', '/oauth2/recover']);

/**
 * False when the browser says the request came from another origin than the page's own (Fetch Metadata,
 * W3C "Fetch Metadata Request Headers"): `Sec-Fetch-Site` other than `same-origin`, else an `Origin` whose
 * host is not the request's `Host`. The pages are served with `Referrer-Policy: no-referrer`, under which a
 * browser's own form posts say `Origin: null`: that (and no header, as from curl) tells nothing, and what the
 * form carries decides (the checkout's cookie and CSRF token; the sign-in's credentials).
 */
export function sameOrigin(headers: IncomingHttpHeaders): boolean {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  const origin = headers.origin;
  if (origin === undefined || origin === 'null') return true;
  try {
    return new URL(origin).host === headers.host;
  } catch {
    return false;
  }
}

/**
 * True for a POST to a hosted form (`FORM_PATHS`, or any path under `/hosted/`) that {@link sameOrigin}
 * refuses: the caller answers {@link crossSitePage} without reading the form.
 */
export function crossSitePost(req: { method: string; path: string; headers: IncomingHttpHeaders }): boolean {
  if (req.method !== 'POST' || !(FORM_PATHS.has(req.path) || req.path.startsWith('/hosted/'))) return false;
  return !sameOrigin(req.headers);
}

/** The 403 page of a form posted from another site. */
export function crossSitePage(): string {
  return messagePage('This form was not sent from its page', 'Reload the page and try again.', { error: true });
}
