/**
 * What sign-in says and does when things go wrong, from the built CLI against an in-process emulator: a refused
 * registration in registration words (bad input exits 2), every token call honouring `--timeout` and `--debug`
 * (member refresh, logout's revocation, an app's client-credentials fetch), a member session ended on the server
 * (refresh token replayed, member blocked or deleted) answered with "sign in again", `auth recover
 * --token-stdin`, `login --wait 0`, an app's client credentials shown by `profile show|list`, and a wrong client
 * secret's hint.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runCli, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
const sandboxes: CliSandbox[] = [];
/** A server that accepts connections and never answers: only a timeout ends a call to it. */
let silent: Server;
let silentUrl: string;
const held: Socket[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, members: 10 });
  silent = createServer((socket) => {
    held.push(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((resolve) => silent?.close(resolve));
  await emu?.close();
  for (const s of sandboxes) s.cleanup();
});

function sandbox(): CliSandbox {
  const s = createCliSandbox();
  sandboxes.push(s);
  return s;
}

const run = (s: CliSandbox, args: string[], input?: string, env: Record<string, string | undefined> = {}, timeoutMs?: number) =>
  runCli(args, { emulator: emu, sandbox: s, input, env: { SITECTL_CLIENT_ID: emu.emulator.clientId, ...env }, ...(timeoutMs ? { timeoutMs } : {}) });

let n = 0;
const email = () => `err-${Date.now()}-${n++}@example.com`;
const sessionsFile = (s: CliSandbox) => join(s.configDir, 'sessions.json');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const sessionFile = (s: CliSandbox): any => JSON.parse(readFileSync(sessionsFile(s), 'utf8'));
/** Makes the stored member access token expire within the refresh margin: the next member call refreshes. */
function expireMemberToken(s: CliSandbox): void {
  const data = sessionFile(s);
  data.profiles.env.member.tokens.accessToken.expiresAt = Math.floor(Date.now() / 1000) + 10;
  writeFileSync(sessionsFile(s), JSON.stringify(data));
}

describe('auth register: a refused registration', () => {
  it('is bad input (exit 2) in registration words for a malformed e-mail and a short password', async () => {
    const s = sandbox();
    const bad = await run(s, ['auth', 'register', '--email', 'bad@', '--password-stdin'], 'pw123456');
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr).toContain('error: cannot register bad@:');
    expect(bad.stderr).not.toContain('cannot sign in');
    expect(bad.stderr).not.toContain('no account?');
    const short = await run(s, ['auth', 'register', '--email', email(), '--password-stdin'], 'abc');
    expect(short.code, short.stderr).toBe(2);
    expect(short.stderr).toMatch(/error: cannot register \S+: password: must be at least 6 characters/);
    // An address that has an account already is still a refusal (exit 4), pointing to the sign-in.
    const who = email();
    expect((await run(s, ['auth', 'register', '--email', who, '--password-stdin'], 'pw123456')).code).toBe(0);
    const dup = await run(s, ['auth', 'register', '--email', who, '--password-stdin'], 'pw123456');
    expect(dup.code).toBe(4);
    expect(dup.stderr).toContain(`an account with ${who} exists already`);
  });
});

describe('token calls honour --debug and --timeout', () => {
  it('traces the member refresh, the revocation on logout and the app token fetch with --debug', async () => {
    const s = sandbox();
    expect((await run(s, ['auth', 'register', '--email', email(), '--password-stdin'], 'pw123456')).code).toBe(0);
    expireMemberToken(s);
    const token = await run(s, ['--debug', 'auth', 'token']);
    expect(token.code, token.stderr).toBe(0);
    expect(token.stderr).toMatch(/debug: > POST http:\/\/127\.0\.0\.1:\d+\/oauth2\/token \(grant refresh_token\)/);
    expect(token.stderr).not.toContain(token.stdout.trim());
    const out = await run(s, ['--debug', 'logout']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/debug: > POST http:\/\/127\.0\.0\.1:\d+\/oauth2\/revoke/);

    const app = await emu.request('POST', '/__emulator/oauth-apps', { name: `Debug app ${n++}` });
    const env = { SITECTL_API_KEY: undefined, SITECTL_SITE_ID: undefined };
    expect((await run(s, ['login', '--client-id', app.body.app.clientId, '--client-secret-stdin'], app.body.clientSecret, env)).code).toBe(0);
    const data = sessionFile(s);
    data.profiles.env.admin.expiresAt = Math.floor(Date.now() / 1000) - 1;
    writeFileSync(sessionsFile(s), JSON.stringify(data));
    const list = await run(s, ['--debug', 'members', 'list', '--limit', '1', '--json', 'id'], undefined, env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toMatch(/debug: > POST http:\/\/127\.0\.0\.1:\d+\/oauth2\/token \(grant client_credentials\)/);
    expect(list.stderr).not.toContain(app.body.clientSecret);
  });

  it('gives up on a server that never answers after --timeout, not the endpoint default (member refresh, revoke, app token)', async () => {
    const s = sandbox();
    const soon = Math.floor(Date.now() / 1000) + 10;
    const later = Math.floor(Date.now() / 1000) - 1;
    const tokens = { accessToken: { value: 'stale-access', expiresAt: soon }, refreshToken: { value: 'stale-refresh', role: 'member' } };
    writeFileSync(
      sessionsFile(s),
      JSON.stringify({
        profiles: {
          env: { clientId: 'client-x', baseUrl: silentUrl, member: { id: 'm-1', loginEmail: 'who@example.com', tokens } },
          app: { baseUrl: silentUrl, admin: { clientId: 'app-x', clientSecret: 'app-secret', accessToken: 'old', expiresAt: later } },
        },
      }),
    );
    const env = { SITECTL_BASE_URL: silentUrl, SITECTL_API_KEY: undefined, SITECTL_SITE_ID: undefined };
    let started = Date.now();
    const refresh = await run(s, ['--timeout', '1', 'auth', 'token'], undefined, env, 25_000);
    expect(refresh.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(8_000);

    expect((await run(s, ['profile', 'add', 'app', '--base-url', silentUrl], undefined, env)).code).toBe(0);
    started = Date.now();
    const appToken = await run(s, ['--profile', 'app', '--timeout', '1', 'members', 'list', '--limit', '1'], undefined, env, 25_000);
    expect(appToken.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(8_000);

    started = Date.now();
    const out = await run(s, ['--timeout', '1', 'logout'], undefined, env, 25_000);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain('The server could not be told');
    expect(Date.now() - started).toBeLessThan(6_000);
  });
});

describe('a member session ended on the server', () => {
  it('asks to sign in again (exit 4) after its refresh token was replayed, not to check the API key', async () => {
    const s = sandbox();
    expect((await run(s, ['auth', 'register', '--email', email(), '--password-stdin'], 'pw123456')).code).toBe(0);
    const first = sessionFile(s).profiles.env.member.tokens.refreshToken.value as string;
    expireMemberToken(s);
    expect((await run(s, ['auth', 'token'])).code).toBe(0);
    // The first refresh token used again (a leak): the server revokes the whole session, the new tokens too.
    const replay = await fetch(`${emu.url}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grantType: 'refresh_token', clientId: emu.emulator.clientId, refreshToken: first }) });
    expect(replay.status).toBe(400);
    for (const args of [['members', 'me'], ['orders', 'list', '--mine']]) {
      const r = await run(s, args);
      expect(r.code, args.join(' ')).toBe(4);
      expect(r.stderr).toContain('is no longer valid on the server');
      expect(r.stderr).toMatch(/hint: sign in again: \S+ login/);
      expect(r.stderr).not.toContain('API key');
    }
  });

  it("ends with the member: a blocked or deleted member's access token is refused at once (401)", async () => {
    const s = sandbox();
    const who = email();
    expect((await run(s, ['auth', 'register', '--email', who, '--password-stdin'], 'pw123456')).code).toBe(0);
    const { id, tokens } = sessionFile(s).profiles.env.member;
    const my = () => fetch(`${emu.url}/members/v1/members/my`, { headers: { authorization: tokens.accessToken.value } });
    expect((await my()).status).toBe(200);
    expect((await emu.request('POST', `/members/v1/members/${id}/block`, {})).status).toBe(200);
    const refused = await my();
    expect(refused.status).toBe(401);
    const body = await refused.json();
    expect(body).toMatchObject({ details: { applicationError: { code: 'UNAUTHENTICATED' } } });
    expect(JSON.stringify(body)).toContain('may no longer sign in (BLOCKED)');
    const me = await run(s, ['members', 'me']);
    expect(me.code).toBe(4);
    expect(me.stderr).toContain('is no longer valid on the server');
    expect(me.stderr).toMatch(/hint: sign in again/);
    const orders = await fetch(`${emu.url}/pricing-plans/v2/member/orders?limit=1`, { headers: { authorization: tokens.accessToken.value } });
    expect(orders.status).toBe(401);
    // Unblocked, the session stays ended: the member signs in again.
    expect((await emu.request('POST', `/members/v1/members/${id}/approve`, {})).status).toBe(200);
    expect((await my()).status).toBe(401);
    expect((await run(s, ['login', '--email', who, '--password-stdin'], 'pw123456')).code).toBe(0);
    expect((await run(s, ['members', 'me'])).code).toBe(0);

    const s2 = sandbox();
    expect((await run(s2, ['auth', 'register', '--email', email(), '--password-stdin'], 'pw123456')).code).toBe(0);
    const gone = sessionFile(s2).profiles.env.member;
    expect((await emu.request('DELETE', `/members/v1/members/${gone.id}`)).status).toBe(200);
    const after = await fetch(`${emu.url}/members/v1/members/my`, { headers: { authorization: gone.tokens.accessToken.value } });
    expect(after.status).toBe(401);
  });
});

describe('nits', () => {
  it('auth recover --token-stdin takes the token from stdin; --token says it shows in the process list', async () => {
    const s = sandbox();
    const who = email();
    expect((await run(s, ['auth', 'register', '--email', who, '--password-stdin'], 'pw123456')).code).toBe(0);
    expect((await run(s, ['auth', 'recover', '--email', who])).code).toBe(0);
    const token = (await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(who)}`)).body.mail.at(-1).recoveryToken as string;
    const both = await run(s, ['auth', 'recover', '--token', token, '--token-stdin', '--password-stdin'], `${token}\nnew-pass-1`);
    expect(both.code).toBe(2);
    const noPassword = await run(s, ['auth', 'recover', '--token-stdin', '--password-stdin'], `${token}\n`);
    expect(noPassword.code).toBe(2);
    expect(noPassword.stderr).toContain('no new password on stdin');
    const set = await run(s, ['auth', 'recover', '--token-stdin', '--password-stdin'], `${token}\nnew-pass-1\n`);
    expect(set.code, set.stderr).toBe(0);
    expect((await run(s, ['login', '--email', who, '--password-stdin'], 'new-pass-1')).code).toBe(0);
    const help = await run(s, ['auth', 'recover', '--help']);
    expect(help.stdout).toContain('--token-stdin');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('Visible in the process list and shell history');
  });

  it('login --wait: the message names the range the check takes', async () => {
    const s = sandbox();
    const zero = await run(s, ['login', '--wait', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--wait must be a number of seconds above 0 and at most 3600');
  });

  it("profile show and list name an app's client credentials and where the secret is kept; a wrong secret's hint names it", async () => {
    const s = sandbox();
    const app = await emu.request('POST', '/__emulator/oauth-apps', { name: `Profile app ${n++}` });
    const clientId = app.body.app.clientId as string;
    const add = await run(s, ['profile', 'add', 'ci', '--base-url', emu.url], undefined, { SITECTL_API_KEY: undefined });
    expect(add.code, add.stderr).toBe(0);
    const wrong = await run(s, ['--profile', 'ci', 'login', '--client-id', clientId, '--client-secret-stdin'], 'not-the-secret');
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toMatch(/hint: check the client id .*secret/);
    const ok = await run(s, ['--profile', 'ci', 'login', '--client-id', clientId, '--client-secret-stdin'], app.body.clientSecret);
    expect(ok.code, ok.stderr).toBe(0);
    const show = await run(s, ['profile', 'show', 'ci', '--json', 'credential,secretStoredIn']);
    expect(JSON.parse(show.stdout)).toEqual({ credential: 'clientCredentials', secretStoredIn: sessionsFile(s) });
    const list = await run(s, ['profile', 'list', '--json', 'name,credential,secretStoredIn']);
    expect(JSON.parse(list.stdout)).toContainEqual({ name: 'ci', credential: 'clientCredentials', secretStoredIn: sessionsFile(s) });
    // auth status --json keeps the README's shape: its five keys and clientId.
    const status = await run(s, ['--profile', 'ci', 'auth', 'status', '--json']);
    expect(Object.keys(JSON.parse(status.stdout)).sort()).toEqual(['clientId', 'expiresAt', 'member', 'profile', 'role', 'storedIn']);
  });
});
