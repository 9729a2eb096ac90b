/**
 * `sitectl logout`: ends the profile's sign-in (spec 001 section 4 "Tokens": both tokens cleared, role none).
 * The member's refresh token and an app's admin token are revoked on the server first (`POST /oauth2/revoke`
 * with the client id that got them, and the app's secret for the app's token; best effort: the local tokens
 * are removed whatever the server says), then the visitor and member tokens, the app credentials and any
 * pending verification are removed from the sessions file. Signing out twice is not an error.
 */
import '../../startup.js';
import type { Command } from 'commander';
import { TokenEndpoint } from '../../api/auth/tokens.js';
import { resolveProfile, type Context } from '../../context.js';
import { notice, success } from '../../core/log.js';
import { readSession, writeSession } from '../../core/sessions.js';
import { oneLine } from '../../core/text.js';

export function register(program: Command, ctx: Context): void {
  program
    .command('logout')
    .description("Sign out: revoke the member's tokens and remove every token of the profile")
    .addHelpText('after', '\nExample:\n  sitectl logout\n  sitectl --profile prod logout')
    .action(async () => {
      await run(ctx);
    });
}

export async function run(ctx: Context): Promise<void> {
  const profile = await resolveProfile(ctx, { startEmulator: false });
  const session = readSession(ctx.env, profile.name);
  if (!session.member && !session.visitor && !session.admin && !session.pending) {
    notice(ctx.io, `Not signed in on profile '${profile.name}'`);
    return;
  }
  const base = session.baseUrl ?? profile.baseUrl;
  const revocations: Array<{ token: string; clientId: string; clientSecret?: string }> = [];
  const refresh = session.member?.tokens.refreshToken.value;
  if (refresh && session.clientId) {
    revocations.push({ token: refresh, clientId: session.clientId, ...(session.admin?.clientId === session.clientId ? { clientSecret: session.admin.clientSecret } : {}) });
  }
  if (session.admin?.accessToken) revocations.push({ token: session.admin.accessToken, clientId: session.admin.clientId, clientSecret: session.admin.clientSecret });
  if (revocations.length && /^https?:\/\//.test(base)) {
    const endpoint = new TokenEndpoint({ baseUrl: base, timeoutMs: 10_000 });
    let told = true;
    for (const { token, ...client } of revocations) {
      try {
        await endpoint.revoke(token, client, ctx.signal);
      } catch {
        // Best effort: an unreachable server must not keep the tokens on disk.
        told = false;
      }
    }
    if (!told) notice(ctx.io, 'The server could not be told (the tokens expire on their own); removing them here.');
  }
  writeSession(ctx.env, profile.name, (s) => ({ clientId: s.clientId, baseUrl: s.baseUrl }));
  success(ctx.io, `Signed out of profile '${profile.name}'${session.member ? ` (${oneLine(session.member.loginEmail ?? session.member.id)})` : ''}`);
}
