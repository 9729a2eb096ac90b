/**
 * `sitectl auth token`: prints a valid access token on stdout, for scripts (`curl -H "Authorization: $(sitectl
 * auth token)"`): the member's, refreshed when it expires within a minute; else the app's (client credentials),
 * fetched again when expired. Exit 4 when the profile holds neither.
 */
import type { Command } from 'commander';
import { resolveProfile, type Context } from '../../context.js';
import { AuthError } from '../../core/errors.js';
import { appAccessToken } from '../../context-auth.js';
import { readSession } from '../../core/sessions.js';
import { memberAccessToken } from './shared/session.js';

export function register(parent: Command, ctx: Context): void {
  parent
    .command('token')
    .description('Print a fresh access token of the signed-in member (or app) on stdout, for scripts')
    .addHelpText('after', '\nExample:\n  curl -H "Authorization: $(sitectl auth token)" "$URL/members/v1/members/my"')
    .action(async () => {
      await run(ctx);
    });
}

export async function run(ctx: Context): Promise<void> {
  const profile = await resolveProfile(ctx, { startEmulator: true });
  const s = readSession(ctx.env, profile.name);
  let token: string | undefined;
  if (s.member) token = (await memberAccessToken(ctx)).token;
  else token = await appAccessToken(ctx.env, profile.name, profile.baseUrl, ctx.now().getTime(), ctx.signal);
  if (!token) throw new AuthError(`profile '${profile.name}' is not signed in`, `sign in with: ${ctx.bin} login`);
  ctx.io.stdout.write(`${token}\n`);
}
