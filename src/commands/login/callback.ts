/**
 * The one-shot callback server of a browser sign-in (RFC 8252 section 7.3; docs/sign-in.md "The browser sign-in"): HTTP on
 * 127.0.0.1 only, a random port unless one is given, one path (`/callback`). It answers one sign-in result and
 * closes: the first request carrying `code`, `state` or `error` ends it. A browser never sends a URL's fragment
 * to a server, so a request without a query gets a small page whose script moves the fragment into the query
 * (`/callback#code=..&state=..` -> `/callback?code=..&state=..`); the state is checked against the one issued
 * (a wrong or missing state is refused with 400 and ends the sign-in: docs/wire.md §23 'Invalid _state',
 * 'Missing code or _state').
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INVALID_STATE, MISSING_CODE_OR_STATE } from '../../api/auth/states.js';

/** The parameters of a sign-in result: `code` and `state`, or `error` and `error_description`. */
export type CallbackParams = URLSearchParams;

export interface CallbackServer {
  /** `http://127.0.0.1:<port>/callback` */
  redirectUri: string;
  port: number;
  /** The first result that arrived (the server is closed by then). */
  result: Promise<CallbackParams>;
  close(): Promise<void>;
}

/** Escapes text for HTML. */
function esc(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A small page for the browser tab the sign-in ends in (`body` is HTML already escaped). */
function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:420px;margin:64px auto;color:#1c1d22}.error{background:#fdecec;color:#a61b1b;padding:10px 12px;border-radius:8px}.info{background:#eaf2ff;color:#1d3f8f;padding:10px 12px;border-radius:8px}.sub{color:#5c6070}</style>
</head><body>${body}</body></html>`;
}

const RELAY = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>sitectl sign-in</title></head><body>
<p id="m">Completing the sign-in…</p>
<script>
if (location.hash.length > 1) location.replace('/callback?' + location.hash.slice(1));
else document.getElementById('m').textContent = 'This address holds no sign-in result.';
</script></body></html>`;

/** True when `params` carries a sign-in result (not an empty relay request). */
export function isResult(params: URLSearchParams): boolean {
  return params.has('code') || params.has('state') || params.has('error');
}

/**
 * Listens on 127.0.0.1:`port` (0: any free port).
 * @throws the listen error (EADDRINUSE when `port` is taken, EACCES for a privileged one)
 */
export async function startCallbackServer(port: number, expectedState: string): Promise<CallbackServer> {
  let resolveResult!: (p: CallbackParams) => void;
  const result = new Promise<CallbackParams>((resolve) => (resolveResult = resolve));
  let answered = false;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const reply = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      res.end(body);
    };
    if (req.method !== 'GET' || url.pathname !== '/callback') return reply(404, page('Not found', '<h1>Not found</h1>'));
    if (answered) return reply(410, page('Already answered', '<h1>Sign-in already completed</h1><p class="sub">Return to your terminal.</p>'));
    if (!isResult(url.searchParams)) return reply(200, RELAY);
    answered = true;
    const p = url.searchParams;
    const error = p.get('error');
    if (!p.get('state') || (!p.get('code') && !error)) reply(400, page('Sign-in failed', `<h1>Sign-in failed</h1><div class="error">${esc(MISSING_CODE_OR_STATE)}</div>`));
    else if (p.get('state') !== expectedState) reply(400, page('Sign-in failed', `<h1>Sign-in failed</h1><div class="error">${esc(INVALID_STATE)}</div><p class="sub">This answer was not for the sign-in your terminal started.</p>`));
    else if (error) reply(200, page('Sign-in canceled', `<h1>Sign-in not completed</h1><div class="error">${esc(p.get('error_description') ?? error)}</div><p class="sub">Return to your terminal.</p>`));
    else reply(200, page('Signed in', '<h1>Signed in</h1><div class="info">You are signed in to sitectl.</div><p class="sub">You can close this window and return to your terminal.</p>'));
    resolveResult(p);
    server.close();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    port: actual,
    redirectUri: `http://127.0.0.1:${actual}/callback`,
    result,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
