/**
 * `sitectl auth verify`: finishes a sign-in or registration that stopped at e-mail verification or at an SMS or
 * CALL second factor's challenge (docs/wire.md §22: a code is accepted only in the EMAIL_VERIFICATION_REQUIRED or
 * MFA_CHALLENGE state, else 'Unknown _state'), with the state token kept for the profile, then signs in.
 *
 * The code comes from `--code-stdin` (stdin; typed hidden on a terminal), from `--code CODE` (the issue's flag:
 * it shows in the process list and the shell history, docs/architecture.md "Profiles and auth"), or, with neither, is
 * asked on a terminal.
 */
import type { Command } from 'commander';
import { stateTokenForCode, type LoginResult } from '../../api/auth/states.js';
import type { Context } from '../../context.js';
import { AuthError, UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { oneLine } from '../../core/text.js';
import { codeDestination, settle } from '../login/direct.js';
import { cliCommand, refuseTerminalStdin, signInTarget } from './shared/session.js';

export interface VerifyOptions {
  code?: string;
  codeStdin?: boolean;
}

const EXAMPLE = 'printf %s "$CODE" | sitectl auth verify --code-stdin';

export function register(parent: Command, ctx: Context): void {
  parent
    .command('verify')
    .description('Finish a sign-in that asked for a code: sent by e-mail, or by SMS or a phone call (a second factor)')
    .option('--code-stdin', 'read the code from stdin (typed hidden on a terminal); keeps it out of the process list and shell history')
    .option('--code <code>', 'the code from the e-mail, SMS or call; visible in the process list and shell history: scripts should use --code-stdin')
    .addHelpText('after', '\nWithout --code or --code-stdin the code is asked on a terminal.\n\nExamples:\n  sitectl auth verify\n  printf %s "$CODE" | sitectl auth verify --code-stdin\n  sitectl auth verify --code 123456')
    .action(async (o: VerifyOptions) => {
      await run(o, ctx);
    });
}

/**
 * The code, from the flag, stdin or the terminal (hidden). `--code-stdin` on a terminal where no prompt may be
 * drawn was refused by {@link run} before (it would be read silently, echoed).
 * @throws UserError (exit 2) when none was given
 */
async function readCode(o: VerifyOptions, ctx: Context, where: string): Promise<string> {
  let code: string;
  if (o.code !== undefined) code = o.code;
  else if (o.codeStdin && !ctx.io.isStdinTTY) {
    const { readSecret } = await import('../../core/input.js');
    code = await readSecret('--code-stdin', ctx.io.stdin);
  } else {
    code = await ctx.prompter.secret(`Verification code sent ${where.startsWith('by ') ? where : `to ${where}`}:`, { what: 'typing the code', flag: '--code-stdin with the code piped in' });
  }
  code = code.trim();
  if (!code) throw new UserError(o.codeStdin ? 'no verification code on stdin' : 'no verification code given', EXAMPLE);
  return code;
}

export async function run(o: VerifyOptions, ctx: Context): Promise<void> {
  if (o.code !== undefined && o.codeStdin) throw new UserError('--code and --code-stdin both give the code: use one (--code-stdin keeps it out of the process list)', EXAMPLE);
  if (o.codeStdin) refuseTerminalStdin(ctx, '--code-stdin', 'the code', `printf %s "$CODE" | ${cliCommand(ctx, 'auth verify --code-stdin')}`);
  const target = await signInTarget(ctx);
  const pending = target.read().pending;
  // The state the pending sign-in stopped in: e-mail verification, or an SMS or CALL second factor's challenge.
  const state: LoginResult | { loginState: 'INITIAL' } = !pending
    ? { loginState: 'INITIAL' }
    : pending.factorType
      ? { loginState: 'MFA_CHALLENGE', stateToken: pending.stateToken, factorType: pending.factorType, ...(pending.hint ? { hint: pending.hint } : {}) }
      : { loginState: 'EMAIL_VERIFICATION_REQUIRED', stateToken: pending.stateToken };
  try {
    stateTokenForCode(state);
  } catch (err) {
    throw new AuthError(`no sign-in is waiting for a code on ${target.label} (${(err as Error).message})`, `sign in first: ${cliCommand(ctx, 'login --email ADDRESS --password-stdin')}`);
  }
  const code = await readCode(o, ctx, codeDestination(pending!.email, pending!.factorType ? { factorType: pending!.factorType, hint: pending!.hint } : undefined));
  const who = await settle(ctx, { ...target, clientId: pending!.clientId }, pending!.email, state as LoginResult, code);
  success(ctx.io, `Signed in as ${oneLine(who.loginEmail ?? who.id)} (member ${who.id}) on ${target.label}`);
}
