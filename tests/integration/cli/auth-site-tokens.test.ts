/**
 * One site's member tokens are never used on another site (core/sessions.ts: each session records its site).
 * The environment-only profile (SITECTL_SITE_ID differs from run to run) and a stored profile whose site id is
 * changed keep each site's sign-in to that site; a session written before sessions kept their site is taken as
 * the profile's own site's, once, and then stays that site's. The "finish with" hints of a sign-in waiting for
 * its e-mail code carry the `--profile` and `--site` it was started with. In process, against a real emulator
 * whose account holds two sites, each with its own default OAuth app.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let downtown: { id: string; name: string; clientId?: string };
let uptown: { id: string; name: string; clientId?: string };
const sandboxes: CliSandbox[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, members: 5 });
  downtown = emu.emulator.sites.find((s) => s.id === emu.siteId)!;
  uptown = emu.emulator.sites.find((s) => s.name === 'Uptown')!;
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

let n = 0;
const address = (what: string) => `${what}-${Date.now()}-${n++}@example.com`;
const file = (s: CliSandbox) => join(s.configDir, 'sessions.json');
const sessions = (s: CliSandbox) => JSON.parse(readFileSync(file(s), 'utf8')).profiles as Record<string, { siteId?: string | null; member?: { id: string; loginEmail?: string } }>;

/** The CLI with environment-only configuration on `site` (and that site's app when `app` is given). */
const onSite = (s: CliSandbox, site: string, args: string[], opts: { input?: string; app?: string } = {}) =>
  runInProcess(args, { emulator: emu, sandbox: s, input: opts.input, env: { SITECTL_SITE_ID: site, SITECTL_CLIENT_ID: opts.app } });

describe('member tokens stay on their site', () => {
  it('environment-only: a Downtown sign-in is not signed in on Uptown (status, members me, auth token), and each site keeps its own', async () => {
    const s = sandbox();
    const down = address('down');
    await emu.request('POST', '/_api/iam/authentication/v2/register', { loginId: { email: down }, password: 'pass-word-1' });
    const login = await onSite(s, downtown.id, ['login', '--email', down, '--password-stdin'], { input: 'pass-word-1', app: downtown.clientId });
    expect(login.code, login.stderr).toBe(0);

    // Uptown: the Downtown member is not signed in there.
    const status = await onSite(s, uptown.id, ['auth', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'env', role: 'admin', member: null });
    const me = await onSite(s, uptown.id, ['members', 'me', '--json', 'id,loginEmail']);
    expect(me.code).toBe(4);
    expect(me.stdout).toBe('');
    expect(me.stderr).toContain(`not signed in as a member on site ${uptown.id}`);
    expect(me.stderr).toContain(`sign in on site ${uptown.id}`);
    const token = await onSite(s, uptown.id, ['auth', 'token']);
    expect(token.code).toBe(4);
    expect(token.stdout).toBe('');
    expect(token.stderr).toContain(`sign in on site ${uptown.id}`);

    // Downtown still is.
    const downMe = await onSite(s, downtown.id, ['members', 'me', '--json', 'loginEmail']);
    expect(downMe.code, downMe.stderr).toBe(0);
    expect(JSON.parse(downMe.stdout)).toEqual({ loginEmail: down });
    expect(sessions(s).env).toMatchObject({ siteId: downtown.id, member: { loginEmail: down } });

    // Signing in on Uptown keeps the Downtown sign-in (moved beside it), and each site answers with its own member.
    const up = address('up');
    const reg = await onSite(s, uptown.id, ['auth', 'register', '--email', up, '--password-stdin'], { input: 'pass-word-1', app: uptown.clientId });
    expect(reg.code, reg.stderr).toBe(0);
    expect(JSON.parse((await onSite(s, uptown.id, ['members', 'me', '--json', 'loginEmail'])).stdout)).toEqual({ loginEmail: up });
    const back = await onSite(s, downtown.id, ['members', 'me', '--json', 'loginEmail']);
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toEqual({ loginEmail: down });
    expect(Object.values(sessions(s)).map((x) => [x.siteId, x.member?.loginEmail]).sort()).toEqual([[downtown.id, down], [uptown.id, up]].sort());
  });

  it("a stored profile whose site id changed is not signed in on its new site; its old site's session answers with --site", async () => {
    const s = sandbox();
    const env = { SITECTL_CLIENT_ID: downtown.clientId };
    const run = (args: string[], input?: string, extra: Record<string, string | undefined> = {}) => runInProcess(args, { sandbox: s, input, env: { ...env, ...extra } });
    expect((await run(['profile', 'add', 'prod', '--base-url', emu.url, '--site-id', downtown.id, '--api-key-stdin'], emu.apiKey)).code).toBe(0);
    const down = address('prod');
    const reg = await run(['auth', 'register', '--email', down, '--password-stdin'], 'pass-word-1');
    expect(reg.code, reg.stderr).toBe(0);

    expect((await run(['profile', 'add', 'prod', '--base-url', emu.url, '--site-id', uptown.id, '--api-key-stdin'], emu.apiKey)).code).toBe(0);
    const status = await run(['auth', 'status', '--json', 'role,member']);
    expect(JSON.parse(status.stdout)).toEqual({ role: 'admin', member: null });
    const me = await run(['members', 'me'], undefined, { SITECTL_CLIENT_ID: undefined });
    expect(me.code).toBe(4);
    expect(me.stderr).toContain(`sign in on site ${uptown.id}`);
    const old = await run(['members', 'me', '--site', downtown.id, '--json', 'loginEmail']);
    expect(old.code, old.stderr).toBe(0);
    expect(JSON.parse(old.stdout)).toEqual({ loginEmail: down });
    expect(sessions(s).prod).toMatchObject({ siteId: downtown.id, member: { loginEmail: down } });
  });

  it('a session written before sessions kept their site is the current site\'s, and stays that site\'s', async () => {
    const s = sandbox();
    const down = address('legacy');
    const reg = await onSite(s, downtown.id, ['auth', 'register', '--email', down, '--password-stdin'], { input: 'pass-word-1', app: downtown.clientId });
    expect(reg.code, reg.stderr).toBe(0);
    // As an older sitectl wrote it: no siteId.
    const data = JSON.parse(readFileSync(file(s), 'utf8'));
    delete data.profiles.env.siteId;
    writeFileSync(file(s), JSON.stringify(data));

    const me = await onSite(s, downtown.id, ['members', 'me', '--json', 'loginEmail']);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toEqual({ loginEmail: down });
    const other = await onSite(s, uptown.id, ['members', 'me']);
    expect(other.code).toBe(4);
    expect(sessions(s).env?.siteId).toBe(downtown.id);
  });
});

describe('hints of a sign-in waiting for its e-mail code', () => {
  it('name the --profile and --site it was started with, and the hint as printed finishes it', async () => {
    const s = sandbox();
    const env = { SITECTL_CLIENT_ID: uptown.clientId, SITECTL_ACCOUNT_ID: emu.accountId };
    const run = (args: string[], input?: string) => runInProcess(args, { sandbox: s, input, env });
    expect((await run(['profile', 'add', 'prod', '--base-url', emu.url, '--site-id', downtown.id, '--api-key-stdin'], emu.apiKey)).code).toBe(0);
    await emu.request('PUT', '/__emulator/auth-policy', { site: uptown.id, requireEmailVerification: true });
    try {
      const who = address('hint');
      const reg = await run(['--profile', 'prod', '--site', 'Uptown', 'auth', 'register', '--email', who, '--password-stdin'], 'pass-word-1');
      expect(reg.code).toBe(4);
      expect(reg.stderr).toContain('finish with: printf %s CODE | sitectl auth verify --code-stdin --profile prod --site Uptown');
      const code = (await emu.request('GET', `/__emulator/mail?site=${uptown.id}&to=${encodeURIComponent(who)}`)).body.mail.at(-1).code as string;

      // A wrong code: the retry hint names the site too.
      const wrong = await run(['auth', 'verify', '--code-stdin', '--profile', 'prod', '--site', 'Uptown'], '000000x');
      expect(wrong.code).toBe(4);
      expect(wrong.stderr).toContain('try again: printf %s CODE | sitectl auth verify --code-stdin --profile prod --site Uptown');
      // Without the site the pending sign-in is not found (it is Uptown's).
      expect((await run(['--profile', 'prod', 'auth', 'verify', '--code-stdin'], code)).code).toBe(4);
      const ok = await run(['auth', 'verify', '--code-stdin', '--profile', 'prod', '--site', 'Uptown'], code);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toContain(`Signed in as ${who}`);

      // A site given by a name that needs quoting is quoted for the shell.
      const odd = await runInProcess(['login', '--code', '1', '--site', "Up'town"], { sandbox: s, env });
      expect(odd.code).toBe(2);
      expect(odd.stderr).toContain(`printf %s "$CODE" | sitectl auth verify --code-stdin --site 'Up'\\''town'`);
    } finally {
      await emu.request('PUT', '/__emulator/auth-policy', { site: uptown.id, requireEmailVerification: false });
    }
  });
});
