/**
 * The emulator's OAuth server and identity calls over HTTP (docs/sign-in.md): grants, codes bound to client,
 * redirect URI and PKCE challenge, refresh rotation, the device flow of RFC 8628, site policies, the outbox,
 * member tokens on the member calls and what visitor and member tokens may not call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { challengeOf, createVerifier } from '../../../src/api/auth/pkce.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let clientId: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, members: 20 });
  clientId = emu.emulator.clientId;
});
afterAll(async () => {
  await emu?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(emu.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(path: string, token: string): Promise<{ status: number; body: any }> {
  const res = await fetch(emu.url + path, { headers: { authorization: token } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
async function form(path: string, fields: Record<string, string>) {
  return fetch(emu.url + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
}

async function visitor(): Promise<string> {
  const r = await post('/oauth2/token', { clientId, grantType: 'anonymous' });
  expect(r.status).toBe(200);
  return r.body.access_token as string;
}

let n = 0;
async function registered(password = 'secret-pass'): Promise<{ email: string; password: string; memberId: string }> {
  const email = `oauth-${Date.now()}-${n++}@example.com`;
  const r = await post('/_api/iam/authentication/v2/register', { loginId: { email }, password }, { authorization: await visitor() });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.state).toBe('SUCCESS');
  const info = await post('/oauth2/token-info', { token: r.body.sessionToken });
  return { email, password, memberId: info.body.subjectId ?? '' };
}

/** The whole browser flow without a browser: redirect session, sign-in form, redirect with the code. */
async function signIn(user: { email: string; password: string }, redirectUri: string, responseMode: 'query' | 'fragment' = 'query') {
  const verifier = createVerifier();
  const r = await post(
    '/_api/redirects-api/v1/redirect-session',
    { auth: { authRequest: { clientId, redirectUri, codeChallenge: challengeOf(verifier), codeChallengeMethod: 'S256', responseMode, responseType: 'code', scope: 'offline_access', state: 'st-1' }, prompt: 'login' } },
    { authorization: await visitor() },
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const session = new URL(r.body.redirectSession.fullUrl).searchParams.get('session')!;
  const page = await fetch(r.body.redirectSession.fullUrl);
  expect(await page.text()).toContain('type="password"');
  const res = await form('/oauth2/authorize', { session, email: user.email, password: user.password, action: 'signin' });
  return { res, verifier, location: res.headers.get('location') ?? '' };
}

describe('token endpoint', () => {
  it('answers anonymous tokens in snake_case without credentials, and refuses an unknown client', async () => {
    const r = await post('/oauth2/token', { clientId, grantType: 'anonymous' });
    expect(r.body).toEqual({ access_token: expect.stringMatching(/^OAT\./), refresh_token: expect.stringMatching(/^OAT\./), expires_in: 14400, token_type: 'Bearer' });
    const bad = await post('/oauth2/token', { clientId: 'nope', grantType: 'anonymous' });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('invalid_client');
  });

  it('exchanges a code once, bound to the redirect URI and the PKCE verifier; loopback ports are free', async () => {
    const user = await registered();
    const redirectUri = 'http://127.0.0.1:49321/callback';
    const { res, verifier, location } = await signIn(user, redirectUri);
    expect(res.status).toBe(302);
    const back = new URL(location);
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('st-1');
    const code = back.searchParams.get('code')!;
    const wrongUri = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri: 'http://127.0.0.1:1/callback', code, codeVerifier: verifier });
    expect(wrongUri.body.error).toBe('invalid_grant');
    // A refused attempt used the code up.
    const again = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri, code, codeVerifier: verifier });
    expect(again.body.error).toBe('invalid_grant');

    const second = await signIn(user, 'http://localhost:8080/cb');
    const code2 = new URL(second.location).searchParams.get('code')!;
    const wrongVerifier = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri: 'http://localhost:8080/cb', code: code2, codeVerifier: createVerifier() });
    expect(wrongVerifier.body).toMatchObject({ error: 'invalid_grant', error_description: 'the code verifier does not match the code challenge' });

    const third = await signIn(user, 'http://127.0.0.1:5000/cb');
    const ok = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri: 'http://127.0.0.1:5000/cb', code: new URL(third.location).searchParams.get('code'), codeVerifier: third.verifier });
    expect(ok.status).toBe(200);
    const me = await get('/members/v1/members/my?fieldsets=FULL', ok.body.access_token);
    expect(me.status).toBe(200);
    expect(me.body.member.loginEmail).toBe(user.email);
  });

  it('puts the code in the fragment when asked, and refuses redirect URIs that are not loopback', async () => {
    const user = await registered();
    const { location } = await signIn(user, 'http://127.0.0.1:40000/cb', 'fragment');
    expect(location).toMatch(/^http:\/\/127\.0\.0\.1:40000\/cb#code=[^&]+&state=st-1$/);
    const r = await post(
      '/_api/redirects-api/v1/redirect-session',
      { auth: { authRequest: { clientId, redirectUri: 'https://evil.example/cb', responseType: 'code' } } },
      { authorization: await visitor() },
    );
    expect(r.status).toBe(400);
    expect(r.body.details.applicationError.code).toBe('INVALID_REDIRECT_URI');
    const fragment = await post(
      '/_api/redirects-api/v1/redirect-session',
      { auth: { authRequest: { clientId, redirectUri: 'http://127.0.0.1:5/x?y=1#frag', codeChallenge: challengeOf(createVerifier()), codeChallengeMethod: 'S256', responseType: 'code' } } },
      { authorization: await visitor() },
    );
    expect(fragment.body.details.applicationError.code).toBe('INVALID_REDIRECT_URI');
  });

  it('revokes the tokens a code issued, rotated ones included, when the code is used again (RFC 6749 section 4.1.2)', async () => {
    const user = await registered();
    const redirectUri = 'http://127.0.0.1:1235/cb';
    const { location, verifier } = await signIn(user, redirectUri);
    const code = new URL(location).searchParams.get('code');
    const first = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri, code, codeVerifier: verifier });
    expect(first.status).toBe(200);
    const rotated = await post('/oauth2/token', { clientId, grantType: 'refresh_token', refreshToken: first.body.refresh_token });
    expect(rotated.status).toBe(200);
    expect((await get('/members/v1/members/my', rotated.body.access_token)).status).toBe(200);
    // Another sign-in of the same member is a session of its own: it must survive.
    const other = await signIn(user, redirectUri);
    const kept = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri, code: new URL(other.location).searchParams.get('code'), codeVerifier: other.verifier });

    const replay = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri, code, codeVerifier: verifier });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    for (const token of [first.body.access_token, rotated.body.access_token]) expect((await get('/members/v1/members/my', token)).status).toBe(401);
    const renew = await post('/oauth2/token', { clientId, grantType: 'refresh_token', refreshToken: rotated.body.refresh_token });
    expect(renew.body.error).toBe('invalid_grant');
    expect((await post('/oauth2/token-info', { token: first.body.refresh_token })).body.active).toBe(false);
    expect((await get('/members/v1/members/my', kept.body.access_token)).status).toBe(200);
  });

  it("turns a direct login's session token into one code only (a second redirect session gets login_required)", async () => {
    const user = await registered();
    const v = await visitor();
    const login = await post('/_api/iam/authentication/v2/login', { loginId: { email: user.email }, password: user.password }, { authorization: v });
    expect(login.body.state).toBe('SUCCESS');
    const sessionToken = login.body.sessionToken as string;
    const redirectUri = 'http://127.0.0.1:9/direct';
    const session = async () => {
      const verifier = createVerifier();
      const r = await post(
        '/_api/redirects-api/v1/redirect-session',
        { auth: { authRequest: { clientId, redirectUri, codeChallenge: challengeOf(verifier), codeChallengeMethod: 'S256', responseMode: 'query', responseType: 'code', scope: 'offline_access', state: 'st-d', sessionToken }, prompt: 'none' } },
        { authorization: v },
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { url: r.body.redirectSession.fullUrl as string, verifier };
    };
    const follow = async (url: string) => new URL((await fetch(url, { redirect: 'manual' })).headers.get('location') ?? 'http://none/');
    const valid = () => fetch(`${emu.url}/_api/iam/authentication/v1/callback?sessionToken=${encodeURIComponent(sessionToken)}&state=s`, { headers: { authorization: v } }).then((r) => r.json());
    expect(await valid()).toMatchObject({ valid: true });
    // Two redirect sessions made before either is opened: the first one opened gets the code, the other none.
    const [a, b] = [await session(), await session()];
    const backA = await follow(a.url);
    const backB = await follow(b.url);
    expect(backA.searchParams.get('code')).toBeTruthy();
    const t = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri, code: backA.searchParams.get('code'), codeVerifier: a.verifier });
    expect(t.status).toBe(200);
    expect(backB.searchParams.get('code')).toBeNull();
    expect(backB.searchParams.get('error')).toBe('login_required');
    expect(backB.searchParams.get('state')).toBe('st-d');
    expect((await follow((await session()).url)).searchParams.get('error')).toBe('login_required');
    expect(await valid()).toMatchObject({ valid: false });
  });

  it('rotates refresh tokens and revokes the session when one is replayed', async () => {
    const user = await registered();
    const { location, verifier } = await signIn(user, 'http://127.0.0.1:1234/cb');
    const first = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri: 'http://127.0.0.1:1234/cb', code: new URL(location).searchParams.get('code'), codeVerifier: verifier });
    const rotated = await post('/oauth2/token', { clientId, grantType: 'refresh_token', refreshToken: first.body.refresh_token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await get('/members/v1/members/my', rotated.body.access_token)).status).toBe(200);
    const replay = await post('/oauth2/token', { clientId, grantType: 'refresh_token', refreshToken: first.body.refresh_token });
    expect(replay.body.error).toBe('invalid_grant');
    // The replay ended the session: the rotated tokens stop working too.
    expect((await get('/members/v1/members/my', rotated.body.access_token)).status).toBe(401);
  });

  it('does not renew the session of a member who may no longer sign in (blocked)', async () => {
    const user = await registered();
    const redirectUri = 'http://127.0.0.1:1236/cb';
    const { location, verifier } = await signIn(user, redirectUri);
    const t = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri, code: new URL(location).searchParams.get('code'), codeVerifier: verifier });
    const id = (await get('/members/v1/members/my', t.body.access_token)).body.member.id as string;
    expect((await emu.request('POST', `/members/v1/members/${id}/block`, {})).status).toBe(200);
    const renew = await post('/oauth2/token', { clientId, grantType: 'refresh_token', refreshToken: t.body.refresh_token });
    expect(renew.status).toBe(400);
    expect(renew.body.error).toBe('invalid_grant');
  });

  it('runs the device flow: pending, slow down, approved once, denied, unknown', async () => {
    const user = await registered();
    const start = await post('/oauth2/device/code', { clientId });
    // The SDK typings' names (@wix/auto_sdk_identity_oauth DeviceCodeResponse), not RFC 8628's snake_case.
    expect(start.body).toMatchObject({ userCode: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/), expiresIn: 600, interval: 2, verificationUri: `${emu.url}/oauth2/device` });
    expect(start.body.verificationUriComplete).toBe(`${emu.url}/oauth2/device?user_code=${start.body.userCode}`);
    const poll = () => post('/oauth2/token', { clientId, grantType: 'urn:ietf:params:oauth:grant-type:device_code', deviceCode: start.body.deviceCode });
    expect((await poll()).body.error).toBe('authorization_pending');
    expect((await poll()).body.error).toBe('slow_down');
    const wrong = await form('/oauth2/device', { user_code: start.body.userCode, email: user.email, password: 'wrong-password', action: 'approve' });
    expect(await wrong.text()).toContain('Wrong e-mail or password.');
    const approve = await form('/oauth2/device', { user_code: start.body.userCode.toLowerCase(), email: user.email, password: user.password, action: 'approve' });
    expect(await approve.text()).toContain('Device approved');
    const done = await poll();
    expect(done.status).toBe(200);
    expect((await get('/members/v1/members/my', done.body.access_token)).body.member.id).toBeTruthy();
    expect((await poll()).body.error).toBe('invalid_grant');

    const other = await post('/oauth2/device/code', { clientId });
    await form('/oauth2/device', { user_code: other.body.userCode, action: 'deny' });
    const denied = await post('/oauth2/token', { clientId, grantType: 'urn:ietf:params:oauth:grant-type:device_code', deviceCode: other.body.deviceCode });
    expect(denied.body.error).toBe('access_denied');
  });

  it('issues admin tokens to an app with a client secret', async () => {
    const app = await emu.request('POST', '/__emulator/oauth-apps', { name: 'CI' });
    expect(app.status).toBe(200);
    const bad = await post('/oauth2/token', { clientId: app.body.app.clientId, grantType: 'client_credentials', clientSecret: 'wrong' });
    expect(bad.status).toBe(401);
    const ok = await post('/oauth2/token', { clientId: app.body.app.clientId, grantType: 'client_credentials', clientSecret: app.body.clientSecret });
    expect(ok.body).toMatchObject({ token_type: 'Bearer', expires_in: 14400 });
    const list = await get('/members/v1/members?.r=eyJwYWdpbmciOnsibGltaXQiOjJ9fQ', ok.body.access_token);
    expect(list.status).toBe(200);
    expect(list.body.members).toHaveLength(2);
    // The SDK's AppStrategy body (snake_case, with the app's instance); another instance is refused.
    const instanceId = app.body.app.instanceId as string;
    expect(instanceId).toMatch(/^[0-9a-f-]{36}$/);
    const listed = (await emu.request('GET', '/__emulator/oauth-apps')).body.apps.find((a: { clientId: string }) => a.clientId === app.body.app.clientId);
    expect(listed.instanceId).toBe(instanceId);
    const sdk = await post('/oauth2/token', { grant_type: 'client_credentials', client_id: app.body.app.clientId, client_secret: app.body.clientSecret, instance_id: instanceId });
    expect(sdk.body).toMatchObject({ token_type: 'Bearer', expires_in: 14400 });
    const other = await post('/oauth2/token', { grant_type: 'client_credentials', client_id: app.body.app.clientId, client_secret: app.body.clientSecret, instance_id: '00000000-0000-4000-8000-000000000000' });
    expect(other).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('makes a public client use PKCE, and a confidential one show its secret on every grant', async () => {
    const noPkce = await post(
      '/_api/redirects-api/v1/redirect-session',
      { auth: { authRequest: { clientId, redirectUri: 'http://127.0.0.1:41000/cb', responseType: 'code', state: 's' } } },
      { authorization: await visitor() },
    );
    expect(noPkce.status).toBe(400);
    expect(noPkce.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'auth.authRequest.codeChallenge', violatedRule: 'REQUIRED_FIELD' });
    const app = await emu.request('POST', '/__emulator/oauth-apps', { name: 'Confidential' });
    for (const grantType of ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code']) {
      const r = await post('/oauth2/token', { clientId: app.body.app.clientId, grantType, code: 'x', refreshToken: 'x', deviceCode: 'x', redirectUri: 'http://127.0.0.1/cb' });
      expect(r.status, grantType).toBe(401);
      expect(r.body.error, grantType).toBe('invalid_client');
    }
  });

  it("sends the browser after a logout only where the redirect session said, never where the page's URL says", async () => {
    const crafted = await fetch(`${emu.url}/oauth2/logout?postFlowUrl=${encodeURIComponent('https://evil.example/phish')}`);
    expect(await crafted.text()).not.toContain('evil.example');
    const r = await post('/_api/redirects-api/v1/redirect-session', { logout: { clientId }, callbacks: { postFlowUrl: 'http://127.0.0.1:41001/done' } }, { authorization: await visitor() });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.redirectSession.fullUrl).not.toContain('postFlowUrl');
    const page = await (await fetch(r.body.redirectSession.fullUrl)).text();
    expect(page).toContain('http://127.0.0.1:41001/done');
  });
});

describe('revocation (RFC 7009)', () => {
  const active = async (token: string) => (await post('/oauth2/token-info', { token })).body.active as boolean;

  it('takes a public client by its client id, and refuses a request without one', async () => {
    const t = await post('/oauth2/token', { clientId, grantType: 'anonymous' });
    const anonymous = await post('/oauth2/revoke', { token: t.body.refresh_token });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('invalid_client');
    expect(await active(t.body.access_token)).toBe(true);
    const ok = await post('/oauth2/revoke', { token: t.body.refresh_token, clientId });
    expect(ok.status).toBe(200);
    expect(await active(t.body.access_token)).toBe(false);
    // RFC 7009 section 2.2: a token the server does not know is not an error.
    expect((await post('/oauth2/revoke', { token: 'OAT.nothing.here', clientId })).status).toBe(200);
  });

  it("does not revoke another client's token", async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const key = JSON.parse(readFileSync(join(emu.dataDir, 'admin-key.json'), 'utf8'));
    const otherClient = key.sites.find((s: { id: string }) => s.id !== emu.siteId).clientId as string;
    const theirs = await post('/oauth2/token', { clientId: otherClient, grantType: 'anonymous' });
    const r = await post('/oauth2/revoke', { token: theirs.body.refresh_token, clientId });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('unauthorized_client');
    expect(await active(theirs.body.access_token)).toBe(true);
  });

  it('makes a confidential client authenticate with its secret, as the token endpoint does', async () => {
    const app = await emu.request('POST', '/__emulator/oauth-apps', { name: 'Revoker' });
    const appId = app.body.app.clientId as string;
    const t = await post('/oauth2/token', { clientId: appId, grantType: 'client_credentials', clientSecret: app.body.clientSecret });
    expect(t.status).toBe(200);
    for (const body of [{ clientId: appId }, { clientId: appId, clientSecret: 'wrong' }, { client_id: appId, client_secret: '' }]) {
      const r = await post('/oauth2/revoke', { token: t.body.access_token, ...body });
      expect(r.status, JSON.stringify(body)).toBe(401);
      expect(r.body.error).toBe('invalid_client');
    }
    expect((await get('/members/v1/members?.r=eyJwYWdpbmciOnsibGltaXQiOjF9fQ', t.body.access_token)).status).toBe(200);
    const ok = await post('/oauth2/revoke', { token: t.body.access_token, client_id: appId, client_secret: app.body.clientSecret });
    expect(ok.status).toBe(200);
    expect((await get('/members/v1/members?.r=eyJwYWdpbmciOnsibGltaXQiOjF9fQ', t.body.access_token)).status).toBe(401);
  });
});

describe('the control plane', () => {
  it('takes the admin API key only: no visitor, member or app token reads the outbox or makes apps', async () => {
    const user = await registered();
    const { location, verifier } = await signIn(user, 'http://127.0.0.1:1237/cb');
    const member = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri: 'http://127.0.0.1:1237/cb', code: new URL(location).searchParams.get('code'), codeVerifier: verifier });
    const app = await emu.request('POST', '/__emulator/oauth-apps', { name: 'Control' });
    const appToken = await post('/oauth2/token', { clientId: app.body.app.clientId, grantType: 'client_credentials', clientSecret: app.body.clientSecret });
    const before = (await emu.request('GET', '/__emulator/oauth-apps')).body.apps.length as number;
    for (const [who, token] of [['visitor', await visitor()], ['member', member.body.access_token], ['app', appToken.body.access_token]] as const) {
      const mail = await get(`/__emulator/mail?to=${encodeURIComponent(user.email)}`, token);
      expect(mail.status, who).toBe(403);
      expect(JSON.stringify(mail.body)).not.toContain('"mail"');
      const made = await post('/__emulator/oauth-apps', { name: `by ${who}` }, { authorization: token });
      expect(made.status, who).toBe(403);
      expect(made.body.clientSecret, who).toBeUndefined();
      const policy = await fetch(`${emu.url}/__emulator/auth-policy`, { method: 'PUT', headers: { authorization: token, 'content-type': 'application/json' }, body: '{"requireCaptcha":true}' });
      expect(policy.status, who).toBe(403);
    }
    expect((await emu.request('GET', '/__emulator/oauth-apps')).body.apps).toHaveLength(before);
    expect((await emu.request('GET', '/__emulator/auth-policy')).body.policy.requireCaptcha).toBe(false);
    expect((await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(user.email)}`)).status).toBe(200);
  });
});

describe('tokens as credentials', () => {
  it('lets a member read its own orders only, and refuses admin calls to visitors and members', async () => {
    const user = await registered();
    const { location, verifier } = await signIn(user, 'http://127.0.0.1:1/cb');
    const t = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri: 'http://127.0.0.1:1/cb', code: new URL(location).searchParams.get('code'), codeVerifier: verifier });
    const mine = await get('/pricing-plans/v2/member/orders', t.body.access_token);
    expect(mine.status).toBe(200);
    expect(mine.body.orders).toEqual([]);
    const admin = await get('/members/v1/members', t.body.access_token);
    expect(admin.status).toBe(403);
    expect(admin.body.details.applicationError.code).toBe('PERMISSION_DENIED');
    const anon = await get('/pricing-plans/v2/member/orders', await visitor());
    expect(anon.status).toBe(401);
    const junk = await get('/members/v1/members/my', 'OAT.eyJ9.abc');
    expect(junk.status).toBe(401);
  });
});

describe("other members' data", () => {
  it('a member token reads another member as PUBLIC only, and a private member not at all; itself in full', async () => {
    const user = await registered();
    const { location, verifier } = await signIn(user, 'http://127.0.0.1:1238/cb');
    const t = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri: 'http://127.0.0.1:1238/cb', code: new URL(location).searchParams.get('code'), codeVerifier: verifier });
    const token = t.body.access_token as string;
    const all = (await emu.request('POST', '/members/v1/members/query', { query: { paging: { limit: 100 } }, fieldsets: ['FULL'] })).body.members as Array<{ id: string; loginEmail: string; privacyStatus: string }>;
    const pub = all.find((m) => m.privacyStatus === 'PUBLIC' && m.loginEmail !== user.email)!;
    const priv = all.find((m) => m.privacyStatus === 'PRIVATE')!;
    expect(pub && priv).toBeTruthy();
    const other = await get(`/members/v1/members/${pub.id}?fieldsets=FULL`, token);
    expect(other.status).toBe(200);
    expect(other.body.member.id).toBe(pub.id);
    expect(JSON.stringify(other.body)).not.toContain(pub.loginEmail);
    expect(other.body.member.contact).toBeUndefined();
    const hidden = await get(`/members/v1/members/${priv.id}?fieldsets=FULL`, token);
    expect(hidden.status).toBe(404);
    expect(JSON.stringify(hidden.body)).not.toContain(priv.loginEmail);
    const self = (await get('/members/v1/members/my?fieldsets=FULL', token)).body.member;
    const own = await get(`/members/v1/members/${self.id}?fieldsets=FULL`, token);
    expect(own.body.member.loginEmail).toBe(user.email);
    // The admin still reads anyone in full.
    expect((await emu.request('GET', `/members/v1/members/${priv.id}?fieldsets=FULL`)).body.member.loginEmail).toBe(priv.loginEmail);
  });
});

describe('buying for someone else', () => {
  it("refuses onBehalf to a member's token: only the business buys on a member's behalf", async () => {
    const user = await registered();
    const { location, verifier } = await signIn(user, 'http://127.0.0.1:1239/cb');
    const t = await post('/oauth2/token', { clientId, grantType: 'authorization_code', redirectUri: 'http://127.0.0.1:1239/cb', code: new URL(location).searchParams.get('code'), codeVerifier: verifier });
    const plan = await emu.request('POST', '/pricing-plans/v2/plans', { plan: { name: `On behalf ${Date.now()}`, pricing: { singlePaymentUnlimited: true, price: { value: '5', currency: 'USD' } } } });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const victim = (await emu.request('POST', '/members/v1/members/query', { query: { paging: { limit: 1 } } })).body.members[0].id as string;
    const r = await post('/pricing-plans/v2/checkout/orders/online', { planId: plan.body.plan.id, onBehalf: { memberId: victim } }, { authorization: t.body.access_token });
    expect(r.status).toBe(403);
    expect(r.body.details.applicationError.code).toBe('PERMISSION_DENIED');
    const orders = (await emu.request('GET', '/pricing-plans/v2/orders?limit=50')).body.orders as Array<{ planId: string }>;
    expect(orders.filter((o) => o.planId === plan.body.plan.id)).toEqual([]);
    // Without onBehalf the member buys for itself, as before.
    const own = await post('/pricing-plans/v2/checkout/orders/online', { planId: plan.body.plan.id }, { authorization: t.body.access_token });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });
});

describe('identity and site policies (docs/wire.md §22)', () => {
  it('answers the error codes of docs/wire.md §22', async () => {
    const v = await visitor();
    const bad = await post('/_api/iam/authentication/v2/register', { loginId: { email: 'not-an-email' }, password: 'secret-pass' }, { authorization: v });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'loginId.email', violatedRule: 'FORMAT', data: { type: 'EMAIL' } });
    const user = await registered();
    const dup = await post('/_api/iam/authentication/v2/register', { loginId: { email: user.email }, password: 'secret-pass' }, { authorization: v });
    expect(dup.body.details.applicationError.code).toBe('-19995');
    const wrong = await post('/_api/iam/authentication/v2/login', { loginId: { email: user.email }, password: 'nope-nope' }, { authorization: v });
    expect(wrong.body.details.applicationError.code).toBe('-19976');
    await emu.request('PUT', '/__emulator/auth-policy', { requireCaptcha: true });
    try {
      const none = await post('/_api/iam/authentication/v2/login', { loginId: { email: user.email }, password: user.password }, { authorization: v });
      expect(none.body.details.applicationError.code).toBe('-19971');
      const badCaptcha = await post('/_api/iam/authentication/v2/login', { loginId: { email: user.email }, password: user.password, captchaTokens: [{ Recaptcha: 'x' }] }, { authorization: v });
      expect(badCaptcha.body.details.applicationError.code).toBe('-19970');
      const good = await post('/_api/iam/authentication/v2/login', { loginId: { email: user.email }, password: user.password, captchaTokens: [{ Recaptcha: 'emulator-captcha-ok' }] }, { authorization: v });
      expect(good.body.state).toBe('SUCCESS');
    } finally {
      await emu.request('PUT', '/__emulator/auth-policy', { requireCaptcha: false });
    }
  });

  it('requires owner approval, then e-mail verification with a code from the outbox', async () => {
    const v = await visitor();
    await emu.request('PUT', '/__emulator/auth-policy', { requireOwnerApproval: true, requireEmailVerification: true });
    try {
      const email = `policy-${Date.now()}@example.com`;
      const r = await post('/_api/iam/authentication/v2/register', { loginId: { email }, password: 'secret-pass' }, { authorization: v });
      expect(r.body.state).toBe('REQUIRE_OWNER_APPROVAL');
      const pending = await emu.request('POST', '/members/v1/members/query', { query: { filter: { loginEmail: email } }, fieldsets: ['FULL'] });
      expect(pending.body.members[0].status).toBe('PENDING');
      await emu.request('POST', `/members/v1/members/${pending.body.members[0].id}/approve`, {});
      const login = await post('/_api/iam/authentication/v2/login', { loginId: { email }, password: 'secret-pass' }, { authorization: v });
      expect(login.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
      const mail = await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(email)}`);
      const code = mail.body.mail.at(-1).code as string;
      expect(code).toMatch(/^\d{6}$/);
      const wrong = await post('/_api/iam/verification/v1/auth/verify', { code: code === '000000' ? '111111' : '000000', stateToken: login.body.stateToken }, { authorization: v });
      expect(wrong.body.details.applicationError.code).toBe('VERIFICATION_FAILED');
      const ok = await post('/_api/iam/verification/v1/auth/verify', { code, stateToken: login.body.stateToken }, { authorization: v });
      expect(ok.body.state).toBe('SUCCESS');
      expect(ok.body.sessionToken).toBeTruthy();
    } finally {
      await emu.request('PUT', '/__emulator/auth-policy', { requireOwnerApproval: false, requireEmailVerification: false });
    }
  });

  it('sends a recovery link and sets a new password with it, once', async () => {
    const user = await registered();
    const v = await visitor();
    await post('/_api/iam/recovery/v1/send-email', { email: user.email }, { authorization: v });
    const mail = await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(user.email)}`);
    const token = mail.body.mail.at(-1).recoveryToken as string;
    const r = await post('/_api/iam/recovery/v1/recover', { recoveryToken: token, password: 'brand-new-pass' }, { authorization: v });
    expect(r.status).toBe(200);
    const reuse = await post('/_api/iam/recovery/v1/recover', { recoveryToken: token, password: 'another-pass' }, { authorization: v });
    expect(reuse.body.details.applicationError.code).toBe('INVALID_RECOVERY_TOKEN');
    const login = await post('/_api/iam/authentication/v2/login', { loginId: { email: user.email }, password: 'brand-new-pass' }, { authorization: v });
    expect(login.body.state).toBe('SUCCESS');
  });
});

describe('the default OAuth apps', () => {
  it('are in admin-key.json, top level and per site, and in emulator status --json', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const key = JSON.parse(readFileSync(join(emu.dataDir, 'admin-key.json'), 'utf8'));
    expect(key.clientId).toBe(clientId);
    expect(key.sites).toHaveLength(2);
    for (const site of key.sites) expect(site.clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(key.sites.find((s: { id: string }) => s.id === emu.siteId).clientId).toBe(clientId);
    // The second site's app signs in to the second site only.
    const other = key.sites.find((s: { id: string }) => s.id !== emu.siteId);
    const t = await post('/oauth2/token', { clientId: other.clientId, grantType: 'anonymous' });
    const info = await post('/oauth2/token-info', { token: t.body.access_token });
    expect(info.body).toMatchObject({ active: true, subjectType: 'VISITOR', siteId: other.id, clientId: other.clientId });

    const { status } = await import('../../../src/commands/emulator/status.js');
    const report = await status(emu.dataDir);
    expect(report.clientId).toBe(clientId);
    expect(report.sites?.map((s) => s.clientId)).toEqual(key.sites.map((s: { clientId: string }) => s.clientId));
  });
});

describe('authorized_client', () => {
  it('issues member tokens to the admin for a member of the site (Authorization: <access token>,<api key>), renewable with the app', async () => {
    const user = await registered();
    const info0 = await emu.request('POST', '/members/v1/members/query', { query: { filter: { loginEmail: user.email } } });
    const memberId = info0.body.members[0].id as string;
    const body = { grant_type: 'authorized_client', scope: 'offline_access', member_id: memberId };
    const refused = await post('/oauth2/token', body);
    expect(refused.status).toBe(401);
    // The bare API key (with wix-site-id) is not the platform's form: the SDK sends a site's access token and the key.
    expect((await post('/oauth2/token', body, { authorization: emu.apiKey, 'wix-site-id': emu.siteId })).status).toBe(401);
    const visitor = (await post('/oauth2/token', { clientId, grantType: 'anonymous' })).body.access_token as string;
    expect((await post('/oauth2/token', body, { authorization: `not-a-token,${emu.apiKey}` })).status).toBe(401);
    expect((await post('/oauth2/token', body, { authorization: `${visitor},IST.wrong` })).status).toBe(401);
    const r = await post('/oauth2/token', body, { authorization: `${visitor},${emu.apiKey}` });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await get('/members/v1/members/my', r.body.access_token)).body.member.id).toBe(memberId);
    const renewed = await post('/oauth2/token', { clientId, grantType: 'refresh_token', refreshToken: r.body.refresh_token });
    expect(renewed.status).toBe(200);
  });
});
