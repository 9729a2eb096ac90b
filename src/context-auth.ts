/**
 * An app's client credentials as the profile's admin credential (issue 8 section 3: `sitectl login --client-id
 * ID --client-secret-stdin`, for CI): the stored access token while it has more than a minute left, else a new
 * one from the client_credentials grant (its body is the emulator's until the platform documents one,
 * docs/sign-in.md), written back to the sessions file. Loaded by context.ts only when a profile has no API key.
 */
import { TokenEndpoint, TokenEndpointError } from './api/auth/tokens.js';
import { AuthError } from './core/errors.js';
import { readSession, writeSession } from './core/sessions.js';

/**
 * A valid admin access token of the profile's app credentials, or undefined when it holds none.
 * @throws AuthError (exit 4) when the endpoint refuses the credentials
 */
export async function appAccessToken(env: NodeJS.ProcessEnv, profile: string, baseUrl: string, nowMs: number, signal?: AbortSignal): Promise<string | undefined> {
  const s = readSession(env, profile);
  if (!s.admin) return undefined;
  if (s.admin.expiresAt * 1000 - 60_000 > nowMs) return s.admin.accessToken;
  try {
    const reply = await new TokenEndpoint({ baseUrl }).token({ grantType: 'client_credentials', clientId: s.admin.clientId, clientSecret: s.admin.clientSecret }, signal);
    const expiresAt = Math.floor(nowMs / 1000) + reply.expires_in;
    writeSession(env, profile, (cur) => (cur.admin ? { ...cur, admin: { ...cur.admin, accessToken: reply.access_token, expiresAt } } : cur));
    return reply.access_token;
  } catch (err) {
    if (err instanceof TokenEndpointError) throw new AuthError(`the app credentials of profile '${profile}' were refused: ${err.message}`, 'sign in again: sitectl login --client-id ID --client-secret-stdin');
    throw err;
  }
}
