/**
 * A booking's life through the official bookings module (`@wix/auto_sdk_bookings_bookings`) against a real emulator
 * on port 0 (docs/wire.md §9 revisions and statuses, §16 bookings, §25 participant notifications): create, confirm,
 * reschedule and cancel with the statuses and revisions the typings describe, decline, bulk create with its
 * per-item metadata, and a class booked for several participants. Setup: sdk-client.ts.
 */
import * as bookingPolicies from '@wix/auto_sdk_bookings_booking-policies';
import * as bookings from '@wix/auto_sdk_bookings_bookings';
import * as services from '@wix/auto_sdk_bookings_services';
import { describe, expect, it } from 'vitest';
import { apiKeyClient, outbox, studioSlot, useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-bookings');
const client = () => apiKeyClient(ctx, { bookings });
/** A studio slot as `createBooking` takes it (`bookedEntity.slot`). */
const slotOf = async (service: string) => (await studioSlot(ctx, service)) as bookings.BookedSlot & bookings.V2Slot & Record<string, unknown>;

describe('a booking through the official bookings module', () => {
  it('create -> confirm -> reschedule -> cancel: each status, a revision one higher each time, the new start, the notification asked for', async () => {
    const service = await ctx.studio.appointment();
    const c = client();
    const email = `sdk-life-${ctx.stamp()}@example.com`;
    const first = await slotOf(service.name);
    const created = (await c.bookings.createBooking({ bookedEntity: { slot: first }, contactDetails: { firstName: 'Life', email }, totalParticipants: 1 })).booking!;
    expect(created).toMatchObject({ status: 'CREATED', revision: '1', totalParticipants: 1, bookedEntity: { slot: { serviceId: service.id, startDate: first.startDate, endDate: first.endDate } } });
    expect(created._createdDate).toBeInstanceOf(Date);

    const confirmed = (await c.bookings.confirmBooking(created._id!, created.revision!, {})).booking!;
    expect(confirmed).toMatchObject({ _id: created._id, status: 'CONFIRMED', revision: '2' });

    const next = await slotOf(service.name);
    const moved = (await c.bookings.rescheduleBooking(created._id!, next, { revision: confirmed.revision!, participantNotification: { notifyParticipants: true, message: 'Moved to a later hour' } })).booking!;
    expect(moved.status).toBe('CONFIRMED');
    expect(moved.revision).toBe('3');
    expect(moved.bookedEntity?.slot).toMatchObject({ startDate: next.startDate, endDate: next.endDate });
    expect(moved.startDate?.toISOString()).toBe(next.startDate);
    expect(ctx.lastTo(`/_api/bookings-service/v2/bookings/${created._id}/reschedule`)?.body).toMatchObject({ revision: '2', slot: { startDate: next.startDate }, participantNotification: { notifyParticipants: true } });

    // The old slot is free again: the same start books anew.
    const again = await c.bookings.createBooking({ bookedEntity: { slot: { ...first, resource: moved.bookedEntity!.slot!.resource } }, contactDetails: { firstName: 'Again' } });
    expect(again.booking?.status).toBe('CREATED');

    // A stale revision is refused with the platform's error, the booking unchanged (docs/wire.md §9).
    await expect(c.bookings.cancelBooking(created._id!, { revision: '1' })).rejects.toMatchObject({ details: { applicationError: { code: 'REVISION_MISMATCH' } } });
    const canceled = (await c.bookings.cancelBooking(created._id!, { revision: moved.revision!, participantNotification: { notifyParticipants: true, message: 'Sorry, closed' } })).booking!;
    expect(canceled).toMatchObject({ status: 'CANCELED', revision: '4' });
    expect(ctx.lastTo(`/_api/bookings-service/v2/bookings/${created._id}/cancel`)?.body).toEqual({ bookingId: created._id, revision: '3', participantNotification: { notifyParticipants: true, message: 'Sorry, closed' } });
    const mail = (await outbox(ctx)).filter((m) => m.bookingId === created._id);
    expect(mail.map((m) => [m.action, m.to, m.message])).toEqual([
      ['rescheduled', email, 'Moved to a later hour'],
      ['canceled', email, 'Sorry, closed'],
    ]);

    // A canceled booking cannot be confirmed (the typings' ConfirmBookingApplicationErrors).
    await expect(c.bookings.confirmBooking(created._id!, canceled.revision!, {})).rejects.toMatchObject({ details: { applicationError: { code: 'INVALID_BOOKING_STATUS' } } });
  });

  it('decline: a booking marked as pending is DECLINED, its revision one higher; a declined one cannot be confirmed', async () => {
    const service = await ctx.studio.appointment({ requireManualApproval: true });
    const c = client();
    const created = (await c.bookings.createBooking({ bookedEntity: { slot: await slotOf(service.name) }, contactDetails: { firstName: 'Wait' } })).booking!;
    expect(created.status).toBe('CREATED');
    const made = (await c.bookings.markBookingAsPending(created._id!, created.revision!, {})).booking!;
    expect(made).toMatchObject({ status: 'PENDING', revision: '2' });
    const declined = (await c.bookings.declineBooking(made._id!, made.revision!, { participantNotification: { notifyParticipants: false } })).booking!;
    expect(declined).toMatchObject({ _id: made._id, status: 'DECLINED', revision: String(Number(made.revision) + 1) });
    expect(ctx.lastTo(`/_api/bookings-service/v2/bookings/${made._id}/decline`)?.method).toBe('POST');
    await expect(c.bookings.confirmBooking(made._id!, declined.revision!, {})).rejects.toMatchObject({ details: { applicationError: { code: 'INVALID_BOOKING_STATUS' } } });
    expect((await outbox(ctx)).filter((m) => m.bookingId === made._id)).toEqual([]);
  });

  it('bulkCreateBooking answers per item in order, with bulkActionMetadata; a bad item fails alone', async () => {
    const service = await ctx.studio.appointment();
    const c = client();
    const a = await slotOf(service.name);
    const b = await slotOf(service.name);
    const bad = { ...b, serviceId: '00000000-0000-4000-8000-000000000000' };
    const res = await c.bookings.bulkCreateBooking(
      [
        { booking: { bookedEntity: { slot: a }, contactDetails: { firstName: 'Bulk A' } } },
        { booking: { bookedEntity: { slot: bad }, contactDetails: { firstName: 'Bulk bad' } } },
        { booking: { bookedEntity: { slot: b }, contactDetails: { firstName: 'Bulk B' } } },
      ],
      { returnFullEntity: true },
    );
    expect(ctx.sent.at(-1)).toMatchObject({ method: 'POST', url: '/bookings/v2/bulk/bookings/create' });
    expect(res.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 1, undetailedFailures: 0 });
    expect(res.results!.map((r) => [r.itemMetadata?.originalIndex, r.itemMetadata?.success])).toEqual([
      [0, true],
      [1, false],
      [2, true],
    ]);
    expect(res.results![0]!.item).toMatchObject({ status: 'CREATED', bookedEntity: { slot: { startDate: a.startDate } } });
    expect(res.results![0]!.itemMetadata?._id).toBe(res.results![0]!.item?._id);
    expect(res.results![1]!.itemMetadata?.error?.code).toBe('SERVICE_NOT_FOUND');
    expect(res.results![2]!.item?.contactDetails?.firstName).toBe('Bulk B');
  });

  it("a class booked for 3 participants: the session 3 open spots fewer; past them its policy's waiting list, then a refusal", async () => {
    const klass = await ctx.studio.klass({ capacity: 4 });
    const c = apiKeyClient(ctx, { bookings, bookingPolicies, services });
    // The class's own policy (nothing of the demo's default one): up to 5 a booking, a waiting list of 2.
    const policy = await c.bookingPolicies.createBookingPolicy({ name: `Sdk class ${ctx.stamp()}`, participantsPolicy: { maxParticipantsPerBooking: 5 }, waitlistPolicy: { enabled: true, capacity: 2 } });
    const service = await c.services.getService(klass.id);
    await c.services.updateService(klass.id, { revision: service.revision!, bookingPolicy: { _id: policy._id! } });
    const slot = await slotOf(klass.name);
    const made = (await c.bookings.createBooking({ bookedEntity: { slot }, contactDetails: { firstName: 'Group of three' }, totalParticipants: 3 })).booking!;
    expect(made).toMatchObject({ totalParticipants: 3, status: 'CREATED', bookedEntity: { slot: { serviceId: klass.id, eventId: slot.eventId } } });
    const r = await ctx.emu.request('POST', '/_api/availability-calendar/v1/availability/query', { query: { filter: { serviceId: [klass.id], startDate: slot.startDate, endDate: slot.endDate } } });
    expect(r.body.availabilityEntries.find((e: { slot: { startDate: string } }) => e.slot.startDate === slot.startDate)).toMatchObject({ totalSpots: 4, openSpots: 1, waitingList: { totalSpots: 2, openSpots: 2 } });
    // More than the open spots, within the waiting list's room: the typings' WAITING_LIST status.
    const waiting = (await c.bookings.createBooking({ bookedEntity: { slot }, contactDetails: { firstName: 'Pair' }, totalParticipants: 2 })).booking!;
    expect(waiting).toMatchObject({ status: 'WAITING_LIST', totalParticipants: 2 });
    // The waiting list full too: refused with how many spots are left.
    await expect(c.bookings.createBooking({ bookedEntity: { slot }, contactDetails: { firstName: 'Too many' }, totalParticipants: 2 })).rejects.toMatchObject({ details: { applicationError: { code: 'SESSION_CAPACITY_EXCEEDED', data: { openSpots: 1 } } } });
  });
});
