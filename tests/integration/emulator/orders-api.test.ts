/**
 * Plans, orders and checkout on a real emulator (port 0), over HTTP as any client sends them: the order state
 * table (every action from every status, allowed or refused with its code and reason), time (cycles, ENDED,
 * a cancellation at the next payment date taking effect), the primary-plan rules, coupons and previews, the
 * purchase limit, events, the 401 of member calls, and the demo seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
const DAY = 86_400_000;
let n = 0;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0, members: 40 });
  // Time stands still unless a test moves it: dates compare exactly.
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
const now = async () => Date.parse((await ok('GET', '/__emulator/clock')).clock.now);
const advance = (by: string) => ok('PUT', '/__emulator/clock', { advance: by });
const monthly = (extra: Json = {}) => ({ subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 0 }, price: { value: '30', currency: 'USD' }, ...extra });

async function plan(pricing: Json = monthly(), extra: Json = {}): Promise<Json> {
  return (await ok('POST', '/pricing-plans/v2/plans', { plan: { name: `Test plan ${n++}`, pricing, ...extra } })).plan;
}
async function member(): Promise<string> {
  return (await ok('POST', '/members/v1/members', { member: { loginEmail: `buyer-${n++}@example.com` } })).member.id;
}
async function offline(planId: string, extra: Json = {}): Promise<Json> {
  return (await ok('POST', '/pricing-plans/v2/checkout/orders/offline', { planId, memberId: await member(), ...extra })).order;
}
async function online(planId: string): Promise<Json> {
  return (await ok('POST', '/pricing-plans/v2/checkout/orders/online', { planId, onBehalf: { memberId: await member() } })).order;
}
const order = async (id: string) => (await ok('GET', `/pricing-plans/v2/orders/${id}?fieldSet=FULL`)).order;
const act = (id: string, verb: string, body: Json = {}) => emu.request('POST', `/pricing-plans/v2/orders/${id}/${verb}`, { id, ...body });
const refusal = (r: { status: number; body: Json }) => ({ status: r.status, code: r.body?.details?.applicationError?.code, reason: r.body?.details?.applicationError?.data?.reason });

/** One order in each status the table has rows for. */
async function ordersByStatus(): Promise<Record<string, Json>> {
  const sub = await plan();
  const trialPlan = await plan(monthly({ freeTrialDays: 7 }));
  const future = await plan(monthly(), { allowFutureStartDate: true });
  const active = await offline(sub.id);
  const paused = await offline(sub.id);
  expect((await act(paused.id, 'pause')).status).toBe(200);
  const canceled = await offline(sub.id);
  expect((await act(canceled.id, 'cancel', { effectiveAt: 'IMMEDIATELY' })).status).toBe(200);
  const draft = (await ok('GET', '/pricing-plans/v2/orders?orderStatuses=DRAFT&limit=1')).orders[0];
  const ended = (await ok('GET', '/pricing-plans/v2/orders?orderStatuses=ENDED&limit=1')).orders[0];
  return {
    ACTIVE: active,
    PENDING: await online(sub.id),
    DRAFT: draft,
    TRIAL: await offline(trialPlan.id),
    NOT_STARTED: await offline(future.id, { startDate: new Date((await now()) + 3 * DAY).toISOString() }),
    PAUSED: paused,
    CANCELED: canceled,
    ENDED: ended,
  };
}

describe('the order state table', () => {
  it('pause: only an ACTIVE, started order past its trial; every other case names its not-suspendable reason', async () => {
    const o = await ordersByStatus();
    const expected: Record<string, string> = { PENDING: 'PENDING', DRAFT: 'PENDING', TRIAL: 'TRIAL', NOT_STARTED: 'NOT_STARTED', PAUSED: 'ALREADY_SUSPENDED', CANCELED: 'CANCELED', ENDED: 'ENDED' };
    for (const [state, reason] of Object.entries(expected)) {
      expect(refusal(await act(o[state]!.id, 'pause')), state).toEqual({ status: 428, code: 'ORDER_NOT_SUSPENDABLE', reason });
    }
    expect((await act(o.ACTIVE!.id, 'pause')).status).toBe(200);
    const paused = await order(o.ACTIVE!.id);
    expect(paused.status).toBe('PAUSED');
    expect(paused.pausePeriods).toEqual([{ status: 'ACTIVE', pauseDate: new Date(await now()).toISOString() }]);
  });

  it('resume: only a PAUSED order; the end date and earliest end date move by the paused time', async () => {
    const o = await ordersByStatus();
    for (const state of ['ACTIVE', 'PENDING', 'DRAFT', 'TRIAL', 'NOT_STARTED', 'CANCELED', 'ENDED']) {
      expect(refusal(await act(o[state]!.id, 'resume')), state).toMatchObject({ status: 428, code: 'ORDER_NOT_PAUSED' });
    }
    const fixed = await plan({ singlePaymentForDuration: { count: 3, unit: 'MONTH' }, price: { value: '90', currency: 'USD' } });
    const before = await offline(fixed.id, { paid: true });
    expect((await act(before.id, 'pause')).status).toBe(200);
    await advance('2d');
    expect((await act(before.id, 'resume')).status).toBe(200);
    const after = await order(before.id);
    expect(after.status).toBe('ACTIVE');
    expect(Date.parse(after.endDate) - Date.parse(before.endDate)).toBe(2 * DAY);
    expect(Date.parse(after.earliestEndDate) - Date.parse(before.endDate)).toBe(2 * DAY);
    expect(after.pausePeriods[0]).toMatchObject({ status: 'ENDED', resumeDate: new Date(await now()).toISOString() });
  });

  it('cancel now: from DRAFT, PENDING, ACTIVE (in a trial, not started) and PAUSED; never twice, never after the end', async () => {
    const o = await ordersByStatus();
    for (const state of ['DRAFT', 'PENDING', 'ACTIVE', 'TRIAL', 'NOT_STARTED', 'PAUSED']) {
      expect((await act(o[state]!.id, 'cancel', { effectiveAt: 'IMMEDIATELY' })).status, state).toBe(200);
      const c = await order(o[state]!.id);
      expect(c.status, state).toBe('CANCELED');
      expect(c.cancellation, state).toMatchObject({ cause: 'OWNER_ACTION', effectiveAt: 'IMMEDIATELY' });
    }
    expect((await order(o.PAUSED!.id)).pausePeriods[0].status).toBe('ENDED');
    expect(refusal(await act(o.CANCELED!.id, 'cancel', { effectiveAt: 'IMMEDIATELY' }))).toMatchObject({ status: 428, code: 'ORDER_ALREADY_CANCELED' });
    expect(refusal(await act(o.ENDED!.id, 'cancel', { effectiveAt: 'IMMEDIATELY' }))).toMatchObject({ status: 428, code: 'ORDER_ALREADY_ENDED' });
  });

  it('cancel at the next payment date: an active subscription keeps going to the end of its cycle, then is CANCELED', async () => {
    const o = await ordersByStatus();
    const single = await offline((await plan({ singlePaymentUnlimited: true, price: { value: '5', currency: 'USD' } })).id);
    expect(refusal(await act(single.id, 'cancel', { effectiveAt: 'NEXT_PAYMENT_DATE' }))).toEqual({ status: 428, code: 'CANNOT_CANCEL_AT_NEXT_PAYMENT_DATE', reason: 'NOT_RECURRING' });
    expect(refusal(await act(o.PAUSED!.id, 'cancel', { effectiveAt: 'NEXT_PAYMENT_DATE' }))).toEqual({ status: 428, code: 'CANNOT_CANCEL_AT_NEXT_PAYMENT_DATE', reason: 'NOT_ACTIVE' });
    expect(refusal(await act(o.PENDING!.id, 'cancel', { effectiveAt: 'NEXT_PAYMENT_DATE' }))).toEqual({ status: 428, code: 'CANNOT_CANCEL_AT_NEXT_PAYMENT_DATE', reason: 'NOT_ACTIVE' });
    expect(refusal(await act(o.NOT_STARTED!.id, 'cancel', { effectiveAt: 'NEXT_PAYMENT_DATE' }))).toEqual({ status: 428, code: 'CANNOT_CANCEL_AT_NEXT_PAYMENT_DATE', reason: 'NOT_STARTED' });
    const start = await order(o.ACTIVE!.id);
    expect(start.endDate).toBeUndefined();
    expect((await act(start.id, 'cancel', { effectiveAt: 'NEXT_PAYMENT_DATE' })).status).toBe(200);
    const pending = await order(start.id);
    expect(pending).toMatchObject({ status: 'ACTIVE', autoRenewCanceled: true, endDate: start.currentCycle.endedDate, cancellation: { effectiveAt: 'NEXT_PAYMENT_DATE' } });
    expect(refusal(await act(start.id, 'cancel', { effectiveAt: 'NEXT_PAYMENT_DATE' }))).toMatchObject({ status: 428, code: 'AUTO_RENEW_ALREADY_CANCELED' });
    await advance('32d');
    expect((await order(start.id)).status).toBe('CANCELED');
  });

  it('mark as paid: an unpaid offline order, once; not online, free, or canceled ones', async () => {
    const o = await ordersByStatus();
    expect((await act(o.ACTIVE!.id, 'mark-as-paid')).status).toBe(200);
    expect((await order(o.ACTIVE!.id)).lastPaymentStatus).toBe('PAID');
    expect(refusal(await act(o.ACTIVE!.id, 'mark-as-paid'))).toMatchObject({ status: 428, code: 'ORDER_ALREADY_PAID' });
    expect((await act(o.PAUSED!.id, 'mark-as-paid')).status).toBe(200);
    expect(refusal(await act(o.PENDING!.id, 'mark-as-paid'))).toMatchObject({ status: 428, code: 'ORDER_NOT_OFFLINE' });
    expect(refusal(await act(o.CANCELED!.id, 'mark-as-paid'))).toMatchObject({ status: 428, code: 'INVALID_ORDER_STATUS' });
    const free = await offline((await plan({ singlePaymentForDuration: { count: 1, unit: 'WEEK' }, price: { value: '0', currency: 'USD' } })).id);
    expect(free.lastPaymentStatus).toBe('NOT_APPLICABLE');
    expect(refusal(await act(free.id, 'mark-as-paid'))).toMatchObject({ status: 428, code: 'ORDER_IS_FREE' });
  });

  it('postpone the end date: only later, only with an end date, only while ACTIVE or PAUSED; the same date again changes nothing', async () => {
    const o = await ordersByStatus();
    const fixed = await offline((await plan({ singlePaymentForDuration: { count: 1, unit: 'MONTH' }, price: { value: '10', currency: 'USD' } })).id);
    const later = new Date(Date.parse(fixed.endDate) + 10 * DAY).toISOString();
    const patch = (id: string, endDate: string) => emu.request('PATCH', `/pricing-plans/v2/orders/${id}`, { id, endDate });
    expect(refusal(await patch(fixed.id, new Date(Date.parse(fixed.endDate) - DAY).toISOString()))).toMatchObject({ status: 400, code: 'INVALID_END_DATE' });
    expect((await patch(fixed.id, later)).status).toBe(200);
    expect((await order(fixed.id)).endDate).toBe(later);
    const seq = (await ok('GET', '/__emulator/state')).events.lastSeq;
    expect((await patch(fixed.id, later)).status).toBe(200);
    expect((await ok('GET', '/__emulator/state')).events.lastSeq).toBe(seq);
    expect(refusal(await patch(o.ACTIVE!.id, later))).toMatchObject({ status: 428, code: 'ORDER_HAS_NO_END_DATE' });
    expect(refusal(await patch(o.CANCELED!.id, later))).toMatchObject({ status: 428, code: 'INVALID_ORDER_STATUS' });
  });

  it("the member's calls need a member token: 401 with an API key", async () => {
    const o = await offline((await plan()).id);
    expect(refusal(await emu.request('POST', `/pricing-plans/v2/member/orders/${o.id}/cancel`, { effectiveAt: 'IMMEDIATELY' }))).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect((await emu.request('GET', '/pricing-plans/v2/member/orders')).status).toBe(401);
    expect((await emu.request('GET', `/pricing-plans/v2/member/orders/${o.id}`)).status).toBe(401);
    expect((await order(o.id)).status).toBe('ACTIVE');
  });
});

describe('time', () => {
  it('cycles follow the plan period (a trial first), a pause lengthens its cycle, and the order ENDS after its last cycle', async () => {
    const p = await plan({ subscription: { cycleDuration: { count: 1, unit: 'WEEK' }, cycleCount: 3 }, price: { value: '12', currency: 'USD' }, freeTrialDays: 2 });
    const start = await now();
    const o = await offline(p.id, { paid: true });
    expect(o.cycles).toEqual([]);
    expect(o.endDate).toBe(new Date(start + 2 * DAY + 21 * DAY).toISOString());
    await advance('3d');
    let now1 = await order(o.id);
    expect(now1.currentCycle).toEqual({ index: 1, startedDate: new Date(start + 2 * DAY).toISOString(), endedDate: new Date(start + 9 * DAY).toISOString() });
    expect((await act(o.id, 'pause')).status).toBe(200);
    await advance('1d');
    expect((await act(o.id, 'resume')).status).toBe(200);
    now1 = await order(o.id);
    expect(now1.currentCycle.endedDate).toBe(new Date(start + 10 * DAY).toISOString());
    expect(now1.endDate).toBe(new Date(start + 24 * DAY).toISOString());
    const seq = (await ok('GET', '/__emulator/state')).events.lastSeq;
    await advance('7d');
    expect((await order(o.id)).currentCycle.index).toBe(2);
    await advance('20d');
    const ended = await order(o.id);
    expect(ended.status).toBe('ENDED');
    expect(ended.cycles.map((c: Json) => c.index)).toEqual([1, 2, 3]);
    const types = (await ok('GET', `/__emulator/events?after=${seq}&limit=100`)).events.filter((e: Json) => e.entityId === o.id).map((e: Json) => e.type);
    expect(types).toEqual(['order.cycle_started', 'order.ended']);
    expect(refusal(await act(o.id, 'pause'))).toMatchObject({ code: 'ORDER_NOT_SUSPENDABLE', reason: 'ENDED' });
  });

  it('an offline order paid with a start date next week is PENDING, and ACTIVE from its start date on the emulator clock (order.started)', async () => {
    const p = await plan(monthly(), { allowFutureStartDate: true });
    const later = (await now()) + 7 * DAY;
    const o = await offline(p.id, { startDate: new Date(later).toISOString(), paid: true });
    // The SDK's OrderStatus: PENDING "purchased and its start date is set in the future".
    expect(o).toMatchObject({ status: 'PENDING', lastPaymentStatus: 'PAID', cycles: [] });
    // ReasonNotSuspendable NOT_STARTED: "paid for orders with future start dates".
    expect(refusal(await emu.request('POST', `/pricing-plans/v2/orders/${o.id}/pause`, { id: o.id }))).toMatchObject({ status: 428, code: 'ORDER_NOT_SUSPENDABLE', reason: 'NOT_STARTED' });
    const unpaid = await offline(p.id, { startDate: new Date(later).toISOString() });
    expect(unpaid).toMatchObject({ status: 'PENDING', lastPaymentStatus: 'UNPAID' });
    expect((await ok('POST', `/pricing-plans/v2/orders/${unpaid.id}/mark-as-paid`, { id: unpaid.id }), (await order(unpaid.id)).lastPaymentStatus)).toBe('PAID');
    const seq = (await ok('GET', '/__emulator/state')).events.lastSeq;
    await advance('6d');
    expect((await order(o.id)).status).toBe('PENDING');
    await advance('1d');
    const started = await order(o.id);
    expect(started).toMatchObject({ status: 'ACTIVE', currentCycle: { index: 1 } });
    const types = (await ok('GET', `/__emulator/events?after=${seq}&limit=100`)).events.filter((e: Json) => e.entityId === o.id).map((e: Json) => e.type);
    expect(types).toEqual(['order.started', 'order.cycle_started']);
    const noFuture = await plan();
    const r = await emu.request('POST', '/pricing-plans/v2/checkout/orders/offline', { planId: noFuture.id, memberId: await member(), startDate: new Date(later + 10 * DAY).toISOString() });
    expect(refusal(r)).toMatchObject({ status: 428, code: 'FUTURE_START_DATE_NOT_ALLOWED' });
  });
});

describe('plans', () => {
  it('create refuses no or two pricing models and a trial on a single payment; update changes the fields sent, or those of a mask', async () => {
    const two = await emu.request('POST', '/pricing-plans/v2/plans', { plan: { name: 'Two', pricing: { ...monthly(), singlePaymentUnlimited: true } } });
    expect(two.status).toBe(400);
    expect(two.body.details.validationError.fieldViolations[0].field).toBe('plan.pricing');
    const trial = await emu.request('POST', '/pricing-plans/v2/plans', { plan: { name: 'Trial', pricing: { singlePaymentUnlimited: true, price: { value: '1', currency: 'USD' }, freeTrialDays: 3 } } });
    expect(trial.body.details.validationError.fieldViolations[0].field).toBe('plan.pricing.freeTrialDays');
    const p = await plan(monthly(), { description: 'first', termsAndConditions: 'terms' });
    expect(p).toMatchObject({ public: true, primary: false, archived: false, hasOrders: false, buyerCanCancel: true, maxPurchasesPerBuyer: 0 });
    const sent = (await ok('PATCH', `/pricing-plans/v2/plans/${p.id}`, { plan: { id: p.id, description: 'second' } })).plan;
    expect(sent).toMatchObject({ description: 'second', termsAndConditions: 'terms', name: p.name });
    const masked = (await ok('PATCH', `/pricing-plans/v2/plans/${p.id}`, { plan: { id: p.id, description: 'ignored', buyerCanCancel: false }, fieldMask: 'buyerCanCancel,termsAndConditions' })).plan;
    expect(masked).toMatchObject({ description: 'second', buyerCanCancel: false });
    expect(masked.termsAndConditions).toBeUndefined();
    const events = (await ok('GET', '/__emulator/events?after=0&limit=1000')).events.filter((e: Json) => e.entityId === p.id).map((e: Json) => e.type);
    expect(events).toEqual(['plan.created', 'plan.updated', 'plan.updated', 'plan.buyer_can_cancel_updated']);
  });

  it('one primary plan at most, never an archived or hidden one; hiding the primary plan clears it; archiving is final', async () => {
    const a = await plan();
    const b = await plan();
    expect((await ok('POST', `/pricing-plans/v2/plans/${a.id}/make-primary`, { id: a.id })).plan.primary).toBe(true);
    expect((await ok('POST', `/pricing-plans/v2/plans/${b.id}/make-primary`, { id: b.id })).plan.primary).toBe(true);
    const all = (await ok('GET', '/pricing-plans/v2/plans?archived=ARCHIVED_AND_ACTIVE&limit=100')).plans;
    expect(all.filter((p: Json) => p.primary).map((p: Json) => p.id)).toEqual([b.id]);
    expect((await ok('PUT', `/pricing-plans/v2/plans/${b.id}/visibility`, { id: b.id, visible: false })).plan).toMatchObject({ public: false, primary: false });
    expect(refusal(await emu.request('POST', `/pricing-plans/v2/plans/${b.id}/make-primary`, { id: b.id }))).toMatchObject({ status: 428, code: 'HIDDEN_PLAN_CANNOT_BE_PRIMARY' });
    expect((await ok('POST', `/pricing-plans/v2/plans/${a.id}/archive`, { id: a.id })).plan).toMatchObject({ archived: true, primary: false });
    expect(refusal(await emu.request('POST', `/pricing-plans/v2/plans/${a.id}/make-primary`, { id: a.id }))).toMatchObject({ status: 428, code: 'ARCHIVED_PLAN_CANNOT_BE_PRIMARY' });
    expect(refusal(await emu.request('POST', `/pricing-plans/v2/plans/${a.id}/archive`, { id: a.id }))).toMatchObject({ status: 428, code: 'PLAN_ALREADY_ARCHIVED' });
    expect(refusal(await emu.request('PATCH', `/pricing-plans/v2/plans/${a.id}`, { plan: { id: a.id, name: 'x' } }))).toMatchObject({ status: 428, code: 'PLAN_ARCHIVED' });
    expect(refusal(await emu.request('POST', '/pricing-plans/v2/checkout/orders/offline', { planId: a.id, memberId: await member() }))).toMatchObject({ status: 428, code: 'PLAN_ARCHIVED' });
    const publicIds = (await ok('GET', '/pricing-plans/v2/plans/public?limit=100')).plans.map((p: Json) => p.id);
    expect(publicIds).not.toContain(a.id);
    expect(publicIds).not.toContain(b.id);
    await ok('POST', '/pricing-plans/v2/plans/clear-primary', {});
    expect((await ok('GET', '/pricing-plans/v2/plans?archived=ARCHIVED_AND_ACTIVE&limit=100')).plans.some((p: Json) => p.primary)).toBe(false);
    expect((await ok('GET', '/pricing-plans/v2/plans/stats')).totalPlans).toBe(all.length);
  });
});

describe('checkout', () => {
  it('prices with coupons: percent and amount off, first payments only, and each refused coupon with its reason', async () => {
    const plans = (await ok('GET', '/pricing-plans/v2/plans?limit=100')).plans as Json[];
    const gold = plans.find((p) => p.name === 'Gold Monthly')!;
    const pack = plans.find((p) => p.name === '10-Class Pack')!;
    const price = (planId: string, couponCode?: string) => emu.request('POST', '/pricing-plans/v2/checkout/orders/price-preview', { planId, couponCode });
    expect((await price(gold.id)).body.prices).toEqual([{ duration: { cycleFrom: 1 }, price: { subtotal: '49', discount: '0', total: '49', currency: 'USD' } }]);
    expect((await price(gold.id, 'welcome10')).body.price).toMatchObject({ discount: '4.90', total: '44.10', coupon: { code: 'WELCOME10', amount: '4.90' } });
    expect((await price(pack.id, 'SAVE5')).body.prices).toMatchObject([{ duration: { cycleFrom: 1, numberOfCycles: 1 }, price: { total: '115' } }]);
    expect((await price(gold.id, 'GOLDSTART')).body.prices).toMatchObject([
      { duration: { cycleFrom: 1, numberOfCycles: 1 }, price: { total: '24.50', discount: '24.50' } },
      { duration: { cycleFrom: 2 }, price: { total: '49', discount: '0' } },
    ]);
    expect(refusal(await price(pack.id, 'GOLDSTART'))).toEqual({ status: 428, code: 'INVALID_COUPON', reason: 'NOT_APPLICABLE_TO_PLAN' });
    expect(refusal(await price(gold.id, 'SUMMER20'))).toEqual({ status: 428, code: 'INVALID_COUPON', reason: 'EXPIRED' });
    expect(refusal(await price(gold.id, 'STAFF15'))).toEqual({ status: 428, code: 'INVALID_COUPON', reason: 'INACTIVE' });
    expect(refusal(await price(gold.id, 'NOPE'))).toEqual({ status: 428, code: 'INVALID_COUPON', reason: 'NOT_FOUND' });
  });

  it('previews store nothing and say when the purchase limit is reached; buying past it is refused', async () => {
    const limited = await plan({ singlePaymentUnlimited: true, price: { value: '20', currency: 'USD' } }, { maxPurchasesPerBuyer: 1 });
    const buyer = await member();
    const preview = () => ok('POST', '/pricing-plans/v2/checkout/orders/preview-offline', { planId: limited.id, memberId: buyer, couponCode: 'SAVE5' });
    const total = async () => (await ok('GET', '/pricing-plans/v2/orders?limit=1')).pagingMetadata.total;
    const before = await total();
    const first = await preview();
    expect(first.purchaseLimitExceeded).toBe(false);
    expect(first.order).toMatchObject({ id: '00000000-0000-0000-0000-000000000000', status: 'ACTIVE', type: 'OFFLINE', pricing: { prices: [{ price: { total: '15' } }] } });
    expect(await total()).toBe(before);
    const bought = (await ok('POST', '/pricing-plans/v2/checkout/orders/offline', { planId: limited.id, memberId: buyer, paid: true })).order;
    expect(bought).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'PAID', buyer: { memberId: buyer } });
    expect((await preview()).purchaseLimitExceeded).toBe(true);
    const again = await emu.request('POST', '/pricing-plans/v2/checkout/orders/online', { planId: limited.id, onBehalf: { memberId: buyer } });
    expect(refusal(again)).toMatchObject({ status: 428, code: 'PURCHASE_LIMIT_EXCEEDED' });
    expect((await ok('GET', `/pricing-plans/v2/plans/${limited.id}`)).plan.hasOrders).toBe(true);
  });

  it('online orders are DRAFT until paid (free ones bought at once: ACTIVE); the buyer must be a member; online without a member token is 401', async () => {
    const paid = await online((await plan()).id);
    expect(paid).toMatchObject({ status: 'DRAFT', lastPaymentStatus: 'PENDING', type: 'ONLINE' });
    expect(refusal(await emu.request('POST', `/pricing-plans/v2/orders/${paid.id}/pause`, { id: paid.id }))).toMatchObject({ status: 428, code: 'ORDER_NOT_SUSPENDABLE', reason: 'PENDING' });
    const free = await online((await plan({ singlePaymentForDuration: { count: 1, unit: 'WEEK' }, price: { value: '0', currency: 'USD' } })).id);
    expect(free).toMatchObject({ status: 'ACTIVE', lastPaymentStatus: 'NOT_APPLICABLE' });
    const p = await plan();
    expect(refusal(await emu.request('POST', '/pricing-plans/v2/checkout/orders/offline', { planId: p.id, memberId: 'no-such-member' }))).toMatchObject({ status: 404, code: 'MEMBER_NOT_FOUND' });
    expect(refusal(await emu.request('POST', '/pricing-plans/v2/checkout/orders/online', { planId: p.id }))).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(refusal(await emu.request('POST', '/pricing-plans/v2/checkout/orders/preview-online', { planId: p.id }))).toMatchObject({ status: 401 });
    const types = (await ok('GET', '/__emulator/events?after=0&limit=1000')).events.filter((e: Json) => e.entityId === free.id).map((e: Json) => e.type);
    expect(types).toEqual(['order.created', 'order.purchased', 'order.started']);
  });
});

describe('the demo seed', () => {
  it('6 plans (one primary, one archived, one hidden) and about 400 orders in every status, bought by seeded members, with cycles', async () => {
    const fresh = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
    try {
      const plans = (await fresh.request('GET', '/pricing-plans/v2/plans?archived=ARCHIVED_AND_ACTIVE&limit=100')).body.plans as Json[];
      expect(plans).toHaveLength(6);
      expect(plans.filter((p) => p.primary)).toHaveLength(1);
      expect(plans.filter((p) => p.archived)).toHaveLength(1);
      expect(plans.filter((p) => p.public === false)).toHaveLength(1);
      const orders: Json[] = [];
      for (let offset = 0; ; offset += 50) {
        const page = (await fresh.request('GET', `/pricing-plans/v2/orders?limit=50&offset=${offset}&fieldSet=FULL`)).body.orders as Json[];
        orders.push(...page);
        if (page.length < 50) break;
      }
      expect(orders).toHaveLength(400);
      expect(new Set(orders.map((o) => o.status))).toEqual(new Set(['DRAFT', 'PENDING', 'ACTIVE', 'PAUSED', 'ENDED', 'CANCELED']));
      expect(new Set(orders.map((o) => o.lastPaymentStatus))).toEqual(new Set(['PAID', 'REFUNDED', 'FAILED', 'UNPAID', 'PENDING', 'NOT_APPLICABLE']));
      const members = new Set<string>();
      for (let offset = 0; ; offset += 100) {
        const page = (await fresh.request('POST', '/members/v1/members/query', { query: { paging: { limit: 100, offset } } })).body.members as Json[];
        for (const m of page) members.add(m.id);
        if (page.length < 100) break;
      }
      expect(orders.every((o) => members.has(o.buyer.memberId))).toBe(true);
      const clock = Date.parse((await fresh.request('GET', '/__emulator/clock')).body.clock.now);
      const running = orders.filter((o) => o.status === 'ACTIVE' && Date.parse(o.startDate) + (o.freeTrialDays ?? 0) * DAY <= clock);
      expect(running.length).toBeGreaterThan(100);
      expect(running.every((o) => o.currentCycle?.index >= 1 && o.cycles.length === o.currentCycle.index)).toBe(true);
      expect(orders.filter((o) => o.status === 'ENDED').every((o) => Date.parse(o.endDate) <= clock)).toBe(true);
      expect(orders.some((o) => o.pausePeriods.length > 0 && o.status === 'ACTIVE')).toBe(true);
      // Reading the seed moved nothing: it is consistent with the seed hour.
      expect((await fresh.request('GET', '/__emulator/state')).body.events.lastSeq).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});
