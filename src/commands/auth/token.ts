/**
 * `sitectl auth token`: prints a valid access token on stdout, for scripts (`curl -H "Authorization: $(sitectl
 * auth token)"`): the member's, refreshed when it expires within a minute; else the app's (client credentials),
 * fetched again when expired. Exit 4 when the profile holds neither. The member is the one of the chosen site
 * (`--site`; a member signed in on another site is not this one); the app's credentials are the profile's.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { AuthError } from '../../core/errors.js';
import { appAccessToken } from '../../context-auth.js';
import { loginCommand, memberAccessToken } from './shared/session.js';
import { sessionTarget } from './shared/target.js';

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
  const t = await sessionTarget(ctx, { startEmulator: true });
  const { profile, label, siteName } = t;
  let token: string | undefined;
  if (t.read().member) token = (await memberAccessToken(ctx)).token;
  else token = await appAccessToken(ctx, profile.name, profile.baseUrl);
  if (!token) throw new AuthError(`${label} is not signed in${siteName && t.key === profile.name ? ` on site ${siteName}` : ''}`, `sign in${siteName ? ` on site ${siteName}` : ''}: ${loginCommand(ctx)}`);
  ctx.io.stdout.write(`${token}\n`);
}
