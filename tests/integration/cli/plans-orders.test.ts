/**
 * `sitectl plans`, `orders` and `checkout` as a user runs them, in process against a real emulator on port 0:
 * every verb on the demo seed, bad input refused with one line and exit 2 before anything is sent, states the
 * platform refuses with exit 1 and a hint, and the bulk order actions through the engine, also under injected
 * faults (exactly one change per order).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startTestEmulator, type CliResult, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { eventsAfter, lastEventSeq, setFaults } from '../bulk/support.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: CliResult): any => JSON.parse(r.stdout);
let n = 0;

async function member(): Promise<string> {
  const r = await emu.request('POST', '/members/v1/members', { member: { loginEmail: `cli-buyer-${n++}@example.com` } });
  return r.body.member.id;
}

describe('plans', () => {
  it('list, get by name, stats; create and update from flags; bad flags refused before anything is sent', async () => {
    const list = await cli(['plans', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.trimEnd().split('\n').map((l) => l.split('\t')[1])).toEqual(['Gold Monthly', 'Silver 12 Months', '10-Class Pack', 'Founder Lifetime', 'Free Trial Week']);
    expect(json(await cli(['plans', 'list', '--state', 'archived', '--json', 'name'])).map((p: { name: string }) => p.name)).toEqual(['Annual Classic']);
    const gold = json(await cli(['plans', 'get', 'gold monthly', '--json']));
    expect(gold).toMatchObject({ name: 'Gold Monthly', primary: true, pricing: { freeTrialDays: 7 } });
    expect(json(await cli(['plans', 'stats', '--json']))).toEqual({ active: 5, archived: 1, totalPlans: 6 });

    const seq = await lastEventSeq(emu);
    expectError(await cli(['plans', 'create', '--name', 'Bad', '--price', '10', '--every', 'month', '--for', '3 month']), 2, /give one of --every, --for or --unlimited/);
    expectError(await cli(['plans', 'create', '--name', 'Bad', '--price', '10', '--every', 'fortnight']), 2, /--every must be a count and a unit/);
    expectError(await cli(['plans', 'create', '--name', 'Bad', '--price', '10', '--for', '1 month', '--trial-days', '3']), 2, /--cycles and --trial-days go with a subscription/);
    expectError(await cli(['plans', 'update', 'Gold Monthly']), 2, /nothing to change/);
    expectError(await cli(['plans', 'get', 'Platinum']), 2, /no plan 'Platinum' on this site/);
    expectError(await cli(['plans', 'list', '--sort', 'name']), 2, /--sort: the platform lists plans in its own order/);
    expectError(await cli(['plans', 'list', '--where', 'primary=true']), 2, /this list cannot select by primary/);
    expect(await lastEventSeq(emu)).toBe(seq);

    const created = await cli(['plans', 'create', '--name', 'CLI Weekly', '--price', '9.50', '--every', '1 WEEK', '--cycles', '4', '--perk', 'Sauna', '--perk', 'Towel', '--max-purchases', '2']);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const got = json(await cli(['plans', 'get', id, '--json']));
    expect(got).toMatchObject({ name: 'CLI Weekly', pricing: { subscription: { cycleDuration: { count: 1, unit: 'WEEK' }, cycleCount: 4 }, price: { value: '9.50', currency: 'USD' } }, perks: { values: ['Sauna', 'Towel'] }, maxPurchasesPerBuyer: 2 });
    const updated = json(await cli(['plans', 'update', id, '--price', '11', '--buyer-can-cancel', 'no', '--json']));
    expect(updated).toMatchObject({ pricing: { subscription: { cycleCount: 4 }, price: { value: '11' } }, buyerCanCancel: false, perks: { values: ['Sauna', 'Towel'] } });
  });

  it('primary, visibility, clear-primary and archive follow the primary-plan rules', async () => {
    const hidden = await cli(['plans', 'primary', 'Founder Lifetime']);
    expectError(hidden, 1, /cannot be made primary: it is hidden/);
    const silver = await cli(['plans', 'primary', 'Silver 12 Months', '--json', 'primary']);
    expect(silver.code, silver.stderr).toBe(0);
    expect(json(await cli(['plans', 'list', '--json', 'name,primary'])).filter((p: { primary: boolean }) => p.primary)).toEqual([{ name: 'Silver 12 Months', primary: true }]);
    const again = await cli(['plans', 'primary', 'Silver 12 Months']);
    expect(again.stderr).toMatch(/is primary already; nothing changed/);
    expect(json(await cli(['plans', 'visibility', 'Silver 12 Months', 'hidden', '--json', 'public,primary']))).toEqual({ public: false, primary: false });
    expectError(await cli(['plans', 'visibility', 'Silver 12 Months', 'invisible']), 2, /<visibility>: unknown value 'invisible'/);
    expect((await cli(['plans', 'visibility', 'Silver 12 Months', 'public'])).code).toBe(0);
    expect((await cli(['plans', 'primary', 'Gold Monthly'])).code).toBe(0);
    const cleared = await cli(['plans', 'clear-primary']);
    expect(cleared.stderr).toMatch(/Gold Monthly\) is no longer primary/);
    expect((await cli(['plans', 'clear-primary'])).stderr).toMatch(/No plan is primary; nothing changed/);

    const plan = (await cli(['plans', 'create', '--name', `To archive ${n++}`, '--price', '5', '--unlimited'])).stdout.trim();
    const unconfirmed = await cli(['plans', 'archive', plan]);
    expectError(unconfirmed, 2, /needs confirmation, and there is no terminal to ask on/);
    expect(unconfirmed.stderr).toMatch(/--yes/);
    expect(json(await cli(['plans', 'get', plan, '--json'])).archived).toBe(false);
    expect((await cli(['plans', 'archive', plan, '--yes'])).code).toBe(0);
    expectError(await cli(['plans', 'primary', plan]), 1, /cannot be made primary: it is archived/);
    expectError(await cli(['plans', 'update', plan, '--price', '6']), 1, /is archived and cannot be changed/);
    expectError(await cli(['checkout', 'offline', plan, '--member', await member()]), 1, /PLAN_ARCHIVED/);
  });
});

describe('orders', () => {
  it('list by status, plan and payment status; --filter only on the fields the list selects by; get by id prefix', async () => {
    const paused = json(await cli(['orders', 'list', '--status', 'PAUSED', '--all', '--json', 'id,status']));
    expect(paused.length).toBeGreaterThan(5);
    expect(paused.every((o: { status: string }) => o.status === 'PAUSED')).toBe(true);
    const unpaid = json(await cli(['orders', 'list', '--plan', '10-Class Pack', '--payment-status', 'UNPAID', '--all', '--json', 'planName,lastPaymentStatus']));
    expect(unpaid.length).toBeGreaterThan(0);
    expect(unpaid.every((o: { planName: string; lastPaymentStatus: string }) => o.planName === '10-Class Pack' && o.lastPaymentStatus === 'UNPAID')).toBe(true);
    const byWhere = json(await cli(['orders', 'list', '--where', 'status=ENDED', '--all', '--json', 'status']));
    expect(byWhere.length).toBeGreaterThan(0);
    expect(new Set(byWhere.map((o: { status: string }) => o.status))).toEqual(new Set(['ENDED']));
    expectError(await cli(['orders', 'list', '--filter', '{"startDate":{"$gt":"2026-01-01T00:00:00Z"}}']), 2, /this list cannot select by startDate/);
    expectError(await cli(['orders', 'list', '--status', 'ACTIVE', '--sort', 'startDate,endDate']), 2, /sort by one field/);
    expectError(await cli(['orders', 'list', '--status', 'SLEEPING']), 2, /--status: unknown value 'SLEEPING'/);
    const id = paused[0].id as string;
    const got = await cli(['orders', 'get', id.slice(0, 8)]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`^id\\t${id}$`, 'm'));
    expect(got.stdout).toMatch(/^status\tPAUSED$/m);
  });

  it('pause, resume, cancel, mark-paid and postpone one order; states the table refuses exit 1 with the reason', async () => {
    const plan = (await cli(['plans', 'create', '--name', `Monthly ${n++}`, '--price', '20', '--for', '2 MONTH'])).stdout.trim();
    const bought = await cli(['checkout', 'offline', plan, '--member', await member()]);
    expect(bought.code, bought.stderr).toBe(0);
    const id = bought.stdout.trim();
    expect(json(await cli(['orders', 'pause', id, '--json', 'status', '--yes']))).toEqual({ status: 'PAUSED' });
    const again = await cli(['orders', 'pause', id, '--yes']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/is already paused; nothing changed/);
    expectError(await cli(['orders', 'cancel', id, '--at', 'next-payment', '--yes']), 1, /CANNOT_CANCEL_AT_NEXT_PAYMENT_DATE/);
    expect(json(await cli(['orders', 'resume', id, '--json', 'status']))).toEqual({ status: 'ACTIVE' });
    const end = json(await cli(['orders', 'get', id, '--json', 'endDate'])).endDate as string;
    // Postponed to a week before its end: not later, refused.
    const earlier = new Date(Date.parse(end) - 7 * 86_400_000).toISOString();
    expectError(await cli(['orders', 'postpone', id, '--to', earlier]), 2, /INVALID_END_DATE/);
    expectError(await cli(['orders', 'postpone', id]), 2, /postpone needs --to DATE/);
    const later = new Date(Date.parse(end) + 7 * 86_400_000).toISOString();
    expect(json(await cli(['orders', 'postpone', id, '--to', later, '--json', 'endDate']))).toEqual({ endDate: later });
    expect(json(await cli(['orders', 'mark-paid', id, '--json', 'lastPaymentStatus']))).toEqual({ lastPaymentStatus: 'PAID' });
    expect((await cli(['orders', 'mark-paid', id])).stderr).toMatch(/is already marked paid; nothing changed/);
    expectError(await cli(['orders', 'cancel', id]), 2, /needs confirmation/);
    expect(json(await cli(['orders', 'cancel', id, '--yes', '--json', 'status,cancellation']))).toMatchObject({ status: 'CANCELED', cancellation: { cause: 'OWNER_ACTION', effectiveAt: 'IMMEDIATELY' } });
    expectError(await cli(['orders', 'resume', id]), 1, /cannot be resumed: it is CANCELED/);
    expectError(await cli(['orders', 'pause', id, '--yes']), 1, /cannot be paused: it is CANCELED/);

    const online = await cli(['checkout', 'online', plan, '--member', await member(), '--json', 'type,status,lastPaymentStatus,orderMethod']);
    expect(json(online)).toEqual({ type: 'ONLINE', status: 'DRAFT', lastPaymentStatus: 'PENDING', orderMethod: 'MOTO' });
    const onlineId = json(await cli(['orders', 'list', '--plan', plan, '--status', 'DRAFT', '--json', 'id']))[0].id;
    expectError(await cli(['orders', 'pause', onlineId, '--yes']), 1, /cannot be paused: it is DRAFT \(waiting for its payment\)/);
    expectError(await cli(['orders', 'mark-paid', onlineId]), 1, /only offline orders are marked paid/);
  });

  it('bulk: pause by selection with a preview, a refusal off a terminal without --yes, and a report', async () => {
    const plan = (await cli(['plans', 'create', '--name', `Bulk ${n++}`, '--price', '15', '--every', 'MONTH'])).stdout.trim();
    for (let i = 0; i < 6; i++) expect((await cli(['checkout', 'offline', plan, '--member', await member(), '--paid'])).code).toBe(0);
    const first = json(await cli(['orders', 'list', '--plan', plan, '--json', 'id']))[0].id;
    expect((await cli(['orders', 'cancel', first, '--yes'])).code).toBe(0);
    const dry = await cli(['orders', 'pause', '--plan', plan, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(json(dry)).toHaveLength(6);
    expect(json(dry).filter((i: { outcome: string }) => i.outcome === 'change')).toHaveLength(5);
    expect(json(dry).filter((i: { outcome: string }) => i.outcome === 'refused')).toEqual([{ id: first, outcome: 'refused', reason: 'it is CANCELED' }]);
    const refused = await cli(['orders', 'pause', '--plan', plan]);
    expectError(refused, 2, /no terminal/);
    expect(refused.stderr).toMatch(/--yes/);
    const seq = await lastEventSeq(emu);
    const run = await cli(['orders', 'pause', '--plan', plan, '--yes', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run).counts).toMatchObject({ paused: 5, skipped: 1 });
    const paused = (await eventsAfter(emu, seq)).filter((e) => e.type === 'order.paused');
    expect(paused).toHaveLength(5);
    const rerun = await cli(['orders', 'pause', '--plan', plan, '--yes', '--json']);
    expect(json(rerun).counts).toMatchObject({ unchanged: 5, skipped: 1 });
  });

  it('bulk: PENDING orders (bought, starting later) are skipped with the reason, not failed (exit 0)', async () => {
    const plan = (await cli(['plans', 'create', '--name', `Later ${n++}`, '--price', '15', '--every', 'MONTH', '--future-start', 'yes'])).stdout.trim();
    const later = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    for (let i = 0; i < 2; i++) expect((await cli(['checkout', 'offline', plan, '--member', await member(), '--paid', '--start', later])).code).toBe(0);
    expect((await cli(['checkout', 'offline', plan, '--member', await member(), '--paid'])).code).toBe(0);
    expect(json(await cli(['orders', 'list', '--plan', plan, '--status', 'PENDING', '--json', 'id']))).toHaveLength(2);
    const run = await cli(['orders', 'pause', '--plan', plan, '--yes', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = json(run);
    expect(report.counts).toMatchObject({ paused: 1, skipped: 2, failed: 0 });
    expect(report.problems.every((p: { outcome: string; error: string }) => p.outcome === 'skipped' && /not started/.test(p.error))).toBe(true);
  });

  it('bulk under faults: 40 orders marked paid, then paused, each exactly once with 5xx before and after the commit and dropped connections', async () => {
    const plan = (await cli(['plans', 'create', '--name', `Faults ${n++}`, '--price', '25', '--for', '6 MONTH'])).stdout.trim();
    const { plan: p } = (await emu.request('GET', `/pricing-plans/v2/plans/${plan}`)).body;
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await emu.request('POST', '/pricing-plans/v2/checkout/orders/offline', { planId: p.id, memberId: await member() })).body.order.id);
    const seq = await lastEventSeq(emu);
    await setFaults(emu, { errorRate: 0.2, errorPhase: 'random', dropRate: 0.05, seed: 7 });
    const paid = await cli(['--debug', 'orders', 'mark-paid', '--plan', plan, '--payment-status', 'UNPAID', '--yes', '--json']);
    const paused = await cli(['--debug', 'orders', 'pause', '--plan', plan, '--status', 'ACTIVE', '--yes', '--json']);
    await setFaults(emu, { errorRate: 0, dropRate: 0 });
    // The faults fired and were survived: failed attempts show in the --debug trace.
    expect(paid.stderr + paused.stderr).toMatch(/^debug: < POST \S+ 50[03] /m);
    expect(paid.code, paid.stderr).toBe(0);
    expect(json(paid).counts).toMatchObject({ 'marked paid': 40 });
    expect(paused.code, paused.stderr).toBe(0);
    expect(json(paused).counts).toMatchObject({ paused: 40 });
    const events = await eventsAfter(emu, seq);
    for (const id of ids) {
      expect(events.filter((e) => e.entityId === id && e.type === 'order.marked_as_paid'), id).toHaveLength(1);
      expect(events.filter((e) => e.entityId === id && e.type === 'order.paused'), id).toHaveLength(1);
      const o = (await emu.request('GET', `/pricing-plans/v2/orders/${id}`)).body.order;
      expect(o).toMatchObject({ status: 'PAUSED', lastPaymentStatus: 'PAID' });
    }
  }, 60_000);
});

describe('checkout', () => {
  it('price with a coupon, a preview that buys nothing, the purchase limit, and bad input before any request', async () => {
    const price = await cli(['checkout', 'price', 'Gold Monthly', '--coupon', 'GOLDSTART']);
    expect(price.code, price.stderr).toBe(0);
    expect(price.stdout.replace(/\n$/, '').split('\n').map((l) => l.split('\t'))).toEqual([
      ['1', '49', '24.50', '24.50', 'USD', 'GOLDSTART'],
      ['2+', '49', '0', '49', 'USD', ''],
    ]);
    expectError(await cli(['checkout', 'price', 'Gold Monthly', '--coupon', 'SUMMER20']), 1, /coupon "SUMMER20" expired/);
    const buyer = await member();
    const seq = await lastEventSeq(emu);
    const preview = await cli(['checkout', 'preview', 'Founder Lifetime', '--member', buyer, '--json', 'purchaseLimitExceeded']);
    expect(json(preview)).toEqual({ purchaseLimitExceeded: false });
    expect(preview.stderr).toMatch(/Preview only: nothing was bought/);
    expect(await lastEventSeq(emu)).toBe(seq);
    expectError(await cli(['checkout', 'preview', 'Founder Lifetime']), 2, /the buyer is needed: --member/);
    expectError(await cli(['checkout', 'offline', 'Founder Lifetime', '--member', buyer, '--coupon', '']), 2, /--coupon must be 1 to 50 characters/);
    expectError(await cli(['checkout', 'online', 'Founder Lifetime', '--member', buyer, '--method', 'FAX']), 2, /--method: unknown value 'FAX'/);
    expectError(await cli(['checkout', 'offline', 'Founder Lifetime', '--member', buyer, '--start', 'someday']), 2, /--start/);
    expect(await lastEventSeq(emu)).toBe(seq);
    const bought = await cli(['checkout', 'offline', 'Founder Lifetime', '--member', buyer, '--paid', '--json', 'status,lastPaymentStatus,type']);
    expect(json(bought)).toEqual({ status: 'ACTIVE', lastPaymentStatus: 'PAID', type: 'OFFLINE' });
    const limit = await cli(['checkout', 'preview', 'Founder Lifetime', '--member', buyer]);
    expect(limit.stderr).toMatch(/has reached the purchase limit of plan "Founder Lifetime" \(1\)/);
    expectError(await cli(['checkout', 'offline', 'Founder Lifetime', '--member', buyer]), 1, /PURCHASE_LIMIT_EXCEEDED/);
  });
});
