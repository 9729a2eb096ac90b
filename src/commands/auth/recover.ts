/**
 * `sitectl auth recover --email ADDRESS`: asks the site to send a password recovery link (the platform says
 * nothing about whether the address has an account, and neither does this). `sitectl auth recover --token-stdin
 * --password-stdin` sets a new password with the token of that link: stdin's first line is the token, the rest
 * the new password (on a terminal both are asked, hidden). `--token TOKEN` still works but shows the token in the
 * process list and the shell history (docs/architecture.md "Profiles and auth": secrets never in argv), and its help says so. On the emulator
 * the link is in the outbox (`sitectl emulator mail --to ADDRESS`).
 */
import type { Command } from 'commander';
import { recovery } from '../../api/auth/families.js';
import type { Context } from '../../context.js';
import { AuthError, UserError } from '../../core/errors.js';
import { readSecret } from '../../core/input.js';
import { notice, success } from '../../core/log.js';
import { readPassword, refuseTerminalStdin, signInTarget, visitorClient } from './shared/session.js';

const TOKEN_EXAMPLE = `printf '%s\\n%s' "$TOKEN" "$NEW_PASSWORD" | sitectl auth recover --token-stdin --password-stdin`;

interface RecoverOptions {
  email?: string;
  token?: string;
  tokenStdin?: boolean;
  passwordStdin?: boolean;
  clientId?: string;
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command('recover')
    .description('Send a password recovery link, or set a new password with the token of one')
    .option('--email <address>', 'send a recovery link to this login e-mail')
    .option('--token-stdin', "read the recovery token from stdin's first line, the new password from the rest (with --password-stdin; asked hidden on a terminal)")
    .option('--token <token>', 'the recovery token from the link (with --password-stdin). Visible in the process list and shell history: scripts should use --token-stdin')
    .option('--password-stdin', 'read the new password from stdin (with --token-stdin or --token; typed hidden on a terminal)')
    .option('--client-id <id>', 'OAuth client id (default: $SITECTL_CLIENT_ID, or the emulator\'s default app)')
    .addHelpText('after', `\nExamples:\n  sitectl auth recover --email ada@example.com\n  ${TOKEN_EXAMPLE}\n  sitectl auth recover --token-stdin --password-stdin   # on a terminal: token and password asked, hidden`)
    .action(async (o: RecoverOptions) => {
      await run(o, ctx);
    });
}

/**
 * The recovery token and the new password of `--token-stdin --password-stdin`: asked hidden on a terminal, else
 * stdin's first line and the rest (without its final newline). Refused on a terminal where no prompt may be
 * drawn (it would be read silently, echoed).
 * @throws UserError (exit 2) when either is missing, or stdin is such a terminal
 */
async function readTokenAndPassword(ctx: Context): Promise<{ token: string; password: string }> {
  let token: string;
  let password: string;
  refuseTerminalStdin(ctx, '--token-stdin', 'the recovery token and the new password', TOKEN_EXAMPLE);
  if (ctx.io.isStdinTTY) {
    token = await ctx.prompter.secret('Recovery token (from the link):', { what: 'typing the recovery token', flag: '--token-stdin with the token and password piped in' });
    password = await readPassword(ctx, 'New password:', TOKEN_EXAMPLE);
  } else {
    const text = await readSecret('--token-stdin', ctx.io.stdin);
    const nl = text.indexOf('\n');
    token = nl < 0 ? text : text.slice(0, nl);
    password = nl < 0 ? '' : text.slice(nl + 1).replace(/\r?\n$/, '');
  }
  token = token.trim();
  if (!token) throw new UserError('no recovery token on stdin', TOKEN_EXAMPLE);
  if (!password) throw new UserError('no new password on stdin (after the token line)', TOKEN_EXAMPLE);
  return { token, password };
}

export async function run(o: RecoverOptions, ctx: Context): Promise<void> {
  if (o.token !== undefined && o.tokenStdin) throw new UserError('--token and --token-stdin both give the token: use one (--token-stdin keeps it out of the process list)', TOKEN_EXAMPLE);
  const byToken = o.token !== undefined || !!o.tokenStdin;
  if (!!o.email === byToken) throw new UserError('give --email (send a link) or --token-stdin with --password-stdin (set a new password)', TOKEN_EXAMPLE);
  if (byToken && !o.passwordStdin) throw new UserError(`${o.tokenStdin ? '--token-stdin' : '--token'} needs --password-stdin (a password is never taken from the command line)`, TOKEN_EXAMPLE);
  let token = o.token;
  let password: string | undefined;
  if (o.tokenStdin) ({ token, password } = await readTokenAndPassword(ctx));
  else if (byToken) password = await readPassword(ctx, 'New password:', 'printf %s "$NEW_PASSWORD" | sitectl auth recover --token TOKEN --password-stdin');
  const target = await signInTarget(ctx, { clientId: o.clientId });
  const api = await visitorClient(ctx, target);
  try {
    if (o.email) {
      await recovery.sendRecoveryEmail(api, { email: o.email.trim(), redirect: { clientId: target.clientId } }, { signal: ctx.signal });
      notice(ctx.io, `If an account signs in with ${o.email.trim()}, a recovery link is on its way.`);
      if (target.profile.name === 'local') notice(ctx.io, `The emulator keeps it in its outbox: ${ctx.bin} emulator mail --to ${o.email.trim()}`);
      return;
    }
    try {
      await recovery.recover(api, { recoveryToken: token!, password: password! }, { signal: ctx.signal });
    } catch (err) {
      const { ApplicationError } = await import('../../api/errors.js');
      if (err instanceof ApplicationError && err.code === 'INVALID_RECOVERY_TOKEN') throw new AuthError('the recovery token is not valid, was used, or has expired', `ask for a new link: ${ctx.bin} auth recover --email ADDRESS`);
      throw err;
    }
    success(ctx.io, `Password changed. Sign in with: ${ctx.bin} login`);
  } finally {
    await api.close();
  }
}
