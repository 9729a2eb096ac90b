/**
 * The official Time Slots module (`@wix/auto_sdk_bookings_availability-time-slots`) against a real emulator on
 * port 0 (docs/contracts.md "The official SDK as the reference"; docs/wire.md "Time slots"), beside the official
 * availability calendar module: for the same window both give the same starts and capacities (and the time slot's
 * free staff are the calendar's staff at that start); a booking made through the bookings module takes a staff
 * member out of a time slot and the second one leaves it with no capacity; the cursor pages the list, a follow-up
 * sending only the cursor; the module's filters and errors. The studio's staff work around the clock and the
 * emulator's clock is frozen, so the verdict is the same at any hour, day and zone.
 */
import * as calendar from '@wix/auto_sdk_bookings_availability-calendar';
import * as timeSlots from '@wix/auto_sdk_bookings_availability-time-slots';
import * as bookingPolicies from '@wix/auto_sdk_bookings_booking-policies';
import * as bookings from '@wix/auto_sdk_bookings_bookings';
import * as services from '@wix/auto_sdk_bookings_services';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeStudio, runInProcess, startTestEmulator, type TestEmulator } from '../../helpers/index.js';
import type { Studio } from '../../helpers/studio.js';

let emu: TestEmulator;
let studio: Studio;
/** A 30-minute appointment both studio staff members give. */
let service: { id: string; name: string };
const realFetch = globalThis.fetch;
/** The paths the SDK called, as the emulator received them. */
const sent: string[] = [];
const HOUR = 3_600_000;
const PLATFORM = /^https:\/\/www\.wixapis\.com(?=\/)/;

/** The platform's host rewritten to the emulator's origin (the SDK's module calls go through the global fetch). */
async function toEmulator(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const original = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
  if (original.startsWith(`${emu.url}/`)) return realFetch(input, init);
  if (!PLATFORM.test(original)) throw new Error(`the SDK called ${original}, not the platform's host`);
  const url = original.replace(PLATFORM, emu.url);
  sent.push(new URL(url).pathname);
  return realFetch(new Request(url, input instanceof Request ? input : init));
}

const client = () => createClient({ auth: ApiKeyStrategy({ apiKey: emu.apiKey, siteId: emu.siteId }), modules: { timeSlots, calendar, bookings, bookingPolicies, services } });
/** `YYYY-MM-DDThh:mm:ss` of an instant in UTC (the requests below ask for UTC). */
const local = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const instant = (localDate: string | null | undefined) => Date.parse(`${localDate}Z`);
const staffOf = (slot: timeSlots.TimeSlot) => (slot.availableResources ?? []).flatMap((r) => (r.resources ?? []).map((x) => x._id)).sort();

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
  await emu.request('PUT', '/__emulator/clock', { frozen: true });
  studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, ...o }), 'sdk-time-slots');
  service = await studio.appointment({ minutes: 30 });
  vi.stubGlobal('fetch', toEmulator);
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await emu?.close();
});

describe('the official Time Slots module against the emulator', () => {
  it('gives the starts, capacities and free staff of the availability calendar for the same window', async () => {
    const c = client();
    const from = Date.parse(studio.reserve(12));
    const to = from + 12 * HOUR;
    const listed = await c.timeSlots.listAvailabilityTimeSlots({
      serviceId: service.id,
      fromLocalDate: local(from),
      toLocalDate: local(to),
      timeZone: 'UTC',
      resourceTypes: [{ resourceIds: studio.staff }],
    });
    expect(sent.at(-1)).toBe('/_api/service-availability/v2/time-slots');
    expect(listed.timeZone).toBe('UTC');
    // The calendar lists slots that end by its end date: 30 minutes more, then only those starting before `to`.
    const { availabilityEntries = [] } = await c.calendar.queryAvailability({ filter: { serviceId: [service.id], startDate: new Date(from).toISOString(), endDate: new Date(to + 30 * 60_000).toISOString() } }, { timezone: 'UTC' });
    const byStart = new Map<number, string[]>();
    for (const e of availabilityEntries) {
      const start = Date.parse(e.slot!.startDate!);
      if (start >= to) continue;
      byStart.set(start, [...(byStart.get(start) ?? []), e.slot!.resource!._id!].sort());
      expect(e.openSpots).toBe(1);
    }
    expect(listed.timeSlots!.length).toBe(24);
    expect(listed.timeSlots!.map((s) => instant(s.localStartDate))).toEqual([...byStart.keys()]);
    for (const s of listed.timeSlots!) {
      expect(s).toMatchObject({ serviceId: service.id, totalCapacity: 1, remainingCapacity: 1, bookableCapacity: 1, bookable: true, location: { locationType: 'BUSINESS' } });
      expect(instant(s.localEndDate) - instant(s.localStartDate)).toBe(30 * 60_000);
      expect(staffOf(s)).toEqual(byStart.get(instant(s.localStartDate)));
    }
  });

  it('a booking takes its staff member out of the time slot; the second leaves it with no capacity, and the list leaves it out', async () => {
    const c = client();
    const from = Date.parse(studio.reserve(3));
    const { availabilityEntries = [] } = await c.calendar.queryAvailability({ filter: { serviceId: [service.id], startDate: new Date(from).toISOString(), endDate: new Date(from + 3 * HOUR).toISOString() } }, { timezone: 'UTC' });
    const start = availabilityEntries[0]!.slot!.startDate!;
    const atStart = availabilityEntries.filter((e) => e.slot!.startDate === start);
    expect(atStart).toHaveLength(2);
    const get = () => c.timeSlots.getAvailabilityTimeSlot(service.id, local(Date.parse(start)), local(Date.parse(start) + 30 * 60_000), 'UTC', { locationType: 'BUSINESS' });
    const before = await get();
    expect(sent.at(-1)).toBe('/_api/service-availability/v2/time-slots/get');
    expect(before.timeSlot).toMatchObject({ remainingCapacity: 1, bookable: true, nonBookableReasons: { noRemainingCapacity: false } });
    expect(staffOf(before.timeSlot!)).toEqual([...studio.staff].sort());

    const book = (slot: unknown, email: string) => c.bookings.createBooking({ bookedEntity: { slot: slot as never }, contactDetails: { firstName: 'Slots', email }, totalParticipants: 1 });
    await book(atStart[0]!.slot, 'slots1@example.com');
    const once = await get();
    expect(once.timeSlot).toMatchObject({ remainingCapacity: 1, bookable: true });
    expect(staffOf(once.timeSlot!)).toEqual([atStart[1]!.slot!.resource!._id]);

    await book(atStart[1]!.slot, 'slots2@example.com');
    const full = await get();
    expect(full.timeSlot).toMatchObject({ totalCapacity: 1, remainingCapacity: 0, bookableCapacity: 0, bookable: false, nonBookableReasons: { noRemainingCapacity: true } });
    expect(staffOf(full.timeSlot!)).toEqual([]);
    const listed = await c.timeSlots.listAvailabilityTimeSlots({ serviceId: service.id, fromLocalDate: local(from), toLocalDate: local(from + 3 * HOUR), timeZone: 'UTC' });
    expect(listed.timeSlots!.map((s) => s.localStartDate)).not.toContain(local(Date.parse(start)));
  });

  it('pages with the cursor: a follow-up sends only cursorPaging, and the pages make the whole list', async () => {
    const c = client();
    const from = Date.parse(studio.reserve(12));
    const query = { serviceId: service.id, fromLocalDate: local(from), toLocalDate: local(from + 12 * HOUR), timeZone: 'UTC' };
    const whole = await c.timeSlots.listAvailabilityTimeSlots(query);
    expect(whole.timeSlots).toHaveLength(24);
    expect(whole.cursorPagingMetadata).toMatchObject({ hasNext: false, cursors: { next: null } });
    const pages: timeSlots.TimeSlot[][] = [];
    let page = await c.timeSlots.listAvailabilityTimeSlots({ ...query, cursorPaging: { limit: 10 } });
    pages.push(page.timeSlots!);
    while (page.cursorPagingMetadata?.hasNext) {
      page = await c.timeSlots.listAvailabilityTimeSlots({ cursorPaging: { cursor: page.cursorPagingMetadata.cursors!.next!, limit: 10 } });
      pages.push(page.timeSlots!);
    }
    expect(pages.map((p) => p.length)).toEqual([10, 10, 4]);
    expect(pages.flat()).toEqual(whole.timeSlots);
  });

  it("filters as the module describes: bookable, the policy's violations, timeSlotsPerDay, resourceTypes; and a zone of the request", async () => {
    const c = client();
    const from = Date.parse(studio.reserve(48));
    const query = { serviceId: service.id, fromLocalDate: local(from), toLocalDate: local(from + 48 * HOUR), timeZone: 'UTC' };
    expect((await c.timeSlots.listAvailabilityTimeSlots({ ...query, bookable: false })).timeSlots).toEqual([]);
    expect((await c.timeSlots.listAvailabilityTimeSlots({ ...query, bookingPolicyViolations: { tooLateToBook: true } })).timeSlots).toEqual([]);
    const perDay = await c.timeSlots.listAvailabilityTimeSlots({ ...query, timeSlotsPerDay: 2 });
    const days = new Map<string, number>();
    for (const s of perDay.timeSlots!) days.set(s.localStartDate!.slice(0, 10), (days.get(s.localStartDate!.slice(0, 10)) ?? 0) + 1);
    expect([...days.values()].every((n) => n <= 2)).toBe(true);
    expect(days.size).toBeGreaterThanOrEqual(2);
    const one = await c.timeSlots.listAvailabilityTimeSlots({ ...query, resourceTypes: [{ resourceIds: [studio.staff[1]!] }] });
    expect(one.timeSlots!.length).toBeGreaterThan(0);
    for (const s of one.timeSlots!) expect(staffOf(s)).toEqual([studio.staff[1]]);
    // The same window asked on Tokyo's clock: the same instants, nine hours later on the clock.
    const tokyo = await c.timeSlots.listAvailabilityTimeSlots({ ...query, fromLocalDate: local(from + 9 * HOUR), toLocalDate: local(from + 57 * HOUR), timeZone: 'Asia/Tokyo' });
    expect(tokyo.timeZone).toBe('Asia/Tokyo');
    expect(tokyo.timeSlots!.map((s) => instant(s.localStartDate) - 9 * HOUR)).toEqual((await c.timeSlots.listAvailabilityTimeSlots(query)).timeSlots!.map((s) => instant(s.localStartDate)));
  });

  it("a booking policy's early limit: too early to book, with the earliest booking date, and the tooEarlyToBook filter", async () => {
    const c = client();
    const own = await studio.appointment({ minutes: 30 });
    // Bookable at most a day ahead: every slot of a window two days out is too early, bookable 24 hours before it starts.
    const policy = await c.bookingPolicies.createBookingPolicy({ name: `Time slots a day ahead ${own.id.slice(0, 8)}`, limitEarlyBookingPolicy: { enabled: true, earliestBookingInMinutes: 24 * 60 } });
    const current = await c.services.getService(own.id);
    await c.services.updateService(own.id, { revision: current.revision!, bookingPolicy: { _id: policy._id! } });
    const from = Date.parse(studio.reserve(2));
    const query = { serviceId: own.id, fromLocalDate: local(from), toLocalDate: local(from + 2 * HOUR), timeZone: 'UTC' };
    const listed = await c.timeSlots.listAvailabilityTimeSlots(query);
    expect(listed.timeSlots).toHaveLength(4);
    for (const s of listed.timeSlots!) {
      expect(s).toMatchObject({ bookable: false, remainingCapacity: 1, bookingPolicyViolations: { tooEarlyToBook: true, tooLateToBook: false }, nonBookableReasons: { violatesBookingPolicy: true, noRemainingCapacity: false } });
      // The module turns the wire's ISO instant into a Date.
      expect(s.bookingPolicyViolations!.earliestBookingDate).toEqual(new Date(instant(s.localStartDate) - 24 * HOUR));
    }
    expect((await c.timeSlots.listAvailabilityTimeSlots({ ...query, bookingPolicyViolations: { tooEarlyToBook: false } })).timeSlots).toEqual([]);
    expect((await c.timeSlots.listAvailabilityTimeSlots({ ...query, bookable: false })).timeSlots).toHaveLength(4);
  });

  it("answers the module's errors: SERVICE_NOT_FOUND, SLOT_NOT_FOUND, END_OPTIONS_NOT_SUPPORTED, a class refused", async () => {
    const c = client();
    const from = Date.parse(studio.reserve(2));
    const unknown = '00000000-0000-4000-8000-000000000000';
    await expect(c.timeSlots.listAvailabilityTimeSlots({ serviceId: unknown, fromLocalDate: local(from), toLocalDate: local(from + HOUR) })).rejects.toMatchObject({ details: { applicationError: { code: 'SERVICE_NOT_FOUND' } } });
    // Ten minutes past a start: on no grid of the service.
    await expect(c.timeSlots.getAvailabilityTimeSlot(service.id, local(from + 10 * 60_000), local(from + 40 * 60_000), 'UTC', { locationType: 'BUSINESS' })).rejects.toMatchObject({ details: { applicationError: { code: 'SLOT_NOT_FOUND' } } });
    await expect(c.timeSlots.listAvailabilityTimeSlotEndOptions(service.id, { localStartDate: local(from), location: { locationType: 'BUSINESS' } })).rejects.toMatchObject({ details: { applicationError: { code: 'END_OPTIONS_NOT_SUPPORTED' } } });
    const klass = await studio.klass();
    // The module names the field by its own argument (`options.serviceId`: its transformError maps the wire's `serviceId`).
    await expect(c.timeSlots.listAvailabilityTimeSlots({ serviceId: klass.id, fromLocalDate: local(from), toLocalDate: local(from + HOUR) })).rejects.toMatchObject({ details: { validationError: { fieldViolations: [{ field: 'options.serviceId' }] } } });
  });
});
