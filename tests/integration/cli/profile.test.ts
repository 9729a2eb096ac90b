/**
 * Profiles and auth through the built CLI: `profile add` reads the key from stdin and stores it with mode 0600,
 * the key never shows in argv or `profile list`, resolution order (flag > env > stored), `--debug` redaction,
 * and auth failures (exit 4).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runCli, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(() => {
  sandbox = createCliSandbox();
});
afterEach(() => sandbox.cleanup());

/** Runs with the sandbox's dirs but WITHOUT the SITECTL_BASE_URL/SITE_ID/API_KEY environment. */
const cli = (args: string[], opts: Parameters<typeof runCli>[1] = {}) => runCli(args, { sandbox, ...opts });

async function addEmuProfile(name: string, extra: string[] = []): Promise<void> {
  const r = await cli(['profile', 'add', name, '--base-url', emu.url, '--site-id', emu.siteId, '--api-key-stdin', ...extra], {
    input: `${emu.apiKey}\n`,
  });
  expect(r.code, r.stderr).toBe(0);
}

describe('profile add / list / show / use / remove', () => {
  it('stores the key from stdin in a 0600 file and never prints it', async () => {
    await addEmuProfile('emu');
    const file = join(sandbox.configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored.currentProfile).toBe('emu');
    expect(stored.profiles.emu).toEqual({
      name: 'emu',
      baseUrl: emu.url,
      siteId: emu.siteId,
      credential: { type: 'apiKey', apiKey: emu.apiKey },
    });

    const list = await cli(['profile', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout + list.stderr).not.toContain(emu.apiKey);
    const rows = list.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows.find((r) => r[1] === 'emu')).toEqual(['*', 'emu', emu.url, emu.siteId, 'apiKey', file]);
    expect(rows.find((r) => r[1] === 'local')?.[0]).toBe('');

    const json = JSON.parse((await cli(['profile', 'list', '--json'])).stdout);
    expect(JSON.stringify(json)).not.toContain(emu.apiKey);
    expect(json.find((p: { name: string }) => p.name === 'emu')).toMatchObject({ current: true, credential: 'apiKey', secretStoredIn: file });

    const show = await cli(['profile', 'show', '--json']);
    expect(JSON.parse(show.stdout)).toMatchObject({ name: 'emu', source: 'stored', baseUrl: emu.url, secretStoredIn: file });
    expect(show.stdout).not.toContain(emu.apiKey);

    // The stored profile is what commands use now.
    const count = await cli(['services', 'count']);
    expect(count.code, count.stderr).toBe(0);
    expect(Number(count.stdout)).toBeGreaterThan(0);
  });

  it('keeps the app instance of client credentials (--instance-id), SITECTL_INSTANCE_ID overriding it', async () => {
    await addEmuProfile('app', ['--instance-id', 'inst-1']);
    expect(JSON.parse(readFileSync(join(sandbox.configDir, 'config.json'), 'utf8')).profiles.app.instanceId).toBe('inst-1');
    expect(JSON.parse((await cli(['profile', 'show', '--json', 'name,instanceId'])).stdout)).toEqual({ name: 'app', instanceId: 'inst-1' });
    expect((await cli(['profile', 'show'])).stdout).toMatch(/instance id\s+inst-1/);
    const env = await cli(['profile', 'show', '--json', 'instanceId'], { env: { SITECTL_INSTANCE_ID: 'inst-2' } });
    expect(JSON.parse(env.stdout)).toEqual({ instanceId: 'inst-2' });
  });

  it('has no --api-key flag: a key in argv is refused', async () => {
    const r = await cli(['profile', 'add', 'x', '--api-key', 'secret-in-argv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown option '--api-key'/);
  });

  it('refuses an empty key on stdin and a bad base URL', async () => {
    const empty = await cli(['profile', 'add', 'x', '--api-key-stdin'], { input: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^error: no API key on stdin/);
    const url = await cli(['profile', 'add', 'x', '--base-url', 'ftp://host'], { input: '' });
    expect(url.code).toBe(2);
    expect(url.stderr).toMatch(/^error: invalid baseUrl/);
  });

  it('use switches the current profile; remove needs --yes without a terminal', async () => {
    await addEmuProfile('one');
    await addEmuProfile('two');
    let stored = JSON.parse(readFileSync(join(sandbox.configDir, 'config.json'), 'utf8'));
    expect(stored.currentProfile).toBe('one');
    expect((await cli(['profile', 'use', 'two'])).code).toBe(0);
    stored = JSON.parse(readFileSync(join(sandbox.configDir, 'config.json'), 'utf8'));
    expect(stored.currentProfile).toBe('two');

    const unknown = await cli(['profile', 'use', 'three']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: no profile named 'three'/);

    const noYes = await cli(['profile', 'remove', 'two']);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    expect(JSON.parse(readFileSync(join(sandbox.configDir, 'config.json'), 'utf8')).profiles.two).toBeDefined();

    const yes = await cli(['profile', 'remove', 'two', '--yes']);
    expect(yes.code, yes.stderr).toBe(0);
    stored = JSON.parse(readFileSync(join(sandbox.configDir, 'config.json'), 'utf8'));
    expect(stored.profiles.two).toBeUndefined();
    expect(stored.currentProfile).toBeUndefined();
  });

  it('on a terminal, --no-input turns the remove prompt into an error naming --yes', async () => {
    await addEmuProfile('keep');
    const r = await cli(['profile', 'remove', 'keep', '--no-input'], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^error: removing profile 'keep' needs confirmation, and there is no terminal to ask on\nhint: pass --yes/m);
    expect(JSON.parse(readFileSync(join(sandbox.configDir, 'config.json'), 'utf8')).profiles.keep).toBeDefined();
  });

  it('reports an invalid profiles file in one line instead of crashing', async () => {
    writeFileSync(join(sandbox.configDir, 'config.json'), '{"profiles": 42}');
    const r = await cli(['profile', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^warning: ignoring the profiles file: .*config\.json is invalid at profiles/);
    const add = await cli(['profile', 'add', 'x'], { input: '' });
    expect(add.code).toBe(2);
    expect(add.stderr).toMatch(/^error: .*config\.json is invalid/);
  });
});

describe('resolution order: flags, then environment, then stored', () => {
  it('environment variables override the stored profile field by field', async () => {
    await addEmuProfile('emu');
    // A wrong key in the environment beats the stored right one: 401/403 -> exit 4.
    const r = await cli(['services', 'count'], { env: { SITECTL_API_KEY: 'wrong-key' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).toMatch(/^hint: /m);
    expect(r.stderr).not.toContain('wrong-key');
  });

  it('--profile beats SITECTL_* and SITECTL_PROFILE', async () => {
    await addEmuProfile('good');
    const r = await cli(['--profile', 'good', 'services', 'count'], {
      env: { SITECTL_PROFILE: 'nope', SITECTL_BASE_URL: 'http://127.0.0.1:9', SITECTL_API_KEY: 'wrong' },
    });
    expect(r.code, r.stderr).toBe(0);
    const show = JSON.parse((await cli(['profile', 'show', '--json'], { env: { SITECTL_API_KEY: 'k' } })).stdout);
    expect(show).toMatchObject({ name: 'good', source: 'env', secretStoredIn: 'env SITECTL_API_KEY' });
  });

  it('SITECTL_PROFILE naming an unknown profile is a one-line error', async () => {
    const r = await cli(['services', 'count'], { env: { SITECTL_PROFILE: 'ghost' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: no profile named 'ghost'\nhint: /);
  });

  it('environment alone (no stored profile) is enough, as in CI', async () => {
    const r = await runCli(['services', 'count'], { sandbox, emulator: emu });
    expect(r.code, r.stderr).toBe(0);
    const show = JSON.parse((await runCli(['profile', 'show', '--json'], { sandbox, emulator: emu })).stdout);
    expect(show).toMatchObject({ source: 'env', baseUrl: emu.url, siteId: emu.siteId, credential: 'apiKey' });
    expect(JSON.stringify(show)).not.toContain(emu.apiKey);
  });
});

describe('--debug', () => {
  it('prints the HTTP trace on stderr with the key redacted, stdout unchanged', async () => {
    const r = await runCli(['services', 'count', '--debug'], { sandbox, emulator: emu });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+\n$/);
    expect(r.stderr).toMatch(/^debug: > POST http:\/\/127\.0\.0\.1:\d+\/_api\/bookings\/v2\/services\/count$/m);
    expect(r.stderr).toMatch(/authorization: \[REDACTED\]/i);
    expect(r.stderr).toMatch(/^debug: < POST .* 200 .*request-id: /m);
    expect(r.stderr).not.toContain(emu.apiKey);
  });

  it('adds the stack to errors only under --debug', async () => {
    const plain = await runCli(['services', 'get', 'missing'], { sandbox, emulator: emu });
    expect(plain.stderr).not.toMatch(/^\s+at /m);
    const debug = await runCli(['services', 'get', 'missing', '--debug'], { sandbox, emulator: emu });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/^\s+at /m);
    expect(debug.stderr).not.toContain(emu.apiKey);
  });
});
