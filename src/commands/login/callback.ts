/**
 * The one-shot callback server of a browser sign-in (RFC 8252 section 7.3; docs/sign-in.md "The browser sign-in"): HTTP on
 * 127.0.0.1 only, a random port unless one is given, one path (`/callback`). It answers one sign-in result and
 * closes: the first request carrying `code`, `state` or `error` ends it. A browser never sends a URL's fragment
 * to a server, so a request without a query gets a small page whose script moves the fragment into the query
 * (`/callback#code=..&state=..` -> `/callback?code=..&state=..`); the state is checked against the one issued
 * (a wrong or missing state is refused with 400 and ends the sign-in: docs/wire.md §23 'Invalid _state',
 * 'Missing code or _state'). A code with the right state is answered once the CLI has exchanged it
 * ({@link CallbackServer.finish}), so the tab says who signed in, or why the sign-in failed.
 *
 * The pages look like the hosted pages before them (api/hosted-page.ts): the same card, a viewport tag for a phone.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { esc, hostedPage } from '../../api/hosted-page.js';
import { INVALID_STATE, MISSING_CODE_OR_STATE } from '../../api/auth/states.js';

/** The parameters of a sign-in result: `code` and `state`, or `error` and `error_description`. */
export type CallbackParams = URLSearchParams;

/** How the sign-in ended, for the browser tab: who signed in (e-mail or member id) and on which site, or why not (one line). */
export type SignInOutcome = { signedIn: { who: string; site?: string } } | { failed: string };

export interface CallbackServer {
  /** `http://127.0.0.1:<port>/callback` */
  redirectUri: string;
  port: number;
  /** The first result that arrived (the server is closed by then). */
  result: Promise<CallbackParams>;
  /**
   * Answers the browser tab that brought a code with the right state, which waits for this: the signed-in page
   * naming who signed in, or the failure. Nothing to do when no tab waits (an error result, answered at once;
   * an address pasted on the terminal). @returns once the page is sent
   */
  finish(outcome: SignInOutcome): Promise<void>;
  /** Closes the server; a tab still waiting is told the sign-in did not finish. */
  close(): Promise<void>;
}

/** A page of the sign-in's end, in the hosted pages' look (`body` is HTML already escaped). */
function page(title: string, body: string): string {
  return hostedPage(title, body, 'sitectl: sign-in');
}

const RELAY = page(
  'Completing the sign-in',
  `<h1>Signing in</h1><p class="sub" id="m">Completing the sign-in…</p>
<script>
if (location.hash.length > 1) location.replace('/callback?' + location.hash.slice(1));
else document.getElementById('m').textContent = 'This address holds no sign-in result.';
</script>`,
);

const BACK = '<p class="sub">You can close this tab and return to your terminal.</p>';

/** The page of an outcome. */
function outcomePage(o: SignInOutcome): { status: number; body: string } {
  if ('signedIn' in o) {
    const where = o.signedIn.site ? ` to ${esc(o.signedIn.site)}` : '';
    return { status: 200, body: page('Signed in', `<h1>Signed in</h1><div class="done" role="status">sitectl is signed in${where} as <strong>${esc(o.signedIn.who)}</strong>.</div>${BACK}`) };
  }
  return { status: 400, body: page('Sign-in failed', `<h1>Sign-in failed</h1><div class="error" role="alert">${esc(o.failed)}</div><p class="sub">Your terminal says what to do next. You can close this tab.</p>`) };
}

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
  /** The tab that brought the code, waiting for the outcome of its exchange. */
  let waiting: ServerResponse | undefined;
  const send = (res: ServerResponse, status: number, body: string, last = false) =>
    new Promise<void>((resolve) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', ...(last ? { connection: 'close' } : {}) });
      // Sent, or the tab went away first: either ends the wait.
      res.once('close', () => resolve());
      res.end(body, () => resolve());
    });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const reply = (status: number, body: string) => void send(res, status, body);
    if (req.method !== 'GET' || url.pathname !== '/callback') return reply(404, page('Not found', '<h1>Not found</h1><p class="sub">This address is only for the end of a sitectl sign-in.</p>'));
    if (answered) return reply(410, page('Already answered', `<h1>Sign-in already completed</h1>${BACK}`));
    if (!isResult(url.searchParams)) return reply(200, RELAY);
    answered = true;
    const p = url.searchParams;
    const error = p.get('error');
    const failed = (message: string, more = '') => reply(400, page('Sign-in failed', `<h1>Sign-in failed</h1><div class="error" role="alert">${esc(message)}</div>${more}`));
    if (!p.get('state') || (!p.get('code') && !error)) failed(MISSING_CODE_OR_STATE);
    else if (p.get('state') !== expectedState) failed(INVALID_STATE, '<p class="sub">This answer was not for the sign-in your terminal started.</p>');
    else if (error) reply(200, page('Sign-in canceled', `<h1>Sign-in not completed</h1><div class="error" role="alert">${esc(p.get('error_description') ?? error)}</div>${BACK}`));
    // The code is exchanged first: the answer names who signed in (finish).
    else waiting = res;
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
  const finish = async (outcome: SignInOutcome) => {
    const res = waiting;
    waiting = undefined;
    if (!res || res.writableEnded || res.destroyed) return;
    const { status, body } = outcomePage(outcome);
    await send(res, status, body, true);
  };
  return {
    port: actual,
    redirectUri: `http://127.0.0.1:${actual}/callback`,
    result,
    finish,
    close: async () => {
      await finish({ failed: 'The sign-in did not finish.' });
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
