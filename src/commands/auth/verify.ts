/**
 * `sitectl auth verify --code CODE`: finishes a sign-in or registration that stopped at e-mail verification
 * (spec 001 section 4: a code is accepted only in the EMAIL_VERIFICATION_REQUIRED state, else 'Unknown
 * _state'), with the state token kept for the profile, then signs in.
 */
import type { Command } from 'commander';
import { stateTokenForCode } from '../../api/auth/states.js';
import type { Context } from '../../context.js';
import { AuthError } from '../../core/errors.js';
import { readSession } from '../../core/sessions.js';
import { success } from '../../core/log.js';
import { oneLine } from '../../core/text.js';
import { settle } from '../login/index.js';
import { signInTarget } from './shared/session.js';

export function register(parent: Command, ctx: Context): void {
  parent
    .command('verify')
    .description('Finish a sign-in that asked for the code sent by e-mail')
    .requiredOption('--code <code>', 'the code from the e-mail')
    .addHelpText('after', '\nExample:\n  sitectl auth verify --code 123456')
    .action(async (o: { code: string }) => {
      await run(o, ctx);
    });
}

export async function run(o: { code: string }, ctx: Context): Promise<void> {
  const target = await signInTarget(ctx);
  const pending = readSession(ctx.env, target.profile.name).pending;
  let stateToken: string;
  try {
    stateToken = stateTokenForCode(pending ? { loginState: 'EMAIL_VERIFICATION_REQUIRED', stateToken: pending.stateToken } : { loginState: 'INITIAL' });
  } catch (err) {
    throw new AuthError(`no sign-in is waiting for a code on profile '${target.profile.name}' (${(err as Error).message})`, `sign in first: ${ctx.bin} login --email ADDRESS --password-stdin`);
  }
  const who = await settle(ctx, { ...target, clientId: pending!.clientId }, pending!.email, { loginState: 'EMAIL_VERIFICATION_REQUIRED', stateToken }, o.code.trim());
  success(ctx.io, `Signed in as ${oneLine(who.loginEmail ?? who.id)} (member ${who.id}) on profile '${target.profile.name}'`);
}
