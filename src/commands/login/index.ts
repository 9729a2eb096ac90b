/**
 * `sitectl login`: signs the profile in (docs/architecture.md "Profiles and auth"; docs/sign-in.md "The browser sign-in"; docs/sign-in.md).
 *
 * - Browser (default): PKCE (docs/wire.md §23), a one-shot callback server on 127.0.0.1 (random port, or
 *   `--port N` to match a registered redirect URI), an auth redirect session, the URL opened with `$BROWSER`
 *   (as gh does) or the system's opener, the state checked, the code exchanged, tokens stored. `--no-browser`
 *   prints the URL and also accepts the address the browser ended on, pasted on stdin (SSH, containers).
 * - `--device`: the device-code grant (RFC 8628): a code to enter on the device page, polled at the
 *   server's interval (slower after `slow_down`).
 * - `--email ADDRESS --password-stdin`: direct login with every state of docs/wire.md §22 handled (an
 *   e-mail code from `--code` or typed on a terminal, else kept waiting for `auth verify --code-stdin`; owner
 *   approval and captcha explained). `--code` shows in the process list and the shell history: its help says
 *   so, and stdin, which holds the password, cannot carry the code too.
 * - `--client-id ID --client-secret-stdin`: an app's client credentials for CI (admin calls).
 *
 * Every wait ends after `--wait SECONDS` (default 120: 'OAuth flow timed out') or on Ctrl-C. A sign-in that
 * fails (wrong password, denied, timed out, wrong state) exits 4. "Signed in as ..." goes to stderr; stdout
 * stays empty. Tokens are written to the sessions file only (core/sessions.ts).
 */
import { deadline as deadlineOf } from '../../core/deadline.js';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { Option, type Command } from 'commander';
import { redirects, authentication } from '../../api/auth/families.js';
import { createPkce } from '../../api/auth/pkce.js';
import { checkCallback, clientStateOf, type LoginResult } from '../../api/auth/states.js';
import { DEVICE_CODE_GRANT, TokenEndpointError, type TokenReply } from '../../api/auth/tokens.js';
import type { Context } from '../../context.js';
import { clientCredentials } from '../../context-auth.js';
import { AuthError, UserError } from '../../core/errors.js';
import { parseCount, parseDecimal } from '../../core/numbers.js';
import { readSecret } from '../../core/input.js';
import { notice, success } from '../../core/log.js';
import { writeSession } from '../../core/sessions.js';
import { shellWord } from '../../core/invocation.js';
import { oneLine } from '../../core/text.js';
import {
  cliCommand,
  completeWithSessionToken,
  exchangeCode,
  failureWords,
  identityFailure,
  loginCommand,
  readPassword,
  refuseTerminalStdin,
  signInTarget,
  storeMemberTokens,
  tokenFailure,
  visitorClient,
  type SignInTarget,
} from '../auth/shared/session.js';
import { isResult, startCallbackServer } from './callback.js';

/** Longest a sign-in may wait for the person (docs/wire.md §12: 120000 ms). */
export const DEFAULT_WAIT_SEC = 120;
export const TIMED_OUT = 'OAuth flow timed out';

export interface LoginOptions {
  browser: boolean;
  port?: string;
  wait?: string;
  device?: boolean;
  email?: string;
  passwordStdin?: boolean;
  code?: string;
  codeStdin?: boolean;
  clientId?: string;
  clientSecretStdin?: boolean;
}

export function register(cmd: Command, ctx: Context): void {
  cmd
    .option('--no-browser', 'print the sign-in URL instead of opening it, and accept the address the browser ended on, pasted')
    .option('--port <port>', 'port of the local callback server (default: a free one); must match a registered redirect URI')
    .option('--wait <seconds>', `how long to wait for the sign-in (default ${DEFAULT_WAIT_SEC})`)
    .option('--device', 'sign in with a device code entered on a web page (no local callback)')
    .option('--email <address>', "sign in directly with this e-mail (password from stdin: --password-stdin)")
    .option('--password-stdin', 'read the password from stdin (typed hidden on a terminal; with --email)')
    .option('--code <code>', 'the e-mail verification code, when the site asks for one (with --email). Visible in the process list and shell history: on a terminal leave it out to be asked, in scripts finish with: printf %s "$CODE" | sitectl auth verify --code-stdin')
    // Not offered: stdin carries the password. Taken only to say so, and where the code goes instead.
    .addOption(new Option('--code-stdin').hideHelp())
    .option('--client-id <id>', 'OAuth client id of the headless app (default: $SITECTL_CLIENT_ID, or the emulator\'s default app)')
    .option('--client-secret-stdin', "read the app's client secret from stdin: admin client credentials (with --client-id)")
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  sitectl login                                   # opens the sign-in page in your browser',
        '  sitectl login --no-browser                      # prints the URL; paste the address you end on',
        '  sitectl login --device',
        '  printf %s "$PASSWORD" | sitectl login --email ada@example.com --password-stdin',
        '  printf %s "$CLIENT_SECRET" | sitectl login --client-id "$CLIENT_ID" --client-secret-stdin',
      ].join('\n'),
    )
    .action(async (o: LoginOptions) => {
      await run(o, ctx);
    });
}

function parseWait(o: LoginOptions): number {
  if (o.wait === undefined) return DEFAULT_WAIT_SEC;
  return parseDecimal(o.wait, '--wait', { min: 0, max: 3600, unit: 'seconds' });
}

function parsePort(o: LoginOptions): number {
  if (o.port === undefined) return 0;
  return parseCount(o.port, '--port', 1, 65535);
}

/**
 * Checks the flags together before anything is sent.
 * @throws UserError (exit 2) for combinations that make no sense
 */
function checkFlags(o: LoginOptions, ctx: Context): void {
  if (o.codeStdin) {
    throw new UserError("login cannot read the e-mail code from stdin: stdin carries the password (--password-stdin)", `sign in, then, once the code has come: ${verifyCommand(ctx, '"$CODE"')}`);
  }
  if (o.passwordStdin && !o.email) throw new UserError('--password-stdin needs --email', `printf %s "$PASSWORD" | ${loginCommand(ctx, '--email ADDRESS --password-stdin')}`);
  if (o.code !== undefined && !o.email) throw new UserError('--code goes with --email', `to finish a sign-in waiting for its code: ${verifyCommand(ctx, '"$CODE"')}`);
  if (o.clientSecretStdin && !o.clientId) throw new UserError('--client-secret-stdin needs --client-id');
  if (o.clientSecretStdin && (o.email || o.device)) throw new UserError('--client-secret-stdin signs in an app: it does not go with --email or --device');
  if (o.device && o.email) throw new UserError('--device and --email are two ways to sign in: pick one');
  if (o.port !== undefined && (o.device || o.email || o.clientSecretStdin)) throw new UserError('--port is for the browser sign-in only');
  if (o.email && !o.passwordStdin) throw new UserError('--email needs --password-stdin (a password is never taken from the command line)', `printf %s "$PASSWORD" | ${loginCommand(ctx, '--email ADDRESS --password-stdin')}`);
  if (o.email && /\s/.test(o.email.trim())) throw new UserError(`'${o.email}' is not an e-mail address`);
}

/**
 * `printf %s CODE | sitectl auth verify --code-stdin` with this command's `--profile` and `--site`: where a
 * sign-in waiting for its code is finished (the pending sign-in is kept for that profile on that site).
 */
export function verifyCommand(ctx: Pick<Context, 'bin' | 'flags'>, code = 'CODE'): string {
  return `printf %s ${code} | ${cliCommand(ctx, 'auth verify --code-stdin')}`;
}

/** Runs `sitectl login`. @throws AuthError (exit 4) for a sign-in that fails; UserError (exit 2) for bad flags */
export async function run(o: LoginOptions, ctx: Context): Promise<void> {
  checkFlags(o, ctx);
  const waitSec = parseWait(o);
  const port = parsePort(o);
  const secretExample = `printf %s "$CLIENT_SECRET" | ${loginCommand(ctx, '--client-id ID --client-secret-stdin')}`;
  const secret = o.clientSecretStdin ? await readClientSecret(ctx, secretExample) : undefined;
  if (o.clientSecretStdin && !secret) throw new UserError('no client secret on stdin', secretExample);
  const password = o.passwordStdin ? await readPassword(ctx, 'Password:', `printf %s "$PASSWORD" | ${loginCommand(ctx, `--email ${shellWord(o.email?.trim() ?? 'ADDRESS')} --password-stdin`)}`) : undefined;
  const target = await signInTarget(ctx, { clientId: o.clientId });
  const wait = deadlineOf(ctx.signal, waitSec * 1000);
  const deadline = wait.signal;
  const timedOut = () => !ctx.signal.aborted && wait.timedOut();
  try {
    if (secret !== undefined) return await appLogin(ctx, target, secret);
    let who: { id: string; loginEmail?: string };
    if (o.email) who = await directLogin(ctx, target, o.email.trim(), password!, o.code);
    else if (o.device) who = await deviceLogin(ctx, target, o.browser, deadline);
    else who = await browserLogin(ctx, target, { port, browser: o.browser, deadline });
    success(ctx.io, `Signed in as ${oneLine(who.loginEmail ?? who.id)} (member ${who.id}) on ${target.label}`);
  } catch (err) {
    if (timedOut()) throw new AuthError(TIMED_OUT, `sign in within ${waitSec} s, or give more time with --wait SECONDS`);
    throw err;
  } finally {
    wait.dispose();
  }
}

/**
 * The app's client secret of `--client-secret-stdin`: typed hidden on a terminal, else all of stdin without its
 * final newline; refused on a terminal where no prompt may be drawn (it would be read silently, echoed).
 * @throws UserError (exit 2) for such a terminal
 */
async function readClientSecret(ctx: Context, example: string): Promise<string> {
  refuseTerminalStdin(ctx, '--client-secret-stdin', "the app's client secret", example);
  if (ctx.io.isStdinTTY) return ctx.prompter.secret('Client secret:', { what: "typing the app's client secret", flag: '--client-secret-stdin with the secret piped in' });
  return (await readSecret('--client-secret-stdin', ctx.io.stdin)).replace(/\r?\n$/, '');
}

/**
 * Admin client credentials (the SDK's AppStrategy body, with the profile's instance id: `profile add
 * --instance-id`, SITECTL_INSTANCE_ID), kept with the profile itself: they are its admin credential whatever
 * site `--site` picks (as an API key is).
 */
async function appLogin(ctx: Context, target: SignInTarget, clientSecret: string): Promise<void> {
  let reply: TokenReply;
  try {
    reply = await target.endpoint.token(clientCredentials(target.clientId, clientSecret, target.profile.instanceId), ctx.signal);
  } catch (err) {
    return tokenFailure(err, ctx);
  }
  const expiresAt = Math.floor(ctx.now().getTime() / 1000) + reply.expires_in;
  writeSession(ctx.env, target.profile.name, (s) => ({ ...s, baseUrl: target.baseUrl, admin: { clientId: target.clientId, clientSecret, accessToken: reply.access_token, expiresAt } }));
  success(ctx.io, `Signed in as app ${target.clientId} (admin) on profile '${target.profile.name}'`);
}

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

async function browserLogin(ctx: Context, target: SignInTarget, opts: { port: number; browser: boolean; deadline: AbortSignal }) {
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

async function deviceLogin(ctx: Context, target: SignInTarget, browser: boolean, deadline: AbortSignal) {
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

/** Where a code went, in words: `ada@example.com`, `SMS to ••• 1234`, `a phone call to ••• 1234`. */
export function codeDestination(email: string, factor?: { factorType: 'SMS' | 'CALL'; hint?: string }): string {
  if (!factor) return email;
  const phone = factor.hint ? ` to ${oneLine(factor.hint)}` : '';
  return factor.factorType === 'SMS' ? `by SMS${phone}` : `by a phone call${phone}`;
}

/** Reads a code (e-mail, SMS or call) on the terminal. @throws AuthError when there is none to ask on */
async function askCode(ctx: Context, where: string): Promise<string> {
  if (!ctx.io.canPrompt()) {
    throw new AuthError(`this site sent a verification code ${where.startsWith('by ') ? where : `to ${where}`}`, `finish with: ${verifyCommand(ctx)}`);
  }
  const code = await ctx.prompter.secret(`Verification code sent ${where.startsWith('by ') ? where : `to ${where}`}:`, { what: 'typing the code', flag: '--code' });
  if (!code) throw new AuthError('no verification code entered', `finish with: ${cliCommand(ctx, 'auth verify')}`);
  return code;
}

/** The states of docs/wire.md §22 after a login or registration, until signed in. @returns the member */
export async function settle(ctx: Context, target: SignInTarget, email: string, result: LoginResult, code?: string): Promise<{ id: string; loginEmail?: string }> {
  let r = result;
  let given = code;
  for (;;) {
    switch (r.loginState) {
      case 'SUCCESS':
        return completeWithSessionToken(ctx, target, r.sessionToken);
      case 'OWNER_APPROVAL_REQUIRED':
        throw new AuthError(`the account ${email} is waiting for the site owner's approval`, `the owner approves it with '${cliCommand(ctx, 'members approve ID')}'; then sign in again`);
      case 'EMAIL_VERIFICATION_REQUIRED':
      case 'MFA_CHALLENGE': {
        // Kept first, so `auth verify` can finish the sign-in when the code given or typed here is refused.
        const stateToken = r.stateToken;
        const factor = r.loginState === 'MFA_CHALLENGE' ? { factorType: r.factorType, ...(r.hint ? { hint: r.hint } : {}) } : undefined;
        target.write((s) => ({ ...s, clientId: target.clientId, baseUrl: target.baseUrl, pending: { stateToken, email, clientId: target.clientId, ...factor } }));
        const entered = given ?? (await askCode(ctx, codeDestination(email, factor)));
        given = undefined;
        const { verification } = await import('../../api/auth/families.js');
        const api = await visitorClient(ctx, target);
        try {
          // An e-mail code by the verification service (as the SDK's OAuth strategy sends it); a second factor's
          // by the identity service's factor verify (`POST /v2/{factorType}/verify`, docs/wire.md §22).
          const data = { code: entered };
          r = clientStateOf(
            factor
              ? await authentication.verify(api, { factorType: factor.factorType, stateToken, ...(factor.factorType === 'SMS' ? { smsData: data } : { callData: data }) }, { signal: ctx.signal })
              : await verification.verifyDuringAuthentication(api, { code: entered, stateToken }, { signal: ctx.signal }),
          );
        } catch (err) {
          const { ApplicationError } = await import('../../api/errors.js');
          if (err instanceof ApplicationError && (err.code === 'VERIFICATION_FAILED' || err.code === 'NOT_FOUND')) {
            const ended = (err.data as { reason?: unknown } | undefined)?.reason === 'TOO_MANY_ATTEMPTS';
            if (err.code === 'VERIFICATION_FAILED' && !ended) throw new AuthError('the verification code is not correct', `try again: ${verifyCommand(ctx)}`);
            throw new AuthError('the verification request has expired, or ended after too many wrong codes', `sign in again: ${loginCommand(ctx, `--email ${shellWord(email)} --password-stdin`)}`);
          }
          throw err;
        } finally {
          await api.close();
        }
        break;
      }
      default:
        throw failureWords(r, ctx, email);
    }
  }
}

async function directLogin(ctx: Context, target: SignInTarget, email: string, password: string, code: string | undefined) {
  const api = await visitorClient(ctx, target);
  let result: LoginResult;
  try {
    result = clientStateOf(await authentication.loginV2(api, { loginId: { email }, password }, { signal: ctx.signal }));
  } catch (err) {
    result = identityFailure(err, 'login');
  } finally {
    await api.close();
  }
  return settle(ctx, target, email, result, code);
}
