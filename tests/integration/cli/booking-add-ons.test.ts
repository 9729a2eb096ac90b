/**
 * A booking's duration add-ons through the CLI (docs/wire.md §28, "A booking's add-ons"), in process against a
 * real emulator on port 0: a booking made by `bookings create --file` with a duration add-on ends that much later,
 * its staff member's slots that overlap the longer booking are no longer offered by `availability` and a booking
 * into one is refused as any overlap is, while the first start after it is bookable; a quantity add-on changes no
 * time. Every service, add-on and booking is the test's own, in a stretch of time no other test of the file uses,
 * so the verdict is the same at any hour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOns } from '../../../src/api/add-ons.js';
import { ApiClient } from '../../../src/api/client.js';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
let api: ApiClient;
let sandbox: CliSandbox;
let studio: Studio;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, bookings: 0 });
  api = new ApiClient({ baseUrl: emu.url, credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId: emu.siteId } });
  sandbox = createCliSandbox();
  studio = await makeStudio((args, o) => cli(args, o), 'booking-add-ons', 1);
});
afterAll(async () => {
  await api?.close();
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
const json = okJson;
const MIN = 60_000;
const at = (ms: number) => new Date(ms).toISOString();

/** A new 60-minute appointment with one group holding `kind` add-on: the service, the add-on and the group. */
async function serviceWithAddOn(kind: { durationInMinutes: number } | { maxQuantity: number }) {
  const service = await studio.appointment({ minutes: 60 });
  const addOn = (await addOns.createAddOn(api, { addOn: { name: `Add-on ${Date.now()}`, price: { value: '10', currency: 'USD' }, ...kind } })).addOn.id!;
  const made = await cli(['services', 'add-on-groups', 'create', service.id, '--name', 'Extras', '--add-on', addOn]);
  expect(made.code, made.stderr).toBe(0);
  const group = (await emu.request('GET', `/bookings/v2/services/${service.id}`)).body.service.addOnGroups[0].id as string;
  return { service, addOn, group };
}

/** Starts (ms) of the staff member's listed slots of `service` in [from, from + hours). */
async function listed(service: string, from: number, hours: number): Promise<number[]> {
  const entries = json(await cli(['availability', service, '--from', at(from), '--days', '1', '--staff', studio.staff[0]!, '--bookable', '--json'])) as Array<{ slot: { startDate: string } }>;
  return entries.map((e) => Date.parse(e.slot.startDate)).filter((t) => t >= from && t < from + hours * 60 * MIN);
}

/** Four hourly slots in a row of `service` (no local midnight between them) in a stretch of its own: the first. */
async function fourInARow(service: string): Promise<number> {
  const from = Date.parse(studio.reserve(12));
  const starts = new Set(await listed(service, from, 12));
  const first = [...starts].sort((a, b) => a - b).find((t) => [1, 2, 3].every((h) => starts.has(t + h * 60 * MIN)));
  if (first === undefined) throw new Error(`no four hourly slots in a row of ${service} after ${at(from)}`);
  return first;
}

/** `bookings create --file -` of one booking at `start` with the staff member and `bookedAddOns`: its id. */
async function bookWith(serviceId: string, start: number, bookedAddOns: unknown[]): Promise<string> {
  const booking = {
    bookedEntity: { slot: { serviceId, startDate: at(start), resource: { id: studio.staff[0] } } },
    contactDetails: { firstName: 'Extra', email: 'extra@example.com' },
    bookedAddOns,
  };
  const r = json(await cli(['bookings', 'create', '--file', '-', '--json'], { input: JSON.stringify(booking) }));
  expect(r.results[0], JSON.stringify(r)).toMatchObject({ status: 'CREATED' });
  return r.results[0].id;
}

describe('a duration add-on lengthens the booking', () => {
  it('ends later, takes the overlapping slots off the calendar and refuses a booking into them', async () => {
    const { service, addOn, group } = await serviceWithAddOn({ durationInMinutes: 30 });
    const t = await fourInARow(service.id);
    const id = await bookWith(service.id, t, [{ id: addOn, groupId: group }]);

    // 60 minutes and the add-on's 30: the booking and its slot end at t + 90.
    const got = json(await cli(['bookings', 'get', id, '--json']));
    expect(got.endDate).toBe(at(t + 90 * MIN));
    expect(got.bookedEntity.slot.endDate).toBe(at(t + 90 * MIN));
    expect(got.bookedAddOns).toEqual([expect.objectContaining({ id: addOn, groupId: group, durationInMinutes: 30 })]);

    // The slot at t + 60 overlaps the longer booking: not offered; the one at t + 120 is.
    const after = await listed(service.id, t, 4);
    expect(after).not.toContain(t);
    expect(after).not.toContain(t + 60 * MIN);
    expect(after).toContain(t + 120 * MIN);

    // A booking into the lengthened part is refused as any overlap is; at its end the staff member is free again.
    const into = await cli(['bookings', 'create', '--service', service.id, '--start', at(t + 60 * MIN), '--staff', studio.staff[0]!, '--email', 'late@example.com']);
    expect(into.code).not.toBe(0);
    expect(into.stderr).toMatch(new RegExp(`^error: staff member ${studio.staff[0]} is booked at .*\\(SLOT_NOT_AVAILABLE`));
    const next = await cli(['bookings', 'create', '--service', service.id, '--start', at(t + 90 * MIN), '--staff', studio.staff[0]!, '--email', 'next@example.com']);
    expect(next.code, next.stderr).toBe(0);
  });

  it('a quantity add-on changes no time; a duration add-on that would reach into a later booking is refused', async () => {
    const { service, addOn, group } = await serviceWithAddOn({ maxQuantity: 3 });
    const t = await fourInARow(service.id);
    const id = await bookWith(service.id, t, [{ id: addOn, groupId: group, quantity: 2 }]);
    const got = json(await cli(['bookings', 'get', id, '--json']));
    expect(got.endDate).toBe(at(t + 60 * MIN));
    expect(await listed(service.id, t, 4)).toContain(t + 60 * MIN);

    // A 90-minute add-on on a booking at t + 60 would reach t + 210, into a booking made at t + 180 first.
    const long = await serviceWithAddOn({ durationInMinutes: 90 });
    const u = await fourInARow(long.service.id);
    await bookWith(long.service.id, u + 180 * MIN, []);
    const refused = await cli(['bookings', 'create', '--file', '-', '--json'], {
      input: JSON.stringify({
        bookedEntity: { slot: { serviceId: long.service.id, startDate: at(u + 60 * MIN), resource: { id: studio.staff[0] } } },
        contactDetails: { email: 'long@example.com' },
        bookedAddOns: [{ id: long.addOn, groupId: long.group }],
      }),
    });
    const report = JSON.parse(refused.stdout);
    expect(report.results[0]).toMatchObject({ error: expect.stringMatching(/^SLOT_NOT_AVAILABLE: staff member .* is booked at /) });
    // Without the add-on the same slot is free.
    await bookWith(long.service.id, u + 60 * MIN, []);
  });
});
