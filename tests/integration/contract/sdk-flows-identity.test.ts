/**
 * Sign-in through the official client's identity pieces against a real emulator on port 0 (docs/wire.md §3 sign-in
 * flows, §22 identity, recovery and verification): the OAuth strategy's login with an e-mail and its member
 * tokens, the error codes of a wrong password and an unknown address, the recovery e-mail through
 * `@wix/auto_sdk_identity_recovery` and the new password it sets, and a password changed through
 * `@wix/auto_sdk_identity_authentication` under a member token. Setup: sdk-client.ts.
 */
import * as authentication from '@wix/auto_sdk_identity_authentication';
import * as recovery from '@wix/auto_sdk_identity_recovery';
import * as members from '@wix/auto_sdk_members_members';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { describe, expect, it } from 'vitest';
import { useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-identity');

/** A visitor's OAuth strategy of the emulator's default app, with its visitor tokens. */
async function visitor() {
  const auth = OAuthStrategy({ clientId: ctx.emu.emulator.clientId! });
  auth.setTokens(await auth.generateVisitorTokens());
  return auth;
}

/**
 * Member tokens for a sign-in's session token, as a server-side app gets them: the OAuth strategy's authorization
 * URL with the session token (`prompt: none`, the code in the query), followed to the app's redirect URI, and the
 * code exchanged by `getMemberTokens`. (`getMemberTokensForDirectLogin` does the same through a browser frame,
 * which a Node process has not.)
 */
async function memberTokens(auth: Awaited<ReturnType<typeof visitor>>, sessionToken: string) {
  const redirectUri = 'http://localhost:3000/callback';
  const oauthData = auth.generateOAuthData(redirectUri);
  // `sessionToken` is an option getAuthUrl reads (build/auth/oauth2/OAuthStrategy.js) but its typings leave out.
  const opts = { prompt: 'none', responseMode: 'query', sessionToken } as Parameters<typeof auth.getAuthUrl>[1];
  const { authUrl } = await auth.getAuthUrl(oauthData, opts);
  let url = authUrl;
  for (let hops = 0; !url.startsWith(redirectUri); hops++) {
    expect(hops, `the authorization stopped at ${url}`).toBeLessThan(5);
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    expect(location, `${url} answered ${res.status} without a redirect`).toBeTruthy();
    url = new URL(location!, url).toString();
  }
  const { code, state } = auth.parseFromUrl(url, 'query');
  return auth.getMemberTokens(code, state, oauthData);
}

/** A new member registered through the OAuth strategy: its e-mail and password. */
async function registered(): Promise<{ email: string; password: string }> {
  const email = `sdk-id-${ctx.stamp()}@example.com`;
  const password = 'first-secret-1';
  expect(await (await visitor()).register({ email, password })).toMatchObject({ loginState: 'SUCCESS' });
  return { email, password };
}

/** The recovery mail the emulator's outbox holds for `to` (the newest), with its token. */
async function recoveryMail(to: string): Promise<{ to: string; subject: string; recoveryToken: string } | undefined> {
  const r = await ctx.emu.request('GET', '/__emulator/mail?limit=1000');
  expect(r.status).toBe(200);
  return (r.body.mail as Array<{ to: string; subject: string; recoveryToken?: string }>).filter((m) => m.to === to && m.recoveryToken).at(-1) as never;
}

describe('sign-in through the official client', () => {
  it("login with an e-mail: SUCCESS with a session token that becomes member tokens, calling as that member", async () => {
    const { email, password } = await registered();
    const auth = await visitor();
    const state = await auth.login({ email, password });
    expect(state.loginState).toBe('SUCCESS');
    const sessionToken = (state as { data: { sessionToken: string } }).data.sessionToken;
    expect(sessionToken).toMatch(/./);
    const tokens = await memberTokens(auth, sessionToken);
    expect(tokens.accessToken.value).toMatch(/./);
    expect(tokens.refreshToken.role).toBe('member');
    auth.setTokens(tokens);
    expect(auth.loggedIn()).toBe(true);
    const me = await createClient({ auth, modules: { members } }).members.getCurrentMember({ fieldsets: ['FULL'] });
    expect(me.member?.loginEmail).toBe(email);
  });

  it('a wrong password answers errorCode invalidPassword; an unknown address invalidEmail; neither signs in', async () => {
    const { email } = await registered();
    const auth = await visitor();
    expect(await auth.login({ email, password: 'not-the-password' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidPassword' });
    expect(await auth.login({ email: `nobody-${ctx.stamp()}@example.com`, password: 'whatever-1' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidEmail' });
    expect(auth.loggedIn()).toBe(false);
  });

  it('sendRecoveryEmail puts a recovery link in the outbox; recover sets the new password (once); login takes it', async () => {
    const { email, password } = await registered();
    const c = createClient({ auth: await visitor(), modules: { recovery } });
    await c.recovery.sendRecoveryEmail(email);
    expect(ctx.lastTo('/_api/iam/recovery/v1/send-email')?.body).toMatchObject({ email });
    const mail = await recoveryMail(email);
    expect(mail).toMatchObject({ to: email, subject: 'Reset your password' });
    // An address without an identity: nothing is sent and nothing is said (the platform does not tell).
    const nobody = `nobody-${ctx.stamp()}@example.com`;
    await c.recovery.sendRecoveryEmail(nobody);
    expect(await recoveryMail(nobody)).toBeUndefined();

    const recovered = await c.recovery.recover(mail!.recoveryToken, { password: 'second-secret-2' });
    // A StateMachineResponse, as the typings give it: the SUCCESS state, a session token and the identity.
    expect(recovered).toMatchObject({ state: 'SUCCESS', sessionToken: expect.stringMatching(/./), identity: { email: { address: email } } });
    await expect(c.recovery.recover(mail!.recoveryToken, { password: 'third-secret-3' })).rejects.toMatchObject({ details: { applicationError: { code: 'INVALID_RECOVERY_TOKEN', data: { reason: 'USED' } } } });
    const auth = await visitor();
    expect(await auth.login({ email, password })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidPassword' });
    expect(await auth.login({ email, password: 'second-secret-2' })).toMatchObject({ loginState: 'SUCCESS' });
  });

  it('changePassword under a member token: the old password stops working, the new one signs in', async () => {
    const { email, password } = await registered();
    const auth = await visitor();
    const state = await auth.login({ email, password });
    auth.setTokens(await memberTokens(auth, (state as { data: { sessionToken: string } }).data.sessionToken));
    await createClient({ auth, modules: { authentication } }).authentication.changePassword('changed-secret-4');
    const again = await visitor();
    expect(await again.login({ email, password })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidPassword' });
    expect(await again.login({ email, password: 'changed-secret-4' })).toMatchObject({ loginState: 'SUCCESS' });
  });
});
