/**
 * `sitectl auth register --email ADDRESS --password-stdin [--name NAME] [--code CODE]`: creates an account
 * (an identity and a site member) and signs in as it, through the states of docs/wire.md §22 (owner approval
 * explained, an e-mail code asked on a terminal or given with --code). Registration errors as docs/wire.md §22 names them (invalid e-mail, e-mail exists, captcha): an e-mail address or a password the site does not
 * take is bad input (exit 2); any other refusal, or not being signed in at the end, exits 4. `--site` registers on
 * that site of the account (its own OAuth app on the local emulator). `--code` shows in the process list and the
 * shell history: its help says so (as login's does); stdin carries the password, so `--code-stdin` is refused with
 * the way to finish instead (`auth verify --code-stdin`).
 */
import { Option, type Command } from 'commander';
import { authentication } from '../../api/auth/families.js';
import { clientStateOf, type LoginResult } from '../../api/auth/states.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { oneLine } from '../../core/text.js';
import { settle, verifyCommand } from '../login/direct.js';
import { cliCommand, failureWords, identityFailure, readPassword, signInTarget, visitorClient } from './shared/session.js';

interface RegisterOptions {
  email: string;
  passwordStdin?: boolean;
  name?: string;
  code?: string;
  codeStdin?: boolean;
  clientId?: string;
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command('register')
    .description('Create an account on the site (a member) and sign in as it')
    .requiredOption('--email <address>', 'the login e-mail')
    .option('--password-stdin', 'read the password from stdin (typed hidden on a terminal)')
    .option('--name <name>', 'the member\'s display name')
    .option('--code <code>', 'the e-mail verification code, when the site asks for one. Visible in the process list and shell history: on a terminal leave it out to be asked, in scripts finish with: printf %s "$CODE" | sitectl auth verify --code-stdin')
    // Not offered: stdin carries the password. Taken only to say so, and where the code goes instead.
    .addOption(new Option('--code-stdin').hideHelp())
    .option('--client-id <id>', 'OAuth client id (default: $SITECTL_CLIENT_ID, or the emulator\'s default app)')
    .addHelpText('after', '\nExample:\n  printf %s "$PASSWORD" | sitectl auth register --email ada@example.com --password-stdin --name "Ada"')
    .action(async (o: RegisterOptions) => {
      await run(o, ctx);
    });
}

export async function run(o: RegisterOptions, ctx: Context): Promise<void> {
  if (o.codeStdin) {
    throw new UserError('auth register cannot read the e-mail code from stdin: stdin carries the password (--password-stdin)', `register, then, once the code has come: ${verifyCommand(ctx, '"$CODE"')}`);
  }
  const example = `printf %s "$PASSWORD" | ${cliCommand(ctx, 'auth register --email ADDRESS --password-stdin')}`;
  if (!o.passwordStdin) throw new UserError('auth register needs --password-stdin (a password is never taken from the command line)', example);
  const email = o.email.trim();
  const password = await readPassword(ctx, 'Password for the new account:', example);
  const target = await signInTarget(ctx, { clientId: o.clientId });
  const api = await visitorClient(ctx, target);
  let result: LoginResult;
  let refused: unknown;
  try {
    result = clientStateOf(await authentication.registerV2(api, { loginId: { email }, password, ...(o.name ? { profile: { nickname: o.name } } : {}) }, { signal: ctx.signal }));
  } catch (err) {
    refused = err;
    result = identityFailure(err, 'register');
  } finally {
    await api.close();
  }
  // A refused registration in registration words: bad input (an e-mail or password the site does not take) exits 2.
  if (result.loginState === 'FAILURE' || result.loginState === 'USER_CAPTCHA_REQUIRED' || result.loginState === 'SILENT_CAPTCHA_REQUIRED') throw failureWords(result, ctx, email, 'register', refused);
  const who = await settle(ctx, target, email, result, o.code);
  success(ctx.io, `Registered and signed in as ${oneLine(who.loginEmail ?? email)} (member ${who.id}) on ${target.label}`);
}
