/**
 * The hosted pages as a person meets them (docs/sign-in.md "The emulator's OAuth server",
 * docs/plans-orders.md "The hosted checkout page"), in headless Chromium (Debian `chromium`, driven by
 * playwright-core) at a phone's 390×844 and a laptop's 1280×800: the sign-in page's focus, Tab order and layout
 * (the card keeps margins on a phone), who asks, "Forgot password?" through the recovery e-mail back to the
 * sign-in, and the link used again; the device page with codes typed as people type them and the complete
 * verification URI filling the code in (also as `sitectl login --device --no-browser` prints it), a bad code
 * keeping the e-mail and focusing the code; the checkout of a plan with a free trial, its thank-you page reached
 * by a GET (a reload pays nothing more), and a canceled checkout tried again; one format for every amount; the
 * pages a second browser gets. Every page screenshotted has the viewport tag. Screenshots go to
 * SITECTL_SCREENSHOTS (or the temp dir's sitectl-screenshots), named by page and width, to look at. Skipped, with
 * a message, when /usr/bin/chromium is missing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { challengeOf, createVerifier } from '../../src/api/auth/pkce.js';
import { binPath, cliEnv, createCliSandbox, startTestEmulator, type CliSandbox, type TestEmulator } from '../helpers/index.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`tests/e2e/hosted-pages-browser.test.ts: ${CHROMIUM} is missing (apt-get install chromium); skipping`);
const SCREENSHOTS = process.env.SITECTL_SCREENSHOTS ?? join(tmpdir(), 'sitectl-screenshots');

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1280, height: 800 },
] as const;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let emu: TestEmulator;
let browser: Browser;
/** Where sign-ins and checkouts end: answers every path with a page naming it. */
let site: Server;
let siteUrl: string;
const sandboxes: CliSandbox[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  emu = await startTestEmulator({ seed: 'demo', size: 5, bookings: 0, members: 10 });
  // A fixed day: the trial's dates below are computed from it.
  await emu.request('PUT', '/__emulator/clock', { frozen: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    const clean = (v: string) => v.replace(/[<>&"]/g, '');
    // /link?to=URL: a page of the app linking to URL (the checkout), which the browser then names in its Referer.
    const to = new URL(String(req.url), 'http://app').searchParams.get('to');
    res.end(`<!doctype html><title>App</title><h1>App page ${clean(String(req.url))}</h1>${to ? `<a href="${clean(to)}">Buy</a>` : ''}`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  await emu?.close();
  for (const s of sandboxes) s.cleanup();
});

async function ok(method: string, path: string, body?: unknown): Promise<Json> {
  const r = await emu.request(method, path, body);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Json> {
  const res = await fetch(emu.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const json = (await res.json()) as Json;
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
const visitor = async () => (await post('/oauth2/token', { clientId: emu.emulator.clientId, grantType: 'anonymous' })).access_token as string;

let n = 0;
async function member(password = 'correct-horse'): Promise<{ email: string; password: string }> {
  const email = `hosted-browser-${Date.now()}-${n++}@example.com`;
  await post('/_api/iam/authentication/v2/register', { loginId: { email }, password }, { authorization: await visitor() });
  return { email, password };
}
/** The sign-in page's URL of a new auth redirect session that returns to the test's site. */
async function signInUrl(): Promise<string> {
  const r = await post(
    '/_api/redirects-api/v1/redirect-session',
    { auth: { authRequest: { clientId: emu.emulator.clientId, redirectUri: `${siteUrl}/callback`, codeChallenge: challengeOf(createVerifier()), codeChallengeMethod: 'S256', responseMode: 'query', responseType: 'code', state: 'st' }, prompt: 'login' } },
    { authorization: await visitor() },
  );
  return r.redirectSession.fullUrl;
}
async function deviceStart(): Promise<{ userCode: string; complete: string }> {
  const r = await post('/oauth2/device/code', { clientId: emu.emulator.clientId });
  return { userCode: r.user_code ?? r.userCode, complete: r.verification_uri_complete ?? r.verificationUriComplete };
}

async function context(vp: (typeof VIEWPORTS)[number]): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: vp.width, height: vp.height }, isMobile: vp.width < 600, hasTouch: vp.width < 600 });
}
/** A screenshot of the page, named by page and width; every page screenshotted has the viewport tag (a phone lays it out at its own width). */
async function shot(page: Page, name: string, vp: (typeof VIEWPORTS)[number]): Promise<void> {
  expect(await page.locator('meta[name="viewport"]').getAttribute('content'), `${name}: viewport tag`).toBe('width=device-width, initial-scale=1');
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-${vp.width}.png`), fullPage: true });
}
/** Every amount on the page is written one way: digits grouped, two decimals for USD, then the code (`1,200.00 USD`). */
async function expectAmounts(page: Page): Promise<string[]> {
  const text = await page.locator('main').innerText();
  const amounts = text.match(/[\d.,]+\s*USD/g) ?? [];
  expect(amounts.length, text).toBeGreaterThan(0);
  for (const a of amounts) expect(a, text).toMatch(/^\d{1,3}(,\d{3})*\.\d{2} USD$/);
  return amounts;
}
/** The id of the element with the focus (`document.activeElement`), once the browser has applied `autofocus`. */
async function activeId(page: Page): Promise<string> {
  await page.waitForFunction('document.activeElement && document.activeElement !== document.body', undefined, { timeout: 2000 }).catch(() => undefined);
  return page.evaluate<string>('document.activeElement ? document.activeElement.id : ""');
}
/** The site's time zone: its default business location's (as the checkout pages write days and times in). */
async function siteZone(): Promise<string> {
  const locations = (await ok('POST', '/v2/services/locations/query', {})).businessLocations.locations as Json[];
  return locations.find((l) => l.default)?.timeZone ?? 'UTC';
}
/** What has the focus: an input's id, else a button's or link's text. */
async function focused(page: Page): Promise<string> {
  const f = page.locator(':focus');
  // The browser applies `autofocus` when it next renders, which under load can come after `goto` has returned.
  await f.first().waitFor({ state: 'attached', timeout: 2000 }).catch(() => undefined);
  if ((await f.count()) !== 1) return '';
  return (await f.getAttribute('id')) || (await f.textContent())?.trim() || '';
}
/** The card (`main`) keeps margins of at least 12 px on both sides, and stays inside the viewport. */
async function expectMargins(page: Page, vp: (typeof VIEWPORTS)[number]): Promise<void> {
  const box = (await page.locator('main').boundingBox())!;
  expect(box.x, 'left margin').toBeGreaterThanOrEqual(12);
  expect(vp.width - (box.x + box.width), 'right margin').toBeGreaterThanOrEqual(12);
  // Nothing wider than the viewport: no sideways scrolling on a phone.
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(vp.width);
}

describe.skipIf(!hasChromium)('the hosted pages in a real browser (headless Chromium), at 390×844 and 1280×800', () => {
  for (const vp of VIEWPORTS) {
    it(`sign-in at ${vp.width}×${vp.height}: who asks, the e-mail field focused, Tab from the fields to Sign in then Cancel, the primary shown first, margins`, async () => {
      const ctx = await context(vp);
      try {
        const page = await ctx.newPage();
        await page.goto(await signInUrl());
        // The site's own (default) app is the site to a person: the page names the site only.
        expect(await page.textContent('h1')).toBe('Sign in to Downtown');
        expect(await page.textContent('main')).not.toContain('Default headless app');
        expect(await focused(page)).toBe('email');
        await expectMargins(page, vp);
        await shot(page, 'sign-in', vp);
        const order: string[] = [];
        for (let i = 0; i < 5; i++) {
          await page.keyboard.press('Tab');
          order.push(await focused(page));
        }
        expect(order).toEqual(['password', 'Sign in', 'Cancel', 'Forgot password?', 'Create an account']);
        const signIn = (await page.getByRole('button', { name: 'Sign in' }).boundingBox())!;
        const cancel = (await page.getByRole('button', { name: 'Cancel' }).boundingBox())!;
        // Seen in the order Tab takes: Sign in left of Cancel (or above it).
        expect(signIn.x < cancel.x || signIn.y < cancel.y).toBe(true);
        // A wrong password: the e-mail stays, and the focus is on the password.
        const who = await member();
        await page.getByLabel('E-mail').fill(who.email);
        await page.getByLabel('Password').fill('wrong-password');
        await page.getByLabel('Password').press('Enter');
        await page.getByRole('alert').waitFor();
        expect(await focused(page)).toBe('password');
        await shot(page, 'sign-in-error', vp);
      } finally {
        await ctx.close();
      }
    });
  }

  for (const vp of VIEWPORTS) {
    it(`"Forgot password?" at ${vp.width}×${vp.height}: the e-mail asked, the recovery link sets a new password and leads back to the sign-in, which then works; the link again says it was used`, async () => {
      const ctx = await context(vp);
      try {
        const who = await member();
        const page = await ctx.newPage();
        await page.goto(await signInUrl());
        await page.getByRole('link', { name: 'Forgot password?' }).click();
        await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
        expect(await focused(page)).toBe('email');
        await page.getByLabel('E-mail').fill(who.email);
        await page.getByRole('button', { name: 'Send link' }).click();
        expect(await page.locator('.info').textContent()).toContain(`signs in with ${who.email}, a link to set a new password is on its way`);
        await expectMargins(page, vp);
        await shot(page, 'forgot-sent', vp);
        const mail = (await ok('GET', `/__emulator/mail?to=${encodeURIComponent(who.email)}`)).mail.at(-1);
        await page.goto(mail.link);
        expect(await focused(page)).toBe('password');
        await page.getByLabel('New password').fill('brand-new-pass');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByRole('heading', { name: 'Password changed' }).waitFor();
        await page.getByRole('link', { name: 'Sign in' }).click();
        await page.getByLabel('E-mail').fill(who.email);
        await page.getByLabel('Password').fill('brand-new-pass');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(new RegExp(`^${siteUrl}/callback\\?code=`));
        // The same link again: precisely "already used", not "expired", and no form.
        await page.goto(mail.link);
        expect(await page.textContent('h1')).toBe('This link was already used');
        expect(await page.textContent('main')).not.toContain('expired');
        expect(await page.locator('input[type=password]').count()).toBe(0);
        await expectMargins(page, vp);
        await shot(page, 'recover-used', vp);
      } finally {
        await ctx.close();
      }
    });
  }

  for (const vp of VIEWPORTS) {
    it(`device page at ${vp.width}×${vp.height}: the complete URI fills the code in (focus on the e-mail); codes typed in lower case, without the dash, with spaces are taken`, async () => {
      const ctx = await context(vp);
      try {
        const who = await member();
        const page = await ctx.newPage();
        const first = await deviceStart();
        await page.goto(first.complete);
        expect(await page.getByLabel('Code').inputValue()).toBe(first.userCode);
        expect(await focused(page)).toBe('email');
        expect(await page.textContent('h1')).toBe('Sign in to Downtown on a device');
        expect(await page.textContent('p.sub')).toBe('Check that the code matches the one in your terminal.');
        await expectMargins(page, vp);
        await shot(page, 'device', vp);
        // A bad code: the e-mail typed stays, and the focus is on the code, the field in error.
        await page.goto(`${emu.url}/oauth2/device`);
        await page.getByLabel('Code').fill('zzzz-zzzz');
        await page.getByLabel('E-mail').fill(who.email);
        await page.getByLabel('Password').fill(who.password);
        await page.getByRole('button', { name: 'Approve' }).click();
        expect(await page.getByRole('alert').textContent()).toBe('That code is not valid or has expired. Check the code in your terminal.');
        expect(await page.getByLabel('E-mail').inputValue()).toBe(who.email);
        expect(await page.getByLabel('Code').inputValue()).toBe('ZZZZ-ZZZZ');
        expect(await activeId(page)).toBe('user_code');
        await expectMargins(page, vp);
        await shot(page, 'device-bad-code', vp);
        // As people type it: lower case without the dash, with a space for the dash, lower case with the dash.
        const forms = [(c: string) => c.toLowerCase().replace('-', ''), (c: string) => c.replace('-', ' '), (c: string) => c.toLowerCase()];
        for (const [i, form] of forms.entries()) {
          const d = i === 0 ? first : await deviceStart();
          const text = form(d.userCode);
          await page.goto(`${emu.url}/oauth2/device`);
          expect(await focused(page)).toBe('user_code');
          await page.getByLabel('Code').fill(text);
          await page.getByLabel('E-mail').fill(who.email);
          await page.getByLabel('Password').fill(who.password);
          await page.getByLabel('Password').press('Enter');
          await page.getByRole('heading', { name: 'Device sign-in' }).waitFor();
          expect(await page.textContent('body'), text).toContain(`Device approved: ${who.email} is signed in on Downtown.`);
          if (i === 0) await shot(page, 'device-approved', vp);
        }
        // An unknown e-mail reads as a wrong password does.
        const d = await deviceStart();
        await page.goto(d.complete);
        await page.getByLabel('E-mail').fill(`nobody-${Date.now()}@example.com`);
        await page.getByLabel('Password').fill('whatever-1');
        await page.getByRole('button', { name: 'Approve' }).click();
        expect(await page.getByRole('alert').textContent()).toBe('Wrong e-mail or password.');
        expect(await page.getByLabel('Code').inputValue()).toBe(d.userCode);
        expect(await page.getByLabel('E-mail').inputValue()).toMatch(/^nobody-/);
        expect(await activeId(page)).toBe('password');
      } finally {
        await ctx.close();
      }
    });
  }

  it('sitectl login --device --no-browser prints the complete verification URI; opened, it has the code, and approving signs the CLI in', async () => {
    const who = await member();
    const sandbox = createCliSandbox();
    sandboxes.push(sandbox);
    const child = spawn(process.execPath, [binPath, 'login', '--device', '--no-browser'], { env: cliEnv(sandbox, emu, { SITECTL_CLIENT_ID: emu.emulator.clientId }), stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const done = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    const until = Date.now() + 15_000;
    let url: string | undefined;
    while (!(url = /^ {2}(http\S+user_code=\S+)$/m.exec(err)?.[1]) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(url, err).toBeDefined();
    const code = /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(err)![1];
    expect(url).toBe(`${emu.url}/oauth2/device?user_code=${code}`);
    const page = await browser.newPage();
    try {
      await page.goto(url!);
      expect(await page.getByLabel('Code').inputValue()).toBe(code);
      await page.getByLabel('E-mail').fill(who.email);
      await page.getByLabel('Password').fill(who.password);
      await page.getByRole('button', { name: 'Approve' }).click();
      expect(await done, err).toBe(0);
      expect(err).toContain(`Signed in as ${who.email}`);
    } finally {
      await page.close();
    }
  });

  for (const vp of VIEWPORTS) {
    it(`checkout of a plan with a free trial at ${vp.width}×${vp.height}: due today 0.00 USD, then 44.10 USD every month from the trial's end; Pay lands on the thank-you page by a GET (plan, price, start in the site's zone, short id, the way back); a reload shows it again and makes no order`, async () => {
      const clock = Date.parse((await ok('GET', '/__emulator/clock')).clock.now);
      const timeZone = await siteZone();
      const day = (ms: number) => new Date(ms).toLocaleDateString('en-US', { timeZone, year: 'numeric', month: 'short', day: 'numeric' });
      const gold = (await ok('GET', '/pricing-plans/v2/plans?limit=100')).plans.find((p: Json) => p.name === 'Gold Monthly');
      expect(gold.pricing).toMatchObject({ freeTrialDays: 7, price: { value: '49' } });
      const buyer = (await ok('POST', '/members/v1/members', { member: { loginEmail: `trial-${Date.now()}-${n++}@example.com` } })).member;
      const order = (await ok('POST', '/pricing-plans/v2/checkout/orders/online', { planId: gold.id, onBehalf: { memberId: buyer.id }, couponCode: 'WELCOME10' })).order;
      // No callbacks: the browser stays on the hosted thank-you page, whose way back is the page the buyer came from.
      const { redirectSession } = await ok('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { orderId: order.id } });
      const ordersOfBuyer = async () => (await ok('GET', `/pricing-plans/v2/orders?buyerIds=${buyer.id}`)).orders as Json[];
      const ctx = await context(vp);
      try {
        const page = await ctx.newPage();
        await page.goto(`${siteUrl}/plans?to=${encodeURIComponent(redirectSession.fullUrl)}`);
        await page.getByRole('link', { name: 'Buy' }).click();
        await page.waitForURL(redirectSession.fullUrl);
        const then = `then 44.10 USD every month from ${day(clock + 7 * 86_400_000)}`;
        expect(await page.locator('tr.total').innerText()).toMatch(/^Due today\s+0\.00 USD$/);
        expect(await page.locator('p.then').textContent()).toBe(then.replace(/^then/, 'Then'));
        expect(await page.textContent('body')).not.toContain('Pay 44.10 USD');
        // One format for every amount: the terms (49.00), the subtotal, the coupon, what is due today and then.
        expect(await expectAmounts(page)).toEqual(expect.arrayContaining(['49.00 USD', '4.90 USD', '0.00 USD', '44.10 USD']));
        await expectMargins(page, vp);
        await shot(page, 'checkout-trial', vp);
        await page.getByRole('button', { name: 'Start free trial' }).click();
        await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
        // POST-redirect-GET: the thank-you page is the session's own address, answered to a GET.
        expect(page.url()).toBe(redirectSession.fullUrl);
        expect(await page.textContent('p.sub')).toBe('Your free trial of Gold Monthly with Downtown has started.');
        const paid = (await ok('GET', `/pricing-plans/v2/orders/${order.id}`)).order;
        const startsAt = new Date(paid.startDate).toLocaleString('en-US', { timeZone, year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'long' });
        const summary = async () => (await page.locator('dl.summary').innerText()).split('\n').map((l) => l.trim()).filter(Boolean);
        const expected = ['Plan', 'Gold Monthly', 'Price', `Due today 0.00 USD, ${then}`, 'Starts', startsAt, 'Order', order.id.slice(0, 8)];
        expect(await summary()).toEqual(expected);
        // The zone is named (its long name, e.g. Pacific Standard Time), not left to guess.
        expect(startsAt).toMatch(/[A-Za-z]+ Time$/);
        // The way back: the app's page the buyer came from (the browser's Referer: its origin, the page being on another origin).
        expect(await page.getByRole('link', { name: 'Back to Downtown' }).getAttribute('href')).toMatch(new RegExp(`^${siteUrl}/`));
        await expectAmounts(page);
        await expectMargins(page, vp);
        await shot(page, 'thank-you', vp);
        // A reload: the same page, by a GET (no form sent again), and still the one order, paid once.
        const events = (await ok('GET', '/__emulator/events?after=0&limit=1000')).events.filter((e: Json) => e.entityId === order.id).length;
        const reload = await page.reload();
        expect(reload?.request().method()).toBe('GET');
        expect(await page.textContent('h1')).toBe('Thank you for your order');
        expect(await summary()).toEqual(expected);
        expect(await ordersOfBuyer()).toHaveLength(1);
        expect((await ok('GET', '/__emulator/events?after=0&limit=1000')).events.filter((e: Json) => e.entityId === order.id)).toHaveLength(events);
      } finally {
        await ctx.close();
      }
      expect((await ok('GET', `/pricing-plans/v2/orders/${order.id}`)).order).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    });
  }

  for (const vp of VIEWPORTS) {
    it(`a canceled checkout at ${vp.width}×${vp.height}: nothing paid, "Try again" back to the same checkout, which then pays`, async () => {
      const plan = (await ok('GET', '/pricing-plans/v2/plans?limit=100')).plans.find((p: Json) => p.name === 'Silver 12 Months');
      const buyer = (await ok('POST', '/members/v1/members', { member: { loginEmail: `cancel-${Date.now()}-${n++}@example.com` } })).member;
      const order = (await ok('POST', '/pricing-plans/v2/checkout/orders/online', { planId: plan.id, onBehalf: { memberId: buyer.id } })).order;
      const { redirectSession } = await ok('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { orderId: order.id } });
      const ctx = await context(vp);
      try {
        const page = await ctx.newPage();
        await page.goto(redirectSession.fullUrl);
        await expectAmounts(page);
        await shot(page, 'checkout', vp);
        await page.getByRole('button', { name: 'Cancel' }).click();
        await page.getByRole('heading', { name: 'Checkout canceled' }).waitFor();
        expect(await page.textContent('main')).toContain('Nothing was paid: your order is still waiting for its payment.');
        const retry = page.getByRole('link', { name: 'Try again' });
        expect(await retry.getAttribute('href')).toBe(new URL(redirectSession.fullUrl).pathname + new URL(redirectSession.fullUrl).search);
        await expectMargins(page, vp);
        await shot(page, 'checkout-canceled', vp);
        // A reload of the canceled page cancels nothing more and stays there.
        await page.reload();
        expect(await page.textContent('h1')).toBe('Checkout canceled');
        expect((await ok('GET', `/pricing-plans/v2/orders/${order.id}`)).order).toMatchObject({ status: 'DRAFT', lastPaymentStatus: 'PENDING' });
        await retry.click();
        await page.getByRole('heading', { name: 'Checkout' }).waitFor();
        await page.getByRole('button', { name: /^Pay / }).click();
        await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
        // Without a post-flow URL the checkout knows no page of the site: the tab may close.
        expect(await page.textContent('main')).toContain('You can close this tab.');
      } finally {
        await ctx.close();
      }
      expect((await ok('GET', `/pricing-plans/v2/orders/${order.id}`)).order).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    });
  }

  it('a second browser: the first page only offers to continue, the next only says to go back (phone)', async () => {
    const vp = VIEWPORTS[0];
    const plan = (await ok('GET', '/pricing-plans/v2/plans?limit=100')).plans.find((p: Json) => p.name === 'Silver 12 Months');
    const buyer = (await ok('POST', '/members/v1/members', { member: { loginEmail: `second-${Date.now()}@example.com` } })).member;
    const order = (await ok('POST', '/pricing-plans/v2/checkout/orders/online', { planId: plan.id, onBehalf: { memberId: buyer.id } })).order;
    const { redirectSession } = await ok('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { orderId: order.id }, callbacks: { postFlowUrl: `${siteUrl}/plans` } });
    const mine = await context(vp);
    const theirs = await context(vp);
    try {
      await (await mine.newPage()).goto(redirectSession.fullUrl);
      const other = await theirs.newPage();
      await other.goto(redirectSession.fullUrl);
      expect(await other.locator('main a').allTextContents()).toEqual(['Continue to the checkout']);
      expect(await other.textContent('main')).not.toMatch(/another browser|started it in/);
      await shot(other, 'checkout-continue', vp);
      await other.getByRole('link', { name: 'Continue to the checkout' }).click();
      await other.getByRole('heading', { name: 'This checkout is open in another browser' }).waitFor();
      expect(await other.locator('main a').allTextContents()).toEqual(['Back to the site']);
      expect(await other.textContent('main')).not.toContain('Continue');
      await expectMargins(other, vp);
      await shot(other, 'checkout-other-browser', vp);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });
});
