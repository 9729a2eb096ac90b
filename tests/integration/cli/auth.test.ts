/**
 * Sign-in from the built CLI against an in-process emulator (docs/sign-in.md): direct login with every state
 * (wrong password, owner approval, e-mail code by --code and by `auth verify`, captcha), register, recover, member
 * tokens on `members me` and `orders list|get|cancel --mine`, refresh before expiry, logout (tokens revoked and
 * removed), `auth status|token`, app client credentials for admin calls, the flags checked before anything is
 * sent, and no token in any output.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removePidFile, writePidFile } from '../../../src/local/daemon.js';
import { createCliSandbox, runCli, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
const sandboxes: CliSandbox[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, members: 10 });
});
afterAll(async () => {
  await emu?.close();
  for (const s of sandboxes) s.cleanup();
});

function sandbox(): CliSandbox {
  const s = createCliSandbox();
  sandboxes.push(s);
  return s;
}

const run = (s: CliSandbox, args: string[], input?: string, env: Record<string, string | undefined> = {}) =>
  runCli(args, { emulator: emu, sandbox: s, input, env: { SITECTL_CLIENT_ID: emu.emulator.clientId, ...env } });

let n = 0;
const email = () => `cli-${Date.now()}-${n++}@example.com`;

function sessionFile(s: CliSandbox) {
  return JSON.parse(readFileSync(join(s.configDir, 'sessions.json'), 'utf8'));
}

describe('direct login', () => {
  it('registers, signs in, shows the member, refreshes, and signs out (tokens revoked and removed)', async () => {
    const s = sandbox();
    const who = email();
    const reg = await run(s, ['auth', 'register', '--email', who, '--password-stdin', '--name', 'Cli Person'], 'pass-word-1\n');
    expect(reg.code, reg.stderr).toBe(0);
    expect(reg.stderr).toContain(`Registered and signed in as ${who}`);
    expect(statSync(join(s.configDir, 'sessions.json')).mode & 0o777).toBe(0o600);

    const me = await run(s, ['members', 'me', '--json', 'loginEmail,profile']);
    expect(JSON.parse(me.stdout)).toMatchObject({ loginEmail: who, profile: { nickname: 'Cli Person' } });

    // Make the stored access token expire within the refresh margin: the next call refreshes (and rotates).
    const before = sessionFile(s).profiles.env.member.tokens;
    const file = join(s.configDir, 'sessions.json');
    const data = sessionFile(s);
    data.profiles.env.member.tokens.accessToken.expiresAt = Math.floor(Date.now() / 1000) + 10;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, JSON.stringify(data));
    const token = await run(s, ['auth', 'token']);
    expect(token.code).toBe(0);
    const after = sessionFile(s).profiles.env.member.tokens;
    expect(after.refreshToken.value).not.toBe(before.refreshToken.value);
    expect(token.stdout.trim()).toBe(after.accessToken.value);
    expect(after.accessToken.expiresAt).toBeGreaterThan(Math.floor(Date.now() / 1000) + 3600);

    const status = await run(s, ['auth', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'env', role: 'member', member: { loginEmail: who } });

    const out = await run(s, ['logout']);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`Signed out of profile 'env' (${who})`);
    expect(sessionFile(s).profiles.env.member).toBeUndefined();
    // The server revoked the session: the old access token no longer works.
    const res = await fetch(`${emu.url}/members/v1/members/my`, { headers: { authorization: after.accessToken.value } });
    expect(res.status).toBe(401);
    const again = await run(s, ['members', 'me']);
    expect(again.code).toBe(4);
    expect(again.stderr).toContain("is not signed in as a member");
    const st2 = await run(s, ['auth', 'status', '--json', 'role']);
    // The environment's API key is the admin credential that remains.
    expect(JSON.parse(st2.stdout)).toEqual({ role: 'admin' });
  });

  it('exits 4 for a wrong password and an unknown e-mail, naming what to do', async () => {
    const s = sandbox();
    const who = email();
    await run(s, ['auth', 'register', '--email', who, '--password-stdin'], 'pass-word-1');
    const wrong = await run(s, ['login', '--email', who, '--password-stdin'], 'nope-nope');
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('error: wrong e-mail or password');
    expect(wrong.stderr).toContain(`auth recover --email ${who}`);
    const unknown = await run(s, ['login', '--email', `nobody-${who}`, '--password-stdin'], 'nope-nope');
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('auth register');
  });

  it('explains owner approval, then takes the e-mail code with --code or auth verify', async () => {
    const s = sandbox();
    const who = email();
    await emu.request('PUT', '/__emulator/auth-policy', { requireOwnerApproval: true, requireEmailVerification: true });
    try {
      const reg = await run(s, ['auth', 'register', '--email', who, '--password-stdin'], 'pass-word-1');
      expect(reg.code).toBe(4);
      expect(reg.stderr).toContain("waiting for the site owner's approval");
      const m = await emu.request('POST', '/members/v1/members/query', { query: { filter: { loginEmail: who } } });
      await emu.request('POST', `/members/v1/members/${m.body.members[0].id}/approve`, {});

      const noCode = await run(s, ['login', '--email', who, '--password-stdin'], 'pass-word-1');
      expect(noCode.code).toBe(4);
      expect(noCode.stderr).toContain(`sent a verification code to ${who}`);
      expect(noCode.stderr).toContain('auth verify --code-stdin');
      // `emulator mail` reads the outbox of the emulator of a data dir: the in-process one, announced by a pid file.
      writePidFile(emu.dataDir, { pid: process.pid, url: emu.url, port: emu.port });
      let code: string;
      try {
        const mail = await run(s, ['emulator', 'mail', '--data-dir', emu.dataDir, '--to', who, '--json', 'to,subject,code']);
        expect(mail.code, mail.stderr).toBe(0);
        const rows = JSON.parse(mail.stdout) as Array<{ to: string; subject: string; code: string }>;
        expect(rows.at(-1)).toMatchObject({ to: who, subject: 'Your verification code', code: expect.stringMatching(/^\d{6}$/) });
        code = rows.at(-1)!.code;
      } finally {
        removePidFile(emu.dataDir, process.pid);
      }
      const bad = await run(s, ['auth', 'verify', '--code', code === '000000' ? '111111' : '000000']);
      expect(bad.code).toBe(4);
      expect(bad.stderr).toContain('the verification code is not correct');

      const again = await run(s, ['login', '--email', who, '--password-stdin'], 'pass-word-1');
      expect(again.code).toBe(4);
      const code2 = (await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(who)}`)).body.mail.at(-1).code as string;
      const ok = await run(s, ['auth', 'verify', '--code', code2]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toContain(`Signed in as ${who}`);
      const none = await run(s, ['auth', 'verify', '--code', code2]);
      expect(none.code).toBe(4);
      expect(none.stderr).toContain('Unknown _state');
    } finally {
      await emu.request('PUT', '/__emulator/auth-policy', { requireOwnerApproval: false, requireEmailVerification: false });
    }
  });

  it('reports a captcha the site requires (exit 4, sign in in a browser)', async () => {
    const s = sandbox();
    const who = email();
    await run(s, ['auth', 'register', '--email', who, '--password-stdin'], 'pass-word-1');
    await emu.request('PUT', '/__emulator/auth-policy', { requireCaptcha: true });
    try {
      const r = await run(s, ['login', '--email', who, '--password-stdin'], 'pass-word-1');
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('requires a captcha');
      expect(r.stderr).toContain('missingCaptchaToken');
    } finally {
      await emu.request('PUT', '/__emulator/auth-policy', { requireCaptcha: false });
    }
  });

  it('reports the server states it has no step for (STATUS_CHECK, UNKNOWN_STATE) as Unknown _state (exit 4, the browser sign-in)', async () => {
    const s = sandbox();
    const who = email();
    await run(s, ['auth', 'register', '--email', who, '--password-stdin'], 'pass-word-1');
    try {
      for (const answerState of ['STATUS_CHECK', 'UNKNOWN_STATE']) {
        expect((await emu.request('PUT', '/__emulator/auth-policy', { answerState })).status).toBe(200);
        const r = await run(s, ['login', '--email', who, '--password-stdin'], 'pass-word-1');
        expect(r.code, answerState).toBe(4);
        expect(r.stderr).toContain('sign-in state this client cannot complete (Unknown _state)');
        expect(r.stderr).toMatch(/sitectl.* login/);
        const reg = await run(s, ['auth', 'register', '--email', email(), '--password-stdin'], 'pass-word-1');
        expect(reg.code, answerState).toBe(4);
        expect(reg.stderr).toContain('registration state this client cannot complete');
      }
      expect((await emu.request('PUT', '/__emulator/auth-policy', { answerState: 'SUCCESS' })).status).toBe(400);
    } finally {
      await emu.request('PUT', '/__emulator/auth-policy', { answerState: null });
    }
    expect((await run(s, ['login', '--email', who, '--password-stdin'], 'pass-word-1')).code).toBe(0);
  });

  it('recovers a password through the recovery link', async () => {
    const s = sandbox();
    const who = email();
    await run(s, ['auth', 'register', '--email', who, '--password-stdin'], 'pass-word-1');
    const send = await run(s, ['auth', 'recover', '--email', who]);
    expect(send.code).toBe(0);
    const token = (await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(who)}`)).body.mail.at(-1).recoveryToken as string;
    const set = await run(s, ['auth', 'recover', '--token', token, '--password-stdin'], 'brand-new-pass');
    expect(set.code, set.stderr).toBe(0);
    const login = await run(s, ['login', '--email', who, '--password-stdin'], 'brand-new-pass');
    expect(login.code, login.stderr).toBe(0);
  });
});

describe('member commands', () => {
  it("lists, shows and cancels the member's own orders with --mine, and sees no other member's", async () => {
    const s = sandbox();
    const who = email();
    await run(s, ['auth', 'register', '--email', who, '--password-stdin'], 'pass-word-1');
    const memberId = sessionFile(s).profiles.env.member.id as string;
    const plan = await emu.request('POST', '/pricing-plans/v2/plans', {
      plan: { name: `Cancelable ${n++}`, allowFutureStartDate: false, buyerCanCancel: true, pricing: { subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 6 }, price: { value: '10', currency: 'USD' } } },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const order = await emu.request('POST', '/pricing-plans/v2/checkout/orders/offline', { planId: plan.body.plan.id, memberId, paid: true });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const orderId = order.body.order.id as string;

    const list = await run(s, ['orders', 'list', '--mine', '--json', 'id,status']);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([{ id: orderId, status: 'ACTIVE' }]);
    const get = await run(s, ['orders', 'get', orderId, '--mine', '--json', 'id,buyer']);
    expect(JSON.parse(get.stdout)).toMatchObject({ id: orderId, buyer: { memberId } });
    const others = (await emu.request('GET', '/pricing-plans/v2/orders?limit=10')).body.orders as Array<{ id: string; buyer: { memberId: string } }>;
    const other = others.find((o) => o.buyer.memberId !== memberId)!.id;
    const foreign = await run(s, ['orders', 'get', other, '--mine']);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('ORDER_NOT_FOUND');
    const refused = await run(s, ['orders', 'list', '--mine', '--plan', 'x']);
    expect(refused.code).toBe(2);
    // Off a terminal the member's cancel needs --yes, as the owner's does (tests/integration/cli/orders-confirm.test.ts).
    expect((await run(s, ['orders', 'cancel', orderId, '--mine'])).code).toBe(2);
    const cancel = await run(s, ['orders', 'cancel', orderId, '--mine', '--yes']);
    expect(cancel.code, cancel.stderr).toBe(0);
    const after = await emu.request('GET', `/pricing-plans/v2/orders/${orderId}`);
    expect(after.body.order.status).toBe('CANCELED');
    expect(after.body.order.cancellation.cause).toBe('MEMBER_ACTION');
    // Owner verbs still use the admin credential.
    const owner = await run(s, ['orders', 'get', orderId, '--json', 'status']);
    expect(JSON.parse(owner.stdout)).toEqual({ status: 'CANCELED' });
  });

  it('asks for a sign-in (exit 4) before any member call', async () => {
    const s = sandbox();
    for (const args of [['members', 'me'], ['orders', 'list', '--mine'], ['auth', 'token']]) {
      const r = await run(s, args);
      expect(r.code, args.join(' ')).toBe(4);
      expect(r.stderr).toMatch(/sitectl.* login/);
    }
  });
});

describe('app client credentials', () => {
  it('signs in as an app for admin calls without an API key', async () => {
    const s = sandbox();
    const app = await emu.request('POST', '/__emulator/oauth-apps', { name: 'CI app' });
    // The SDK's AppStrategy body carries the app's instance: SITECTL_INSTANCE_ID (or profile add --instance-id).
    const env = { SITECTL_API_KEY: undefined, SITECTL_SITE_ID: undefined, SITECTL_INSTANCE_ID: app.body.app.instanceId as string };
    const bad = await run(s, ['login', '--client-id', app.body.app.clientId, '--client-secret-stdin'], 'wrong', env);
    expect(bad.code).toBe(4);
    const otherInstance = await run(s, ['login', '--client-id', app.body.app.clientId, '--client-secret-stdin'], `${app.body.clientSecret}\n`, { ...env, SITECTL_INSTANCE_ID: '00000000-0000-4000-8000-000000000000' });
    expect(otherInstance.code, otherInstance.stderr).toBe(4);
    expect(otherInstance.stderr).toContain('instance_id');
    const ok = await run(s, ['login', '--client-id', app.body.app.clientId, '--client-secret-stdin'], `${app.body.clientSecret}\n`, env);
    expect(ok.code, ok.stderr).toBe(0);
    const list = await run(s, ['members', 'list', '--limit', '2', '--json', 'id'], undefined, env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(2);
    const status = await run(s, ['auth', 'status', '--json', 'role,clientId'], undefined, env);
    expect(JSON.parse(status.stdout)).toEqual({ role: 'admin', clientId: app.body.app.clientId });
    expect(readFileSync(join(s.configDir, 'sessions.json'), 'utf8')).toContain(app.body.app.clientId);
    // logout revokes the app's token on the server (with the app's secret: RFC 7009 section 2.1), then forgets it.
    const appToken = sessionFile(s).profiles.env.admin.accessToken as string;
    const out = await run(s, ['logout'], undefined, env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).not.toContain('could not be told');
    const res = await fetch(`${emu.url}/members/v1/members?.r=eyJwYWdpbmciOnsibGltaXQiOjF9fQ`, { headers: { authorization: appToken } });
    expect(res.status).toBe(401);
  });
});

describe('flags and secrets', () => {
  it('refuses bad flag combinations before sending anything (exit 2)', async () => {
    const s = sandbox();
    const cases: Array<[string[], RegExp]> = [
      [['login', '--password-stdin'], /--password-stdin needs --email/],
      [['login', '--email', 'a@b.c'], /--email needs --password-stdin/],
      [['login', '--device', '--email', 'a@b.c', '--password-stdin'], /pick one/],
      [['login', '--port', '70000'], /--port must be a whole number from 1 to 65535/],
      [['login', '--wait', 'soon'], /--wait must be a number of seconds/],
      [['login', '--client-secret-stdin'], /needs --client-id/],
      [['login', '--device', '--port', '8080'], /browser sign-in only/],
    ];
    for (const [args, message] of cases) {
      const r = await run(s, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
    }
  });

  it('keeps tokens and passwords out of every output, --debug included', async () => {
    const s = sandbox();
    const who = email();
    const reg = await run(s, ['--debug', 'auth', 'register', '--email', who, '--password-stdin'], 'secret-pass-9');
    const me = await run(s, ['--debug', 'members', 'me']);
    const tokens = sessionFile(s).profiles.env.member.tokens;
    for (const out of [reg.stdout, reg.stderr, me.stdout, me.stderr]) {
      expect(out).not.toContain(tokens.accessToken.value);
      expect(out).not.toContain(tokens.refreshToken.value);
      expect(out).not.toContain('secret-pass-9');
    }
    expect(me.stderr).toContain('debug:');
  });
});
