/**
 * `sitectl auth change-password [--password-stdin]`: changes the signed-in member's password (docs/sign-in.md;
 * `POST /v2/change-password {newPassword}`, changePassword, sent with the member's access token; exit 4 when the
 * profile is not signed in as a member). The new password is never taken from the command line: it is typed
 * hidden on a terminal (twice, to catch a typo), or read from stdin with `--password-stdin` (scripts); the
 * `--debug` trace redacts it (api/redact.ts). Not journaled and without an undo: the former password is not
 * known to sitectl (nor kept anywhere), so it cannot be set back; recovery is `sitectl auth recover`.
 */
import type { Command } from 'commander';
import { authentication } from '../../api/auth/families.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { cliCommand, memberApi, readPassword } from './shared/session.js';

export interface ChangePasswordOptions {
  passwordStdin?: boolean;
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command('change-password')
    .description("Change the signed-in member's password (typed hidden, or --password-stdin)")
    .option('--password-stdin', 'read the new password from stdin (typed hidden on a terminal); for scripts')
    .addHelpText('after', '\nThe new password is never given as an argument.\n\nExamples:\n  sitectl auth change-password\n  printf %s "$NEW_PASSWORD" | sitectl auth change-password --password-stdin')
    .action(async (o: ChangePasswordOptions) => {
      await run(o, ctx);
    });
}

/**
 * Reads the new password (before anything is sent), then sends it with the member's token.
 * @throws UserError (exit 2) when no password can be read (no terminal and no --password-stdin), the typed ones
 *   differ, or the site refuses it (too short); AuthError (exit 4) when no member is signed in
 */
export async function run(o: ChangePasswordOptions, ctx: Context): Promise<void> {
  const example = `printf %s "$NEW_PASSWORD" | ${cliCommand(ctx, 'auth change-password --password-stdin')}`;
  if (!o.passwordStdin && !ctx.io.canPrompt()) throw new UserError('auth change-password needs the new password: no terminal to type it on, and no --password-stdin', example);
  const password = await readPassword(ctx, 'New password:', example);
  if (ctx.io.isStdinTTY && (await readPassword(ctx, 'The new password again:', example)) !== password) throw new UserError('the two passwords typed differ; nothing was changed');
  const api = await memberApi(ctx);
  try {
    await authentication.changePassword(api, { newPassword: password }, { signal: ctx.signal });
  } catch (err) {
    const e = err as { status?: unknown; message?: unknown };
    if (e.status === 400) throw new UserError(`the site refused the new password: ${String(e.message)}`, undefined, ExitCode.Usage);
    throw err;
  } finally {
    await api.close();
  }
  success(ctx.io, 'Password changed; sign in with it from now on');
}
