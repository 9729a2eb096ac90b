/**
 * Order actions as a user meets them, in process against a real emulator on port 0: the member's
 * `orders cancel ID --mine` asks like the owner's (a prompt on a terminal; off one `--yes`, exit 2 without it,
 * nothing sent), `orders get PREFIX --mine` finds the member's order by an id prefix, `cancel --at next-payment`
 * says when the order will end (it stays ACTIVE), and a bulk pause plans an order that has not started (PENDING)
 * as skipped, with the reason the platform gives (NOT_STARTED).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answering, createCliSandbox, runInProcess, startTestEmulator, type CliResult, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
const sandboxes: CliSandbox[] = [];
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, bookings: 0, members: 10 });
});
afterAll(async () => {
  await emu?.close();
  for (const s of sandboxes) s.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: CliResult): any => JSON.parse(r.stdout);
let n = 0;

/** A plan buyers may cancel, billed monthly for six months. */
async function cancelablePlan(): Promise<string> {
  const plan = await emu.request('POST', '/pricing-plans/v2/plans', {
    plan: { name: `Cancelable ${Date.now()}-${n++}`, allowFutureStartDate: true, buyerCanCancel: true, pricing: { subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 6 }, price: { value: '10', currency: 'USD' } } },
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  return plan.body.plan.id;
}

async function order(planId: string, memberId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await emu.request('POST', '/pricing-plans/v2/checkout/orders/offline', { planId, memberId, paid: true, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.order.id;
}

const statusOf = async (id: string) => (await emu.request('GET', `/pricing-plans/v2/orders/${id}`)).body.order;

describe("the member's orders (--mine)", () => {
  let s: CliSandbox;
  let memberId: string;
  const member = (args: string[], opts: InProcessOptions = {}) => cli(args, { sandbox: s, ...opts, env: { SITECTL_CLIENT_ID: emu.emulator.clientId, ...opts.env } });

  beforeAll(async () => {
    s = createCliSandbox();
    sandboxes.push(s);
    const reg = await member(['auth', 'register', '--email', `mine-${Date.now()}@example.com`, '--password-stdin'], { input: 'pass-word-1\n' });
    expect(reg.code, reg.stderr).toBe(0);
    memberId = json(await member(['members', 'me', '--json', 'id'])).id;
  });

  it('cancel ID --mine off a terminal needs --yes (exit 2 naming it, nothing sent), and takes it', async () => {
    const id = await order(await cancelablePlan(), memberId);
    const seq = await lastEventSeq(emu);
    const [, hint] = expectError(await member(['orders', 'cancel', id, '--mine']), 2, /cancelling order .* needs confirmation, and there is no terminal/);
    expect(hint).toMatch(/--yes/);
    expect(await lastEventSeq(emu)).toBe(seq);
    expect((await statusOf(id)).status).toBe('ACTIVE');

    const done = await member(['orders', 'cancel', id, '--mine', '--yes']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(new RegExp(`canceled order ${id}`));
    expect(await statusOf(id)).toMatchObject({ status: 'CANCELED', cancellation: { cause: 'MEMBER_ACTION', effectiveAt: 'IMMEDIATELY' } });
    const again = await member(['orders', 'cancel', id, '--mine', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already canceled; nothing changed/);
  });

  it('cancel ID --mine on a terminal asks; no leaves the order as it was (exit 1), yes cancels', async () => {
    const id = await order(await cancelablePlan(), memberId);
    const tty = { tty: true, env: { CI: undefined } };
    const no = answering(false);
    const declined = await member(['orders', 'cancel', id.slice(0, 8), '--mine'], { ...tty, prompter: no });
    expect(declined.code, declined.stderr).toBe(1);
    expect(no.asked).toEqual([expect.stringMatching(new RegExp(`^Cancel your order ${id} .*now\\?`))]);
    expect((await statusOf(id)).status).toBe('ACTIVE');
    const yes = answering(true);
    const done = await member(['orders', 'cancel', id.slice(0, 8), '--mine'], { ...tty, prompter: yes });
    expect(done.code, done.stderr).toBe(0);
    expect(yes.asked).toHaveLength(1);
    expect((await statusOf(id)).status).toBe('CANCELED');
  });

  it('refuses the owner flags with a hint for the verb at hand', async () => {
    const [, hint] = expectError(await member(['orders', 'cancel', 'abcd1234', '--mine', '--dry-run']), 2, /--mine does not take --dry-run/);
    expect(hint).toMatch(/cancels one of its own orders by id/);
    expect(hint).not.toMatch(/lists/);
  });

  it('get PREFIX --mine finds the member\'s own order by a unique id prefix; an unknown prefix is exit 1', async () => {
    const id = await order(await cancelablePlan(), memberId);
    const got = await member(['orders', 'get', id.slice(0, 8), '--mine', '--json', 'id']);
    expect(got.code, got.stderr).toBe(0);
    expect(json(got)).toEqual({ id });
    const others = (await emu.request('GET', '/pricing-plans/v2/orders?limit=50')).body.orders as Array<{ id: string; buyer: { memberId: string } }>;
    const foreign = others.find((o) => o.buyer.memberId !== memberId)!.id;
    const [, hint] = expectError(await member(['orders', 'get', foreign.slice(0, 8), '--mine']), 1, /none of your orders has an id starting with/);
    expect(hint).toMatch(/orders list --mine/);
  });

  it('cancel --mine --at next-payment says when the order ends; it stays ACTIVE', async () => {
    const id = await order(await cancelablePlan(), memberId);
    const r = await member(['orders', 'cancel', id, '--mine', '--at', 'next-payment', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const after = await statusOf(id);
    expect(after).toMatchObject({ status: 'ACTIVE', autoRenewCanceled: true });
    expect(r.stderr).toContain(`order ${id} will end at ${new Date(after.endDate).toISOString()}`);
    expect(r.stderr).not.toMatch(/canceled order/);
  });
});

describe("the owner's order actions", () => {
  async function buyer(): Promise<string> {
    return (await emu.request('POST', '/members/v1/members', { member: { loginEmail: `owner-buyer-${Date.now()}-${n++}@example.com` } })).body.member.id;
  }

  it('cancel ID --at next-payment says when the order will end, not "canceled"', async () => {
    const id = await order(await cancelablePlan(), await buyer());
    const r = await cli(['orders', 'cancel', id, '--at', 'next-payment', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const after = await statusOf(id);
    expect(after).toMatchObject({ status: 'ACTIVE', autoRenewCanceled: true });
    expect(r.stderr).toMatch(new RegExp(`order ${id} \\(.*\\) will end at ${new Date(after.endDate).toISOString()}: auto-renewal is canceled, and it stays ACTIVE until then`));
    expect(r.stderr).not.toMatch(/^.*canceled \S+ \(/m);
  });

  it('cancel --at next-payment again changes nothing, one or in bulk (no second call the platform would refuse)', async () => {
    const plan = await cancelablePlan();
    const id = await order(plan, await buyer());
    expect((await cli(['orders', 'cancel', id, '--at', 'next-payment', '--yes'])).code).toBe(0);
    const seq = await lastEventSeq(emu);
    const again = await cli(['orders', 'cancel', id, '--at', 'next-payment', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/auto-renewal is canceled, and it stays ACTIVE until then; nothing changed/);
    const other = await order(plan, await buyer());
    const bulk = await cli(['orders', 'cancel', '--plan', plan, '--at', 'next-payment', '--yes', '--json']);
    expect(bulk.code, bulk.stderr).toBe(0);
    expect(json(bulk)).toMatchObject({ counts: { canceled: 1, unchanged: 1 } });
    expect((await statusOf(other)).autoRenewCanceled).toBe(true);
    const rerun = await cli(['orders', 'cancel', '--plan', plan, '--at', 'next-payment', '--yes', '--json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(json(rerun)).toMatchObject({ counts: { unchanged: 2 } });
    // Canceling now is still a change for both.
    const now = await cli(['orders', 'cancel', '--plan', plan, '--yes', '--json']);
    expect(json(now)).toMatchObject({ counts: { canceled: 2 } });
    expect(await lastEventSeq(emu)).toBeGreaterThan(seq);
  });

  it('a bulk pause plans a PENDING order (bought, not started) as skipped, with the reason', async () => {
    const plan = await cancelablePlan();
    const later = new Date(Date.now() + 20 * 86_400_000).toISOString();
    const waiting = [await order(plan, await buyer(), { startDate: later }), await order(plan, await buyer(), { startDate: later })];
    const started = await order(plan, await buyer());
    const dry = await cli(['orders', 'pause', '--plan', plan, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const planned = json(dry);
    expect(planned).toHaveLength(3);
    const refused = planned.filter((x: { outcome: string }) => x.outcome === 'refused');
    expect(planned.filter((x: { outcome: string }) => x.outcome === 'change')).toHaveLength(1);
    expect(new Set(refused.map((x: { id: string }) => x.id))).toEqual(new Set(waiting));
    expect(refused.every((x: { reason: string }) => /not started/.test(x.reason))).toBe(true);
    const run = await cli(['orders', 'pause', '--plan', plan, '--yes', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run).counts).toMatchObject({ paused: 1, skipped: 2, failed: 0 });
    expect((await statusOf(started)).status).toBe('PAUSED');
    // One order alone: refused with the same reason before anything is sent (exit 1).
    expectError(await cli(['orders', 'pause', waiting[0]!, '--yes']), 1, /cannot be paused: it is PENDING \(bought, it has not started yet\)/);
  });
});
