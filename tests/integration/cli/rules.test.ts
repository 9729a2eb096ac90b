/**
 * The specification's rules of issue 28 item 2, through the CLI against a real emulator on port 0 (in process):
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
