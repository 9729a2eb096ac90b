/**
 * The whole sign-in in a real browser (docs/sign-in.md "The browser sign-in"): headless Chromium (Debian
 * `chromium`, driven by playwright-core) and the built CLI as a process. `BROWSER` points at a helper that hands
 * the URL to the test's browser; the hosted sign-in page is filled in and submitted like a person would, and the
 * CLI ends signed in. Also: `--no-browser` with the address pasted, a wrong state, a timeout, a denied sign-in and
 * the device flow approved in the browser. The CLI's own last page (the callback) looks like the hosted pages, has
 * the viewport tag and names who signed in; screenshotted at 1280×800 and 390×844 (SITECTL_SCREENSHOTS). One
 * browser for the file. Skipped, with a message, when /usr/bin/chromium is missing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, cliEnv, createCliSandbox, repoRoot, startTestEmulator, type CliSandbox, type TestEmulator } from '../helpers/index.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`tests/e2e/login-browser.test.ts: ${CHROMIUM} is missing (apt-get install chromium); skipping`);

const HANDOFF = join(repoRoot, 'tests', 'e2e', 'fixtures', 'browser-handoff.sh');
/** Where the hosted pages' screenshots go, to look at (not committed). */
const SCREENSHOTS = process.env.SITECTL_SCREENSHOTS ?? join(tmpdir(), 'sitectl-screenshots');

let emu: TestEmulator;
let browser: Browser;
const sandboxes: CliSandbox[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  emu = await startTestEmulator({ seed: 'demo', size: 5, members: 10 });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
  await emu?.close();
  for (const s of sandboxes) s.cleanup();
});

let n = 0;
/** A member registered on the emulator with a password. */
async function member(): Promise<{ email: string; password: string }> {
  const email = `browser-${Date.now()}-${n++}@example.com`;
  const r = await emu.request('POST', '/_api/iam/authentication/v2/register', { loginId: { email }, password: 'correct-horse' });
  expect(r.status).toBe(200);
  return { email, password: 'correct-horse' };
}

interface Cli {
  sandbox: CliSandbox;
  urlFile: string;
  stderr(): string;
  write(text: string): void;
  done: Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Runs the built CLI with BROWSER set to the hand-off helper, in its own sandbox. */
function cli(args: string[], opts: { sandbox?: CliSandbox; browser?: boolean } = {}): Cli {
  const sandbox = opts.sandbox ?? createCliSandbox();
  if (!opts.sandbox) sandboxes.push(sandbox);
  const urlFile = join(sandbox.root, `urls-${n++}.txt`);
  writeFileSync(urlFile, '');
  const env = cliEnv(sandbox, emu, { SITECTL_CLIENT_ID: emu.emulator.clientId, SITECTL_TEST_URL_FILE: urlFile, BROWSER: opts.browser === false ? undefined : `/bin/sh ${HANDOFF}` });
  const child = spawn(process.execPath, [binPath, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout: out, stderr: err })));
  return { sandbox, urlFile, stderr: () => err, write: (t) => child.stdin.write(t), done };
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The URL the CLI handed to "the browser". */
const handedUrl = (c: Cli) => waitFor('the URL handed to the browser', () => (statSync(c.urlFile).size > 0 ? readFileSync(c.urlFile, 'utf8').trim().split('\n')[0] : undefined));

async function signInOnPage(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * The callback page as a person sees it at `width`: the viewport tag, the hosted pages' card with margins kept,
 * nothing wider than the screen; screenshotted as callback-signed-in-<width>.png.
 */
async function expectCallbackPage(page: Page, width: number): Promise<void> {
  expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toBe('width=device-width, initial-scale=1');
  const box = (await page.locator('main').boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(12);
  expect(width - (box.x + box.width)).toBeGreaterThanOrEqual(12);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `callback-signed-in-${width}.png`), fullPage: true });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

describe.skipIf(!hasChromium)('sitectl login in a real browser (headless Chromium)', () => {
  it('signs in through the hosted page: e-mail, password, submit; the CLI ends signed in and auth status shows it', async () => {
    const who = await member();
    const c = cli(['login']);
    const url = await handedUrl(c);
    expect(url).toMatch(new RegExp(`^${emu.url}/oauth2/authorize\\?session=`));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    expect(await page.locator('input[type=email]').count()).toBe(1);
    expect(await page.locator('input[type=password]').count()).toBe(1);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'sign-in.png') });
    await signInOnPage(page, who);
    // The code arrives in the fragment; the callback page moves it into the query, and the CLI answers once it
    // has exchanged the code: the page names who signed in.
    await page.waitForURL(/\/callback\?code=/);
    expect(await page.textContent('h1')).toBe('Signed in');
    const said = await page.locator('.done').textContent();
    // The site by its name when the CLI knows one (this profile knows the site by its id only: not shown).
    expect(said).toMatch(new RegExp(`^sitectl is signed in (to \\S.* )?as ${who.email.replace(/[.+]/g, '\\$&')}\\.$`));
    expect(said).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(await page.textContent('main')).toContain('You can close this tab');
    await expectCallbackPage(page, 1280);
    // The same page on a phone (the server answers once: its HTML, laid out in a phone's browser).
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const small = await phone.newPage();
      await small.setContent(await page.content());
      await expectCallbackPage(small, 390);
    } finally {
      await phone.close();
    }
    const r = await c.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Signed in as ${who.email}`);
    await page.close();

    const status = cli(['auth', 'status', '--json'], { sandbox: c.sandbox });
    const st = await status.done;
    expect(st.code).toBe(0);
    const json = JSON.parse(st.stdout);
    expect(json).toMatchObject({ profile: 'env', role: 'member', member: { loginEmail: who.email }, storedIn: join(c.sandbox.configDir, 'sessions.json') });
    expect(Date.parse(json.expiresAt)).toBeGreaterThan(Date.now());
    expect(statSync(join(c.sandbox.configDir, 'sessions.json')).mode & 0o777).toBe(0o600);
    const me = await cli(['members', 'me', '--json', 'loginEmail'], { sandbox: c.sandbox }).done;
    expect(JSON.parse(me.stdout)).toEqual({ loginEmail: who.email });
  });

  it('Enter in the password field signs in (the form submits with Sign in, not Cancel)', async () => {
    const who = await member();
    const c = cli(['login']);
    const page = await browser.newPage();
    await page.goto(await handedUrl(c));
    // Shown in the order Tab takes: Sign in on the left, then Cancel.
    const cancelBox = await page.getByRole('button', { name: 'Cancel' }).boundingBox();
    const signInBox = await page.getByRole('button', { name: 'Sign in' }).boundingBox();
    expect(signInBox!.x).toBeLessThan(cancelBox!.x);
    await page.getByLabel('E-mail').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    // A browser submits the form with its first submit button on Enter: that must be Sign in, not Cancel.
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(/\/callback\?(code|error)=/);
    expect(page.url()).toMatch(/\/callback\?code=/);
    const r = await c.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Signed in as ${who.email}`);
    await page.close();
  });

  it('Enter in the password field of the device page approves (not Deny)', async () => {
    const who = await member();
    const c = cli(['login', '--device']);
    const url = await handedUrl(c);
    const page = await browser.newPage();
    await page.goto(url);
    await page.getByLabel('E-mail').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByLabel('Password').press('Enter');
    // Both ends of the page (approved, denied) carry this heading; which one it is, the text says.
    await page.getByRole('heading', { name: 'Device sign-in' }).waitFor();
    expect(await page.textContent('body')).toContain('Device approved');
    const r = await c.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Signed in as ${who.email}`);
    await page.close();
  });

  it('--no-browser: prints the URL and accepts the address the browser ended on, pasted', async () => {
    const who = await member();
    const c = cli(['login', '--no-browser']);
    const url = await waitFor('the printed URL', () => /^ {2}(http\S+)$/m.exec(c.stderr())?.[1]);
    expect(readFileSync(c.urlFile, 'utf8')).toBe('');
    const page = await browser.newPage();
    // The browser is "on another machine": the sign-in result never reaches this machine's callback server.
    // (Playwright routes no request a redirect made, so the relay page loads and its request with the result in
    // the query is the one stopped; the pasted address is that one, as a person copies it from the address bar.)
    let landed = '';
    await page.route(/127\.0\.0\.1:\d+\/callback/, async (route) => {
      landed = route.request().url();
      await route.abort();
    });
    await page.goto(url);
    await signInOnPage(page, who);
    await waitFor('the redirect to the callback', () => landed || undefined);
    expect(landed).toMatch(/\/callback\?code=.+&state=/);
    c.write(`${landed}\n`);
    const r = await c.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Signed in as ${who.email}`);
    await page.close();
  });

  it('refuses an answer with the wrong state (exit 4, Invalid _state)', async () => {
    const port = await freePort();
    const c = cli(['login', '--port', String(port)]);
    await handedUrl(c);
    const page = await browser.newPage();
    const res = await page.goto(`http://127.0.0.1:${port}/callback?code=forged&state=not-the-one`);
    expect(res?.status()).toBe(400);
    expect(await page.textContent('body')).toContain('Invalid _state');
    const r = await c.done;
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('Invalid _state');
    await page.close();
  });

  it('times out when nobody signs in (exit 4, OAuth flow timed out)', async () => {
    const c = cli(['login', '--wait', '1']);
    await handedUrl(c);
    const r = await c.done;
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('error: OAuth flow timed out');
  });

  it('reports a sign-in canceled on the hosted page as denied (exit 4)', async () => {
    const c = cli(['login']);
    const page = await browser.newPage();
    await page.goto(await handedUrl(c));
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/\/callback\?error=access_denied/);
    const r = await c.done;
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('access_denied');
    await page.close();
  });

  it('shows a wrong password on the page and lets the person try again', async () => {
    const who = await member();
    const c = cli(['login']);
    const page = await browser.newPage();
    await page.goto(await handedUrl(c));
    await signInOnPage(page, { email: who.email, password: 'wrong-password' });
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Wrong e-mail or password.');
    await page.screenshot({ path: join(SCREENSHOTS, 'sign-in-error.png') });
    await signInOnPage(page, who);
    await page.waitForURL(/\/callback\?code=/);
    expect((await c.done).code).toBe(0);
    await page.close();
  });

  it('registers on the hosted page (the link from the sign-in page) and ends signed in as the new member', async () => {
    const c = cli(['login']);
    const page = await browser.newPage();
    await page.goto(await handedUrl(c));
    await page.getByRole('link', { name: 'Create an account' }).click();
    const address = `browser-new-${Date.now()}@example.com`;
    await page.getByLabel('Name').fill('New Person');
    await page.getByLabel('E-mail').fill(address);
    await page.getByLabel('Password').fill('long-enough');
    await page.screenshot({ path: join(SCREENSHOTS, 'register.png') });
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/callback\?code=/);
    const r = await c.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Signed in as ${address}`);
    await page.close();
  });

  it('asks for the e-mail code on the hosted page when the site requires verification', async () => {
    const who = await member();
    await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: true });
    try {
      const c = cli(['login']);
      const page = await browser.newPage();
      await page.goto(await handedUrl(c));
      await signInOnPage(page, who);
      await expect(page.getByRole('heading', { name: 'Check your e-mail' }).isVisible()).resolves.toBe(true);
      const mail = await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(who.email)}`);
      await page.getByLabel('Code').fill(mail.body.mail.at(-1).code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/\/callback\?code=/);
      const r = await c.done;
      expect(r.code, r.stderr).toBe(0);
      await page.close();
    } finally {
      await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: false });
    }
  });

  it('signs in with a device code approved in the browser', async () => {
    const who = await member();
    const c = cli(['login', '--device']);
    const url = await handedUrl(c);
    const code = await waitFor('the user code', () => /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(c.stderr())?.[1]);
    const page = await browser.newPage();
    await page.goto(url);
    expect(await page.getByLabel('Code').inputValue()).toBe(code);
    await page.getByLabel('E-mail').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.screenshot({ path: join(SCREENSHOTS, 'device.png') });
    await page.getByRole('button', { name: 'Approve' }).click();
    expect(await page.textContent('body')).toContain('Device approved');
    const r = await c.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Signed in as ${who.email}`);
    await page.close();
  });
});
