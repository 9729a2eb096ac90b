/**
 * The cancellation and reschedule rules of booking policies through the CLI (docs/wire.md §14, its cancel and
 * reschedule windows), in process against a real emulator on port 0: a policy with the cancel window on refuses,
 * per booking, the bulk cancel of a booking inside it (BOOKING_POLICY_VIOLATION, `--ignore-policy` named) and
 * cancels the others; `--ignore-policy` lifts it; a policy with `cancellationPolicy.enabled` off, or the limit off,
 * allows the cancel; the reschedule window likewise. Every service, policy and booking is the test's own; the
 * windows are measured on the emulator's clock (the studio's `soon` slots start 2 to 20 hours ahead, its other
 * slots 2 days or more ahead), so the verdict is the same at any hour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
let studio: Studio;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, bookings: 0 });
  sandbox = createCliSandbox();
  studio = await makeStudio((args, o) => cli(args, o), 'cancel-policy');
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
const json = okJson;
const status = async (id: string): Promise<string> => json(await cli(['bookings', 'get', id, '--json', 'status'])).status;

/** A new appointment service on a new policy made by `services booking-policies create` with `flags`. */
async function serviceOnPolicy(tag: string, flags: string[]): Promise<{ name: string; id: string; policy: string }> {
  const made = await cli(['services', 'booking-policies', 'create', '--name', `Cancel policy ${tag}`, ...flags]);
  expect(made.code, made.stderr).toBe(0);
  const policy = made.stdout.trim();
  const s = await studio.appointment();
  const now = (await emu.request('GET', `/v2/services/${s.id}`)).body.service;
  const moved = await emu.request('PATCH', `/v2/services/${s.id}`, { service: { id: s.id, revision: now.revision, bookingPolicy: { id: policy } } });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  return { name: s.name, id: s.id, policy };
}

describe('the cancellation window', () => {
  it('a bulk cancel refuses, per booking, the one inside the window (naming --ignore-policy) and cancels the others', async () => {
    const s = await serviceOnPolicy('on', ['--cancel-until', '1440']);
    const inside = (await studio.book(s.name, { soon: true, email: 'inside@example.com' })).id;
    const outside = (await studio.book(s.name, { email: 'outside@example.com' })).id;
    const r = await cli(['bookings', 'cancel', '--ids', `${inside},${outside}`, '--yes']);
    // A refusal the plan foresees is a skip, not a failure: the run did what it could.
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`skipped ${inside}: the service's booking policy does not allow cancelling it now (BOOKING_POLICY_VIOLATION) (--ignore-policy lifts it)`);
    expect(r.stderr).toMatch(/2 bookings: 1 canceled, 1 skipped/);
    expect(r.stderr).toMatch(new RegExp(`not done:\\n\\s+${inside}\\tskipped\\t.*BOOKING_POLICY_VIOLATION`));
    expect(await status(inside)).toBe('CREATED');
    expect(await status(outside)).toBe('CANCELED');
    // The allowed actions say the same.
    expect(json(await cli(['bookings', 'actions', inside, '--json']))).toEqual([{ id: inside, cancel: false, reschedule: true }]);

    const lifted = await cli(['bookings', 'cancel', '--ids', inside, '--ignore-policy', '--yes']);
    expect(lifted.code, lifted.stderr).toBe(0);
    expect(await status(inside)).toBe('CANCELED');
  });

  it('the platform refuses a cancel inside the window with 428 BOOKING_POLICY_VIOLATION naming the window, whoever plans it', async () => {
    const s = await serviceOnPolicy('wire', ['--cancel-until', '1440']);
    const b = (await studio.book(s.name, { soon: true, email: 'wire@example.com' })).id;
    const r = await cli(['api', 'POST', `/_api/bookings-service/v2/bookings/${b}/cancel`, '-f', 'revision=1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/BOOKING_POLICY_VIOLATION/);
    expect(r.stderr).toMatch(/until 1440 minutes before the start/);
    expect(r.stderr).toMatch(/--ignore-policy/);
    // On the wire: 428 with the application error and the window in its data.
    const raw = await emu.request('POST', `/_api/bookings-service/v2/bookings/${b}/cancel`, { revision: '1' });
    expect(raw.status).toBe(428);
    expect(raw.body.details.applicationError).toMatchObject({ code: 'BOOKING_POLICY_VIOLATION', data: { id: b, latestCancellationInMinutes: 1440 } });
    expect(await status(b)).toBe('CREATED');
  });

  it('with the policy disabled, or its limit off, a booking starting soon is cancelled', async () => {
    const off = await serviceOnPolicy('off', ['--cancel-until', 'off']);
    const policy = json(await cli(['services', 'booking-policies', 'list', '--all', '--json'])).find((p: { id: string }) => p.id === off.policy);
    expect(policy.cancellationPolicy.limitLatestCancellation).toBe(false);
    const a = (await studio.book(off.name, { soon: true })).id;
    // `enabled: false` with the limit and minutes given: no rule at all.
    const disabled = await serviceOnPolicy('disabled', ['--cancel-until', '1440']);
    const rev = json(await cli(['services', 'booking-policies', 'list', '--all', '--json'])).find((p: { id: string }) => p.id === disabled.policy).revision;
    const patched = await emu.request('PATCH', `/v1/booking-policies/${disabled.policy}`, { bookingPolicy: { id: disabled.policy, revision: rev, cancellationPolicy: { enabled: false } } });
    expect(patched.body.bookingPolicy.cancellationPolicy).toEqual({ enabled: false, limitLatestCancellation: true, latestCancellationInMinutes: 1440 });
    const b = (await studio.book(disabled.name, { soon: true })).id;
    const r = await cli(['bookings', 'cancel', '--ids', `${a},${b}`, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect([await status(a), await status(b)]).toEqual(['CANCELED', 'CANCELED']);
  });
});

describe('the reschedule window', () => {
  it('a reschedule inside the window is refused (BOOKING_POLICY_VIOLATION), allowed with --ignore-policy; outside it, allowed', async () => {
    const s = await serviceOnPolicy('move', ['--reschedule-until', '1440']);
    const inside = (await studio.book(s.name, { soon: true })).id;
    const outside = (await studio.book(s.name)).id;
    const to = (await studio.slot(s.name)).startDate;
    const refused = await cli(['bookings', 'reschedule', inside, '--start', to]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/BOOKING_POLICY_VIOLATION/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    const ok = await cli(['bookings', 'reschedule', outside, '--start', to]);
    expect(ok.code, ok.stderr).toBe(0);
    const later = (await studio.slot(s.name)).startDate;
    const lifted = await cli(['bookings', 'reschedule', inside, '--start', later, '--ignore-policy']);
    expect(lifted.code, lifted.stderr).toBe(0);
    expect(json(await cli(['bookings', 'get', inside, '--json', 'startDate'])).startDate).toBe(new Date(later).toISOString());
  });
});

describe('a booking that has started', () => {
  it('under a policy that is on (with or without its limit) is neither cancelled nor rescheduled unless --ignore-policy', async () => {
    const limited = await serviceOnPolicy('started limited', ['--cancel-until', '60', '--reschedule-until', '60']);
    const unlimited = await serviceOnPolicy('started unlimited', ['--cancel-until', 'off', '--reschedule-until', 'off']);
    const a = await studio.book(limited.name, { email: 'started-a@example.com' });
    const b = await studio.book(unlimited.name, { email: 'started-b@example.com' });
    const toA = (await studio.slot(limited.name)).startDate;
    const toB = (await studio.slot(unlimited.name)).startDate;
    // The emulator's clock ten minutes past the later start: both bookings have started, whatever the hour.
    const started = Math.max(Date.parse(a.slot.startDate), Date.parse(b.slot.startDate)) + 10 * 60_000;
    await emu.request('PUT', '/__emulator/clock', { now: new Date(started).toISOString(), frozen: true });
    try {
      for (const [id, minutes, serviceId, to] of [[a.id, 60, limited.id, toA], [b.id, undefined, unlimited.id, toB]] as const) {
        const raw = await emu.request('POST', `/_api/bookings-service/v2/bookings/${id}/cancel`, { revision: '1' });
        expect(raw.status).toBe(428);
        expect(raw.body.details.applicationError).toMatchObject({ code: 'BOOKING_POLICY_VIOLATION', data: { id, ...(minutes ? { latestCancellationInMinutes: minutes } : {}) } });
        expect(raw.body.details.applicationError.description).toMatch(/it started .* allows it only before the start/);
        const moved = await emu.request('POST', `/_api/bookings-service/v2/bookings/${id}/reschedule`, { slot: { serviceId, startDate: to }, revision: '1' });
        expect(moved.status).toBe(428);
        expect(moved.body.details.applicationError.code).toBe('BOOKING_POLICY_VIOLATION');
      }
      // The CLI: the bulk cancel skips both and names --ignore-policy; reschedule refuses with one line.
      const r = await cli(['bookings', 'cancel', '--ids', `${a.id},${b.id}`, '--yes']);
      expect(r.code, r.stderr).toBe(0);
      for (const id of [a.id, b.id]) expect(r.stderr).toContain(`skipped ${id}: the service's booking policy does not allow cancelling it now (BOOKING_POLICY_VIOLATION) (--ignore-policy lifts it)`);
      expect(await status(a.id)).toBe('CREATED');
      expect(await status(b.id)).toBe('CREATED');
      const refused = await cli(['bookings', 'reschedule', b.id, '--start', toB]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/BOOKING_POLICY_VIOLATION/);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
      // --ignore-policy lifts both rules.
      const lifted = await cli(['bookings', 'reschedule', a.id, '--start', toA, '--ignore-policy']);
      expect(lifted.code, lifted.stderr).toBe(0);
      const cancelled = await cli(['bookings', 'cancel', '--ids', b.id, '--ignore-policy', '--yes']);
      expect(cancelled.code, cancelled.stderr).toBe(0);
      expect(await status(b.id)).toBe('CANCELED');
    } finally {
      await emu.request('PUT', '/__emulator/clock', { now: new Date().toISOString(), frozen: false });
    }
  });
});
