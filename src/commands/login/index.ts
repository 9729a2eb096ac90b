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
 *
 * This file holds the flags, their checks and the app sign-in; the browser and device sign-ins are in browser.ts
 * (its callback server in callback.ts), the direct one and the login states after it in direct.ts.
 */
import { Option, type Command } from 'commander';
import type { TokenReply } from '../../api/auth/tokens.js';
import type { Context } from '../../context.js';
import { clientCredentials } from '../../context-auth.js';
import { deadline as deadlineOf } from '../../core/deadline.js';
import { AuthError, UserError } from '../../core/errors.js';
import { readSecret } from '../../core/input.js';
import { shellWord } from '../../core/invocation.js';
import { success } from '../../core/log.js';
import { parseCount, parseDecimal } from '../../core/numbers.js';
import { writeSession } from '../../core/sessions.js';
import { oneLine } from '../../core/text.js';
import { loginCommand, readPassword, refuseTerminalStdin, signInTarget, tokenFailure, type SignInTarget } from '../auth/shared/session.js';
import { browserLogin, deviceLogin } from './browser.js';
import { directLogin, verifyCommand } from './direct.js';

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
