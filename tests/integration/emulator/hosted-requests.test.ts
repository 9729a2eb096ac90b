/**
 * The hosted pages' requests over plain HTTP (docs/sign-in.md "The emulator's OAuth server"): every hosted form
 * refuses a POST from another site (403) before anything else about it, with a request that would otherwise
 * succeed, and nothing happens; the emulator answers only loopback Host names (421 otherwise, on every kind of
 * route: DNS rebinding); device codes typed in any case, with or without the dash or spaces (RFC 8628 section
 * 6.1), what was typed kept after a refusal and the focus on the field in error; one neutral answer for an
 * unknown e-mail and a wrong password; "Forgot password?" through the recovery e-mail back to the sign-in page,
 * and a recovery link used, expired or forged saying which; an SMS sign-in factor's code page.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { challengeOf, createVerifier } from '../../../src/api/auth/pkce.js';
import { isLoopbackHost } from '../../../src/emulator/server.js';
import { normalizeUserCode } from '../../../src/emulator/oauth/token-routes.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let clientId: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, bookings: 0, members: 10 });
  clientId = emu.emulator.clientId;
});
afterAll(async () => {
  await emu?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

async function json(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(emu.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
/** A form post as a browser sends it from the page (`Sec-Fetch-Site: same-origin`), or with `headers` instead. */
async function post(path: string, fields: Record<string, string>, headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' }) {
  const res = await fetch(emu.url + path, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}
async function get(path: string) {
  const res = await fetch(emu.url + path, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}
const visitor = async () => (await json('/oauth2/token', { clientId, grantType: 'anonymous' })).body.access_token as string;

let n = 0;
async function registered(password = 'correct-horse'): Promise<{ email: string; password: string }> {
  const email = `hosted-${Date.now()}-${n++}@example.com`;
  const r = await json('/_api/iam/authentication/v2/register', { loginId: { email }, password }, { authorization: await visitor() });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { email, password };
}
/** A live auth redirect session: its id. */
/** An auth redirect session of app `app` (the site's default app unless given) returning to `redirectUri`. */
async function authSession(app = clientId, redirectUri = 'http://127.0.0.1:9/callback'): Promise<string> {
  const token = (await json('/oauth2/token', { clientId: app, grantType: 'anonymous' })).body.access_token as string;
  const r = await json(
    '/_api/redirects-api/v1/redirect-session',
    { auth: { authRequest: { clientId: app, redirectUri, codeChallenge: challengeOf(createVerifier()), codeChallengeMethod: 'S256', responseMode: 'query', responseType: 'code', state: 's' }, prompt: 'login' } },
    { authorization: token },
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return new URL(r.body.redirectSession.fullUrl).searchParams.get('session')!;
}
/** A device authorization: its device code and user code (the reply's field names in either casing). */
async function deviceStart(): Promise<{ deviceCode: string; userCode: string; complete: string }> {
  const r = await json('/oauth2/device/code', { clientId });
  expect(r.status).toBe(200);
  return { deviceCode: r.body.device_code ?? r.body.deviceCode, userCode: r.body.user_code ?? r.body.userCode, complete: r.body.verification_uri_complete ?? r.body.verificationUriComplete };
}
const poll = async (deviceCode: string) => json('/oauth2/token', { clientId, grantType: 'urn:ietf:params:oauth:grant-type:device_code', deviceCode });
const mailTo = async (email: string) => (await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(email)}`)).body.mail as Json[];

/** A request with an explicit Host header (fetch does not let a caller set one). */
function withHost(host: string | undefined, path: string, method = 'GET', body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: emu.apiKey, 'wix-site-id': emu.siteId, ...(body ? { 'content-type': 'application/json' } : {}) };
    if (host !== undefined) headers.host = host;
    const req = request({ host: '127.0.0.1', port: emu.port, path, method, headers, setHost: host !== undefined }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('cross-site POSTs to every hosted form: 403, before anything else, and nothing happens', () => {
  it('sign-in (/oauth2/authorize): right credentials from another site are refused; the same form from the page signs in', async () => {
    const who = await registered();
    const session = await authSession();
    for (const headers of <Record<string, string>[]>[CROSS_SITE, { origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }]) {
      const r = await post('/oauth2/authorize', { session, email: who.email, password: who.password, action: 'signin' }, headers);
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect(r.text).toContain('This form was not sent from its page');
    }
    // Still live, and no code was issued: the page itself signs in.
    const ok = await post('/oauth2/authorize', { session, email: who.email, password: who.password, action: 'signin' });
    expect(ok.status).toBe(302);
    expect(ok.location).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);
  });

  it('before anything else: an unknown session or a body that is neither a form nor JSON is 403, not 400', async () => {
    expect((await post('/oauth2/authorize', { session: 'no-such-session' }, CROSS_SITE)).status).toBe(403);
    const garbled = await fetch(`${emu.url}/oauth2/device`, { method: 'POST', headers: { 'content-type': 'text/plain', ...CROSS_SITE }, body: '[not json' });
    expect(garbled.status).toBe(403);
    expect((await post('/hosted/paidPlansCheckout', { session: 'nope' }, CROSS_SITE)).status).toBe(403);
    // The same from the page: the session's own answers.
    expect((await post('/oauth2/authorize', { session: 'no-such-session' })).status).toBe(400);
    expect((await post('/hosted/paidPlansCheckout', { session: 'nope' })).status).toBe(400);
  });

  it('registration (/oauth2/register): no account is made from another site', async () => {
    const session = await authSession();
    const email = `hosted-cross-register-${Date.now()}@example.com`;
    expect((await post('/oauth2/register', { session, email, password: 'long-enough' }, CROSS_SITE)).status).toBe(403);
    const login = await json('/_api/iam/authentication/v2/login', { loginId: { email }, password: 'long-enough' }, { authorization: await visitor() });
    expect(login.body.details.applicationError.code).toBe('-19999');
    expect((await post('/oauth2/register', { session, email, password: 'long-enough' })).status).toBe(302);
  });

  it('the e-mail code (/oauth2/authorize/verify): not spent from another site', async () => {
    const who = await registered();
    await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: true });
    try {
      const session = await authSession();
      const page = await post('/oauth2/authorize', { session, email: who.email, password: who.password, action: 'signin' });
      const stateToken = /name="stateToken" value="([^"]+)"/.exec(page.text)![1]!;
      const code = (await mailTo(who.email)).at(-1)!.code as string;
      expect((await post('/oauth2/authorize/verify', { session, stateToken, code }, CROSS_SITE)).status).toBe(403);
      const ok = await post('/oauth2/authorize/verify', { session, stateToken, code });
      expect(ok.status).toBe(302);
      expect(ok.location).toContain('code=');
    } finally {
      await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: false });
    }
  });

  it('an SMS sign-in factor on the hosted page: the phone code page, a wrong code kept on it, the right one back to the app', async () => {
    const who = await registered();
    const phone = '+1 555 010 7788';
    expect((await emu.request('PUT', '/__emulator/identity-factor', { email: who.email, factorType: 'SMS', phone })).status).toBe(200);
    const session = await authSession();
    const page = await post('/oauth2/authorize', { session, email: who.email, password: who.password, action: 'signin' });
    expect(page.text).toContain('Check your phone');
    expect(page.text).toContain('by SMS to ••• 7788');
    const stateToken = /name="stateToken" value="([^"]+)"/.exec(page.text)![1]!;
    const sms = (await mailTo(phone)).at(-1)!;
    expect(sms).toMatchObject({ channel: 'SMS', to: phone });
    const wrong = await post('/oauth2/authorize/verify', { session, stateToken, code: sms.code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Check your phone');
    expect(wrong.text).toContain('That code is not correct.');
    const ok = await post('/oauth2/authorize/verify', { session, stateToken, code: sms.code as string });
    expect(ok.status).toBe(302);
    expect(ok.location).toContain('code=');
  });

  it('device approval (/oauth2/device): not approved from another site', async () => {
    const who = await registered();
    const d = await deviceStart();
    expect((await post('/oauth2/device', { user_code: d.userCode, email: who.email, password: who.password, action: 'approve' }, CROSS_SITE)).status).toBe(403);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await poll(d.deviceCode)).body.error).toBe('authorization_pending');
    const ok = await post('/oauth2/device', { user_code: d.userCode, email: who.email, password: who.password, action: 'approve' });
    expect(ok.text).toContain('Device approved');
  });

  it('forgotten password (/oauth2/forgot) and recovery (/oauth2/recover): no e-mail sent, no password changed from another site', async () => {
    const who = await registered();
    const session = await authSession();
    expect((await post('/oauth2/forgot', { session, email: who.email }, CROSS_SITE)).status).toBe(403);
    expect(await mailTo(who.email)).toEqual([]);
    expect((await post('/oauth2/forgot', { session, email: who.email })).status).toBe(200);
    const token = (await mailTo(who.email)).at(-1)!.recoveryToken as string;
    expect((await post('/oauth2/recover', { token, password: 'new-password' }, CROSS_SITE)).status).toBe(403);
    const old = await json('/_api/iam/authentication/v2/login', { loginId: { email: who.email }, password: who.password }, { authorization: await visitor() });
    expect(old.body.state).toBe('SUCCESS');
    expect((await post('/oauth2/recover', { token, password: 'new-password' })).text).toContain('Your new password is set');
  });

  it('the checkout and its sign-in (/hosted/paidPlansCheckout, /sign-in, /sign-in/verify): 403 from another site', async () => {
    const plan = (await emu.request('GET', '/pricing-plans/v2/plans?limit=100')).body.plans.find((p: Json) => p.name === '10-Class Pack');
    const r = await emu.request('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { planId: plan.id } });
    const session = new URL(r.body.redirectSession.fullUrl).searchParams.get('session')!;
    const signIn = await get(`/hosted/paidPlansCheckout/sign-in?session=${session}`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(signIn.text)![1]!;
    const who = await registered();
    for (const path of ['/hosted/paidPlansCheckout', '/hosted/paidPlansCheckout/sign-in', '/hosted/paidPlansCheckout/sign-in/verify']) {
      expect((await post(path, { session, csrf, email: who.email, password: who.password, action: 'signin' }, CROSS_SITE)).status, path).toBe(403);
    }
    // No buyer was taken: the sign-in page still asks.
    expect((await get(`/hosted/paidPlansCheckout/sign-in?session=${session}`)).text).toContain('type="password"');
    expect((await post('/hosted/paidPlansCheckout/sign-in', { session, csrf, email: who.email, password: who.password, action: 'signin' })).status).toBe(303);
  });
});

describe('only loopback Host names (DNS rebinding): 421 otherwise, on every route', () => {
  it('refuses a foreign Host on API, control-plane, GraphQL, OAuth and hosted-page routes', async () => {
    const routes: Array<[string, string, string?]> = [
      ['GET', '/pricing-plans/v2/plans?limit=1'],
      ['GET', '/__emulator/clock'],
      ['POST', '/graphql/alpha', JSON.stringify({ query: '{ __typename }' })],
      ['POST', '/oauth2/token', JSON.stringify({ clientId, grantType: 'anonymous' })],
      ['GET', '/oauth2/device'],
      ['GET', '/hosted/paidPlansCheckout?session=x'],
      ['GET', '/no/such/route'],
    ];
    for (const host of ['evil.example', `evil.example:${emu.port}`, `127.0.0.1.evil.example:${emu.port}`, `localhost.:${emu.port}`, `127.0.0.1:${emu.port + 1}`, `192.168.1.10:${emu.port}`, `[::2]:${emu.port}`]) {
      for (const [method, path, body] of routes) {
        const r = await withHost(host, path, method, body);
        expect(r.status, `${host} ${method} ${path}`).toBe(421);
        expect(JSON.parse(r.body).details.applicationError.code).toBe('MISDIRECTED_REQUEST');
      }
    }
  });

  it('answers 127.0.0.1, localhost and [::1], with the port or without, in any case', async () => {
    for (const host of [`127.0.0.1:${emu.port}`, '127.0.0.1', `localhost:${emu.port}`, 'LocalHost', `[::1]:${emu.port}`, '[::1]']) {
      expect((await withHost(host, '/pricing-plans/v2/plans?limit=1')).status, host).toBe(200);
      expect((await withHost(host, '/oauth2/device')).status, host).toBe(200);
    }
  });

  it('isLoopbackHost: the rule', () => {
    expect(isLoopbackHost('127.0.0.1:8080', 8080)).toBe(true);
    expect(isLoopbackHost('[::1]', 8080)).toBe(true);
    expect(isLoopbackHost('localhost:8081', 8080)).toBe(false);
    expect(isLoopbackHost(undefined, 8080)).toBe(false);
    expect(isLoopbackHost('', 8080)).toBe(false);
    expect(isLoopbackHost('127.0.0.2', 8080)).toBe(false);
    expect(isLoopbackHost('localhost:08080', 8080)).toBe(true);
  });
});

describe('the device page takes codes as people type them (RFC 8628 section 6.1)', () => {
  it('normalizeUserCode: case, dash, spaces', () => {
    for (const typed of ['gjwckcgd', 'GJWC KCGD', 'gjwc-kcgd', ' Gjwc - Kcgd ', 'GJWC-KCGD']) expect(normalizeUserCode(typed), typed).toBe('GJWC-KCGD');
    expect(normalizeUserCode('GJWC-KCG')).toBe('GJWCKCG');
    expect(normalizeUserCode('')).toBe('');
  });

  it('approves with the code in lower case without the dash; the complete URI fills it in, normalized', async () => {
    const who = await registered();
    const d = await deviceStart();
    expect(d.complete).toBe(`${emu.url}/oauth2/device?user_code=${d.userCode}`);
    const filled = await get(`/oauth2/device?user_code=${encodeURIComponent(d.userCode.toLowerCase().replace('-', ' '))}`);
    expect(filled.text).toContain(`value="${d.userCode}"`);
    // The page says where the sign-in goes once the code is known (the default app is the site itself to a person).
    expect(filled.text).toContain('<h1>Sign in to Downtown on a device</h1>');
    expect(filled.text).not.toContain('Default headless app');
    const ok = await post('/oauth2/device', { user_code: d.userCode.toLowerCase().replace('-', ''), email: who.email, password: who.password, action: 'approve' });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Device approved');
    await new Promise((r) => setTimeout(r, 2100));
    expect((await poll(d.deviceCode)).body.access_token).toMatch(/^OAT\./);
  });

  it('says the same for an unknown e-mail as for a wrong password', async () => {
    const who = await registered();
    const d = await deviceStart();
    const unknown = await post('/oauth2/device', { user_code: d.userCode, email: `nobody-${Date.now()}@example.com`, password: 'whatever-1', action: 'approve' });
    const wrong = await post('/oauth2/device', { user_code: d.userCode, email: who.email, password: 'wrong-password', action: 'approve' });
    expect(unknown.status).toBe(400);
    expect(wrong.status).toBe(400);
    const alert = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1];
    expect(alert(unknown.text)).toBe('Wrong e-mail or password.');
    expect(alert(wrong.text)).toBe(alert(unknown.text));
    expect(unknown.text).not.toContain('No account');
    // What was typed stays; the focus is on the field in error: the password here, the code after a bad code.
    expect(wrong.text).toContain(`value="${who.email}"`);
    expect(wrong.text).toMatch(/id="password"[^>]*autofocus aria-invalid="true"/);
    const badCode = await post('/oauth2/device', { user_code: 'ZZZZ-ZZZZ', email: who.email, password: who.password, action: 'approve' });
    expect(badCode.status).toBe(400);
    expect(alert(badCode.text)).toBe('That code is not valid or has expired. Check the code in your terminal.');
    expect(badCode.text).toContain(`value="${who.email}"`);
    expect(badCode.text).toMatch(/id="user_code"[^>]*value="ZZZZ-ZZZZ" autofocus aria-invalid="true"/);
    expect(badCode.text).not.toMatch(/id="email"[^>]*autofocus/);
  });
});

describe('"Forgot password?" on the sign-in page', () => {
  it('sends the recovery e-mail (the same answer for an unknown address); its link sets the password and leads back to the sign-in', async () => {
    const who = await registered();
    const session = await authSession();
    const signIn = await get(`/oauth2/authorize?session=${session}`);
    expect(signIn.text).toContain(`<a href="/oauth2/forgot?session=${session}">Forgot password?</a>`);
    expect(signIn.text).toContain('<h1>Sign in to Downtown</h1>');
    expect(signIn.text).not.toContain('Default headless app');
    const form = await get(`/oauth2/forgot?session=${session}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain(`<a href="/oauth2/authorize?session=${session}">Back to sign in</a>`);
    const sent = await post('/oauth2/forgot', { session, email: who.email });
    const nobody = await post('/oauth2/forgot', { session, email: 'nobody@example.com' });
    const notice = (html: string) => /class="info"[^>]*>([^<]*)</.exec(html)?.[1]?.replace(/ signs in with \S+,/, ' signs in with X,');
    expect(notice(sent.text)).toContain('a link to set a new password is on its way');
    expect(notice(sent.text)).toBe(notice(nobody.text));
    const mail = (await mailTo(who.email)).at(-1)!;
    expect(mail.subject).toBe('Reset your password');
    const link = new URL(mail.link as string);
    expect(link.searchParams.get('redirect')).toBe(`${emu.url}/oauth2/authorize?session=${session}`);
    const recover = await get(link.pathname + link.search);
    expect(recover.text).toContain('Set a new password');
    const done = await post('/oauth2/recover', { token: mail.recoveryToken, redirect: link.searchParams.get('redirect')!, password: 'brand-new-pass' });
    expect(done.text).toContain('Your new password is set');
    expect(done.text).toContain(`<a href="${emu.url}/oauth2/authorize?session=${session}">Sign in</a>`);
    const signedIn = await post('/oauth2/authorize', { session, email: who.email, password: 'brand-new-pass', action: 'signin' });
    expect(signedIn.location).toContain('code=');
    // The link again: it says precisely that it was used (not "expired"), opened or sent.
    for (const again of [await get(link.pathname + link.search), await post('/oauth2/recover', { token: mail.recoveryToken, redirect: link.searchParams.get('redirect')!, password: 'another-pass' })]) {
      expect(again.status).toBe(400);
      expect(again.text).toContain('<h1>This link was already used</h1>');
      expect(again.text).not.toContain('expired');
      expect(again.text).not.toContain('name="password"');
      expect(again.text).toContain(`<a href="${emu.url}/oauth2/authorize?session=${session}">Back to sign in</a>`);
    }
    expect((await post('/oauth2/authorize', { session: await authSession(), email: who.email, password: 'another-pass', action: 'signin' })).status).toBe(400);
  });

  it('a recovery link past its hour says it expired; a forged one that it is not valid', async () => {
    const who = await registered();
    await post('/oauth2/forgot', { session: await authSession(), email: who.email });
    const mail = (await mailTo(who.email)).at(-1)!;
    // Tokens live in real time (the emulator's clock is for the data): two hours on, the link's hour is over.
    const at = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => at + 2 * 3_600_000);
    try {
      const expired = await get(`/oauth2/recover?token=${encodeURIComponent(mail.recoveryToken)}`);
      expect(expired.status).toBe(400);
      expect(expired.text).toContain('<h1>This link has expired</h1>');
      expect(expired.text).not.toContain('already used');
    } finally {
      clock.mockRestore();
    }
    const forged = await get(`/oauth2/recover?token=${encodeURIComponent(`${mail.recoveryToken}x`)}`);
    expect(forged.text).toContain('<h1>This link is not valid</h1>');
  });

  it('an app of the site\'s own is named second, as where the sign-in continues; the default app never', async () => {
    const app = (await emu.request('POST', '/__emulator/oauth-apps', { name: 'Studio Booking', redirectUris: ['https://book.example/callback'] })).body.app.clientId as string;
    const signIn = await get(`/oauth2/authorize?session=${await authSession(app, 'https://book.example/callback')}`);
    expect(signIn.text).toContain('<h1>Sign in to Downtown</h1><p class="sub">to continue to Studio Booking</p>');
    const d = await json('/oauth2/device/code', { clientId: app });
    const device = await get(`/oauth2/device?user_code=${d.body.user_code ?? d.body.userCode}`);
    expect(device.text).toContain('<h1>Sign in to Downtown on a device</h1><p class="sub">To continue to Studio Booking. Check that the code matches the one in your terminal.</p>');
  });

  it("the checkout's sign-in page has it too, and the recovery leads back to that sign-in page", async () => {
    const who = await registered();
    const plan = (await emu.request('GET', '/pricing-plans/v2/plans?limit=100')).body.plans.find((p: Json) => p.name === '10-Class Pack');
    const r = await emu.request('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { planId: plan.id } });
    const session = new URL(r.body.redirectSession.fullUrl).searchParams.get('session')!;
    const signIn = await get(`/hosted/paidPlansCheckout/sign-in?session=${session}`);
    expect(signIn.text).toContain(`<a href="/oauth2/forgot?checkout=${session}">Forgot password?</a>`);
    const form = await get(`/oauth2/forgot?checkout=${session}`);
    expect(form.text).toContain(`<a href="/hosted/paidPlansCheckout/sign-in?session=${session}">Back to sign in</a>`);
    expect(form.text).toContain('name="checkout"');
    await post('/oauth2/forgot', { checkout: session, email: who.email });
    const link = new URL((await mailTo(who.email)).at(-1)!.link as string);
    expect(link.searchParams.get('redirect')).toBe(`${emu.url}/hosted/paidPlansCheckout/sign-in?session=${session}`);
    // Neither a made-up session nor none: the page says the link expired.
    expect((await get('/oauth2/forgot?checkout=nope')).status).toBe(400);
    expect((await get('/oauth2/forgot')).status).toBe(400);
  });

  it('a recovery link whose redirect is another site gets no link there', async () => {
    const who = await registered();
    const session = await authSession();
    await post('/oauth2/forgot', { session, email: who.email });
    const mail = (await mailTo(who.email)).at(-1)!;
    const page = await get(`/oauth2/recover?token=${encodeURIComponent(mail.recoveryToken)}&redirect=${encodeURIComponent('https://evil.example/phish')}`);
    expect(page.text).not.toContain('evil.example');
    const done = await post('/oauth2/recover', { token: mail.recoveryToken, redirect: 'https://evil.example/phish', password: 'brand-new-pass' });
    expect(done.text).toContain('Your new password is set');
    expect(done.text).not.toContain('evil.example');
  });
});

describe('a free trial on the checkout page', () => {
  it('nothing due today, then the price from the trial end; a coupon for the first payment only words each price in turn', async () => {
    // A frozen clock: the trial's end is a known day.
    const now = Date.parse((await emu.request('PUT', '/__emulator/clock', { frozen: true })).body.clock.now);
    // Days are the site's: its default business location's time zone.
    const locations = (await emu.request('POST', '/v2/services/locations/query', {})).body.businessLocations.locations as Json[];
    const timeZone = locations.find((l) => l.default)?.timeZone ?? 'UTC';
    const trialEnd = new Date(now + 7 * 86_400_000).toLocaleDateString('en-US', { timeZone, year: 'numeric', month: 'short', day: 'numeric' });
    const gold = (await emu.request('GET', '/pricing-plans/v2/plans?limit=100')).body.plans.find((p: Json) => p.name === 'Gold Monthly');
    const page = async (couponCode: string) => {
      const buyer = (await emu.request('POST', '/members/v1/members', { member: { loginEmail: `trial-${Date.now()}-${n++}@example.com` } })).body.member;
      const order = (await emu.request('POST', '/pricing-plans/v2/checkout/orders/online', { planId: gold.id, onBehalf: { memberId: buyer.id }, couponCode })).body.order;
      const r = await emu.request('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { orderId: order.id } });
      return (await get(new URL(r.body.redirectSession.fullUrl).pathname + new URL(r.body.redirectSession.fullUrl).search)).text;
    };
    const welcome = await page('WELCOME10');
    expect(welcome).toContain('<tr class="total"><td>Due today</td><td class="amount">0.00 USD</td></tr>');
    expect(welcome).toContain(`<p class="then">Then 44.10 USD every month from ${trialEnd}</p>`);
    expect(welcome).toContain('>Start free trial</button>');
    expect(welcome).not.toContain('Pay 44.10 USD');
    const start = await page('GOLDSTART');
    expect(start).toContain(`<p class="then">Then 24.50 USD on ${trialEnd}, then 49.00 USD every month</p>`);
  });
});
