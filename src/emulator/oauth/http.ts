/**
 * The emulator's OAuth server over HTTP (docs/sign-in.md): the token endpoint and its companions, and the
 * hosted pages a redirect session points at. Nothing here takes the API's `Authorization` (the token call
 * carries no credentials, docs/wire.md §11; pages are for browsers); every answer has an
 * `x-wix-request-id`.
 *
 * | route | what |
 * | --- | --- |
 * | `POST /oauth2/token` | grants: anonymous, refresh_token (rotating), authorization_code (+ PKCE verifier), authorized_client (`Authorization: <access token>,<api key>`, the site the token's), client_credentials (`client_id`, `client_secret`, `instance_id`), device code (RFC 8628) |
 * | `POST /oauth2/device/code` | device authorization (RFC 8628 section 3.1), answered in the SDK typings' camelCase (`DeviceCodeResponse`) |
 * | `POST /oauth2/token-info`, `GET /oauth2/user-info`, `POST /oauth2/revoke` | what a token is; the member of a member token; RFC 7009 revocation (client id, and secret for a confidential app) |
 * | `GET|POST /oauth2/authorize` | the sign-in page of an auth redirect session; on success the browser goes to the redirect URI with `code` and `state` (fragment or query as asked) |
 * | `/oauth2/authorize/verify`, `/oauth2/register`, `/oauth2/device`, `/oauth2/logout`, `/oauth2/login`, `/oauth2/forgot`, `/oauth2/recover`, `/hosted/<section>` | e-mail code, registration, device approval (codes typed in any case, with or without the dash), logout, login, forgotten password and recovery pages; the paid-plans checkout page (src/emulator/checkout-page); the other redirect-session sections |
 *
 * Every POST to a hosted form from another site is refused (403) before anything else (origin.ts).
 *
 * Token endpoint errors are RFC 6749's `{error, error_description}` (400; 401 for an unknown client).
 */
import type { ServerResponse } from 'node:http';
import { checkoutPageRoute } from '../checkout-page/http.js';
import { EmulatorError } from '../errors.js';
import { crossSitePage, crossSitePost } from './origin.js';
import { messagePage } from './pages.js';
import { authorize, authorizeVerify, device, forgotRoute, postFlowOf, recoverRoute, registerRoute, safeHref } from './page-routes.js';
import { html, json, type OAuthDeps, type OAuthRequest, type Reply } from './reply.js';
import { OAuthError } from './model.js';
import { oauthOf, type OAuthState } from './state.js';
import { deviceCode, revoke, token, tokenInfo, userInfo } from './token-routes.js';

/**
 * Answers a request under `/oauth2/` or `/hosted/`.
 * @returns false when the path is not one of these routes (the API router takes it)
 */
export function handleOAuth(deps: OAuthDeps, req: OAuthRequest, res: ServerResponse): boolean {
  if (!req.path.startsWith('/oauth2/') && !req.path.startsWith('/hosted/')) return false;
  const oauth = oauthOf(deps.store, deps.key.accountId);
  let reply: Reply;
  try {
    // Before anything else about the request: a form posted from another site is not read at all.
    reply = crossSitePost(req) ? html(403, crossSitePage()) : route(oauth, deps, req);
  } catch (err) {
    if (err instanceof OAuthError) reply = json(err.status, { error: err.error, error_description: err.description });
    else if (err instanceof EmulatorError) reply = json(err.status, err.body());
    else throw err;
  }
  const payload = Buffer.from(reply.body);
  res.writeHead(reply.status, {
    'content-type': reply.type === 'json' ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'content-length': payload.length,
    'x-wix-request-id': req.requestId,
    // Hosted pages carry a session id in their URL: never sent on as a Referer (to the thank-you URL, a link).
    ...(reply.type === 'html' ? { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; frame-ancestors 'none'", 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' } : {}),
    ...reply.headers,
  });
  res.end(payload);
  return true;
}

function route(oauth: OAuthState, deps: OAuthDeps, req: OAuthRequest): Reply {
  const { method, path } = req;
  const key = `${method} ${path}`;
  switch (key) {
    case 'POST /oauth2/token':
      return token(oauth, deps, req);
    case 'POST /oauth2/device/code':
      return deviceCode(oauth, req);
    case 'POST /oauth2/token-info':
      return tokenInfo(oauth, req);
    case 'GET /oauth2/user-info':
      return userInfo(oauth, deps, req);
    case 'POST /oauth2/revoke':
      return revoke(oauth, req);
    case 'GET /oauth2/authorize':
    case 'POST /oauth2/authorize':
      return authorize(oauth, deps, req);
    case 'POST /oauth2/authorize/verify':
      return authorizeVerify(oauth, deps, req);
    case 'GET /oauth2/register':
    case 'POST /oauth2/register':
      return registerRoute(oauth, deps, req);
    case 'GET /oauth2/device':
    case 'POST /oauth2/device':
      return device(oauth, deps, req);
    case 'GET /oauth2/recover':
    case 'POST /oauth2/recover':
      return recoverRoute(oauth, deps, req);
    case 'GET /oauth2/forgot':
    case 'POST /oauth2/forgot':
      return forgotRoute(oauth, deps, req);
    case 'GET /oauth2/logout': {
      const next = safeHref(postFlowOf(oauth, req.query.get('session')));
      return html(200, messagePage('Signed out', 'You are signed out of the site.', next ? { href: next, hrefText: 'Back to the application' } : {}));
    }
    case 'GET /oauth2/login': {
      const next = safeHref(postFlowOf(oauth, req.query.get('session')));
      return html(200, messagePage('Sign in', 'Sign-in for this site starts from an auth redirect session (sitectl login).', next ? { href: next } : {}));
    }
  }
  const checkout = checkoutPageRoute(oauth, deps.store, req);
  if (checkout) return checkout;
  if (method === 'GET' && path.startsWith('/hosted/')) {
    const section = path.slice('/hosted/'.length);
    return html(200, messagePage(`Hosted page: ${section}`, `The emulator hosts no ${section} page; on the platform this session opens the site's ${section} page.`));
  }
  if (path.startsWith('/oauth2/')) throw new OAuthError('not_found', `no OAuth route ${method} ${path}`, 404);
  return html(404, messagePage('Not found', `No hosted page at ${path}.`, { error: true }));
}
