/**
 * The emulator's hosted checkout page in a real browser (headless Chromium: Debian `chromium`, driven by
 * playwright-core): the `fullUrl` of a `paidPlansCheckout` redirect session is opened, the page shows the plan
 * and the total, Pay is clicked like a person would, the browser lands on the session's thank-you URL (a small
 * local site), and the order is ACTIVE and PAID through the API. Also a plan's checkout without a member: the
 * sign-in page first (submitted with Enter), then back to the checkout, then the thank-you URL. And the buyer's
 * binding to one browser: another browser (context) never sees the buyer; the buyer's own browser coming back
 * from another site (its SameSite=Strict cookie not sent) continues through a same-site link. Screenshots go to SITECTL_SCREENSHOTS.
 * Skipped, with a message, when /usr/bin/chromium is missing.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/index.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`tests/e2e/checkout-browser.test.ts: ${CHROMIUM} is missing (apt-get install chromium); skipping`);
const SCREENSHOTS = process.env.SITECTL_SCREENSHOTS ?? join(tmpdir(), 'sitectl-screenshots');

let emu: TestEmulator;
let browser: Browser;
/** The "site" the checkout returns to: answers every path with a page naming it. */
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  if (!hasChromium) return;
  emu = await startTestEmulator({ seed: 'demo', size: 5, bookings: 0, members: 10 });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    const clean = (v: string) => v.replace(/[<>&"]/g, '');
    // /link?to=URL: a page of the shop linking to URL (a cross-site navigation when the shop is on another host).
    const to = new URL(String(req.url), 'http://shop').searchParams.get('to');
    res.end(`<!doctype html><title>Shop</title><h1>Shop page ${clean(String(req.url))}</h1>${to ? `<a href="${clean(to)}">Back to the checkout</a>` : ''}`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  await emu?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Screenshots `page` as `<name>-1280.png` at 1280×800 and, its HTML laid out in a phone's browser, as
 * `<name>-390.png` at 390×844; both with the viewport tag and nothing wider than the screen.
 */
async function shotBoth(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toBe('width=device-width, initial-scale=1');
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-1280.png`), fullPage: true });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const small = await phone.newPage();
    await small.setContent(await page.content());
    expect(await small.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await small.screenshot({ path: join(SCREENSHOTS, `${name}-390.png`), fullPage: true });
  } finally {
    await phone.close();
  }
}

async function ok(method: string, path: string, body?: unknown): Promise<Json> {
  const r = await emu.request(method, path, body);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
const planNamed = async (name: string) => (await ok('GET', '/pricing-plans/v2/plans?limit=100')).plans.find((p: Json) => p.name === name);

describe.skipIf(!hasChromium)('the hosted checkout page in a real browser (headless Chromium)', () => {
  it("opens the redirect session's fullUrl, clicks Pay, lands on the thank-you URL; the order is ACTIVE and PAID", async () => {
    const plan = await planNamed('Silver 12 Months');
    const buyer = (await ok('POST', '/members/v1/members', { member: { loginEmail: `browser-payer-${Date.now()}@example.com` } })).member;
    const order = (await ok('POST', '/pricing-plans/v2/checkout/orders/online', { planId: plan.id, onBehalf: { memberId: buyer.id }, couponCode: 'WELCOME10' })).order;
    expect(order).toMatchObject({ status: 'DRAFT', lastPaymentStatus: 'PENDING' });
    const { redirectSession } = await ok('POST', '/_api/redirects-api/v1/redirect-session', {
      paidPlansCheckout: { orderId: order.id },
      callbacks: { thankYouPageUrl: `${siteUrl}/thank-you`, postFlowUrl: `${siteUrl}/plans` },
    });
    const page = await browser.newPage();
    try {
      await page.goto(redirectSession.fullUrl);
      await expect(page.getByRole('heading', { name: 'Checkout' }).isVisible()).resolves.toBe(true);
      const text = await page.textContent('body');
      expect(text).toContain('Silver 12 Months');
      expect(text).toContain('Coupon WELCOME10');
      expect(text).toContain(`Buying as ${buyer.loginEmail}`);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, 'checkout.png'), fullPage: true });
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(`${siteUrl}/thank-you`);
      expect(await page.textContent('h1')).toBe('Shop page /thank-you');
    } finally {
      await page.close();
    }
    const paid = (await ok('GET', `/pricing-plans/v2/orders/${order.id}?fieldSet=FULL`)).order;
    expect(paid).toMatchObject({ id: order.id, status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    expect(paid.cycles).toHaveLength(1);
  });

  it("a plan's checkout with no member: sign in on the hosted page (Enter), back to the checkout, Pay, then the thank-you URL", async () => {
    const email = `browser-signin-payer-${Date.now()}@example.com`;
    await ok('POST', '/_api/iam/authentication/v2/register', { loginId: { email }, password: 'correct-horse' });
    const plan = await planNamed('10-Class Pack');
    const { redirectSession } = await ok('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { planId: plan.id }, callbacks: { thankYouPageUrl: `${siteUrl}/welcome` } });
    const page = await browser.newPage();
    try {
      await page.goto(redirectSession.fullUrl);
      await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill('correct-horse');
      await shotBoth(page, 'checkout-sign-in');
      // Enter in the password field signs in (the form's first submit button is "Sign in", not "Cancel").
      await page.getByLabel('Password').press('Enter');
      await page.waitForURL(/\/hosted\/paidPlansCheckout\?session=/);
      expect(await page.textContent('body')).toContain(`Buying as ${email}`);
      await shotBoth(page, 'checkout-signed-in');
      await page.getByRole('button', { name: 'Pay 120.00 USD' }).click();
      await page.waitForURL(`${siteUrl}/welcome`);
    } finally {
      await page.close();
    }
    const member = (await ok('POST', '/members/v1/members/query', { query: { filter: { loginEmail: email } } })).members[0];
    const orders = (await ok('GET', `/pricing-plans/v2/orders?buyerIds=${member.id}`)).orders;
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ planId: plan.id, type: 'ONLINE', status: 'ACTIVE', lastPaymentStatus: 'PAID' });
  });

  it('binds the buyer to the browser: another browser sees no buyer; the buyer coming back from another site continues with a same-site link', async () => {
    const plan = await planNamed('Silver 12 Months');
    const buyer = (await ok('POST', '/members/v1/members', { member: { loginEmail: `browser-bound-${Date.now()}@example.com` } })).member;
    const order = (await ok('POST', '/pricing-plans/v2/checkout/orders/online', { planId: plan.id, onBehalf: { memberId: buyer.id } })).order;
    const { redirectSession } = await ok('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { orderId: order.id }, callbacks: { thankYouPageUrl: `${siteUrl}/thank-you` } });
    const mine = await browser.newContext();
    const theirs = await browser.newContext();
    try {
      const page = await mine.newPage();
      await page.goto(redirectSession.fullUrl);
      expect(await page.textContent('body')).toContain(`Buying as ${buyer.loginEmail}`);
      // Another browser with the link: no buyer, and no way on.
      const other = await theirs.newPage();
      await other.goto(redirectSession.fullUrl);
      expect(await other.textContent('body')).not.toContain(buyer.loginEmail);
      await other.getByRole('link', { name: 'Continue to the checkout' }).click();
      await other.waitForURL(/resume=1/);
      expect(await other.textContent('body')).toContain('open in another browser');
      // The buyer's browser back from the shop on another site (localhost, not 127.0.0.1): the cookie is not sent on that navigation.
      await page.goto(`${siteUrl.replace('127.0.0.1', 'localhost')}/link?to=${encodeURIComponent(redirectSession.fullUrl)}`);
      await page.getByRole('link', { name: 'Back to the checkout' }).click();
      await page.waitForURL(redirectSession.fullUrl);
      expect(await page.textContent('body')).not.toContain(buyer.loginEmail);
      await page.getByRole('link', { name: 'Continue to the checkout' }).click();
      await page.waitForURL(/resume=1/);
      expect(await page.textContent('body')).toContain(`Buying as ${buyer.loginEmail}`);
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(`${siteUrl}/thank-you`);
    } finally {
      await mine.close();
      await theirs.close();
    }
    expect((await ok('GET', `/pricing-plans/v2/orders/${order.id}`)).order).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
  });
});
