/**
 * Paying online orders on a real emulator (port 0): the control plane's `POST /__emulator/orders/{id}/pay`
 * (PAID: ACTIVE with its dates and cycles, events; FAILED: still PENDING; refusals with their codes), and the
 * hosted checkout page of a `paidPlansCheckout` redirect session over plain HTTP: Pay and Cancel with the
 * session's onward URLs, the CSRF token and same-origin checks, escaping, a plan's checkout with a coupon for
 * a member token, and a checkout that needs a member going through the sign-in page first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let n = 0;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, bookings: 0, members: 10 });
  await emu.request('PUT', '/__emulator/clock', { frozen: true });
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
  it('PAID: a PENDING online order becomes ACTIVE and PAID, with its end date and first cycle, and order.purchased + order.started', async () => {
    const p = await plan();
    const o = await online(p.id);
    expect(o).toMatchObject({ status: 'PENDING', lastPaymentStatus: 'PENDING' });
    expect(await eventsOf(o.id)).toEqual(['order.created']);
    const r = await pay(o.id);
    expect(r.status).toBe(200);
    const t = await now();
    expect(r.body.order).toMatchObject({ id: o.id, status: 'ACTIVE', lastPaymentStatus: 'PAID', startDate: new Date(t).toISOString() });
    const got = await order(o.id);
    expect(got).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    expect(got.cycles).toEqual([{ index: 1, startedDate: got.startDate, endedDate: got.earliestEndDate }]);
    const end = new Date(got.startDate);
    end.setUTCMonth(end.getUTCMonth() + 3);
    expect(got.endDate).toBe(end.toISOString());
    expect(await eventsOf(o.id)).toEqual(['order.created', 'order.purchased', 'order.started']);
  });

  it('an order whose start date passed while it waited starts when paid; one bought for later keeps its start (ACTIVE, not started)', async () => {
    const p = await plan(undefined, { allowFutureStartDate: true });
    const waited = await online(p.id);
    await ok('PUT', '/__emulator/clock', { advance: '3d' });
    const paid = (await ok('POST', `/__emulator/orders/${waited.id}/pay`, {})).order;
    expect(Date.parse(paid.startDate)).toBe(await now());
    expect(Date.parse(paid.startDate) - Date.parse(waited.startDate)).toBe(3 * 86_400_000);

    const later = new Date((await now()) + 10 * 86_400_000).toISOString();
    const future = await online(p.id, undefined, { startDate: later });
    const f = (await ok('POST', `/__emulator/orders/${future.id}/pay`, {})).order;
    expect(f).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID', startDate: later, cycles: [] });
    expect(await eventsOf(future.id)).toEqual(['order.created', 'order.purchased']);
    // Pausing says why not: it has not started.
    const pause = await emu.request('POST', `/pricing-plans/v2/orders/${future.id}/pause`, { id: future.id });
    expect(pause.body.details.applicationError.data.reason).toBe('NOT_STARTED');
  });

  it('a free trial: ACTIVE and PAID, in its trial (no cycle yet; the earliest end is the trial end)', async () => {
    const p = await plan({ subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 0 }, price: { value: '49', currency: 'USD' }, freeTrialDays: 7 });
    const o = (await ok('POST', `/__emulator/orders/${(await online(p.id)).id}/pay`, { outcome: 'paid' })).order;
    expect(o).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID', cycles: [] });
    expect(Date.parse(o.earliestEndDate) - Date.parse(o.startDate)).toBe(7 * 86_400_000);
    expect(o.endDate).toBeUndefined();
  });

  it('FAILED: the order stays PENDING with payment FAILED (order.updated); paying again then works', async () => {
    const o = await online((await plan()).id);
    const r = await pay(o.id, { outcome: 'FAILED' });
    expect(r.status).toBe(200);
    expect(r.body.order).toMatchObject({ status: 'PENDING', lastPaymentStatus: 'FAILED' });
    expect(await order(o.id)).toMatchObject({ status: 'PENDING', lastPaymentStatus: 'FAILED' });
    expect(await eventsOf(o.id)).toEqual(['order.created', 'order.updated']);
    expect((await pay(o.id, { outcome: 'PAID' })).body.order).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
  });

  it("pays the demo seed's DRAFT and PENDING online orders too", async () => {
    for (const status of ['DRAFT', 'PENDING']) {
      const waiting = (await ok('GET', `/pricing-plans/v2/orders?orderStatuses=${status}&paymentStatuses=PENDING&limit=1`)).orders[0];
      expect(waiting, status).toBeDefined();
      expect((await ok('POST', `/__emulator/orders/${waiting.id}/pay`, {})).order).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    }
  });

  it('refuses what is not a PENDING online order, with a clear code and message; a bad outcome is a 400', async () => {
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
    const p = await plan({ singlePaymentForDuration: { count: 3, unit: 'MONTH' }, price: { value: '120', currency: 'USD' } });
    const o = await online(p.id);
    const url = await session({ paidPlansCheckout: { orderId: o.id }, callbacks: { thankYouPageUrl: 'https://shop.example/thanks', postFlowUrl: 'https://shop.example/plans' } });
    expect(url).toMatch(new RegExp(`^${emu.url}/hosted/paidPlansCheckout\\?session=[0-9a-f-]{36}$`));
    const page = await browse(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.text).toContain(p.name);
    expect(page.text).toContain('120 USD once, for 3 months');
    expect(page.text).toContain('Pay 120 USD');
    const form = { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf') };
    expect(form.csrf).not.toBe('');
    const paid = await browse('/hosted/paidPlansCheckout', { ...form, action: 'pay' });
    expect(paid).toMatchObject({ status: 303, location: 'https://shop.example/thanks' });
    expect(await order(o.id)).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    // The session is over: the page says so, and a second Pay changes nothing.
    expect((await browse(url)).text).toContain('Thank you');
    expect((await browse('/hosted/paidPlansCheckout', { ...form, action: 'pay' })).status).toBe(200);
    expect(await eventsOf(o.id)).toEqual(['order.created', 'order.purchased', 'order.started']);
  });

  it('Cancel leaves the order PENDING and goes to the post-flow URL; a declined card shows the page again', async () => {
    const o = await online((await plan()).id);
    const url = await session({ paidPlansCheckout: { orderId: o.id }, callbacks: { postFlowUrl: 'http://127.0.0.1:9/back?x=1' } });
    const page = await browse(url);
    const form = { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf') };
    const declined = await browse('/hosted/paidPlansCheckout', { ...form, action: 'decline' });
    expect(declined.status).toBe(402);
    expect(declined.text).toContain('declined');
    expect(await order(o.id)).toMatchObject({ status: 'PENDING', lastPaymentStatus: 'FAILED' });
    const canceled = await browse('/hosted/paidPlansCheckout', { ...form, action: 'cancel' });
    expect(canceled).toMatchObject({ status: 303, location: 'http://127.0.0.1:9/back?x=1' });
    expect(await order(o.id)).toMatchObject({ status: 'PENDING', lastPaymentStatus: 'FAILED' });
  });

  it('refuses a form without the session CSRF token or from another origin; the onward URL is never taken from the request', async () => {
    const o = await online((await plan()).id);
    const url = await session({ paidPlansCheckout: { orderId: o.id }, callbacks: { thankYouPageUrl: 'https://shop.example/thanks' } });
    const page = await browse(`${url}&thankYouPageUrl=https://evil.example/&postFlowUrl=https://evil.example/`);
    expect(page.text).not.toContain('evil.example');
    const session_ = hidden(page.text, 'session');
    expect((await browse('/hosted/paidPlansCheckout', { session: session_, action: 'pay' })).status).toBe(403);
    expect((await browse('/hosted/paidPlansCheckout', { session: session_, csrf: 'x'.repeat(32), action: 'pay' })).status).toBe(403);
    expect((await browse('/hosted/paidPlansCheckout', { session: session_, csrf: hidden(page.text, 'csrf'), action: 'pay' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect(await order(o.id)).toMatchObject({ status: 'PENDING' });
    const paid = await browse('/hosted/paidPlansCheckout', { session: session_, csrf: hidden(page.text, 'csrf'), action: 'pay', thankYouPageUrl: 'https://evil.example/' });
    expect(paid.location).toBe('https://shop.example/thanks');
    // An unknown or made-up session.
    expect((await browse('/hosted/paidPlansCheckout?session=nope')).status).toBe(400);
  });

  it('escapes what it shows (a plan name with markup)', async () => {
    const p = await plan(undefined, { name: `<script>alert(1)</script> & "Co" ${n++}`, description: '<img src=x onerror=alert(2)>' });
    const url = await session({ paidPlansCheckout: { orderId: (await online(p.id)).id } });
    const page = await browse(url);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
  });

  it('redirect sessions are checked: an unknown plan, a paid order, a callback that is not http(s), nothing to buy', async () => {
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
    expect((await browse(ecom)).text).toContain('The emulator hosts no ecomCheckout page');
  });

  it("a plan's checkout for a member token: coupon applied on the page, Pay creates the member's order, paid", async () => {
    const p = await plan({ subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 0 }, price: { value: '50', currency: 'USD' } });
    const buyer = await member();
    const tokens = await fetch(`${emu.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: emu.apiKey, 'wix-site-id': emu.siteId },
      body: JSON.stringify({ grantType: 'authorized_client', scope: 'offline_access', memberId: buyer }),
    }).then((r) => r.json() as Promise<Json>);
    const url = await session({ paidPlansCheckout: { planId: p.id }, callbacks: { thankYouPageUrl: 'https://shop.example/thanks' } }, tokens.access_token);
    const page = await browse(url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Pay 50 USD');
    const form = { session: hidden(page.text, 'session'), csrf: hidden(page.text, 'csrf') };
    const bad = await browse('/hosted/paidPlansCheckout', { ...form, action: 'coupon', coupon: 'NO-SUCH-CODE' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('coupon &quot;NO-SUCH-CODE&quot; does not exist');
    expect(await browse('/hosted/paidPlansCheckout', { ...form, action: 'coupon', coupon: 'welcome10' })).toMatchObject({ status: 303 });
    const discounted = await browse(url);
    expect(discounted.text).toContain('Coupon WELCOME10');
    expect(discounted.text).toContain('Pay 45 USD');
    expect(await browse('/hosted/paidPlansCheckout', { ...form, action: 'pay' })).toMatchObject({ status: 303, location: 'https://shop.example/thanks' });
    const mine = (await ok('GET', `/pricing-plans/v2/orders?buyerIds=${buyer}&fieldSet=FULL`)).orders;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ planId: p.id, type: 'ONLINE', status: 'ACTIVE', lastPaymentStatus: 'PAID', pricing: { prices: [{ price: { total: '45', coupon: { code: 'WELCOME10' } } }] } });
    expect(await eventsOf(mine[0].id)).toEqual(['order.created', 'order.purchased', 'order.started']);
  });

  it("a plan's checkout with no member: the sign-in page first (wrong password shown), then back to the checkout as that member", async () => {
    const p = await plan();
    const email = `signin-pay-${Date.now()}@example.com`;
    await ok('POST', '/_api/iam/authentication/v2/register', { loginId: { email }, password: 'correct-horse' });
    const url = await session({ paidPlansCheckout: { planId: p.id } });
    const first = await browse(url);
    expect(first.status).toBe(303);
    expect(first.location).toMatch(/^\/hosted\/paidPlansCheckout\/sign-in\?session=/);
    const signIn = await browse(first.location!);
    expect(signIn.text).toContain('type="password"');
    const form = { session: hidden(signIn.text, 'session'), csrf: hidden(signIn.text, 'csrf') };
    const wrong = await browse('/hosted/paidPlansCheckout/sign-in', { ...form, email, password: 'nope-nope', action: 'signin' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Wrong e-mail or password.');
    const right = await browse('/hosted/paidPlansCheckout/sign-in', { ...form, email, password: 'correct-horse', action: 'signin' });
    expect(right).toMatchObject({ status: 303 });
    const page = await browse(right.location!);
    expect(page.text).toContain(`Buying as ${email}`);
    const done = await browse('/hosted/paidPlansCheckout', { ...form, action: 'pay' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Thank you');
    expect(done.text).toContain('is ACTIVE, payment PAID');
  });
});
