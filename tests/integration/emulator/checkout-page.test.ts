/**
 * Paying online orders on a real emulator (port 0): the control plane's `POST /__emulator/orders/{id}/pay`
 * (PAID: ACTIVE with its dates and cycles, or PENDING until a later start, events; FAILED: still DRAFT; refusals with their codes), and the
 * hosted checkout page of a `paidPlansCheckout` redirect session over plain HTTP: Pay and Cancel with the
 * session's onward URLs, or POST-redirect-GET to the thank-you and canceled pages (Try again), the CSRF token and same-origin checks, escaping, a plan's checkout with a coupon for
 * a member token, and a checkout that needs a member going through the sign-in page first. Then the security
 * review's findings: the buyer bound to one browser by a cookie (a link holder can neither see nor pay), callback
 * URLs on the app's allowed origins, a declined card not using up a purchase limit, no second buyer, blocked
 * members refused, the sign-in's session token spent, sessions that expire and are capped.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHECKOUT_TTL_MS, MAX_OPEN_SESSIONS } from '../../../src/emulator/checkout-page/sessions.js';
import { OAuthState } from '../../../src/emulator/oauth/state.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let n = 0;
/** An app of the default site whose redirect URI puts https://shop.example among the allowed callback origins. */
let shopApp: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, bookings: 0, members: 10 });
  await emu.request('PUT', '/__emulator/clock', { frozen: true });
  shopApp = (await emu.request('POST', '/__emulator/oauth-apps', { name: 'Shop', redirectUris: ['https://shop.example/callback'] })).body.app.clientId;
});
afterAll(async () => {
  await emu?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function ok(method: string, path: string, body?: unknown): Promise<Json> {
  const r = await emu.request(method, path, body);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
const refusal = (r: { status: number; body: Json }) => ({ status: r.status, code: r.body?.details?.applicationError?.code });
const now = async () => Date.parse((await ok('GET', '/__emulator/clock')).clock.now);

async function plan(pricing: Json = { subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 3 }, price: { value: '30', currency: 'USD' } }, extra: Json = {}): Promise<Json> {
  return (await ok('POST', '/pricing-plans/v2/plans', { plan: { name: `Pay plan ${n++}`, pricing, ...extra } })).plan;
}
async function member(): Promise<string> {
  return (await ok('POST', '/members/v1/members', { member: { loginEmail: `payer-${Date.now()}-${n++}@example.com` } })).member.id;
}
async function online(planId: string, memberId?: string, extra: Json = {}): Promise<Json> {
  return (await ok('POST', '/pricing-plans/v2/checkout/orders/online', { planId, onBehalf: { memberId: memberId ?? (await member()) }, ...extra })).order;
}
const order = async (id: string) => (await ok('GET', `/pricing-plans/v2/orders/${id}?fieldSet=FULL`)).order;
const eventsOf = async (id: string) => (await ok('GET', '/__emulator/events?after=0&limit=1000')).events.filter((e: Json) => e.entityId === id).map((e: Json) => e.type);
const pay = (id: string, body?: Json) => emu.request('POST', `/__emulator/orders/${id}/pay`, body ?? {});

describe('POST /__emulator/orders/{id}/pay', () => {
  it('PAID: a DRAFT online order becomes ACTIVE and PAID, with its end date and first cycle, and order.purchased + order.started', async () => {
    const p = await plan();
    const o = await online(p.id);
    expect(o).toMatchObject({ status: 'DRAFT', lastPaymentStatus: 'PENDING' });
    expect(await eventsOf(o.id)).toEqual(['order.created']);
    const r = await pay(o.id);
    expect(r.status).toBe(200);
    const t = await now();
    expect(r.body.order).toMatchObject({ id: o.id, status: 'ACTIVE', lastPaymentStatus: 'PAID', startDate: new Date(t).toISOString() });
    const got = await order(o.id);
    expect(got).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    expect(got.cycles).toEqual([{ index: 1, startedDate: got.startDate, endedDate: got.earliestEndDate }]);
    // Three months on the UTC calendar: the same day, or the last one of a shorter month (Nov 30: Feb 28).
    const start = new Date(got.startDate);
    const lastDay = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 4, 0)).getUTCDate();
    const end = new Date(start.getTime());
    end.setUTCDate(1);
    end.setUTCMonth(start.getUTCMonth() + 3);
    end.setUTCDate(Math.min(start.getUTCDate(), lastDay));
    expect(got.endDate).toBe(end.toISOString());
    expect(await eventsOf(o.id)).toEqual(['order.created', 'order.purchased', 'order.started']);
  });

  it('an order whose start date passed while it waited starts when paid; one bought for later keeps its start (PENDING until then)', async () => {
    const p = await plan(undefined, { allowFutureStartDate: true });
    const waited = await online(p.id);
    await ok('PUT', '/__emulator/clock', { advance: '3d' });
    const paid = (await ok('POST', `/__emulator/orders/${waited.id}/pay`, {})).order;
    expect(Date.parse(paid.startDate)).toBe(await now());
    expect(Date.parse(paid.startDate) - Date.parse(waited.startDate)).toBe(3 * 86_400_000);

    const later = new Date((await now()) + 10 * 86_400_000).toISOString();
    const future = await online(p.id, undefined, { startDate: later });
    const f = (await ok('POST', `/__emulator/orders/${future.id}/pay`, {})).order;
    expect(f).toMatchObject({ status: 'PENDING', lastPaymentStatus: 'PAID', startDate: later, cycles: [] });
    expect(await eventsOf(future.id)).toEqual(['order.created', 'order.purchased']);
    // Pausing says why not: it has not started.
    const pause = await emu.request('POST', `/pricing-plans/v2/orders/${future.id}/pause`, { id: future.id });
    expect(pause.body.details.applicationError.data.reason).toBe('NOT_STARTED');
    await ok('PUT', '/__emulator/clock', { advance: '10d' });
    expect(await order(future.id)).toMatchObject({ status: 'ACTIVE', currentCycle: { index: 1 } });
    expect(await eventsOf(future.id)).toEqual(['order.created', 'order.purchased', 'order.started', 'order.cycle_started']);
  });

  it('a free trial: ACTIVE and PAID, in its trial (no cycle yet; the earliest end is the trial end)', async () => {
    const p = await plan({ subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 0 }, price: { value: '49', currency: 'USD' }, freeTrialDays: 7 });
    const o = (await ok('POST', `/__emulator/orders/${(await online(p.id)).id}/pay`, { outcome: 'paid' })).order;
    expect(o).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID', cycles: [] });
    expect(Date.parse(o.earliestEndDate) - Date.parse(o.startDate)).toBe(7 * 86_400_000);
    expect(o.endDate).toBeUndefined();
  });

  it('FAILED: the order stays DRAFT with payment FAILED (order.updated); paying again then works', async () => {
    const o = await online((await plan()).id);
    const r = await pay(o.id, { outcome: 'FAILED' });
    expect(r.status).toBe(200);
    expect(r.body.order).toMatchObject({ status: 'DRAFT', lastPaymentStatus: 'FAILED' });
    expect(await order(o.id)).toMatchObject({ status: 'DRAFT', lastPaymentStatus: 'FAILED' });
    expect(await eventsOf(o.id)).toEqual(['order.created', 'order.updated']);
    expect((await pay(o.id, { outcome: 'PAID' })).body.order).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
  });

  it("pays the demo seed's DRAFT online orders too; its PENDING orders are paid already", async () => {
    const waiting = (await ok('GET', '/pricing-plans/v2/orders?orderStatuses=DRAFT&paymentStatuses=PENDING&limit=1')).orders[0];
    expect(waiting).toBeDefined();
    expect((await ok('POST', `/__emulator/orders/${waiting.id}/pay`, {})).order).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    const pending = (await ok('GET', '/pricing-plans/v2/orders?orderStatuses=PENDING&limit=50')).orders as Json[];
    expect(pending.length).toBeGreaterThan(0);
    const t = await now();
    expect(pending.every((o) => o.lastPaymentStatus !== 'PENDING' && Date.parse(o.startDate) > t)).toBe(true);
  });

  it('refuses what is not a DRAFT online order, with a clear code and message; a bad outcome is a 400', async () => {
    const p = await plan();
    const o = await online(p.id);
    await pay(o.id);
    const twice = await pay(o.id);
    expect(refusal(twice)).toEqual({ status: 428, code: 'ORDER_NOT_PENDING' });
    expect(twice.body.message).toContain('is ACTIVE (payment PAID): it is paid already');

    const canceled = await online(p.id);
    await ok('POST', `/pricing-plans/v2/orders/${canceled.id}/cancel`, { id: canceled.id, effectiveAt: 'IMMEDIATELY' });
    expect(refusal(await pay(canceled.id))).toEqual({ status: 428, code: 'ORDER_NOT_PENDING' });

    const off = (await ok('POST', '/pricing-plans/v2/checkout/orders/offline', { planId: p.id, memberId: await member() })).order;
    const r = await pay(off.id);
    expect(refusal(r)).toEqual({ status: 428, code: 'ORDER_NOT_ONLINE' });
    expect(r.body.message).toContain('mark it as paid');

    expect(refusal(await pay('00000000-0000-4000-8000-000000000001'))).toEqual({ status: 404, code: 'ORDER_NOT_FOUND' });
    const bad = await pay(o.id, { outcome: 'MAYBE' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'outcome' });
    // Nothing changed by the refusals.
    expect(await eventsOf(off.id)).toEqual(['order.created', 'order.purchased', 'order.started']);
  });
});

/** A page of the emulator as a browser fetches it (no redirects followed). */
async function browse(path: string, form?: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(path.startsWith('http') ? path : emu.url + path, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: form ? { 'content-type': 'application/x-www-form-urlencoded', origin: emu.url, ...headers } : headers,
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text(), headers: res.headers };
}
/** A browser: {@link browse} with a cookie jar (what Set-Cookie stored, sent back on every request). */
function newBrowser() {
  const jar = new Map<string, string>();
  return async (path: string, form?: Record<string, string>, headers: Record<string, string> = {}) => {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const r = await browse(path, form, { ...(cookie ? { cookie } : {}), ...headers });
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return r;
  };
}
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';

async function session(body: Json, auth?: string): Promise<string> {
  const res = await fetch(`${emu.url}/_api/redirects-api/v1/redirect-session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth ?? emu.apiKey, ...(auth ? {} : { 'wix-site-id': emu.siteId }) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  if (res.status !== 200) throw new Error(`redirect session: ${res.status} ${JSON.stringify(json)}`);
  return json.redirectSession.fullUrl;
}

describe('the hosted checkout page', () => {
  it('an order: shows plan, terms and total; Pay moves it to ACTIVE/PAID and sends the browser to the thank-you URL', async () => {
    const b = newBrowser();
    const p = await plan({ singlePaymentForDuration: { count: 3, unit: 'MONTH' }, price: { value: '120', currency: 'USD' } });
    const o = await online(p.id);
    const url = await session({ paidPlansCheckout: { orderId: o.id }, callbacks: { thankYouPageUrl: 'https://shop.example/thanks', postFlowUrl: 'https://shop.example/plans' } });
    expect(url).toMatch(new RegExp(`^${emu.url}/hosted/paidPlansCheckout\\?session=[0-9a-f-]{36}$`));
    const page = await b(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.text).toContain(p.name);
    expect(page.text).toContain('120.00 USD once, for 3 months');
    expect(page.text).toContain('Pay 120.00 USD');
    const form = { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf') };
    expect(form.csrf).not.toBe('');
    const paid = await b('/hosted/paidPlansCheckout', { ...form, action: 'pay' });
    expect(paid).toMatchObject({ status: 303, location: 'https://shop.example/thanks' });
    expect(await order(o.id)).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    // The session is over: the page says so, and a second Pay changes nothing (it is sent to that page, by a GET).
    expect((await b(url)).text).toContain('Thank you');
    expect(await b('/hosted/paidPlansCheckout', { ...form, action: 'pay' })).toMatchObject({ status: 303, location: `/hosted/paidPlansCheckout?session=${form.session}` });
    expect(await eventsOf(o.id)).toEqual(['order.created', 'order.purchased', 'order.started']);
  });

  it('Cancel leaves the order DRAFT and goes to the post-flow URL; a declined card shows the page again', async () => {
    const b = newBrowser();
    const o = await online((await plan()).id);
    const url = await session({ paidPlansCheckout: { orderId: o.id }, callbacks: { postFlowUrl: 'http://127.0.0.1:9/back?x=1' } });
    const page = await b(url);
    const form = { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf') };
    const declined = await b('/hosted/paidPlansCheckout', { ...form, action: 'decline' });
    expect(declined.status).toBe(402);
    expect(declined.text).toContain('declined');
    expect(await order(o.id)).toMatchObject({ status: 'DRAFT', lastPaymentStatus: 'FAILED' });
    const canceled = await b('/hosted/paidPlansCheckout', { ...form, action: 'cancel' });
    expect(canceled).toMatchObject({ status: 303, location: 'http://127.0.0.1:9/back?x=1' });
    expect(await order(o.id)).toMatchObject({ status: 'DRAFT', lastPaymentStatus: 'FAILED' });
  });

  it("the thank-you page's way back is the page the buyer came from, only when the session's app allows it as a callback URL", async () => {
    const b = newBrowser();
    const o = await online((await plan()).id);
    // The API key speaks for the site: any of its apps' origins (the shop app's https://shop.example among them).
    const url = await session({ paidPlansCheckout: { orderId: o.id } });
    const page = await b(url, undefined, { referer: 'https://evil.example/phish' });
    await b(url, undefined, { referer: `${emu.url}/oauth2/authorize` });
    await b(url, undefined, { referer: 'https://shop.example/plans?x=1' });
    await b(url, undefined, { referer: 'https://shop.example/later' });
    const paid = await b('/hosted/paidPlansCheckout', { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf'), action: 'pay' });
    const thanks = (await b(paid.location!)).text;
    expect(thanks).toContain('<a class="button primary" href="https://shop.example/plans?x=1">Back to Downtown</a>');
    expect(thanks).not.toContain('evil.example');
    // Without one it came from, the page says the tab may close.
    const o2 = await online((await plan()).id);
    const b2 = newBrowser();
    const page2 = await b2(await session({ paidPlansCheckout: { orderId: o2.id } }), undefined, { referer: 'https://evil.example/' });
    const paid2 = await b2('/hosted/paidPlansCheckout', { session: hidden(page2.text, 'session'), csrf: hidden(page2.text, 'csrf'), action: 'pay' });
    const thanks2 = (await b2(paid2.location!)).text;
    expect(thanks2).toContain('You can close this tab.');
    expect(thanks2).not.toContain('Back to');
  });

  it('refuses a form without the session CSRF token or from another origin; the onward URL is never taken from the request', async () => {
    const b = newBrowser();
    const o = await online((await plan()).id);
    const url = await session({ paidPlansCheckout: { orderId: o.id }, callbacks: { thankYouPageUrl: 'https://shop.example/thanks' } });
    const page = await b(`${url}&thankYouPageUrl=https://evil.example/&postFlowUrl=https://evil.example/`);
    expect(page.text).not.toContain('evil.example');
    const session_ = hidden(page.text, 'session');
    expect((await b('/hosted/paidPlansCheckout', { session: session_, action: 'pay' })).status).toBe(403);
    expect((await b('/hosted/paidPlansCheckout', { session: session_, csrf: 'x'.repeat(32), action: 'pay' })).status).toBe(403);
    expect((await b('/hosted/paidPlansCheckout', { session: session_, csrf: hidden(page.text, 'csrf'), action: 'pay' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect(await order(o.id)).toMatchObject({ status: 'DRAFT' });
    const paid = await b('/hosted/paidPlansCheckout', { session: session_, csrf: hidden(page.text, 'csrf'), action: 'pay', thankYouPageUrl: 'https://evil.example/' });
    expect(paid.location).toBe('https://shop.example/thanks');
    // An unknown or made-up session.
    expect((await b('/hosted/paidPlansCheckout?session=nope')).status).toBe(400);
  });

  it('escapes what it shows (a plan name with markup)', async () => {
    const b = newBrowser();
    const p = await plan(undefined, { name: `<script>alert(1)</script> & "Co" ${n++}`, description: '<img src=x onerror=alert(2)>' });
    const url = await session({ paidPlansCheckout: { orderId: (await online(p.id)).id } });
    const page = await b(url);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
  });

  it('redirect sessions are checked: an unknown plan, a paid order, a callback that is not http(s), nothing to buy', async () => {
    const b = newBrowser();
    const missing = await emu.request('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { planId: '00000000-0000-4000-8000-000000000002' } });
    expect(refusal(missing)).toEqual({ status: 404, code: 'PLAN_NOT_FOUND' });
    const o = await online((await plan()).id);
    await pay(o.id);
    expect(refusal(await emu.request('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { orderId: o.id } }))).toEqual({ status: 428, code: 'ORDER_NOT_PENDING' });
    const js = await emu.request('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { planId: o.planId }, callbacks: { postFlowUrl: 'javascript:alert(1)' } });
    expect(js.status).toBe(400);
    expect(js.body.details.validationError.fieldViolations[0].field).toBe('callbacks.postFlowUrl');
    expect((await emu.request('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: {} })).status).toBe(400);
    // The other checkout sections stay placeholders.
    const ecom = (await ok('POST', '/_api/redirects-api/v1/redirect-session', { ecomCheckout: { checkoutId: 'c1' } })).redirectSession.fullUrl;
    expect((await b(ecom)).text).toContain('The emulator hosts no ecomCheckout page');
  });

  it("a plan's checkout for a member token: coupon applied on the page, Pay creates the member's order, paid", async () => {
    const b = newBrowser();
    const p = await plan({ subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 0 }, price: { value: '50', currency: 'USD' } });
    const buyer = await member();
    const tokens = await fetch(`${emu.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `${await visitorToken()},${emu.apiKey}` },
      body: JSON.stringify({ grant_type: 'authorized_client', scope: 'offline_access', member_id: buyer }),
    }).then((r) => r.json() as Promise<Json>);
    // The token is the default app's: its allowed callbacks are loopback URLs.
    const url = await session({ paidPlansCheckout: { planId: p.id }, callbacks: { thankYouPageUrl: 'http://localhost:9/thanks' } }, tokens.access_token);
    const page = await b(url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Pay 50.00 USD');
    const form = { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf') };
    const bad = await b('/hosted/paidPlansCheckout', { ...form, action: 'coupon', coupon: 'NO-SUCH-CODE' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('coupon &quot;NO-SUCH-CODE&quot; does not exist');
    expect(await b('/hosted/paidPlansCheckout', { ...form, action: 'coupon', coupon: 'welcome10' })).toMatchObject({ status: 303 });
    const discounted = await b(url);
    expect(discounted.text).toContain('Coupon WELCOME10');
    expect(discounted.text).toContain('Pay 45.00 USD');
    expect(await b('/hosted/paidPlansCheckout', { ...form, action: 'pay' })).toMatchObject({ status: 303, location: 'http://localhost:9/thanks' });
    const mine = (await ok('GET', `/pricing-plans/v2/orders?buyerIds=${buyer}&fieldSet=FULL`)).orders;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ planId: p.id, type: 'ONLINE', status: 'ACTIVE', lastPaymentStatus: 'PAID', pricing: { prices: [{ price: { total: '45', coupon: { code: 'WELCOME10' } } }] } });
    expect(await eventsOf(mine[0].id)).toEqual(['order.created', 'order.purchased', 'order.started']);
  });

  it("a plan's checkout with no member: the sign-in page first (wrong password shown), then back to the checkout as that member", async () => {
    const b = newBrowser();
    const p = await plan();
    const email = `signin-pay-${Date.now()}@example.com`;
    await ok('POST', '/_api/iam/authentication/v2/register', { loginId: { email }, password: 'correct-horse' });
    const url = await session({ paidPlansCheckout: { planId: p.id } });
    const first = await b(url);
    expect(first.status).toBe(303);
    expect(first.location).toMatch(/^\/hosted\/paidPlansCheckout\/sign-in\?session=/);
    const signIn = await b(first.location!);
    expect(signIn.text).toContain('type="password"');
    const form = { session: hidden(signIn.text, 'session'), csrf: hidden(signIn.text, 'csrf') };
    const wrong = await b('/hosted/paidPlansCheckout/sign-in', { ...form, email, password: 'nope-nope', action: 'signin' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Wrong e-mail or password.');
    const right = await b('/hosted/paidPlansCheckout/sign-in', { ...form, email, password: 'correct-horse', action: 'signin' });
    expect(right).toMatchObject({ status: 303 });
    const page = await b(right.location!);
    expect(page.text).toContain(`Buying as ${email}`);
    // The checkout's form token is the signed-in browser's, not the sign-in form's.
    expect(hidden(page.text, 'csrf')).not.toBe(form.csrf);
    expect((await b('/hosted/paidPlansCheckout', { ...form, action: 'pay' })).status).toBe(403);
    // Pay answers 303 to the session's page (POST-redirect-GET), which is now the thank-you page.
    const paid = await b('/hosted/paidPlansCheckout', { ...form, csrf: hidden(page.text, 'csrf'), action: 'pay' });
    expect(paid).toMatchObject({ status: 303, location: `/hosted/paidPlansCheckout?session=${form.session}` });
    const done = await b(paid.location!);
    expect(done.status).toBe(200);
    expect(done.text).toContain('<h1>Thank you for your order</h1>');
    expect(done.text).toContain(`Your ${p.name} plan with Downtown is confirmed.`);
    // The thank-you page names the plan, what was paid, the start in the site's zone and the order by its short id (the whole id in its title).
    const bought = (await ok('GET', `/pricing-plans/v2/orders?planIds=${p.id}&fieldSet=FULL`)).orders as Json[];
    expect(bought).toMatchObject([{ status: 'ACTIVE', lastPaymentStatus: 'PAID' }]);
    expect(done.text).toContain(`<dt>Plan</dt><dd>${p.name}</dd><dt>Paid</dt><dd>30.00 USD</dd><dt>Starts</dt><dd>`);
    expect(done.text).toContain(`<dt>Order</dt><dd><span title="${bought[0]!.id}">${bought[0]!.id.slice(0, 8)}</span></dd>`);
    expect(done.text).toContain('You can close this tab.');
    // Loaded again: the same page, and still one order.
    expect((await b(paid.location!)).text).toContain('<h1>Thank you for your order</h1>');
    expect((await ok('GET', `/pricing-plans/v2/orders?planIds=${p.id}`)).orders).toHaveLength(1);
  });
});

/** Tokens of the token endpoint: a visitor of an app, or a member (issued to the site's default app). */
/** A token of the grant `body`; `admin`: the authorized_client form, `Authorization: <visitor token>,<api key>`. */
async function tokenOf(body: Json, admin = false): Promise<string> {
  const res = await fetch(`${emu.url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(admin ? { authorization: `${await visitorToken()},${emu.apiKey}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(json)}`);
  return json.access_token;
}
const visitorToken = (clientId: string = emu.emulator.clientId!) => tokenOf({ clientId, grantType: 'anonymous' });
const memberToken = (memberId: string) => tokenOf({ grant_type: 'authorized_client', scope: 'offline_access', member_id: memberId }, true);
async function registered(): Promise<{ email: string; id: string }> {
  const email = `review-${Date.now()}-${n++}@example.com`;
  await ok('POST', '/_api/iam/authentication/v2/register', { loginId: { email }, password: 'correct-horse' });
  const id = (await ok('POST', '/members/v1/members/query', { query: { filter: { loginEmail: email } } })).members[0].id;
  return { email, id };
}
const ordersOf = async (memberId: string) => (await ok('GET', `/pricing-plans/v2/orders?buyerIds=${memberId}&fieldSet=FULL`)).orders as Json[];
/** Signs `email` in on the checkout's sign-in page in browser `b`. @returns the checkout page after it, and the sign-in's answer */
async function signInOn(b: ReturnType<typeof newBrowser>, url: string, email: string) {
  const signIn = await b((await b(url)).location!);
  const answer = await b('/hosted/paidPlansCheckout/sign-in', { session: hidden(signIn.text, 'session'), csrf: hidden(signIn.text, 'csrf'), email, password: 'correct-horse', action: 'signin' });
  expect(answer.status).toBe(303);
  return Object.assign(await b(answer.location!), { answer });
}

describe('the hosted checkout page: the security review', () => {
  it('a link holder cannot take over a checkout a victim signed in on: no buyer, no token shown; a POST without the cookie (and without Origin) pays nothing', async () => {
    const p = await plan();
    const victim = await registered();
    // The attacker makes the session with a visitor token and sends the link.
    const url = await session({ paidPlansCheckout: { planId: p.id } }, await visitorToken());
    const attackerSignIn = await browse((await browse(url)).location!);
    const stale = { session: hidden(attackerSignIn.text, 'session'), csrf: hidden(attackerSignIn.text, 'csrf') };
    const victimBrowser = newBrowser();
    const page = await signInOn(victimBrowser, url, victim.email);
    expect(page.text).toContain(`Buying as ${victim.email}`);
    // The attacker, with the link and no cookie: neither the buyer nor a form token.
    const look = await browse(url);
    expect(look.status).toBe(200);
    expect(look.text).not.toContain(victim.email);
    expect(look.text).not.toContain('name="csrf"');
    const resumed = await browse(`${url}&resume=1`);
    expect(resumed.status).toBe(403);
    expect(resumed.text).toContain('open in another browser');
    expect(resumed.text).not.toContain(victim.email);
    // Even the victim's own form token (leaked) and the sign-in form's token are refused without the cookie, with no Origin (curl).
    const victimCsrf = hidden(page.text, 'csrf');
    for (const csrf of [victimCsrf, stale.csrf]) {
      const r = await fetch(`${emu.url}/hosted/paidPlansCheckout`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ session: stale.session, csrf, action: 'pay' }).toString() });
      expect(r.status).toBe(403);
    }
    // A wrong cookie neither.
    expect((await browse('/hosted/paidPlansCheckout', { session: stale.session, csrf: victimCsrf, action: 'pay' }, { cookie: `sitectl_checkout_${stale.session}=${'A'.repeat(43)}` })).status).toBe(403);
    expect(await ordersOf(victim.id)).toEqual([]);
    // The sign-in's answer bound the victim's browser: a cookie scoped to the checkout and locked down.
    expect(page.answer.headers.get('set-cookie')).toMatch(/^sitectl_checkout_[0-9a-f-]{36}=[A-Za-z0-9_-]{43}; Path=\/hosted\/paidPlansCheckout; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    // The victim's browser still pays.
    const paid = await victimBrowser('/hosted/paidPlansCheckout', { session: stale.session, csrf: victimCsrf, action: 'pay' });
    expect(paid.status).toBe(303);
    expect(await ordersOf(victim.id)).toMatchObject([{ status: 'ACTIVE', lastPaymentStatus: 'PAID' }]);
    // Over: the attacker learns nothing of the order either.
    const over = await browse(url);
    expect(over.text).toContain('This checkout is over');
    expect(over.text).not.toContain('PAID');
  });

  it('a session made with a member token is bound to the first browser that opens it; another sees no buyer and cannot pay', async () => {
    const p = await plan();
    const buyer = await member();
    const url = await session({ paidPlansCheckout: { planId: p.id } }, await memberToken(buyer));
    const first = newBrowser();
    const page = await first(url);
    expect(page.status).toBe(200);
    const other = newBrowser();
    const look = await other(url);
    expect(look.text).not.toContain('Buying as');
    expect(look.text).not.toContain('name="csrf"');
    expect((await other(`${url}&resume=1`)).status).toBe(403);
    const form = { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf') };
    expect((await other('/hosted/paidPlansCheckout', { ...form, action: 'pay' })).status).toBe(403);
    expect((await browse('/hosted/paidPlansCheckout', { ...form, action: 'pay' }, { origin: '' })).status).toBe(403);
    expect(await ordersOf(buyer)).toEqual([]);
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    // The first browser, back from another site (its SameSite=Strict cookie not sent), gets the same-site link; following it, the page.
    const back = await browse(url);
    expect(back.text).toContain(`/hosted/paidPlansCheckout?session=${form.session}&amp;resume=1`);
    expect((await first(`${url}&resume=1`)).text).toContain('Buying as');
    expect((await first('/hosted/paidPlansCheckout', { ...form, action: 'pay' })).status).toBe(303);
    expect(await ordersOf(buyer)).toMatchObject([{ status: 'ACTIVE', lastPaymentStatus: 'PAID' }]);
  });

  it('hosted pages send Referrer-Policy: no-referrer (the session id is in their URL); a form from another site (Sec-Fetch-Site) is refused', async () => {
    const o = await online((await plan()).id);
    const url = await session({ paidPlansCheckout: { orderId: o.id } });
    const b = newBrowser();
    const page = await b(url);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const form = { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf') };
    expect((await b('/hosted/paidPlansCheckout', { ...form, action: 'pay' }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    // Under no-referrer a browser's own form says Origin: null; the cookie and token decide.
    const paid = await b('/hosted/paidPlansCheckout', { ...form, action: 'pay' }, { origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('referrer-policy')).toBe('no-referrer');
    expect((await browse('/oauth2/login')).headers.get('referrer-policy')).toBe('no-referrer');
  });

  it("callback URLs must be on the app's allowed redirect origins (loopback for the default app): others are a 400", async () => {
    const p = await plan();
    const refused = async (callbacks: Json, auth?: string) => {
      const res = await fetch(`${emu.url}/_api/redirects-api/v1/redirect-session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: auth ?? emu.apiKey, ...(auth ? {} : { 'wix-site-id': emu.siteId }) },
        body: JSON.stringify({ paidPlansCheckout: { planId: p.id }, callbacks }),
      });
      return refusal({ status: res.status, body: (await res.json()) as Json });
    };
    const visitor = await visitorToken();
    expect(await refused({ thankYouPageUrl: 'https://evil.example/phish' }, visitor)).toEqual({ status: 400, code: 'INVALID_CALLBACK_URL' });
    expect(await refused({ postFlowUrl: 'https://evil.example/' })).toEqual({ status: 400, code: 'INVALID_CALLBACK_URL' });
    // The default app's visitor: loopback only, not another app's origin.
    expect(await refused({ thankYouPageUrl: 'https://shop.example/thanks' }, visitor)).toEqual({ status: 400, code: 'INVALID_CALLBACK_URL' });
    await session({ paidPlansCheckout: { planId: p.id }, callbacks: { thankYouPageUrl: 'http://127.0.0.1:8080/thanks', postFlowUrl: 'http://localhost/x' } }, visitor);
    // The shop app's visitor: its redirect URIs' origin, any path; not loopback, not another port or scheme.
    const shopVisitor = await visitorToken(shopApp);
    await session({ paidPlansCheckout: { planId: p.id }, callbacks: { thankYouPageUrl: 'https://shop.example/thanks?x=1' } }, shopVisitor);
    expect(await refused({ thankYouPageUrl: 'http://127.0.0.1:8080/thanks' }, shopVisitor)).toEqual({ status: 400, code: 'INVALID_CALLBACK_URL' });
    expect(await refused({ thankYouPageUrl: 'http://shop.example/thanks' }, shopVisitor)).toEqual({ status: 400, code: 'INVALID_CALLBACK_URL' });
    expect(await refused({ thankYouPageUrl: 'https://shop.example:8443/thanks' }, shopVisitor)).toEqual({ status: 400, code: 'INVALID_CALLBACK_URL' });
    // The API key speaks for the site: any of its apps' origins.
    await session({ paidPlansCheckout: { planId: p.id }, callbacks: { thankYouPageUrl: 'https://shop.example/thanks', postFlowUrl: 'http://[::1]:9/' } });
  });

  it('a declined card then Cancel does not use up a limited plan: the buyer buys it next; paying past the limit is refused', async () => {
    const p = await plan({ singlePaymentUnlimited: true, price: { value: '20', currency: 'USD' } }, { maxPurchasesPerBuyer: 1 });
    const buyer = await member();
    const token = await memberToken(buyer);
    const b = newBrowser();
    const page = await b(await session({ paidPlansCheckout: { planId: p.id } }, token));
    const form = { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf') };
    expect((await b('/hosted/paidPlansCheckout', { ...form, action: 'decline' })).status).toBe(402);
    expect((await b('/hosted/paidPlansCheckout', { ...form, action: 'cancel' })).status).toBe(303);
    expect(await ordersOf(buyer)).toMatchObject([{ status: 'DRAFT', lastPaymentStatus: 'FAILED' }]);
    const preview = await ok('POST', '/pricing-plans/v2/checkout/orders/preview-offline', { planId: p.id, memberId: buyer });
    expect(preview.purchaseLimitExceeded).toBe(false);
    const again = await b(await session({ paidPlansCheckout: { planId: p.id } }, token));
    const bought = await b('/hosted/paidPlansCheckout', { session: hidden(again.text, 'session'), csrf: hidden(again.text, 'csrf'), action: 'pay' });
    expect((await b(bought.location!)).text).toContain('<h1>Thank you for your order</h1>');
    expect(await ordersOf(buyer)).toContainEqual(expect.objectContaining({ status: 'ACTIVE', lastPaymentStatus: 'PAID' }));
    // Now it is bought: the waiting order cannot be paid too, nor a new one made.
    const waiting = (await ordersOf(buyer)).find((o) => o.status === 'DRAFT')!;
    expect(refusal(await pay(waiting.id))).toEqual({ status: 428, code: 'PURCHASE_LIMIT_EXCEEDED' });
    expect(refusal(await emu.request('POST', '/pricing-plans/v2/checkout/orders/online', { planId: p.id, onBehalf: { memberId: buyer } }))).toEqual({ status: 428, code: 'PURCHASE_LIMIT_EXCEEDED' });
    // A canceled unpaid order does not count either; an offline one does.
    const other = await member();
    const unpaid = await online(p.id, other);
    await ok('POST', `/pricing-plans/v2/orders/${unpaid.id}/cancel`, { id: unpaid.id, effectiveAt: 'IMMEDIATELY' });
    expect((await ok('POST', '/pricing-plans/v2/checkout/orders/preview-offline', { planId: p.id, memberId: other })).purchaseLimitExceeded).toBe(false);
    await ok('POST', '/pricing-plans/v2/checkout/orders/offline', { planId: p.id, memberId: other });
    expect((await ok('POST', '/pricing-plans/v2/checkout/orders/preview-offline', { planId: p.id, memberId: other })).purchaseLimitExceeded).toBe(true);
  });

  it('once a session has a buyer its sign-in refuses (no swap); the code page too, and after the checkout ended', async () => {
    const p = await plan();
    const attacker = await registered();
    // A session with its buyer from a member token, opened by the buyer.
    const buyer = await member();
    const url = await session({ paidPlansCheckout: { planId: p.id } }, await memberToken(buyer));
    const b = newBrowser();
    const page = await b(url);
    const id = hidden(page.text, 'session');
    const signInUrl = `/hosted/paidPlansCheckout/sign-in?session=${id}`;
    const get = await browse(signInUrl);
    expect(get.status).toBe(403);
    expect(get.text).toContain('already has a buyer');
    expect(get.text).not.toContain('name="csrf"');
    const post = await browse('/hosted/paidPlansCheckout/sign-in', { session: id, csrf: 'x', email: attacker.email, password: 'correct-horse', action: 'signin' });
    expect(post.status).toBe(403);
    expect(await browse('/hosted/paidPlansCheckout/sign-in/verify', { session: id, csrf: 'x', stateToken: 'x', code: '000000' })).toMatchObject({ status: 403 });
    // The buyer's own browser is sent back to the checkout.
    expect(await b(signInUrl)).toMatchObject({ status: 303, location: `/hosted/paidPlansCheckout?session=${id}` });
    expect((await b(url)).text).toContain('Buying as');
    expect((await b(url)).text).not.toContain(attacker.email);

    // A visitor's session: whoever signed in first is the buyer; a second sign-in with the sign-in form's token is refused.
    const url2 = await session({ paidPlansCheckout: { planId: p.id } });
    const other = newBrowser();
    const signIn = await other((await other(url2)).location!);
    const form = { session: hidden(signIn.text, 'session'), csrf: hidden(signIn.text, 'csrf') };
    const victim = await registered();
    await signInOn(newBrowser(), url2, victim.email);
    expect((await other('/hosted/paidPlansCheckout/sign-in', { ...form, email: attacker.email, password: 'correct-horse', action: 'signin' })).status).toBe(403);
    expect((await other('/hosted/paidPlansCheckout/sign-in/verify', { ...form, stateToken: 'x', code: '000000' })).status).toBe(403);

    // Cancel on the sign-in page: the canceled page, whose "Try again" leads back through the sign-in.
    const url3 = await session({ paidPlansCheckout: { planId: p.id } });
    const c = newBrowser();
    const s3 = await c((await c(url3)).location!);
    const f3 = { session: hidden(s3.text, 'session'), csrf: hidden(s3.text, 'csrf') };
    const canceled = await c('/hosted/paidPlansCheckout/sign-in', { ...f3, action: 'cancel' });
    expect(canceled).toMatchObject({ status: 303, location: `/hosted/paidPlansCheckout/canceled?session=${f3.session}` });
    const said = await c(canceled.location!);
    expect(said.text).toContain('<h1>Checkout canceled</h1>');
    expect(said.text).toContain(`<a class="button primary" href="/hosted/paidPlansCheckout?session=${f3.session}">Try again</a>`);
    expect((await c(`/hosted/paidPlansCheckout?session=${f3.session}`)).location).toBe(`/hosted/paidPlansCheckout/sign-in?session=${f3.session}`);
  });

  it('Cancel without a post-flow URL: the canceled page (a GET) offers Try again, back to the same checkout, which still pays; another browser sees neither', async () => {
    const o = await online((await plan()).id);
    const b = newBrowser();
    const url = await session({ paidPlansCheckout: { orderId: o.id } });
    const page = await b(url);
    const form = { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf') };
    // Not canceled yet: the canceled page's address leads to the checkout.
    expect((await b(`/hosted/paidPlansCheckout/canceled?session=${form.session}`)).location).toBe(`/hosted/paidPlansCheckout?session=${form.session}`);
    const canceled = await b('/hosted/paidPlansCheckout', { ...form, action: 'cancel' });
    expect(canceled).toMatchObject({ status: 303, location: `/hosted/paidPlansCheckout/canceled?session=${form.session}` });
    const said = await b(canceled.location!);
    expect(said.status).toBe(200);
    expect(said.text).toContain('Nothing was paid: your order is still waiting for its payment.');
    expect(said.text).toContain(`href="/hosted/paidPlansCheckout?session=${form.session}">Try again</a>`);
    expect((await browse(canceled.location!)).status).toBe(403);
    expect(await order(o.id)).toMatchObject({ status: 'DRAFT', lastPaymentStatus: 'PENDING' });
    // Try again: the checkout, with the same form token; it pays.
    const again = await b(url);
    expect(again.text).toContain('Buying as');
    const paid = await b('/hosted/paidPlansCheckout', { session: form.session, csrf: hidden(again.text, 'csrf'), action: 'pay' });
    expect(paid.location).toBe(`/hosted/paidPlansCheckout?session=${form.session}`);
    expect(await order(o.id)).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    // The canceled page's address now shows the thank-you page.
    expect((await b(canceled.location!)).text).toContain('<h1>Thank you for your order</h1>');
  });

  it('a member blocked after opening the checkout cannot pay; nor can an online order be made or paid for a blocked member', async () => {
    const p = await plan();
    const buyer = await member();
    const b = newBrowser();
    const page = await b(await session({ paidPlansCheckout: { planId: p.id } }, await memberToken(buyer)));
    await ok('POST', `/members/v1/members/${buyer}/block`, {});
    const r = await b('/hosted/paidPlansCheckout', { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf'), action: 'pay' });
    expect(r.status).toBe(400);
    expect(r.text).toContain('BLOCKED');
    expect(await ordersOf(buyer)).toEqual([]);
    expect(refusal(await emu.request('POST', '/pricing-plans/v2/checkout/orders/online', { planId: p.id, onBehalf: { memberId: buyer } }))).toEqual({ status: 428, code: 'MEMBER_CANNOT_BUY' });
    // An order made before the block waits, and cannot be paid (the page's function, also the control plane's).
    const later = await member();
    const o = await online(p.id, later);
    const b2 = newBrowser();
    const page2 = await b2(await session({ paidPlansCheckout: { orderId: o.id } }));
    await ok('POST', `/members/v1/members/${later}/block`, {});
    expect((await b2('/hosted/paidPlansCheckout', { session: hidden(page2.text, 'session'), csrf: hidden(page2.text, 'csrf'), action: 'pay' })).status).toBe(400);
    expect(refusal(await pay(o.id))).toEqual({ status: 428, code: 'MEMBER_CANNOT_BUY' });
    expect(await order(o.id)).toMatchObject({ status: 'DRAFT', lastPaymentStatus: 'PENDING' });
  });

  it("the page's sign-in spends the session token (single use), as the other hosted sign-ins", async () => {
    const spend = vi.spyOn(OAuthState.prototype, 'useSessionToken');
    try {
      const victim = await registered();
      const page = await signInOn(newBrowser(), await session({ paidPlansCheckout: { planId: (await plan()).id } }), victim.email);
      expect(page.text).toContain(`Buying as ${victim.email}`);
      expect(spend).toHaveBeenCalledTimes(1);
      expect(spend.mock.results[0]!.value).toMatchObject({ typ: 'session', sub: victim.id });
    } finally {
      spend.mockRestore();
    }
  });

  it('sessions expire after 30 minutes', async () => {
    expect(CHECKOUT_TTL_MS).toBe(30 * 60_000);
    const url = await session({ paidPlansCheckout: { planId: (await plan()).id } });
    const real = Date.now;
    const at = real();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => at + CHECKOUT_TTL_MS + 1000);
    try {
      const r = await browse(url);
      expect(r.status).toBe(400);
      expect(r.text).toContain('expired');
    } finally {
      clock.mockRestore();
    }
  });
});

describe('checkout sessions are capped', () => {
  it(`at ${MAX_OPEN_SESSIONS} open per store: then 429, until some expire`, async () => {
    const small = await startTestEmulator({ seed: 'demo', size: 1, bookings: 0, members: 2 });
    try {
      const planId = (await small.request('GET', '/pricing-plans/v2/plans?limit=1')).body.plans[0].id;
      const make = () => small.request('POST', '/_api/redirects-api/v1/redirect-session', { paidPlansCheckout: { planId } });
      for (let i = 0; i < MAX_OPEN_SESSIONS; i += 50) {
        const batch = await Promise.all(Array.from({ length: Math.min(50, MAX_OPEN_SESSIONS - i) }, make));
        expect(batch.every((r) => r.status === 200)).toBe(true);
      }
      expect(refusal(await make())).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS' });
      const at = Date.now();
      const clock = vi.spyOn(Date, 'now').mockImplementation(() => at + CHECKOUT_TTL_MS + 1000);
      try {
        expect((await make()).status).toBe(200);
      } finally {
        clock.mockRestore();
      }
    } finally {
      await small.close();
    }
  }, 60_000);
});
