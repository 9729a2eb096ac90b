/**
 * Plans, orders, checkout and redirects through the official modules (`@wix/auto_sdk_pricing-plans_plans`,
 * `-pricing-plans_orders`, `@wix/auto_sdk_redirects_redirects`) against a real emulator on port 0 (docs/wire.md
 * §19 plans, §20 orders and checkout, §21 redirect sessions): a plan's life to its archive, an offline order
 * through each status the typings' OrderStatus names, the member's own orders under a member token, the plan
 * checkout (online order, previews, price) and a redirect session whose URL the emulator serves. Setup:
 * sdk-client.ts.
 */
import * as orders from '@wix/auto_sdk_pricing-plans_orders';
import * as plans from '@wix/auto_sdk_pricing-plans_plans';
import * as redirects from '@wix/auto_sdk_redirects_redirects';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { describe, expect, it } from 'vitest';
import { apiKeyClient, useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-plans');
const client = () => apiKeyClient(ctx, { plans, orders, redirects });

/** A monthly plan of 20 USD for 12 cycles, made through the module. */
async function freshPlan(name = `Sdk Plan ${ctx.stamp()}`) {
  return client().plans.createPlan({ name, pricing: { subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 12 }, price: { value: '20', currency: 'USD' } }, public: true });
}

/** A client of the orders module signed in as `memberId` (OAuth strategy, member tokens for an external login). */
async function memberClient(memberId: string) {
  const auth = OAuthStrategy({ clientId: ctx.emu.emulator.clientId! });
  auth.setTokens(await auth.generateVisitorTokens());
  auth.setTokens(await auth.getMemberTokensForExternalLogin(memberId, ctx.emu.apiKey));
  return createClient({ auth, modules: { orders } });
}

describe('plans through the official module', () => {
  it('create, get, update, archive; listPublicPlans lists it until it is hidden or archived', async () => {
    const c = client();
    const made = await freshPlan();
    expect(made).toMatchObject({ public: true, archived: false, pricing: { price: { value: '20', currency: 'USD' }, subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 12 } } });
    expect(made._id).toMatch(/./);
    expect(made._createdDate).toBeInstanceOf(Date);
    expect(await c.plans.getPlan(made._id!)).toMatchObject({ _id: made._id, name: made.name });

    const updated = await c.plans.updatePlan(made._id!, { description: 'Twelve months', pricing: { ...made.pricing, price: { value: '25', currency: 'USD' } } });
    expect(updated).toMatchObject({ _id: made._id, description: 'Twelve months', pricing: { price: { value: '25' } } });

    const listed = async () => (await c.plans.listPublicPlans({ planIds: [made._id!] })).plans!.map((p) => p._id);
    expect(await listed()).toEqual([made._id]);
    expect((await c.plans.setPlanVisibility(made._id!, false)).plan).toMatchObject({ public: false });
    expect(await listed()).toEqual([]);
    await c.plans.setPlanVisibility(made._id!, true);

    const archived = await c.plans.archivePlan(made._id!);
    expect(archived.plan).toMatchObject({ _id: made._id, archived: true });
    expect(await listed()).toEqual([]);
    expect((await c.plans.listPlans({ archived: 'ARCHIVED', planIds: [made._id!] })).plans!.map((p) => p._id)).toEqual([made._id]);
    await expect(c.plans.archivePlan(made._id!)).rejects.toMatchObject({ details: { applicationError: { code: 'PLAN_ALREADY_ARCHIVED' } } });
  });
});

describe('orders through the official module', () => {
  it('an offline order: ACTIVE and UNPAID, markAsPaid -> PAID, pause -> PAUSED, resume -> ACTIVE, cancel -> CANCELED', async () => {
    const c = client();
    const plan = await freshPlan();
    const member = await ctx.fx.freshMember();
    const made = (await c.orders.createOfflineOrder(plan._id!, member.id, { paid: false })).order!;
    expect(made).toMatchObject({ planId: plan._id, buyer: { memberId: member.id }, type: 'OFFLINE', status: 'ACTIVE', lastPaymentStatus: 'UNPAID' });
    expect(made.startDate).toBeInstanceOf(Date);
    const state = async () => (await c.orders.managementGetOrder(made._id!)).order!;

    await c.orders.markAsPaid(made._id!);
    expect(await state()).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    await c.orders.pauseOrder(made._id!);
    const paused = await state();
    expect(paused.status).toBe('PAUSED');
    expect(paused.pausePeriods).toEqual([expect.objectContaining({ status: 'ACTIVE', pauseDate: expect.any(Date) })]);
    await c.orders.resumeOrder(made._id!);
    const resumed = await state();
    expect(resumed.status).toBe('ACTIVE');
    expect(resumed.pausePeriods![0]).toMatchObject({ status: 'ENDED', resumeDate: expect.any(Date) });
    await c.orders.cancelOrder(made._id!, 'IMMEDIATELY');
    expect(await state()).toMatchObject({ status: 'CANCELED', cancellation: { effectiveAt: 'IMMEDIATELY', cause: 'OWNER_ACTION' } });
    await expect(c.orders.pauseOrder(made._id!)).rejects.toMatchObject({ details: { applicationError: { code: 'ORDER_NOT_SUSPENDABLE' } } });

    const listed = await c.orders.managementListOrders({ buyerIds: [member.id], orderStatuses: ['CANCELED'] });
    expect(listed.orders!.map((o) => o._id)).toEqual([made._id]);
  });

  it("a member's own orders under a member token: memberListOrders and memberGetOrder see only theirs", async () => {
    const plan = await freshPlan();
    const mine = await ctx.fx.freshMember();
    const theirs = await ctx.fx.freshMember();
    const c = client();
    const own = (await c.orders.createOfflineOrder(plan._id!, mine.id, { paid: true })).order!;
    const other = (await c.orders.createOfflineOrder(plan._id!, theirs.id, { paid: true })).order!;
    const member = await memberClient(mine.id);
    const list = await member.orders.memberListOrders({ planIds: [plan._id!] });
    expect(list.orders!.map((o) => o._id)).toEqual([own._id]);
    expect(await member.orders.memberGetOrder(own._id!)).toMatchObject({ _id: own._id, buyer: { memberId: mine.id } });
    await expect(member.orders.memberGetOrder(other._id!)).rejects.toMatchObject({ details: { applicationError: { code: 'ORDER_NOT_FOUND' } } });
  });

  it("the plan checkout: the price preview, the member's online and the owner's offline order previews (nothing made), then createOnlineOrder: a DRAFT online order (unpaid, per the typings' OrderStatus)", async () => {
    const c = client();
    const plan = await freshPlan();
    const buyer = await ctx.fx.freshMember();
    const price = await c.orders.getPricePreview(plan._id!);
    expect(price.prices![0]!.price).toMatchObject({ subtotal: '20', total: '20', currency: 'USD' });
    const member = await memberClient(buyer.id);
    const preview = await member.orders.getOnlineOrderPreview(plan._id!);
    expect(preview.order).toMatchObject({ planId: plan._id, type: 'ONLINE', buyer: { memberId: buyer.id } });
    expect((await c.orders.managementListOrders({ planIds: [plan._id!] })).orders).toEqual([]);
    // The owner's preview of an offline order for that member: nothing made either.
    const offline = await c.orders.getOfflineOrderPreview(plan._id!, buyer.id);
    expect(offline.order).toMatchObject({ planId: plan._id, type: 'OFFLINE', buyer: { memberId: buyer.id } });
    expect((await c.orders.managementListOrders({ planIds: [plan._id!] })).orders).toEqual([]);
    // The online preview acts for a signed-in member: an API key is refused.
    await expect(c.orders.getOnlineOrderPreview(plan._id!)).rejects.toMatchObject({ details: { applicationError: { code: 'UNAUTHENTICATED' } } });

    const made = (await member.orders.createOnlineOrder(plan._id!)).order!;
    expect(made).toMatchObject({ planId: plan._id, type: 'ONLINE', buyer: { memberId: buyer.id }, status: 'DRAFT' });
    expect((await c.orders.managementListOrders({ planIds: [plan._id!] })).orders!.map((o) => o._id)).toEqual([made._id]);
  });
});

describe('redirect sessions through the official module', () => {
  it("createRedirectSession answers a URL on the emulator's host that serves the page", async () => {
    const plan = await freshPlan();
    const res = await client().redirects.createRedirectSession({ paidPlansCheckout: { planId: plan._id! }, callbacks: { postFlowUrl: 'http://localhost:3000/after' } });
    const session = res.redirectSession!;
    expect(session._id).toMatch(/./);
    const url = new URL(session.fullUrl!);
    expect(url.origin).toBe(ctx.emu.url);
    expect(session.urlDetails?.endpoint).toMatch(/./);
    const page = await fetch(session.fullUrl!);
    expect(page.status).toBe(200);
    // The plan checkout begins with the member's sign-in, the session carried in the form.
    const html = await page.text();
    expect(html).toContain('Sign in to check out');
    expect(html).toContain(`value="${session._id}"`);
  });
});

// Last in the file: it moves the emulator's clock forward, for good.
describe("an order's dated statuses through the official module, on the emulator's clock", () => {
  it('a paid offline order starting next week is PENDING, ACTIVE from its start date, ENDED after its one cycle', async () => {
    const c = client();
    const plan = await c.plans.createPlan({ name: `Sdk Dated ${ctx.stamp()}`, allowFutureStartDate: true, pricing: { subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 1 }, price: { value: '10', currency: 'USD' } } });
    const member = await ctx.fx.freshMember();
    const clock = async () => Date.parse((await ctx.emu.request('GET', '/__emulator/clock')).body.clock.now);
    const advance = async (by: string) => expect((await ctx.emu.request('PUT', '/__emulator/clock', { advance: by })).status).toBe(200);
    const start = new Date((await clock()) + 7 * 86_400_000);
    const made = (await c.orders.createOfflineOrder(plan._id!, member.id, { startDate: start, paid: true })).order!;
    expect(made).toMatchObject({ status: 'PENDING', lastPaymentStatus: 'PAID' });
    expect(made.startDate?.toISOString()).toBe(start.toISOString());
    const status = async () => (await c.orders.managementGetOrder(made._id!)).order!.status;
    await advance('8d');
    expect(await status()).toBe('ACTIVE');
    await advance('32d');
    expect(await status()).toBe('ENDED');
    expect((await c.orders.managementListOrders({ buyerIds: [member.id], orderStatuses: ['ENDED'] })).orders!.map((o) => o._id)).toEqual([made._id]);
  });
});
