/**
 * `sitectl auth resend-code`: sends the code of a sign-in that stopped at verification (e-mail) or at an SMS or
 * CALL second factor again (on the same channel)
 * (`POST /v1/auth/resend {stateToken}`, verification.resendDuringAuthentication, with a visitor token; docs/wire.md
 * §22, "Operations and their verbs"), for the pending sign-in kept for the profile and site; `auth verify` then
 * finishes it. A code sent earlier stops working. Nothing to journal: it changes nothing of the site.
 */
import type { Command } from 'commander';
import { verification } from '../../api/auth/families.js';
import type { Context } from '../../context.js';
import { AuthError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { oneLine } from '../../core/text.js';
import { codeDestination } from '../login/direct.js';
import { cliCommand, signInTarget, visitorClient } from './shared/session.js';

export function register(parent: Command, ctx: Context): void {
  parent
    .command('resend-code')
    .description('Send the code of a sign-in waiting for one again (e-mail, SMS or phone call)')
    .addHelpText('after', '\nThen finish with sitectl auth verify.\n\nExample:\n  sitectl auth resend-code')
    .action(async () => {
      await run(ctx);
    });
}

/**
 * Sends the code again and keeps the state token the platform answers with.
 * @throws AuthError (exit 4) when no sign-in is waiting for a code, or the platform no longer knows it (expired)
 */
export async function run(ctx: Context): Promise<void> {
  const target = await signInTarget(ctx);
  const pending = target.read().pending;
  if (!pending) throw new AuthError(`no sign-in is waiting for a code on ${target.label}`, `sign in first: ${cliCommand(ctx, 'login --email ADDRESS --password-stdin')}`);
  const api = await visitorClient(ctx, { ...target, clientId: pending.clientId });
  let stateToken: string | undefined;
  try {
    stateToken = (await verification.resendDuringAuthentication(api, { stateToken: pending.stateToken }, { signal: ctx.signal })).stateToken;
  } catch (err) {
    if ((err as { status?: unknown }).status === 404) {
      throw new AuthError(`the sign-in of ${oneLine(pending.email)} waiting for a code has expired on ${target.label}`, `sign in again: ${cliCommand(ctx, `login --email ${pending.email} --password-stdin`)}`);
    }
    throw err;
  } finally {
    await api.close();
  }
  if (stateToken && stateToken !== pending.stateToken) target.write((s) => (s.pending ? { ...s, pending: { ...s.pending, stateToken } } : s));
  const where = codeDestination(pending.email, pending.factorType ? { factorType: pending.factorType, hint: pending.hint } : undefined);
  success(ctx.io, `A new code was sent ${where.startsWith('by ') ? where : `to ${oneLine(where)}`}; finish with: ${cliCommand(ctx, 'auth verify')}`);
}
