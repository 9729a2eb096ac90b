/**
 * Sign-in follows `--site` (docs/sign-in.md "Sites"): on the local emulator each site of the account has its own
 * default OAuth app (admin-key.json `sites[].clientId`), and `auth register|login|status|token`, `members me` and
 * `logout` use the chosen site's app and the session kept for the profile on that site. The built CLI runs on
 * the built-in `local` profile against an in-process emulator living in the sandbox's local data dir (announced
 * by its pid file, as a background emulator would be).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { removePidFile, writePidFile } from '../../../src/local/daemon.js';
import { createCliSandbox, runCli, type CliSandbox } from '../../helpers/index.js';

let sandbox: CliSandbox;
let emu: RunningEmulator;
let dataDir: string;
let uptown: { id: string; name: string; clientId?: string };
let downtown: { id: string; name: string; clientId?: string };

beforeAll(async () => {
  sandbox = createCliSandbox();
  dataDir = join(sandbox.dataDir, 'emulator');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  emu = await startEmulator({ dataDir, port: 0, seed: 'demo', quiet: true, size: 5, members: 10 });
  writePidFile(dataDir, { pid: process.pid, url: emu.url, port: emu.port });
  downtown = emu.sites.find((s) => s.id === emu.siteId)!;
  uptown = emu.sites.find((s) => s.name === 'Uptown')!;
});
afterAll(async () => {
  if (dataDir) removePidFile(dataDir, process.pid);
  await emu?.close();
  sandbox?.cleanup();
});

/** The CLI on the `local` profile: no SITECTL_* target, no client id from the environment. */
const run = (args: string[], input?: string) => runCli(args, { sandbox, input });
const sessions = () => JSON.parse(readFileSync(join(sandbox.configDir, 'sessions.json'), 'utf8')).profiles as Record<string, { clientId?: string; member?: { id: string; loginEmail?: string } }>;
/** The emulator's admin API on one site. */
async function admin(site: string, method: string, path: string): Promise<{ status: number; body: { member?: { id: string; loginEmail?: string } } }> {
  const res = await fetch(emu.url + path, { method, headers: { authorization: emu.apiKey, 'wix-site-id': site } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

describe('sign-in on another site of the account (--site)', () => {
  it("registers, signs in and reports on the chosen site with that site's app; the profile's own site keeps its own session", async () => {
    expect(uptown?.clientId).toBeTruthy();
    expect(uptown.clientId).not.toBe(downtown.clientId);
    const up = `up-${Date.now()}@example.com`;
    const reg = await run(['auth', 'register', '--email', up, '--password-stdin', '--site', 'Uptown'], 'pw123456');
    expect(reg.code, reg.stderr).toBe(0);
    expect(reg.stderr).toContain(`Registered and signed in as ${up}`);
    expect(reg.stderr).toContain(`on profile 'local' on site Uptown (${uptown.id})`);

    // The member is Uptown's, signed in with Uptown's app, and kept under the profile and that site.
    const key = `local@${uptown.id}`;
    const stored = sessions()[key]!;
    expect(stored).toMatchObject({ clientId: uptown.clientId, member: { loginEmail: up } });
    expect((await admin(uptown.id, 'GET', `/members/v1/members/${stored.member!.id}`)).status).toBe(200);
    expect((await admin(downtown.id, 'GET', `/members/v1/members/${stored.member!.id}`)).status).toBe(404);

    const status = await run(['auth', 'status', '--json', '--site', 'Uptown']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'local', role: 'member', member: { id: stored.member!.id, loginEmail: up }, clientId: uptown.clientId });
    // By id too, and `sitectl --site` before the noun.
    const byId = await run(['--site', uptown.id, 'auth', 'status', '--json', 'member']);
    expect(JSON.parse(byId.stdout)).toEqual({ member: { id: stored.member!.id, loginEmail: up } });
    const human = await run(['auth', 'status', '--site', 'uptown']);
    expect(human.stdout).toMatch(new RegExp(`site\\s+Uptown \\(${uptown.id}\\)`));

    const me = await run(['members', 'me', '--site', 'Uptown', '--json', 'id,loginEmail']);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toEqual({ id: stored.member!.id, loginEmail: up });

    // The profile's own site (Downtown) is not signed in as that member: nothing leaks across sites.
    const home = await run(['auth', 'status', '--json', 'role,member']);
    expect(JSON.parse(home.stdout)).toEqual({ role: 'admin', member: null });
    const homeMe = await run(['members', 'me']);
    expect(homeMe.code).toBe(4);
    expect(homeMe.stderr).toContain("profile 'local' is not signed in as a member");

    // A Downtown member signs in on Downtown, beside the Uptown one.
    const down = `down-${Date.now()}@example.com`;
    const downReg = await run(['auth', 'register', '--email', down, '--password-stdin'], 'pw123456');
    expect(downReg.code, downReg.stderr).toBe(0);
    expect(sessions().local).toMatchObject({ clientId: downtown.clientId, member: { loginEmail: down } });
    const token = await run(['auth', 'token', '--site', 'Uptown']);
    expect(token.code, token.stderr).toBe(0);
    const info = await fetch(`${emu.url}/oauth2/token-info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: token.stdout.trim() }) });
    expect(await info.json()).toMatchObject({ active: true, subjectType: 'MEMBER', siteId: uptown.id, clientId: uptown.clientId });

    // A direct login on Uptown finds Uptown's member (Downtown's app would answer "no member signs in with ...").
    const login = await run(['login', '--email', up, '--password-stdin', '--site', 'Uptown'], 'pw123456');
    expect(login.code, login.stderr).toBe(0);
    const wrongSite = await run(['login', '--email', up, '--password-stdin'], 'pw123456');
    expect(wrongSite.code).toBe(4);

    // logout --site ends the Uptown session only; logout ends every site's.
    const outUp = await run(['logout', '--site', 'Uptown']);
    expect(outUp.code, outUp.stderr).toBe(0);
    expect(outUp.stderr).toContain(`Signed out of profile 'local' on site Uptown (${uptown.id}) (${up})`);
    expect(sessions()[key]?.member).toBeUndefined();
    expect(sessions().local?.member?.loginEmail).toBe(down);
    const again = await run(['auth', 'register', '--email', `up2-${Date.now()}@example.com`, '--password-stdin', '--site', 'Uptown'], 'pw123456');
    expect(again.code, again.stderr).toBe(0);
    const outAll = await run(['logout']);
    expect(outAll.code, outAll.stderr).toBe(0);
    expect(outAll.stderr).toContain("Signed out of profile 'local' (2 sites)");
    expect(Object.values(sessions()).filter((s) => s.member)).toEqual([]);
  });

  it("on a profile that is not the local emulator, --site NAME is looked up with the API key; another site never borrows the profile's client id", async () => {
    const other = createCliSandbox();
    try {
      const env = { SITECTL_BASE_URL: emu.url, SITECTL_SITE_ID: emu.siteId, SITECTL_API_KEY: emu.apiKey, SITECTL_ACCOUNT_ID: emu.accountId };
      // No client id anywhere for that site: the profile has none to sign in with (exit 2), nothing is guessed.
      const none = await runCli(['auth', 'register', '--email', `real-${Date.now()}@example.com`, '--password-stdin', '--site', 'Uptown'], { sandbox: other, input: 'pw123456', env });
      expect(none.code).toBe(2);
      expect(none.stderr).toContain(`profile 'env' on site Uptown (${uptown.id}) has no OAuth client id`);
      const who = `real-${Date.now()}@example.com`;
      const reg = await runCli(['auth', 'register', '--email', who, '--password-stdin', '--site', 'Uptown'], { sandbox: other, input: 'pw123456', env: { ...env, SITECTL_CLIENT_ID: uptown.clientId } });
      expect(reg.code, reg.stderr).toBe(0);
      const stored = JSON.parse(readFileSync(join(other.configDir, 'sessions.json'), 'utf8')).profiles;
      expect(Object.keys(stored)).toEqual([`env@${uptown.id}`]);
      const status = await runCli(['auth', 'status', '--site', 'Uptown', '--json', 'role,member'], { sandbox: other, env });
      expect(JSON.parse(status.stdout)).toEqual({ role: 'member', member: { id: stored[`env@${uptown.id}`].member.id, loginEmail: who } });
      const home = await runCli(['auth', 'status', '--json', 'role'], { sandbox: other, env });
      expect(JSON.parse(home.stdout)).toEqual({ role: 'admin' });
    } finally {
      other.cleanup();
    }
    // Signed in on the profile's own site with its app: another site still takes no client id from that session.
    const fresh = createCliSandbox();
    try {
      const env = { SITECTL_BASE_URL: emu.url, SITECTL_SITE_ID: emu.siteId, SITECTL_API_KEY: emu.apiKey, SITECTL_ACCOUNT_ID: emu.accountId };
      const own = await runCli(['auth', 'register', '--email', `home-${Date.now()}@example.com`, '--password-stdin'], { sandbox: fresh, input: 'pw123456', env: { ...env, SITECTL_CLIENT_ID: downtown.clientId! } });
      expect(own.code, own.stderr).toBe(0);
      const borrowed = await runCli(['auth', 'register', '--email', `up-${Date.now()}@example.com`, '--password-stdin', '--site', 'Uptown'], { sandbox: fresh, input: 'pw123456', env });
      expect(borrowed.code, borrowed.stderr).toBe(2);
      expect(borrowed.stderr).toContain('a headless app signs members in on its own site only');
    } finally {
      fresh.cleanup();
    }
  });

  it('refuses a site the account does not have (exit 2) before signing in', async () => {
    const r = await run(['auth', 'register', '--email', 'nowhere@example.com', '--password-stdin', '--site', 'Midtown'], 'pw123456');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--site: the account has no site 'Midtown'");
  });
});
