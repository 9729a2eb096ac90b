/**
 * The specification's rules that were not enforced before (docs/wire.md §5, §6, §24), through the CLI against a real emulator on port 0 (in process):
 * the field mask in the form the specification gives (seed B §9, docs/wire.md §5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, type CliSandbox } from '../../helpers/cli.js';
import { runInProcess, startTestEmulator, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  sandbox?.cleanup();
  await emu?.close();
});

/** One state directory across runs (history and undo). */
const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });

describe('the field mask', () => {
  it('a plan change that clears a field sends its mask as one comma-joined string, and the emulator applies it', async () => {
    const created = await emu.request('POST', '/pricing-plans/v2/plans', { plan: { name: `Mask plan ${Date.now()}`, pricing: { singlePaymentUnlimited: true, price: { value: '5', currency: 'USD' } } } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.plan.id as string;
    const set = await cli(['plans', 'update', id, '--description', 'Added for the mask']);
    expect(set.code, set.stderr).toBe(0);
    expect((await emu.request('GET', `/pricing-plans/v2/plans/${id}`)).body.plan.description).toBe('Added for the mask');
    const undone = await cli(['undo', '--last', '--yes', '--debug']);
    expect(undone.code, undone.stderr).toBe(0);
    // The undo clears the description: it names it in the mask, sent as the comma-joined string.
    expect(undone.stderr).toMatch(/^debug: > PATCH http:\/\/[^ ]+\/pricing-plans\/v2\/plans\//m);
    expect((await emu.request('GET', `/pricing-plans/v2/plans/${id}`)).body.plan.description ?? '').toBe('');
  });

  it('the emulator refuses a mask given as {paths: [...]}, saying the form', async () => {
    const created = await emu.request('POST', '/pricing-plans/v2/plans', { plan: { name: `Paths plan ${Date.now()}`, pricing: { singlePaymentUnlimited: true, price: { value: '5', currency: 'USD' } } } });
    const id = created.body.plan.id as string;
    const r = await emu.request('PATCH', `/pricing-plans/v2/plans/${id}`, { plan: { id, description: 'x' }, fieldMask: { paths: ['description'] } });
    expect(r.status).toBe(400);
    expect(r.body.details.validationError.fieldViolations).toContainEqual(expect.objectContaining({ field: 'fieldMask', description: expect.stringMatching(/^must be one string of comma-joined paths/) }));
  });
});

describe('NESTED search aggregations', () => {
  /** Services of this test alone, found by their name prefix: two classes (capacity 5 and 8), one appointment. */
  async function made(prefix: string): Promise<void> {
    const payment = { rateType: 'FIXED', fixed: { price: { value: '40', currency: 'USD' } } };
    for (const [n, type, defaultCapacity] of [['a', 'CLASS', 5], ['b', 'CLASS', 8], ['c', 'APPOINTMENT', 1]] as const) {
      const r = await emu.request('POST', '/v2/services', { service: { name: `${prefix} ${n}`, type, defaultCapacity, payment } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  }

  it("services search --agg 'VALUE:type>SCALAR:MAX:defaultCapacity' gives each type's largest capacity, as a table and as JSON", async () => {
    const prefix = `Nested ${Date.now()}`;
    await made(prefix);
    const filter = JSON.stringify({ name: { $startsWith: prefix } });
    const spec = 'VALUE:type>SCALAR:MAX:defaultCapacity';
    const json = await cli(['services', 'search', '--filter', filter, '--agg', spec, '--limit', '0', '--json', 'aggregationData']);
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout).aggregationData.results[0];
    expect(result).toMatchObject({ name: spec, type: 'NESTED' });
    expect(result.nested.results).toEqual([
      { results: { 'VALUE:type': { value: { value: 'CLASS', count: 2 } }, 'SCALAR:MAX:defaultCapacity': { scalar: { value: 8 } } } },
      { results: { 'VALUE:type': { value: { value: 'APPOINTMENT', count: 1 } }, 'SCALAR:MAX:defaultCapacity': { scalar: { value: 1 } } } },
    ]);
    const piped = await cli(['services', 'search', '--filter', filter, '--agg', 'VALUE:type>RANGE:defaultCapacity:0,6,10', '--limit', '0']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.trim().split('\n')).toEqual([
      'VALUE:type>RANGE:defaultCapacity:0,6,10\tCLASS / [0, 6)\t1',
      'VALUE:type>RANGE:defaultCapacity:0,6,10\tCLASS / [6, 10)\t1',
      'VALUE:type>RANGE:defaultCapacity:0,6,10\tAPPOINTMENT / [0, 6)\t1',
      'VALUE:type>RANGE:defaultCapacity:0,6,10\tAPPOINTMENT / [6, 10)\t0',
    ]);
  });

  it('a chain that cannot nest is refused before anything is sent, and by the emulator', async () => {
    const bad = await cli(['services', 'search', '--agg', 'SCALAR:MAX:defaultCapacity>VALUE:type']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --agg 'SCALAR:MAX:defaultCapacity>VALUE:type': a SCALAR has no buckets to nest in/);
    const one = await emu.request('POST', '/v2/services/search', { search: { aggregations: [{ type: 'NESTED', nested: { nestedAggregations: [{ type: 'VALUE', fieldPath: 'type' }] } }] } });
    expect(one.status).toBe(400);
    expect(one.body.details.validationError.fieldViolations[0].field).toMatch(/^search\.aggregations\[0\]\.nested\.nestedAggregations/);
    const scalarFirst = await emu.request('POST', '/v2/services/search', { search: { aggregations: [{ type: 'NESTED', nested: { nestedAggregations: [{ type: 'SCALAR', fieldPath: 'defaultCapacity', scalar: { type: 'MAX' } }, { type: 'VALUE', fieldPath: 'type' }] } }] } });
    expect(scalarFirst.status).toBe(400);
    expect(scalarFirst.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'search.aggregations[0].nested.nestedAggregations[0].type' });
  });
});

describe('the order start-date change', () => {
  it('an online order paid after its start date starts when paid, and sitectl events shows order.start_date_changed with the new start', async () => {
    await emu.request('PUT', '/__emulator/clock', { frozen: true });
    const clock = Date.parse((await emu.request('GET', '/__emulator/clock')).body.clock.now);
    const email = (await emu.request('POST', '/members/v1/members', { member: { loginEmail: `start-change-${Date.now()}@example.com` } })).body.member.loginEmail;
    const start = new Date(clock + 86_400_000).toISOString();
    const since = String((await emu.request('GET', '/__emulator/state')).body.events.lastSeq);
    const bought = await cli(['checkout', 'online', 'Silver 12 Months', '--member', email, '--start', start], { now: () => new Date(clock) });
    expect(bought.code, bought.stderr).toBe(0);
    const id = bought.stdout.trim();
    // Two days on, the buyer pays: the start date has passed, the order starts now.
    await emu.request('PUT', '/__emulator/clock', { advance: '2d' });
    const paid = await emu.request('POST', `/__emulator/orders/${id}/pay`, { outcome: 'PAID' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const now = new Date(clock + 2 * 86_400_000).toISOString();
    const events = await cli(['events', '--type', 'order.*', '--since', since, '--json']);
    expect(events.code, events.stderr).toBe(0);
    const mine = (JSON.parse(events.stdout) as Array<{ type: string; entityId: string; entity?: { startDate?: string } }>).filter((e) => e.entityId === id);
    expect(mine.map((e) => e.type)).toEqual(['order.created', 'order.purchased', 'order.start_date_changed', 'order.started']);
    expect(mine[2]!.entity).toMatchObject({ startDate: now, status: 'ACTIVE' });
    // An order paid before its start keeps it: no change recorded.
    const later = await cli(['checkout', 'online', 'Silver 12 Months', '--member', email, '--start', new Date(Date.parse(now) + 86_400_000).toISOString()], { now: () => new Date(now) });
    const laterId = later.stdout.trim();
    await emu.request('POST', `/__emulator/orders/${laterId}/pay`, { outcome: 'PAID' });
    const all = await cli(['events', '--type', 'order.*', '--since', since, '--json']);
    expect((JSON.parse(all.stdout) as Array<{ type: string; entityId: string }>).filter((e) => e.entityId === laterId).map((e) => e.type)).toEqual(['order.created', 'order.purchased']);
  });
});
