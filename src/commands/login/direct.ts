/**
 * The direct sign-in of `sitectl login --email` and the login states after it (docs/wire.md §22): an e-mail or
 * second-factor code given with `--code`, typed on a terminal, or left for `sitectl auth verify`; owner approval
 * and the other refusals in words. `auth register` and `auth verify` settle their answers here too.
 */
import { authentication } from '../../api/auth/families.js';
import { clientStateOf, type LoginResult } from '../../api/auth/states.js';
import type { Context } from '../../context.js';
import { AuthError } from '../../core/errors.js';
import { shellWord } from '../../core/invocation.js';
import { oneLine } from '../../core/text.js';
import { cliCommand, completeWithSessionToken, failureWords, identityFailure, loginCommand, visitorClient, type SignInTarget } from '../auth/shared/session.js';

/**
 * `printf %s CODE | sitectl auth verify --code-stdin` with this command's `--profile` and `--site`: where a
 * sign-in waiting for its code is finished (the pending sign-in is kept for that profile on that site).
 */
export function verifyCommand(ctx: Pick<Context, 'bin' | 'flags'>, code = 'CODE'): string {
  return `printf %s ${code} | ${cliCommand(ctx, 'auth verify --code-stdin')}`;
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

export async function directLogin(ctx: Context, target: SignInTarget, email: string, password: string, code: string | undefined) {
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
