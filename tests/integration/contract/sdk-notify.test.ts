/**
 * The official SDK's participant notifications and delete-service options against a real emulator on port 0
 * (docs/wire.md §18): `cancelBooking` with `participantNotification` through `@wix/auto_sdk_bookings_bookings`
 * puts the customer's message in the emulator's outbox, and `deleteService` through
 * `@wix/auto_sdk_bookings_services` (a DELETE whose options travel as query parameters) cancels the service's
 * future bookings, or keeps them with `preserveFutureSessionsWithParticipants`. The SDK's requests to the
 * platform's host are rewritten to the emulator's origin (setup: sdk-client.ts).
 */
import * as bookings from '@wix/auto_sdk_bookings_bookings';
import * as services from '@wix/auto_sdk_bookings_services';
import { describe, expect, it } from 'vitest';
import { apiKeyClient, outbox, useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-notify');
const client = () => apiKeyClient(ctx, { bookings, services });

describe('participant notifications through the official client', () => {
  it('cancelBooking with participantNotification puts the message in the outbox, addressed to the contact; without it, nothing', async () => {
    const service = await ctx.studio.appointment();
    const told = await ctx.studio.book(service.name, { email: 'sdk-ada@example.com', firstName: 'Ada' });
    const silent = await ctx.studio.book(service.name, { email: 'sdk-bo@example.com', firstName: 'Bo' });
    const c = client();
    const canceled = await c.bookings.cancelBooking(told.id, { revision: await bookingRevision(told.id), participantNotification: { notifyParticipants: true, message: 'Sorry, we are closed' } });
    expect(canceled.booking?.status).toBe('CANCELED');
    await c.bookings.cancelBooking(silent.id, { revision: await bookingRevision(silent.id) });
    const mail = await outbox(ctx);
    expect(mail.filter((m) => m.bookingId === told.id)).toMatchObject([{ to: 'sdk-ada@example.com', channel: 'EMAIL', action: 'canceled', message: 'Sorry, we are closed', contact: { name: 'Ada' } }]);
    expect(mail.filter((m) => m.bookingId === silent.id)).toEqual([]);
    expect(ctx.sent.some((r) => r.url.startsWith(`/_api/bookings-service/v2/bookings/${told.id}/cancel`))).toBe(true);
  });

  it('deleteService cancels the future bookings by default (notifying when asked) and keeps them with preserveFutureSessionsWithParticipants', async () => {
    const gone = await ctx.studio.appointment();
    const kept = await ctx.studio.appointment();
    const a = await ctx.studio.book(gone.name, { email: 'sdk-cy@example.com', confirmed: true });
    const b = await ctx.studio.book(kept.name, { email: 'sdk-di@example.com', confirmed: true });
    const c = client();
    await c.services.deleteService(gone.id, { participantNotification: { notifyParticipants: true, message: 'The service ended' } });
    await c.services.deleteService(kept.id, { preserveFutureSessionsWithParticipants: true, participantNotification: { notifyParticipants: true } });
    // The options went as the DELETE's query parameters.
    expect(ctx.sent.find((r) => r.url.includes(`/v2/services/${kept.id}`))?.url).toMatch(/preserveFutureSessionsWithParticipants=true/);
    expect(await bookingStatus(a.id)).toBe('CANCELED');
    expect(await bookingStatus(b.id)).toBe('CONFIRMED');
    const mail = await outbox(ctx);
    expect(mail.filter((m) => m.bookingId === a.id)).toMatchObject([{ to: 'sdk-cy@example.com', action: 'service_deleted', message: 'The service ended' }]);
    expect(mail.filter((m) => m.bookingId === b.id)).toEqual([]);
  });
});

/** A booking as the extended bookings query reads it. */
async function bookingOf(id: string): Promise<{ status: string; revision: string }> {
  const r = await ctx.emu.request('POST', '/_api/bookings-reader/v2/extended-bookings/query', { query: { filter: { id } } });
  expect(r.status).toBe(200);
  return r.body.extendedBookings[0].booking;
}
const bookingRevision = async (id: string) => (await bookingOf(id)).revision;
const bookingStatus = async (id: string) => (await bookingOf(id)).status;
