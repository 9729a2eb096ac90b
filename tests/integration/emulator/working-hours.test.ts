/**
 * Working hours on the wire (calendar events of a staff member's schedule) and the staff writes' rules, against
 * the emulator's HTTP API: a staff member on the business's default hours takes no hours of its own until its
 * own schedule is assigned; the business's hours cannot be changed; overlapping hours are refused; cancelling
 * an event removes its hours; the default hours come back with assignWorkingHoursSchedule; a stale revision,
 * a second connect and a disconnect of an unconnected staff member are refused, nothing changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 0, bookings: 0 });
});
afterAll(async () => {
  await emu?.close();
});

const S = '/bookings/v1/staff-members';
const E = '/calendar/v3/events';
const monday = (from: string, to: string, scheduleId: string) => ({
  event: { scheduleId, type: 'WORKING_HOURS', start: { localDate: `2030-01-07T${from}:00` }, end: { localDate: `2030-01-07T${to}:00` }, recurrenceRule: { frequency: 'WEEKLY', days: ['MONDAY'] } },
});
const hoursOf = async (scheduleId: string) =>
  ((await emu.request('POST', `${E}/query`, { recurrenceType: ['MASTER'], query: { filter: { scheduleId } } })).body.events as Array<{ id: string; start: { localDate: string } }>).map((e) => e.start.localDate.slice(11, 16));

describe('working hours and staff rules', () => {
  it('own hours need the own schedule; the business hours stay; overlaps refused; cancel and reassign', async () => {
    const created = await emu.request('POST', S, { staffMember: { name: 'Hours Test', email: 'hours@example.com' }, fields: ['RESOURCE_DETAILS'] });
    expect(created.status).toBe(200);
    const staff = created.body.staffMember;
    const own: string = staff.resource.eventsSchedule.id;
    const business: string = staff.resource.workingHoursSchedules[0].id;
    expect(staff.resource).toMatchObject({ usesDefaultWorkingHours: true, workingHoursSchedules: [{ id: business, shared: true }] });
    expect(await hoursOf(business)).toEqual(['09:00', '09:00', '09:00', '09:00', '09:00']);

    const seq = await lastEventSeq(emu);
    expect((await emu.request('POST', E, monday('09:00', '12:00', own))).status).toBe(428);
    expect((await emu.request('POST', E, monday('09:00', '12:00', business))).status).toBe(428);
    expect(await lastEventSeq(emu)).toBe(seq);

    const assigned = await emu.request('POST', `${S}/${staff.id}/assign-custom-schedule`, { staffMemberId: staff.id, scheduleId: own, fields: ['RESOURCE_DETAILS'] });
    expect(assigned.body.staffMember.resource).toMatchObject({ usesDefaultWorkingHours: false, workingHoursSchedules: [{ id: own }] });
    expect(await hoursOf(own)).toEqual([]);
    const first = await emu.request('POST', E, monday('09:00', '12:00', own));
    expect(first.status).toBe(200);
    const overlap = await emu.request('POST', E, monday('11:00', '13:00', own));
    expect([overlap.status, overlap.body.details?.applicationError?.code]).toEqual([409, 'OVERLAPPING_WORKING_HOURS']);
    expect((await emu.request('POST', E, monday('13:00', '17:00', own))).status).toBe(200);
    expect(await hoursOf(own)).toEqual(['09:00', '13:00']);
    const cancelled = await emu.request('POST', `${E}/${first.body.event.id}/cancel`, { eventId: first.body.event.id });
    expect(cancelled.body.event.status).toBe('CANCELLED');
    expect(await hoursOf(own)).toEqual(['13:00']);

    const back = await emu.request('POST', `${S}/${staff.id}/assign-working-hours-schedule`, { staffMemberId: staff.id, scheduleId: business, fields: ['RESOURCE_DETAILS'] });
    expect(back.body.staffMember.resource.usesDefaultWorkingHours).toBe(true);
    expect(await hoursOf(own)).toEqual([]);
  });

  it('a stale revision, a second connect and a disconnect of an unconnected staff member change nothing', async () => {
    const staff = (await emu.request('POST', S, { staffMember: { name: 'Rules Test', email: 'rules@example.com' } })).body.staffMember;
    const seq = await lastEventSeq(emu);
    const stale = await emu.request('PATCH', `${S}/${staff.id}`, { staffMember: { id: staff.id, revision: '7', name: 'Renamed' } });
    expect([stale.status, stale.body.details?.applicationError?.code]).toEqual([409, 'REVISION_MISMATCH']);
    expect((await emu.request('POST', `${S}/${staff.id}/disconnect-staff-member-from-user`, { staffMemberId: staff.id })).status).toBe(428);
    expect(await lastEventSeq(emu)).toBe(seq);
    expect((await emu.request('POST', `${S}/${staff.id}/connect-staff-member-to-user`, { staffMemberId: staff.id })).status).toBe(200);
    const again = await emu.request('POST', `${S}/${staff.id}/connect-staff-member-to-user`, { staffMemberId: staff.id });
    expect([again.status, again.body.details?.applicationError?.code]).toEqual([409, 'STAFF_MEMBER_ALREADY_CONNECTED']);
    expect((await emu.request('GET', `${S}/${staff.id}`)).body.staffMember.name).toBe('Rules Test');
  });
});
