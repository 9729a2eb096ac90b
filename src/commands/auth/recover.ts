/**
 * `sitectl auth recover --email ADDRESS`: asks the site to send a password recovery link (the platform says
 * nothing about whether the address has an account, and neither does this). `sitectl auth recover --token
 * TOKEN --password-stdin` sets a new password with the token of that link. On the emulator the link is in
 * the outbox (`sitectl emulator mail --to ADDRESS`).
 */
import type { Command } from 'commander';
import { recovery } from '../../api/auth/families.js';
import type { Context } from '../../context.js';
import { AuthError, UserError } from '../../core/errors.js';
import { notice, success } from '../../core/log.js';
import { readPassword, signInTarget, visitorClient } from './shared/session.js';

interface RecoverOptions {
  email?: string;
  token?: string;
  passwordStdin?: boolean;
  clientId?: string;
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command('recover')
    .description('Send a password recovery link, or set a new password with the token of one')
    .option('--email <address>', 'send a recovery link to this login e-mail')
    .option('--token <token>', 'the recovery token from the link (with --password-stdin)')
    .option('--password-stdin', 'read the new password from stdin (with --token)')
    .option('--client-id <id>', 'OAuth client id (default: $SITECTL_CLIENT_ID, or the emulator\'s default app)')
    .addHelpText('after', '\nExamples:\n  sitectl auth recover --email ada@example.com\n  printf %s "$NEW_PASSWORD" | sitectl auth recover --token "$TOKEN" --password-stdin')
    .action(async (o: RecoverOptions) => {
      await run(o, ctx);
    });
}

export async function run(o: RecoverOptions, ctx: Context): Promise<void> {
  if (!!o.email === !!o.token) throw new UserError('give --email (send a link) or --token with --password-stdin (set a new password)');
  if (o.token && !o.passwordStdin) throw new UserError('--token needs --password-stdin');
  const password = o.token ? await readPassword(ctx, 'New password:', 'printf %s "$NEW_PASSWORD" | sitectl auth recover --token TOKEN --password-stdin') : undefined;
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
      await recovery.recover(api, { recoveryToken: o.token!, password: password! }, { signal: ctx.signal });
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
