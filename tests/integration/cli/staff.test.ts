/**
 * `sitectl staff` as a back office uses it, in process against a real emulator on port 0: a staff member is
 * created (it works the default hours), given hours of its own, offered by availability for a service it is
 * assigned to, booked, and deleted (its future slots gone, it left the service, its booking listed and kept),
 * each write recorded as the seed's dotted staff events. Bad input exits 2 with one line before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startTestEmulator, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { eventsAfter, lastEventSeq } from '../bulk/support.js';
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


/**
 * The bookable slots of `serviceId` over the next two weeks, with the staff member of each: bookable, so the first
 * of them can be booked at any hour (not one starting within the hour the policy keeps from booking).
 */
async function slotsOf(serviceId: string): Promise<Array<{ start: string; staffId: string }>> {
  const r = await cli(['availability', serviceId, '--days', '14', '--bookable', '--json']);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return json(r).map((s: any) => ({ start: s.slot?.startDate ?? s.startDate, staffId: s.slot?.resource?.id ?? s.resource?.id }));
}

describe('staff', () => {
  it('create, hours, availability, booking, delete: slots go, the service lets go, the booking is listed, events recorded', async () => {
    const seq = await lastEventSeq(emu);
    const created = json(await cli(['staff', 'create', '--name', 'Dana Staff', '--email', 'dana@example.com', '--phone', '+1 415 555 0111', '--json']));
    expect(created).toMatchObject({ name: 'Dana Staff', email: 'dana@example.com', resource: { usesDefaultWorkingHours: true } });
    const id: string = created.id;

    // A new staff member works the business's default hours: MON-FRI 09:00-17:00.
    const defaults = json(await cli(['staff', 'hours', 'show', id, '--json']));
    expect(defaults.map((h: { day: string; from: string; to: string }) => `${h.day} ${h.from}-${h.to}`)).toEqual(['MON 09:00-17:00', 'TUE 09:00-17:00', 'WED 09:00-17:00', 'THU 09:00-17:00', 'FRI 09:00-17:00']);

    // A service this staff member alone gives.
    const svc = await emu.request('POST', '/bookings/v2/services', {
      service: { name: 'Staff Test Session', type: 'APPOINTMENT', staffMemberIds: [id], schedule: { availabilityConstraints: { durations: [{ minutes: 60 }], sessionDurations: [60], timeBetweenSessions: 0 } } },
    });
    expect(svc.status, JSON.stringify(svc.body)).toBe(200);
    const serviceId: string = svc.body.service.id;
    const zone = 'America/Los_Angeles'; // the demo site's default business location's zone: hours are on its clock
    const weekday = (iso: string) => new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: zone }).format(new Date(iso)).toUpperCase();
    const before = await slotsOf(serviceId);
    expect(before.length).toBeGreaterThan(0);
    expect(new Set(before.map((s) => weekday(s.start)))).toEqual(new Set(['MON', 'TUE', 'WED', 'THU', 'FRI']));

    // Own hours: Saturday added, Monday off; the other days keep the default hours.
    const set = json(await cli(['staff', 'hours', 'set', 'dana staff', '--day', 'sat', '--from', '10:00', '--to', '14:00', '--json']));
    expect(set.map((h: { day: string; from: string; to: string }) => `${h.day} ${h.from}-${h.to}`)).toEqual([
      'MON 09:00-17:00', 'TUE 09:00-17:00', 'WED 09:00-17:00', 'THU 09:00-17:00', 'FRI 09:00-17:00', 'SAT 10:00-14:00',
    ]);
    expect((await cli(['staff', 'hours', 'set', id, '--day', 'mon', '--off'])).code).toBe(0);
    expect(json(await cli(['staff', 'get', id, '--json', 'resource'])).resource.usesDefaultWorkingHours).toBe(false);
    const slots = await slotsOf(serviceId);
    const days = new Set(slots.map((s) => weekday(s.start)));
    expect(days.has('SAT')).toBe(true);
    expect(days.has('MON')).toBe(false);
    expect(slots.every((s) => s.staffId === id)).toBe(true);
    const saturday = slots.filter((s) => weekday(s.start) === 'SAT');
    const clock = (iso: string) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: zone }).format(new Date(iso));
    expect(saturday.length).toBeGreaterThan(0);
    expect(saturday.every((s) => ['10:00', '11:00', '12:00', '13:00'].includes(clock(s.start)))).toBe(true);

    // Booked through the CLI at its first Saturday slot.
    const booked = json(await cli(['bookings', 'create', '--service', serviceId, '--start', saturday[0]!.start, '--email', 'guest@example.com', '--json']));
    expect(booked.bookedEntity.slot.resource.id).toBe(id);

    // Delete without --yes off a terminal: refused before anything changes.
    expectError(await cli(['staff', 'delete', id]), 2, /needs confirmation/);

    const quiet = await lastEventSeq(emu);
    const dry = json(await cli(['staff', 'delete', id, '--dry-run', '--json']));
    expect(dry).toMatchObject({ id, deleted: false });
    expect(dry.bookings.map((b: { id: string }) => b.id)).toEqual([booked.id]);
    expect(await lastEventSeq(emu)).toBe(quiet);

    const deleted = json(await cli(['staff', 'delete', id, '--yes', '--json']));
    expect(deleted).toMatchObject({ id, deleted: true });
    expect(deleted.bookings.map((b: { id: string }) => b.id)).toEqual([booked.id]);
    // The booking stays as it was; the service no longer lists the staff member, so no slot is offered.
    const after = json(await cli(['bookings', 'get', booked.id, '--json', 'id,status']));
    expect(after.status).toBe(booked.status);
    expect((await emu.request('GET', `/bookings/v2/services/${serviceId}`)).body.service.staffMemberIds ?? []).toEqual([]);
    expect(await slotsOf(serviceId)).toEqual([]);
    expectError(await cli(['staff', 'get', id]), 2, /no staff member/);

    const events = (await eventsAfter(emu, seq)).filter((e) => e.type.startsWith('staff.') || e.type.startsWith('service.'));
    const staffEvents = events.filter((e) => e.entityId === id).map((e) => e.type);
    expect(staffEvents[0]).toBe('staff.created');
    expect(staffEvents[1]).toBe('staff.fully_created');
    expect(staffEvents).toContain('staff.updated');
    expect(staffEvents.at(-1)).toBe('staff.deleted');
    expect(events.filter((e) => e.entityId === serviceId).map((e) => e.type)).toEqual(['service.created', 'service.updated']);
  });

  it('update, connect and disconnect, each recorded; list and get show them', async () => {
    const id = (await cli(['staff', 'create', '--name', 'Eli Staff', '--email', 'eli@example.com'])).stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const seq = await lastEventSeq(emu);
    const updated = json(await cli(['staff', 'update', 'Eli Staff', '--description', 'Deep tissue', '--phone', '', '--json']));
    expect(updated).toMatchObject({ id, description: 'Deep tissue', revision: '2' });
    expect(updated.phone ?? undefined).toBeUndefined();
    const connected = json(await cli(['staff', 'connect', id, '--json']));
    expect(connected.associatedWixIdentity).toMatchObject({ connection: { status: 'CONNECTED' } });
    expectError(await cli(['staff', 'connect', id]), 1, /already connected/);
    const listed = (await cli(['staff', 'list', '--where', 'name=Eli Staff'])).stdout.trim().split('\t');
    expect(listed[0]).toBe(id);
    expect(listed).toContain('connected');
    const disconnected = json(await cli(['staff', 'disconnect', id, '--json']));
    expect(disconnected.associatedWixIdentity).toBeUndefined();
    const again = await cli(['staff', 'disconnect', id]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/connected to no user already/);
    const types = (await eventsAfter(emu, seq)).filter((e) => e.entityId === id).map((e) => e.type);
    expect(types).toEqual(['staff.updated', 'staff.connected', 'staff.disconnected']);
  });

  it('bad input: one line, exit 2, nothing sent', async () => {
    const seq = await lastEventSeq(emu);
    const staff = json(await cli(['staff', 'list', '--limit', '1', '--json', 'id']))[0].id;
    expectError(await cli(['staff', 'hours', 'set', staff, '--day', 'funday', '--from', '09:00', '--to', '17:00']), 2, /--day: unknown day 'funday'/);
    expectError(await cli(['staff', 'hours', 'set', staff, '--day', 'mon', '--from', '17:00', '--to', '09:00']), 2, /--from 17:00 must be before --to 09:00/);
    expectError(await cli(['staff', 'hours', 'set', staff, '--day', 'mon', '--from', '25:00', '--to', '26:00']), 2, /--from: '25:00' is not a time of day/);
    expectError(await cli(['staff', 'hours', 'set', staff, '--from', '09:00', '--to', '17:00']), 2, /--day is required/);
    expectError(await cli(['staff', 'hours', 'set', '', '--day', 'mon', '--from', '09:00', '--to', '17:00']), 2, /<staff> is empty/);
    expectError(await cli(['staff', 'get', '']), 2, /<staff> is empty/);
    expectError(await cli(['staff', 'delete', ' ', '--yes']), 2, /<staff> is empty/);
    expectError(await cli(['staff', 'create', '--email', 'x@example.com']), 2, /needs --name/);
    expectError(await cli(['staff', 'create', '--name', 'x'.repeat(41)]), 2, /--name: at most 40 characters/);
    expectError(await cli(['staff', 'create', '--name', 'Bad Mail', '--email', 'nope']), 2, /--email: 'nope' is not an e-mail address/);
    expectError(await cli(['staff', 'update', staff]), 2, /nothing to change/);
    expect(await lastEventSeq(emu)).toBe(seq);
  });
});
