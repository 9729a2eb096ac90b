/**
 * Availability, extended bookings and multi-service bookings through the official modules
 * (`@wix/auto_sdk_bookings_availability-calendar`, `-extended-bookings`, and the multi-service calls of
 * `-bookings`) against a real emulator on port 0 (docs/wire.md §15, §16, §17): the slots of a window, open spots
 * against capacity, a booking read back with its extended fields, and a multi-service booking created, read,
 * rescheduled and canceled, or marked pending and confirmed, or declined. Setup: sdk-client.ts.
 */
import * as attendance from '@wix/auto_sdk_bookings_attendance';
import * as availability from '@wix/auto_sdk_bookings_availability-calendar';
import * as bookings from '@wix/auto_sdk_bookings_bookings';
import * as extended from '@wix/auto_sdk_bookings_extended-bookings';
import { describe, expect, it } from 'vitest';
import { apiKeyClient, studioSlot, useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-schedule');
const client = () => apiKeyClient(ctx, { attendance, availability, bookings, extended });
const HOUR = 3_600_000;

describe('the availability calendar through the official module', () => {
  it("queryAvailability gives the service's slots inside the window only, each with the spots the typings describe", async () => {
    const service = await ctx.studio.appointment({ minutes: 60 });
    const from = ctx.studio.reserve(6);
    const to = new Date(Date.parse(from) + 6 * HOUR).toISOString();
    const c = client();
    const res = await c.availability.queryAvailability({ filter: { serviceId: [service.id], startDate: from, endDate: to } }, { timezone: 'UTC' });
    expect(ctx.sent.at(-1)?.body).toMatchObject({ query: { filter: { serviceId: [service.id], startDate: from, endDate: to } }, timezone: 'UTC' });
    const entries = res.availabilityEntries!;
    // Two staff members around the clock, hourly sessions: six starts each.
    expect(entries).toHaveLength(12);
    for (const e of entries) {
      expect(e.slot).toMatchObject({ serviceId: service.id });
      expect(Date.parse(e.slot!.startDate!)).toBeGreaterThanOrEqual(Date.parse(from));
      expect(Date.parse(e.slot!.endDate!)).toBeLessThanOrEqual(Date.parse(to));
      expect(Date.parse(e.slot!.endDate!) - Date.parse(e.slot!.startDate!)).toBe(HOUR);
      expect(e).toMatchObject({ bookable: true, totalSpots: 1, openSpots: 1 });
      expect(ctx.studio.staff).toContain(e.slot!.resource!._id);
    }
    expect(new Set(entries.map((e) => `${e.slot!.resource!._id} ${e.slot!.startDate}`)).size).toBe(12);

    // Booking one staff member's slot takes it: that entry has no open spot left; the other staff member's stays.
    const taken = entries[0]!;
    await c.bookings.createBooking({ bookedEntity: { slot: taken.slot as bookings.BookedSlot & bookings.V2Slot }, contactDetails: { firstName: 'Taker' } });
    const after = await c.availability.queryAvailability({ filter: { serviceId: [service.id], startDate: from, endDate: to } }, { timezone: 'UTC' });
    const same = after.availabilityEntries!.filter((e) => e.slot!.startDate === taken.slot!.startDate);
    const mine = same.find((e) => e.slot!.resource!._id === taken.slot!.resource!._id);
    expect(mine === undefined || (mine.openSpots === 0 && mine.bookable === false)).toBe(true);
    expect(same.some((e) => e.slot!.resource!._id !== taken.slot!.resource!._id && e.openSpots === 1)).toBe(true);
  });

  it("a class session: totalSpots is the class's capacity, and a booking for 2 leaves openSpots 2 fewer", async () => {
    const klass = await ctx.studio.klass({ capacity: 6 });
    const c = client();
    const window = { filter: { serviceId: [klass.id], startDate: klass.firstSession, endDate: new Date(Date.parse(klass.firstSession) + HOUR).toISOString() } };
    const [before] = (await c.availability.queryAvailability(window, { timezone: 'UTC' })).availabilityEntries!;
    expect(before).toMatchObject({ totalSpots: 6, openSpots: 6, bookable: true, slot: { serviceId: klass.id, startDate: klass.firstSession } });
    expect(before!.slot!.eventId).toMatch(/./);
    await c.bookings.createBooking({ bookedEntity: { slot: before!.slot as bookings.BookedSlot & bookings.V2Slot }, contactDetails: { firstName: 'Pair' }, totalParticipants: 2 });
    const [after] = (await c.availability.queryAvailability(window, { timezone: 'UTC' })).availabilityEntries!;
    expect(after).toMatchObject({ totalSpots: 6, openSpots: 4 });
  });
});

describe('extended bookings through the official module', () => {
  it("query finds the booking with its fields, its allowed actions, and its attendance only when asked; count agrees", async () => {
    const service = await ctx.studio.appointment();
    const slot = (await studioSlot(ctx, service.name)) as bookings.BookedSlot & bookings.V2Slot;
    const c = client();
    const email = `sdk-ext-${ctx.stamp()}@example.com`;
    const made = (await c.bookings.createBooking({ bookedEntity: { slot }, contactDetails: { firstName: 'Ext', lastName: 'Ended', email }, totalParticipants: 1 })).booking!;
    const res = await c.extended.query({ filter: { id: made._id } }, { withBookingAllowedActions: true, withBookingAttendanceInfo: true });
    expect(ctx.sent.at(-1)?.body).toMatchObject({ query: { filter: { id: made._id } }, withBookingAllowedActions: true, withBookingAttendanceInfo: true });
    expect(res.extendedBookings).toHaveLength(1);
    const [one] = res.extendedBookings!;
    expect(one!.booking).toMatchObject({ _id: made._id, status: 'CREATED', revision: made.revision, totalParticipants: 1, contactDetails: { firstName: 'Ext', lastName: 'Ended', email }, bookedEntity: { slot: { serviceId: service.id } } });
    expect(one!.booking!.startDate).toEqual(made.startDate);
    expect(one!.allowedActions).toMatchObject({ cancel: true, reschedule: true });
    // Asked before any is marked: the typings' NOT_SET ("no available attendance information").
    expect(one!.attendance?.status).toBe('NOT_SET');
    expect(await c.extended.countExtendedBookings({ filter: { id: made._id } })).toEqual({ count: 1 });

    // Attendance marked: the query shows it when asked, and only then.
    const marked = await c.attendance.setAttendance({ bookingId: made._id!, status: 'ATTENDED', numberOfAttendees: 1 });
    const [seen] = (await c.extended.query({ filter: { id: made._id } }, { withBookingAttendanceInfo: true })).extendedBookings!;
    expect(seen!.attendance).toMatchObject({ _id: marked.attendance!._id, status: 'ATTENDED', numberOfAttendees: 1 });
    const [unasked] = (await c.extended.query({ filter: { id: made._id } })).extendedBookings!;
    expect(unasked!.attendance).toBeUndefined();

    await c.bookings.cancelBooking(made._id!, { revision: made.revision! });
    const [gone] = (await c.extended.query({ filter: { id: made._id } }, { withBookingAllowedActions: true })).extendedBookings!;
    expect(gone!.booking).toMatchObject({ status: 'CANCELED', revision: String(Number(made.revision) + 1) });
    expect(gone!.allowedActions).toMatchObject({ cancel: false, reschedule: false });
    expect(await c.extended.countExtendedBookings({ filter: { id: made._id, status: 'CONFIRMED' } })).toEqual({ count: 0 });
  });
});

describe('multi-service bookings through the bookings module', () => {
  it('create, get, reschedule and cancel a sequential multi-service booking, each booking moving with it', async () => {
    const c = client();
    const chain = (await ctx.fx.freeChain()) as Array<bookings.BookedSlot & bookings.V2Slot>;
    const created = await c.bookings.createMultiServiceBooking(
      chain.map((slot) => ({ bookedEntity: { slot }, contactDetails: { firstName: 'Multi' } })) as never,
      { multiServiceBookingType: 'SEQUENTIAL_BOOKINGS', returnFullEntity: true },
    );
    const msb = created.multiServiceBooking!;
    expect(msb._id).toMatch(/./);
    expect(msb.bookings!).toHaveLength(2);
    for (const [i, r] of msb.bookings!.entries()) {
      expect(r.bookingId).toBe(r.booking!._id);
      expect(r.booking).toMatchObject({ status: 'CREATED', multiServiceBookingInfo: { _id: msb._id, type: 'SEQUENTIAL_BOOKINGS' } });
      expect(r.booking!.bookedEntity!.slot!.startDate).toBe(chain[i]!.startDate);
    }
    // Back to back: the second starts where the first ends.
    expect(msb.bookings![1]!.booking!.bookedEntity!.slot!.startDate).toBe(msb.bookings![0]!.booking!.bookedEntity!.slot!.endDate);

    const got = await c.bookings.getMultiServiceBooking(msb._id!);
    expect(got.bookings!.map((r) => r.bookingId)).toEqual(msb.bookings!.map((r) => r.bookingId));

    const later = (await ctx.fx.freeChain()) as Array<bookings.BookedSlot & bookings.V2Slot>;
    const moved = await c.bookings.rescheduleMultiServiceBooking(
      msb._id!,
      msb.bookings!.map((r, i) => ({ bookingId: r.bookingId!, revision: r.booking!.revision!, slot: later[i]! })) as never,
      { returnFullEntity: true },
    );
    expect(moved.multiServiceBooking!.bookings!.map((r) => r.booking!.bookedEntity!.slot!.startDate)).toEqual(later.map((s) => s.startDate));
    expect(moved.multiServiceBooking!.bookings!.map((r) => r.booking!.revision)).toEqual(msb.bookings!.map((r) => String(Number(r.booking!.revision) + 1)));

    const canceled = await c.bookings.cancelMultiServiceBooking(msb._id!, { returnFullEntity: true, flowControlSettings: { ignoreCancellationPolicy: true } });
    expect(canceled.multiServiceBooking!.bookings!.map((r) => r.booking!.status)).toEqual(['CANCELED', 'CANCELED']);
    const after = await c.extended.countExtendedBookings({ filter: { id: { $in: msb.bookings!.map((r) => r.bookingId) }, status: 'CANCELED' } });
    expect(after.count).toBe(2);
  });

  it('markMultiServiceBookingAsPending, then confirm: every booking of it PENDING, then CONFIRMED; another declined: DECLINED', async () => {
    const c = client();
    const make = async () => {
      const chain = (await ctx.fx.freeChain()) as Array<bookings.BookedSlot & bookings.V2Slot>;
      const made = await c.bookings.createMultiServiceBooking(chain.map((slot) => ({ bookedEntity: { slot }, contactDetails: { firstName: 'Multi' } })) as never, { multiServiceBookingType: 'SEQUENTIAL_BOOKINGS', returnFullEntity: true });
      return made.multiServiceBooking!;
    };
    const infoOf = (m: bookings.MultiServiceBooking) => m.bookings!.map((r) => ({ bookingId: r.bookingId!, revision: r.booking!.revision! }));
    const statuses = (m: bookings.MultiServiceBooking | undefined) => m!.bookings!.map((r) => r.booking!.status);

    const one = await make();
    const pending = await c.bookings.markMultiServiceBookingAsPending(one._id!, { markAsPendingBookingsInfo: infoOf(one), returnFullEntity: true, flowControlSettings: { skipPendingApprovalServiceValidation: true } });
    expect(statuses(pending.multiServiceBooking)).toEqual(['PENDING', 'PENDING']);
    const confirmed = await c.bookings.confirmMultiServiceBooking(one._id!, { confirmBookingsInfo: infoOf(pending.multiServiceBooking!), returnFullEntity: true });
    expect(statuses(confirmed.multiServiceBooking)).toEqual(['CONFIRMED', 'CONFIRMED']);

    const two = await make();
    const declined = await c.bookings.declineMultiServiceBooking(two._id!, { declineBookingsInfo: infoOf(two), returnFullEntity: true });
    expect(statuses(declined.multiServiceBooking)).toEqual(['DECLINED', 'DECLINED']);
  });
});
