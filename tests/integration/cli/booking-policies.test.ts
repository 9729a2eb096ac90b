/**
 * `sitectl services booking-policies create|update|delete|set-default` in process against a real emulator: each
 * write recorded as the seed's policy events, the default policy moved and not deletable, a deleted policy's
 * services moved to the default one, bad input refused with one line and exit 2 before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startTestEmulator, type CliResult, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { eventsAfter, lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: CliResult): any => {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const P = ['services', 'booking-policies'];

describe('booking policies', () => {
  it('create, update, set-default, delete: the events, the default, the services of a deleted policy', async () => {
    const seq = await lastEventSeq(emu);
    const id = (await cli([...P, 'create', '--name', 'Strict CLI', '--cancel-until', '1440', '--latest-booking', '120', '--max-participants', '2'])).stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const created = json(await cli([...P, 'list', '--json', 'id,bookingPolicy'])).find((p: { id: string }) => p.id === id).bookingPolicy;
    expect(created).toMatchObject({
      name: 'Strict CLI',
      default: false,
      cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 1440 },
      limitLateBookingPolicy: { enabled: true, latestBookingInMinutes: 120 },
      participantsPolicy: { enabled: true, maxParticipantsPerBooking: 2 },
    });
    const updated = json(await cli([...P, 'update', 'strict cli', '--latest-booking', 'off', '--waitlist', '3', '--json']));
    expect(updated).toMatchObject({ id, revision: '2', limitLateBookingPolicy: { enabled: false }, waitlistPolicy: { enabled: true, capacity: 3 } });

    // A service on the new policy; then the new policy becomes the default, and the old default goes.
    const svc = await emu.request('POST', '/bookings/v2/services', { service: { name: 'Policy Test', type: 'CLASS', defaultCapacity: 3, bookingPolicy: { id } } });
    expect(svc.status, JSON.stringify(svc.body)).toBe(200);
    const policies = json(await cli([...P, 'list', '--json', 'id,name,default']));
    const oldDefault = policies.find((p: { default?: boolean }) => p.default);
    const set = json(await cli([...P, 'set-default', id, '--json']));
    expect(set).toMatchObject({ id, default: true });
    const again = await cli([...P, 'set-default', id]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/is the default already; nothing changed/);
    expectError(await cli([...P, 'delete', id, '--yes']), 1, /is the default policy and cannot be deleted/);
    expect(json(await cli([...P, 'list', '--json', 'id,default'])).filter((p: { default?: boolean }) => p.default).map((p: { id: string }) => p.id)).toEqual([id]);

    // Back to the old default; deleting the new one moves its service there.
    expect((await cli([...P, 'set-default', oldDefault.id])).code).toBe(0);
    expectError(await cli([...P, 'delete', id]), 2, /needs confirmation/);
    const deleted = json(await cli([...P, 'delete', id, '--yes', '--json']));
    expect(deleted).toEqual({ id, deleted: true, services: 1 });
    expect((await emu.request('GET', `/bookings/v2/services/${svc.body.service.id}`)).body.service.bookingPolicy.id).toBe(oldDefault.id);

    const types = (await eventsAfter(emu, seq)).filter((e) => e.entityId === id).map((e) => e.type);
    expect(types).toEqual(['booking_policy.created', 'booking_policy.updated', 'booking_policy.default_set', 'booking_policy.updated', 'booking_policy.deleted']);
    const defaults = (await eventsAfter(emu, seq)).filter((e) => e.type === 'booking_policy.default_set').map((e) => e.entityId);
    expect(defaults).toEqual([id, oldDefault.id]);
  });

  it('bad input: one line, exit 2, nothing sent', async () => {
    const seq = await lastEventSeq(emu);
    expectError(await cli([...P, 'create', '--cancel-until', '60']), 2, /needs --name/);
    expectError(await cli([...P, 'create', '--name', ' ']), 2, /--name: a booking policy needs a name/);
    expectError(await cli([...P, 'create', '--name', 'X', '--cancel-until', 'soon']), 2, /--cancel-until must be a whole number/);
    expectError(await cli([...P, 'create', '--name', 'X', '--max-participants', '0']), 2, /--max-participants must be a whole number/);
    expectError(await cli([...P, 'update', 'Nope Policy', '--waitlist', '2']), 2, /no booking policy 'Nope Policy'/);
    expectError(await cli([...P, 'update', 'Nope Policy']), 2, /nothing to change/);
    expect(await lastEventSeq(emu)).toBe(seq);
  });
});
