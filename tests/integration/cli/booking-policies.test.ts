/**
 * `sitectl services booking-policies list|count|strictest|create|update|delete|set-default` in process against a
 * real emulator: each write recorded as the seed's policy events, the default policy moved and not deletable, a
 * deleted policy's services moved to the default one, bad input refused with one line and exit 2 before anything
 * is sent; a new policy with every rule field at the SDK's documented default, deep merges on create and update,
 * the participants limit refusing a larger booking, and the query, count and strictest-policy calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startTestEmulator, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { eventsAfter, lastEventSeq } from '../bulk/support.js';
import { makeStudio } from '../../helpers/studio.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
const json = okJson;
const P = ['services', 'booking-policies'];

describe('booking policies', () => {
  it('create, update, set-default, delete: the events, the default, the services of a deleted policy', async () => {
    const seq = await lastEventSeq(emu);
    const id = (await cli([...P, 'create', '--name', 'Strict CLI', '--cancel-until', '1440', '--latest-booking', '120', '--max-participants', '2'])).stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const created = json(await cli([...P, 'list', '--all', '--json'])).find((p: { id: string }) => p.id === id);
    expect(created).toMatchObject({
      name: 'Strict CLI',
      default: false,
      cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 1440 },
      limitLateBookingPolicy: { enabled: true, latestBookingInMinutes: 120 },
      participantsPolicy: { maxParticipantsPerBooking: 2 },
    });
    expect(created.participantsPolicy).not.toHaveProperty('enabled');
    const updated = json(await cli([...P, 'update', 'strict cli', '--latest-booking', 'off', '--waitlist', '3', '--json']));
    // Deep merge: the late-booking block turned off keeps its minutes; the waitlist keeps its reservation time.
    expect(updated).toMatchObject({ id, revision: '2', limitLateBookingPolicy: { enabled: false, latestBookingInMinutes: 120 }, waitlistPolicy: { enabled: true, capacity: 3, reservationTimeInMinutes: 10 } });

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

/**
 * Every rule block of a new policy at the defaults the SDK documents (`@wix/auto_sdk_bookings_booking-policies`
 * index.typings.d.ts, the "Default:" of each field), written out here so that a changed default fails.
 */
const SDK_DEFAULTS = {
  customPolicyDescription: { enabled: false, description: '' },
  limitEarlyBookingPolicy: { enabled: false, earliestBookingInMinutes: 10080 },
  limitLateBookingPolicy: { enabled: false, latestBookingInMinutes: 1440 },
  bookAfterStartPolicy: { enabled: false },
  cancellationPolicy: { enabled: false, limitLatestCancellation: false, latestCancellationInMinutes: 1440 },
  reschedulePolicy: { enabled: false, limitLatestReschedule: false, latestRescheduleInMinutes: 1440 },
  waitlistPolicy: { enabled: false, capacity: 10, reservationTimeInMinutes: 10 },
  participantsPolicy: { maxParticipantsPerBooking: 1 },
  cancellationFeePolicy: { enabled: false, cancellationWindows: [], autoCollectFeeEnabled: true },
  saveCreditCardPolicy: { enabled: false },
  staffSortingPolicy: { sortingMethodType: 'RANDOM' },
  intakeFormPolicy: { enabled: false },
};

let made = 0;
const fresh = (what: string) => `${what} ${process.pid}-${++made}`;

describe('booking policies as the platform has them', () => {
  it('a new policy has every rule field at the SDK default; given sub-fields merge over the defaults', async () => {
    const bare = json(await cli([...P, 'create', '--name', fresh('Bare'), '--json']));
    for (const [rule, value] of Object.entries(SDK_DEFAULTS)) expect(bare[rule], rule).toEqual(value);
    expect(Object.keys(bare).filter((k) => /Policy$|Description$/.test(k)).sort()).toEqual(Object.keys(SDK_DEFAULTS).sort());

    const given = json(await cli([...P, 'create', '--name', fresh('Given'), '--cancel-until', '60', '--waitlist', '4', '--max-participants', '3', '--json']));
    expect(given.cancellationPolicy).toEqual({ enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 60 });
    expect(given.waitlistPolicy).toEqual({ enabled: true, capacity: 4, reservationTimeInMinutes: 10 });
    expect(given.participantsPolicy).toEqual({ maxParticipantsPerBooking: 3 });
    expect(given.reschedulePolicy).toEqual(SDK_DEFAULTS.reschedulePolicy);

    // The platform's own create: one sub-field of a block, the rest of the block from the defaults.
    const raw = await emu.request('POST', '/bookings/v1/booking-policies', { bookingPolicy: { name: fresh('Raw'), waitlistPolicy: { enabled: true }, staffSortingPolicy: { rankingOptions: { order: 'HIGHEST_TO_LOWEST' } } } });
    expect(raw.status, JSON.stringify(raw.body)).toBe(200);
    expect(raw.body.bookingPolicy.waitlistPolicy).toEqual({ enabled: true, capacity: 10, reservationTimeInMinutes: 10 });
    expect(raw.body.bookingPolicy.staffSortingPolicy).toEqual({ sortingMethodType: 'RANDOM', rankingOptions: { order: 'HIGHEST_TO_LOWEST' } });
  });

  it('an update merges deeply; a field mask changes only its paths; the rules a policy must keep are refused (400)', async () => {
    const p = json(await cli([...P, 'create', '--name', fresh('Merge'), '--cancel-until', '120', '--json']));
    const patched = await emu.request('PATCH', `/bookings/v1/booking-policies/${p.id}`, { bookingPolicy: { id: p.id, revision: p.revision, cancellationPolicy: { latestCancellationInMinutes: 30 } } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.bookingPolicy.cancellationPolicy).toEqual({ enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 30 });
    const masked = await emu.request('PATCH', `/bookings/v1/booking-policies/${p.id}`, {
      bookingPolicy: { id: p.id, revision: patched.body.bookingPolicy.revision, name: 'not taken', waitlistPolicy: { enabled: true, capacity: 2 } },
      mask: 'waitlistPolicy.capacity',
    });
    expect(masked.status, JSON.stringify(masked.body)).toBe(200);
    expect(masked.body.bookingPolicy).toMatchObject({ name: p.name, waitlistPolicy: { enabled: false, capacity: 2, reservationTimeInMinutes: 10 } });

    const both = await emu.request('PATCH', `/bookings/v1/booking-policies/${p.id}`, {
      bookingPolicy: { id: p.id, revision: masked.body.bookingPolicy.revision, limitLateBookingPolicy: { enabled: true }, bookAfterStartPolicy: { enabled: true } },
    });
    expect(both.status).toBe(400);
    expect(both.body.details.validationError.fieldViolations[0]).toMatchObject({ ruleName: 'BOTH_LATE_AND_AFTER_START_POLICIES_NOT_ALLOWED' });
    const zero = await emu.request('POST', '/bookings/v1/booking-policies', { bookingPolicy: { name: fresh('Zero'), participantsPolicy: { maxParticipantsPerBooking: 0 } } });
    expect(zero.status).toBe(400);
    expect(zero.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'bookingPolicy.participantsPolicy.maxParticipantsPerBooking', violatedRule: 'MIN' });
    expectError(await cli([...P, 'create', '--name', fresh('Zero'), '--cancel-until', '0']), 2, /--cancel-until must be a whole number/);
  });

  it('the participants limit applies without any switch: a booking for more is refused (428 BOOKING_POLICY_VIOLATION), one at the limit made', async () => {
    const studio = await makeStudio(cli, 'policies', 1);
    const klass = await studio.klass({ capacity: 10 });
    const policy = json(await cli([...P, 'create', '--name', fresh('Three'), '--max-participants', '3', '--json']));
    const svc = (await emu.request('GET', `/bookings/v2/services/${klass.id}`)).body.service;
    const moved = await emu.request('PATCH', `/bookings/v2/services/${klass.id}`, { service: { id: klass.id, revision: svc.revision, bookingPolicy: { id: policy.id } } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const slot = await studio.slot(klass.name);
    const book = (n: number) => cli(['bookings', 'create', '--service', klass.id, '--start', slot.startDate, '--email', 'limit@example.com', '--participants', String(n)]);
    expectError(await book(4), 1, /at most 3 participants per booking/);
    const ok = await book(3);
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(await cli(['bookings', 'get', ok.stdout.trim(), '--json', 'totalParticipants']))).toEqual({ totalParticipants: 3 });
  });

  it('list, count and strictest send the policies query, count and strictest-policy calls', async () => {
    const tag = fresh('Tagged');
    const a = json(await cli([...P, 'create', '--name', `${tag} A`, '--cancel-until', '60', '--max-participants', '5', '--waitlist', '8', '--json']));
    const b = json(await cli([...P, 'create', '--name', `${tag} B`, '--cancel-until', '600', '--max-participants', '2', '--earliest-booking', '20160', '--json']));

    const all = json(await cli([...P, 'list', '--all', '--json', 'id,name,default']));
    expect(all.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    const count = json(await cli([...P, 'count', '--json']));
    expect(count).toEqual({ count: all.length });
    const where = json(await cli([...P, 'list', '--where', `name=${tag} B`, '--json', 'id,participantsPolicy']));
    expect(where).toEqual([{ id: b.id, participantsPolicy: { maxParticipantsPerBooking: 2 } }]);
    expect((await cli([...P, 'count', '--filter', JSON.stringify({ name: { $startsWith: tag } })])).stdout.trim()).toBe('2');
    const limited = json(await cli([...P, 'list', '--limit', '1', '--sort', 'name', '--json', 'id']));
    expect(limited).toHaveLength(1);
    const tsv = await cli([...P, 'list', '--where', `name=${tag} A`]);
    expect(tsv.stdout.split('\t')[0]).toBe(a.id);

    const strictest = json(await cli([...P, 'strictest', `${tag} A`, b.id, '--json']));
    expect(strictest.id).toBeNull();
    expect(strictest).toMatchObject({
      participantsPolicy: { maxParticipantsPerBooking: 2 },
      cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 600 },
      limitEarlyBookingPolicy: { enabled: true, earliestBookingInMinutes: 20160 },
      waitlistPolicy: { enabled: false },
    });
    expectError(await cli([...P, 'strictest', 'No Such Policy']), 2, /no booking policy 'No Such Policy'/);
  });
});
