/**
 * The e-mail verification code kept out of argv (docs/architecture.md "Profiles and auth": secrets never in argv):
 * `auth verify --code-stdin` (the way for scripts), the help of `--code` saying where the code shows, the flags
 * refused together, and a direct login whose `--code` is refused still finishing with `auth verify --code-stdin`.
 * In process, against a real emulator that requires e-mail verification.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';

let emu: TestEmulator;
const sandboxes: CliSandbox[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, members: 5 });
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

const run = (s: CliSandbox, args: string[], input?: string) => runInProcess(args, { emulator: emu, sandbox: s, input, env: { SITECTL_CLIENT_ID: emu.emulator.clientId } });

let n = 0;
/** A registered member of a site that then starts requiring e-mail verification. */
async function member(s: CliSandbox): Promise<string> {
  const who = `code-${Date.now()}-${n++}@example.com`;
  await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: false });
  const reg = await run(s, ['auth', 'register', '--email', who, '--password-stdin'], 'pass-word-1');
  expect(reg.code, reg.stderr).toBe(0);
  const out = await run(s, ['logout']);
  expect(out.code, out.stderr).toBe(0);
  await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: true });
  return who;
}
const latestCode = async (who: string) => (await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(who)}`)).body.mail.at(-1).code as string;

describe('the e-mail code out of argv', () => {
  it('finishes a direct login with auth verify --code-stdin, the code read from stdin', async () => {
    const s = sandbox();
    const who = await member(s);
    const login = await run(s, ['login', '--email', who, '--password-stdin'], 'pass-word-1');
    expect(login.code).toBe(4);
    expect(login.stderr).toContain(`sent a verification code to ${who}`);
    expect(login.stderr).toContain('auth verify --code-stdin');
    const ok = await run(s, ['auth', 'verify', '--code-stdin'], `${await latestCode(who)}\n`);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain(`Signed in as ${who}`);
    expect((await run(s, ['auth', 'status', '--json', 'role'])).stdout).toContain('member');
  });

  it('keeps the sign-in waiting when the --code given is refused, so auth verify --code-stdin can finish it', async () => {
    const s = sandbox();
    const who = await member(s);
    const wrong = await run(s, ['login', '--email', who, '--password-stdin', '--code', '000000x'], 'pass-word-1');
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('the verification code is not correct');
    expect(wrong.stderr).toContain('auth verify --code-stdin');
    const ok = await run(s, ['auth', 'verify', '--code-stdin'], await latestCode(who));
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain(`Signed in as ${who}`);
  });

  it('refuses --code with --code-stdin, and no code at all without a terminal (exit 2)', async () => {
    const s = sandbox();
    const login = await run(s, ['login', '--email', 'a@b.c', '--password-stdin', '--code-stdin'], 'pass-word-1\n123456\n');
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('stdin carries the password');
    expect(login.stderr).toContain('auth verify --code-stdin');
    const both = await run(s, ['auth', 'verify', '--code', '123456', '--code-stdin'], '123456');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--code and --code-stdin/);
    const who = await member(s);
    expect((await run(s, ['login', '--email', who, '--password-stdin'], 'pass-word-1')).code).toBe(4);
    const empty = await run(s, ['auth', 'verify', '--code-stdin'], '\n');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no verification code on stdin');
    const none = await run(s, ['auth', 'verify']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--code-stdin');
  });

  it('says in the help of --code that it shows in the process list, and how to keep it out', async () => {
    const login = await runInProcess(['login', '--help']);
    const flat = login.stdout.replace(/\s+/g, ' ');
    expect(flat).toMatch(/--code <code> .*process list and shell history.*auth verify --code-stdin/);
    // auth register --code too; its stdin carries the password, so --code-stdin points to auth verify.
    const register = await runInProcess(['auth', 'register', '--help']);
    expect(register.stdout.replace(/\s+/g, ' ')).toMatch(/--code <code> .*process list and shell history.*auth verify --code-stdin/);
    const regStdin = await runInProcess(['auth', 'register', '--email', 'a@b.c', '--password-stdin', '--code-stdin'], { input: 'pass-word-1\n123456\n' });
    expectError(regStdin, 2, /cannot read the e-mail code from stdin: stdin carries the password/);
    expect(regStdin.stderr).toContain('auth verify --code-stdin');
    const verify = await runInProcess(['auth', 'verify', '--help']);
    expect(verify.stdout.replace(/\s+/g, ' ')).toMatch(/--code-stdin .*stdin/);
    expect(verify.stdout.replace(/\s+/g, ' ')).toMatch(/--code <code> .*process list and shell history/);
  });

  it('refuses a --*-stdin secret on a terminal where no prompt may be shown (exit 2: pipe it in), instead of reading it silently with echo', async () => {
    const s = sandbox();
    // tty: stdin and stdout are terminals; --no-input (or CI, set by the test environment) forbids prompting.
    const onTerminal = (args: string[], env: Record<string, string | undefined> = {}) => runInProcess(args, { emulator: emu, sandbox: s, tty: true, env: { SITECTL_CLIENT_ID: emu.emulator.clientId, ...env } });
    const recover = await onTerminal(['auth', 'recover', '--token-stdin', '--password-stdin', '--no-input'], { CI: undefined });
    expect(expectError(recover, 2, /--token-stdin reads the recovery token and the new password from stdin, which is a terminal, and no prompt may be shown \(--no-input was given\): pipe it in/)[1]).toMatch(/printf '%s\\n%s' "\$TOKEN" "\$NEW_PASSWORD" \| sitectl auth recover --token-stdin --password-stdin/);
    const byToken = await onTerminal(['auth', 'recover', '--token', 'x', '--password-stdin', '--no-input'], { CI: undefined });
    expectError(byToken, 2, /--password-stdin reads the password from stdin, which is a terminal.*pipe it in/);
    const verify = await onTerminal(['auth', 'verify', '--code-stdin', '--site', emu.siteId]);
    expect(expectError(verify, 2, /--code-stdin reads the code from stdin, which is a terminal, and no prompt may be shown \(CI is set\): pipe it in/)[1]).toContain(`printf %s "$CODE" | sitectl auth verify --code-stdin --site ${emu.siteId}`);
    const login = await onTerminal(['login', '--email', 'ada@example.com', '--password-stdin', '--no-input'], { CI: undefined });
    expect(expectError(login, 2, /--password-stdin reads the password from stdin, which is a terminal.*pipe it in/)[1]).toContain('printf %s "$PASSWORD" | sitectl login --email ada@example.com --password-stdin');
    const register = await onTerminal(['auth', 'register', '--email', 'ada@example.com', '--password-stdin']);
    expectError(register, 2, /--password-stdin reads the password from stdin, which is a terminal.*\(CI is set\)/);
    const app = await onTerminal(['login', '--client-id', 'app-1', '--client-secret-stdin', '--no-input'], { CI: undefined });
    expectError(app, 2, /--client-secret-stdin reads the app's client secret from stdin, which is a terminal.*pipe it in/);
  });
});
