/**
 * The cancellation and reschedule rules of booking policies through the official client (docs/wire.md §14, its
 * cancel and reschedule windows): `@wix/auto_sdk_bookings_booking-policies` makes the policy,
 * `@wix/auto_sdk_bookings_services` attaches it, `@wix/auto_sdk_bookings_bookings` books, cancels and
 * reschedules, against a real emulator on port 0 (the SDK's requests to the platform's host rewritten to the
 * emulator's origin; setup: sdk-client.ts). Each test makes its own policy, service and bookings; the windows
 * are measured on the emulator's clock (the studio's `soon` slots start 2 to 20 hours ahead, its other slots two
 * days or more ahead), so the verdict is the same at any hour.
 */
import * as bookingPolicies from '@wix/auto_sdk_bookings_booking-policies';
import * as bookings from '@wix/auto_sdk_bookings_bookings';
import * as services from '@wix/auto_sdk_bookings_services';
import { describe, expect, it } from 'vitest';
import type { StudioSlot } from '../../helpers/studio.js';
import { apiKeyClient, useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-rules-policies', { bookings: 0 });
const client = () => apiKeyClient(ctx, { bookingPolicies, bookings, services });
let made = 0;

/** A new appointment service on a new policy created through the SDK with `rules`: the service's name. */
async function serviceOn(rules: Omit<bookingPolicies.BookingPolicy, '_id'>): Promise<{ name: string; policy: bookingPolicies.BookingPolicy }> {
  const c = client();
  const policy = await c.bookingPolicies.createBookingPolicy({ name: `Sdk window ${++made}`, ...rules });
  const s = await ctx.studio.appointment();
  const service = await c.services.getService(s.id);
  await c.services.updateService(s.id, { revision: service.revision!, bookingPolicy: { _id: policy._id! } });
  return { name: s.name, policy };
}

/** A booking of `slot` through the SDK: its id and revision. */
async function book(slot: StudioSlot): Promise<{ id: string; revision: string }> {
  const { booking } = await client().bookings.createBooking({ bookedEntity: { slot: slot as never }, contactDetails: { firstName: 'Sdk', email: 'sdk-window@example.com' } });
  return { id: booking!._id!, revision: booking!.revision! };
}

const violation = { details: { applicationError: { code: 'BOOKING_POLICY_VIOLATION' } } };

describe('cancellationPolicy', () => {
  it('on, with limitLatestCancellation: cancelBooking inside the window is refused (428 BOOKING_POLICY_VIOLATION), outside it done; ignoreCancellationPolicy lifts it', async () => {
    const s = await serviceOn({ cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 1440 } });
    const c = client();
    const inside = await book(await ctx.studio.slot(s.name, { soon: true }));
    const outside = await book(await ctx.studio.slot(s.name));
    await expect(c.bookings.cancelBooking(inside.id, { revision: inside.revision })).rejects.toMatchObject({ details: { applicationError: { code: 'BOOKING_POLICY_VIOLATION', data: { id: inside.id, latestCancellationInMinutes: 1440 } } } });
    expect((await c.bookings.cancelBooking(outside.id, { revision: outside.revision })).booking?.status).toBe('CANCELED');
    // The allowed actions the module reads say the same before the cancel.
    const allowed = await c.bookings.bulkCalculateAllowedActions([inside.id]);
    expect(allowed.results?.[0]?.item).toMatchObject({ cancel: false, reschedule: true });
    const lifted = await c.bookings.cancelBooking(inside.id, { revision: inside.revision, flowControlSettings: { ignoreCancellationPolicy: true } });
    expect(lifted.booking?.status).toBe('CANCELED');
  });

  it('the window left out takes the SDK default, 1440 minutes', async () => {
    const s = await serviceOn({ cancellationPolicy: { enabled: true, limitLatestCancellation: true } });
    expect(s.policy.cancellationPolicy).toMatchObject({ latestCancellationInMinutes: 1440 });
    const inside = await book(await ctx.studio.slot(s.name, { soon: true }));
    await expect(client().bookings.cancelBooking(inside.id, { revision: inside.revision })).rejects.toMatchObject(violation);
  });

  it('disabled (the SDK default), or on without limitLatestCancellation: a booking starting soon is cancelled', async () => {
    const c = client();
    const byDefault = await serviceOn({});
    expect(byDefault.policy.cancellationPolicy).toEqual({ enabled: false, limitLatestCancellation: false, latestCancellationInMinutes: 1440 });
    const a = await book(await ctx.studio.slot(byDefault.name, { soon: true }));
    expect((await c.bookings.cancelBooking(a.id, { revision: a.revision })).booking?.status).toBe('CANCELED');
    const disabled = await serviceOn({ cancellationPolicy: { enabled: false, limitLatestCancellation: true, latestCancellationInMinutes: 1440 } });
    const b = await book(await ctx.studio.slot(disabled.name, { soon: true }));
    expect((await c.bookings.cancelBooking(b.id, { revision: b.revision })).booking?.status).toBe('CANCELED');
    const unlimited = await serviceOn({ cancellationPolicy: { enabled: true, limitLatestCancellation: false, latestCancellationInMinutes: 1440 } });
    const d = await book(await ctx.studio.slot(unlimited.name, { soon: true }));
    expect((await c.bookings.cancelBooking(d.id, { revision: d.revision })).booking?.status).toBe('CANCELED');
  });

  it('a policy turned on after the booking was made applies to it (updateBookingPolicy), and turned off again no longer does', async () => {
    const c = client();
    const s = await serviceOn({});
    const b = await book(await ctx.studio.slot(s.name, { soon: true }));
    const on = await c.bookingPolicies.updateBookingPolicy(s.policy._id!, { revision: s.policy.revision!, cancellationPolicy: { enabled: true, limitLatestCancellation: true } });
    await expect(c.bookings.cancelBooking(b.id, { revision: b.revision })).rejects.toMatchObject(violation);
    await c.bookingPolicies.updateBookingPolicy(s.policy._id!, { revision: on.revision!, cancellationPolicy: { enabled: false } });
    expect((await c.bookings.cancelBooking(b.id, { revision: b.revision })).booking?.status).toBe('CANCELED');
  });

  it('bulkCancelBooking refuses the booking inside the window on its own and cancels the rest', async () => {
    const s = await serviceOn({ cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 1440 } });
    const inside = await book(await ctx.studio.slot(s.name, { soon: true }));
    const outside = await book(await ctx.studio.slot(s.name));
    // The module exports bulkCancelBooking (its request builder and meta name it) but its public typings leave it out.
    const bulk = client().bookings as unknown as { bulkCancelBooking(o: bookings.BulkCancelBookingOptions): Promise<bookings.BulkCancelBookingResponse> };
    const reply = await bulk.bulkCancelBooking({
      bookings: {
        bookingsInfo: [
          { bookingId: inside.id, revision: inside.revision },
          { bookingId: outside.id, revision: outside.revision },
        ],
      },
    });
    expect(reply.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 1 });
    expect(reply.results?.[0]?.itemMetadata).toMatchObject({ _id: inside.id, success: false, error: { code: 'BOOKING_POLICY_VIOLATION' } });
    expect(reply.results?.[1]?.itemMetadata).toMatchObject({ _id: outside.id, success: true });
  });
});

describe('reschedulePolicy', () => {
  it('on, with limitLatestReschedule: rescheduleBooking inside the window is refused, outside it done; ignoreReschedulePolicy lifts it; disabled, allowed', async () => {
    const c = client();
    const s = await serviceOn({ reschedulePolicy: { enabled: true, limitLatestReschedule: true, latestRescheduleInMinutes: 1440 } });
    const inside = await book(await ctx.studio.slot(s.name, { soon: true }));
    const outside = await book(await ctx.studio.slot(s.name));
    const to = (await ctx.studio.slot(s.name)) as never;
    await expect(c.bookings.rescheduleBooking(inside.id, to, { revision: inside.revision })).rejects.toMatchObject({ details: { applicationError: { code: 'BOOKING_POLICY_VIOLATION', data: { latestRescheduleInMinutes: 1440 } } } });
    expect((await c.bookings.rescheduleBooking(outside.id, to, { revision: outside.revision })).booking?.revision).toBe(String(Number(outside.revision) + 1));
    const later = (await ctx.studio.slot(s.name)) as never;
    const lifted = await c.bookings.rescheduleBooking(inside.id, later, { revision: inside.revision, flowControlSettings: { ignoreReschedulePolicy: true } });
    expect(lifted.booking?.startDate?.toISOString()).toBe(new Date((later as StudioSlot).startDate).toISOString());

    const off = await serviceOn({ reschedulePolicy: { enabled: false, limitLatestReschedule: true, latestRescheduleInMinutes: 1440 } });
    const free = await book(await ctx.studio.slot(off.name, { soon: true }));
    const moved = await c.bookings.rescheduleBooking(free.id, (await ctx.studio.slot(off.name)) as never, { revision: free.revision });
    expect(moved.booking?._id).toBe(free.id);
  });
});
