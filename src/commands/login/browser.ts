/**
 * The two sign-ins of `sitectl login` that a person finishes in a browser (docs/sign-in.md "The browser sign-in"):
 * the PKCE redirect with a one-shot callback server (callback.ts), or the address the browser ended on pasted on
 * stdin; and the device-code grant (RFC 8628), polled at the server's interval. Both end when `deadline` aborts.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { redirects } from '../../api/auth/families.js';
import { createPkce } from '../../api/auth/pkce.js';
import { checkCallback } from '../../api/auth/states.js';
import { DEVICE_CODE_GRANT, TokenEndpointError } from '../../api/auth/tokens.js';
import type { Context } from '../../context.js';
import { AuthError, UserError } from '../../core/errors.js';
import { notice } from '../../core/log.js';
import { oneLine } from '../../core/text.js';
import { exchangeCode, loginCommand, storeMemberTokens, tokenFailure, visitorClient, type SignInTarget } from '../auth/shared/session.js';
import { isResult, startCallbackServer } from './callback.js';

/** Opens `url` with `$BROWSER` (a command, the URL appended), else the system opener. @returns false on failure */
async function openUrl(ctx: Context, url: string): Promise<boolean> {
  const browser = ctx.env.BROWSER?.trim();
  try {
    if (browser) {
      const [cmd, ...args] = browser.split(/\s+/);
      const child = spawn(cmd!, [...args, url], { stdio: 'ignore', detached: true, env: ctx.env });
      await new Promise<void>((resolve, reject) => {
        child.once('error', reject);
        child.once('spawn', resolve);
      });
      child.unref();
      return true;
    }
    const { default: open } = await import('open');
    const child = await open(url);
    child.once('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** The longest line taken as a pasted address (an address is far shorter; a secret's limit, core/input.ts). */
const PASTED_LINE_LIMIT = 64 * 1024;

/** Lines typed or piped on stdin, as sign-in results (an address with `code`/`state` in its query or fragment). */
function pastedResults(ctx: Context, signal: AbortSignal): { result: Promise<URLSearchParams>; close(): void } {
  const rl = createInterface({ input: ctx.io.stdin, terminal: false });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    rl.close();
    if (!ctx.io.isStdinTTY) (ctx.io.stdin as { destroy?: () => void }).destroy?.();
  };
  signal.addEventListener('abort', close, { once: true });
  const result = new Promise<URLSearchParams>((resolve, reject) => {
    // readline keeps a line until its newline: an endless line (`< /dev/zero`) is refused past the limit instead.
    let unended = 0;
    ctx.io.stdin.on('data', (chunk: Buffer | string) => {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('latin1');
      const nl = text.lastIndexOf('\n');
      unended = nl === -1 ? unended + text.length : text.length - nl - 1;
      if (unended > PASTED_LINE_LIMIT) {
        close();
        reject(new UserError(`the pasted line is longer than ${PASTED_LINE_LIMIT / 1024} KiB`, 'paste only the address the browser ended on'));
      }
    });
    rl.on('line', (line) => {
      const text = line.trim();
      if (!text) return;
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        ctx.io.stderr.write('That is not an address. Paste the whole address from the browser, starting with http.\n');
        return;
      }
      const params = url.hash.length > 1 ? new URLSearchParams(url.hash.slice(1)) : url.searchParams;
      if (!isResult(params)) {
        ctx.io.stderr.write('That address holds no sign-in result (no code or error). Paste the address the browser ended on.\n');
        return;
      }
      resolve(params);
    });
  });
  return { result, close };
}

/** Rejects when `signal` aborts (the deadline or Ctrl-C), with its reason. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

export async function browserLogin(ctx: Context, target: SignInTarget, opts: { port: number; browser: boolean; deadline: AbortSignal }) {
  const pkce = createPkce();
  let server;
  try {
    server = await startCallbackServer(opts.port, pkce.state);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`cannot listen on 127.0.0.1:${opts.port}: ${code ?? (err as Error).message}`, code === 'EADDRINUSE' ? 'the port is taken: pick another with --port, or leave it out' : undefined);
  }
  let pasted: ReturnType<typeof pastedResults> | undefined;
  try {
    const api = await visitorClient(ctx, target);
    let fullUrl: string;
    try {
      const r = await redirects.createRedirectSession(
        api,
        {
          auth: {
            authRequest: {
              clientId: target.clientId,
              redirectUri: server.redirectUri,
              codeChallenge: pkce.codeChallenge,
              codeChallengeMethod: 'S256',
              responseMode: 'fragment',
              responseType: 'code',
              scope: 'offline_access',
              state: pkce.state,
            },
            prompt: 'login',
          },
        },
        { signal: ctx.signal },
      );
      fullUrl = r.redirectSession.fullUrl;
    } finally {
      await api.close();
    }
    if (opts.browser && (await openUrl(ctx, fullUrl))) {
      notice(ctx.io, `Opened the sign-in page in your browser. If it did not open, visit:\n  ${fullUrl}`);
    } else {
      notice(ctx.io, `Open this address in a browser to sign in:\n  ${fullUrl}`);
      notice(ctx.io, `Waiting for the sign-in. If the browser is on another machine, paste the address it ends on here and press Enter:`);
      pasted = pastedResults(ctx, opts.deadline);
    }
    const params = await Promise.race([server.result, ...(pasted ? [pasted.result] : []), aborted(opts.deadline)]);
    const error = params.get('error');
    if (error && params.get('state') === pkce.state) throw new AuthError(`the sign-in was not completed: ${oneLine(params.get('error_description') ?? error)} (${error})`, `try again: ${loginCommand(ctx)}`);
    let code: string;
    try {
      code = checkCallback({ code: params.get('code'), state: params.get('state') }, pkce.state);
    } catch (err) {
      throw new AuthError(`the sign-in was refused: ${(err as Error).message}`, `the answer did not belong to this sign-in; start again: ${loginCommand(ctx)}`);
    }
    let who: { id: string; loginEmail?: string };
    try {
      who = await exchangeCode(ctx, target, code, server.redirectUri, pkce.codeVerifier);
    } catch (err) {
      // The tab waits for the exchange: it says the sign-in failed (a user error's one line; the terminal has the rest).
      const line = err instanceof UserError ? oneLine(err.message) : 'the sign-in could not be completed';
      await server.finish({ failed: `${line.charAt(0).toUpperCase()}${line.slice(1)}` });
      throw err;
    }
    // A site known by its id only is not named: an id means nothing on the page.
    const site = target.site && target.site.name !== target.site.id ? target.site.name : undefined;
    await server.finish({ signedIn: { who: who.loginEmail ?? who.id, site } });
    return who;
  } finally {
    pasted?.close();
    await server.close();
  }
}

export async function deviceLogin(ctx: Context, target: SignInTarget, browser: boolean, deadline: AbortSignal) {
  let start;
  try {
    start = await target.endpoint.deviceCode(target.clientId, ctx.signal);
  } catch (err) {
    return tokenFailure(err, ctx);
  }
  notice(ctx.io, `First copy your one-time code: ${start.userCode}`);
  // The complete URI (RFC 8628 section 3.3.1) carries the code, so the page opens with it filled in.
  const url = start.verificationUriComplete ?? start.verificationUri;
  const complete = url !== start.verificationUri;
  if (browser && (await openUrl(ctx, url))) notice(ctx.io, `Opened the device sign-in page in your browser: check the code, sign in and approve. If it did not open, visit:\n  ${url}`);
  else notice(ctx.io, `Open this address in a browser${complete ? ', check the code' : ' and enter the code'}, sign in and approve:\n  ${url}`);
  let interval = Math.max(1, start.interval);
  const expires = ctx.now().getTime() + start.expiresIn * 1000;
  for (;;) {
    await sleep(interval * 1000, undefined, { signal: deadline });
    try {
      const reply = await target.endpoint.token({ grantType: DEVICE_CODE_GRANT, clientId: target.clientId, deviceCode: start.deviceCode }, deadline);
      return await storeMemberTokens(ctx, target, reply);
    } catch (err) {
      if (!(err instanceof TokenEndpointError)) throw err;
      if (err.error === 'authorization_pending') continue;
      if (err.error === 'slow_down') {
        interval += 5;
        continue;
      }
      if (err.error === 'access_denied') throw new AuthError('the sign-in was denied on the device page', `try again: ${loginCommand(ctx, '--device')}`);
      if (err.error === 'expired_token' || ctx.now().getTime() > expires) throw new AuthError('the device code expired before it was approved', `try again: ${loginCommand(ctx, '--device')}`);
      return tokenFailure(err, ctx);
    }
  }
}
