/**
 * Direct login on a real terminal (tmux; docs/sign-in.md "Direct login"): the password typed hidden
 * (`--password-stdin` on a terminal), then the e-mail code the site asks for, typed at its prompt; the CLI ends
 * signed in. Skipped, with a message, only when tmux is not installed. A `--*-stdin` secret on a terminal where no
 * prompt may be shown (`--no-input`, CI set) is refused at once (exit 2, "pipe it in"), never read silently with
 * echo.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, startTestEmulator, type CliSandbox, type TestEmulator } from '../helpers/index.js';
import { hasTmux, openTerminal, type Terminal } from '../helpers/tmux.js';

if (!hasTmux) console.warn('tests/e2e/login-tty.test.ts: tmux is not installed; skipping the real-terminal tests');

let emu: TestEmulator;
let sandbox: CliSandbox;
let term: Terminal;
beforeAll(async () => {
  if (!hasTmux) return;
  emu = await startTestEmulator({ seed: 'demo', size: 5, members: 10 });
  sandbox = createCliSandbox();
  term = openTerminal(sandbox, emu);
});
afterAll(async () => {
  if (!hasTmux) return;
  term?.close();
  await emu?.close();
  sandbox?.cleanup();
});

describe.skipIf(!hasTmux)('login --email on a terminal (tmux)', () => {
  it('asks for the password without echo, then for the e-mail code, and signs in', async () => {
    const email = `tty-${Date.now()}@example.com`;
    await emu.request('POST', '/_api/iam/authentication/v2/register', { loginId: { email }, password: 'typed-secret' });
    await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: true });
    try {
      term.start('login', ['login', '--email', email, '--password-stdin'], { env: { SITECTL_CLIENT_ID: emu.emulator.clientId } });
      await term.waitFor('login', /\? Password:/);
      term.send('login', '-l', 'typed-secret');
      term.send('login', 'Enter');
      await term.waitFor('login', /Verification code sent to/);
      const code = (await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(email)}`)).body.mail.at(-1).code as string;
      term.send('login', '-l', code);
      term.send('login', 'Enter');
      const done = await term.waitFor('login', /EXIT=\d+/);
      expect(done).toMatch(/EXIT=0/);
      expect(done).toContain(`Signed in as ${email}`);
      expect(done).not.toContain('typed-secret');
      const sessions = JSON.parse(readFileSync(join(sandbox.configDir, 'sessions.json'), 'utf8'));
      expect(sessions.profiles.env.member.loginEmail).toBe(email);
    } finally {
      await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: false });
    }
  });
});

describe.skipIf(!hasTmux)('--*-stdin on a terminal where no prompt may be shown (tmux)', () => {
  it('exits 2 at once saying to pipe the secret in, instead of waiting for Ctrl-D while echoing what is typed', async () => {
    term.start('recover', ['auth', 'recover', '--token-stdin', '--password-stdin', '--no-input'], { env: { SITECTL_CLIENT_ID: emu.emulator.clientId } });
    const recover = await term.waitFor('recover', /EXIT=\d+/, 10_000);
    expect(recover).toMatch(/EXIT=2/);
    expect(recover).toMatch(/--token-stdin reads the recovery token and the new password from stdin, which is a terminal/);
    expect(recover).toContain('pipe it in');
    term.start('verify', ['auth', 'verify', '--code-stdin'], { env: { SITECTL_CLIENT_ID: emu.emulator.clientId, CI: '1' } });
    const verify = await term.waitFor('verify', /EXIT=\d+/, 10_000);
    expect(verify).toMatch(/EXIT=2/);
    expect(verify).toContain('--code-stdin reads the code from stdin');
    expect(verify).toContain('printf %s "$CODE" |');
    term.start('password', ['login', '--email', 'ada@example.com', '--password-stdin', '--no-input'], { env: { SITECTL_CLIENT_ID: emu.emulator.clientId } });
    const password = await term.waitFor('password', /EXIT=\d+/, 10_000);
    expect(password).toMatch(/EXIT=2/);
    expect(password).toMatch(/--password-stdin reads the password from stdin, which is a terminal/);
  });
});
