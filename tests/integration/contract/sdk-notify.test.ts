/**
 * The official SDK's participant notifications and delete-service options against a real emulator on port 0
 * (docs/wire.md §18): `cancelBooking` with `participantNotification` through `@wix/auto_sdk_bookings_bookings`
 * puts the customer's message in the emulator's outbox, and `deleteService` through
 * `@wix/auto_sdk_bookings_services` (a DELETE whose options travel as query parameters) cancels the service's
 * future bookings, or keeps them with `preserveFutureSessionsWithParticipants`. The SDK's requests to the
 * platform's host are rewritten to the emulator's origin, as in sdk-flows.test.ts.
 */
import * as bookings from '@wix/auto_sdk_bookings_bookings';
import * as services from '@wix/auto_sdk_bookings_services';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runInProcess, startTestEmulator, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';

let emu: TestEmulator;
let studio: Studio;
const realFetch = globalThis.fetch;
/** The URLs the SDK called (path and query), in order. */
const sent: string[] = [];
const PLATFORM = /^https:\/\/(www|edge)\.wixapis\.com(?=\/)/;

async function toEmulator(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const original = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
  if (original.startsWith(`${emu.url}/`)) return realFetch(input, init);
  if (!PLATFORM.test(original)) throw new Error(`the SDK called ${original}, not a platform host`);
  const url = original.replace(PLATFORM, emu.url);
  sent.push(url.slice(emu.url.length));
  return realFetch(new Request(url, input instanceof Request ? input : init));
}

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5 });
  studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, ...o }), 'sdk-notify');
  vi.stubGlobal('fetch', toEmulator);
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await emu?.close();
});

const client = () => createClient({ auth: ApiKeyStrategy({ apiKey: emu.apiKey, siteId: emu.siteId }), modules: { bookings, services } });

/** The outbox through the emulator's control plane. */
async function outbox(): Promise<Array<{ to: string; bookingId?: string; action?: string; message?: string; channel?: string; contact?: { name?: string } }>> {
  const r = await emu.request('GET', '/__emulator/mail?limit=1000');
  expect(r.status).toBe(200);
  return r.body.mail;
}

describe('participant notifications through the official client', () => {
  it('cancelBooking with participantNotification puts the message in the outbox, addressed to the contact; without it, nothing', async () => {
    const service = await studio.appointment();
    const told = await studio.book(service.name, { email: 'sdk-ada@example.com', firstName: 'Ada' });
    const silent = await studio.book(service.name, { email: 'sdk-bo@example.com', firstName: 'Bo' });
    const c = client();
    const canceled = await c.bookings.cancelBooking(told.id, { revision: await bookingRevision(told.id), participantNotification: { notifyParticipants: true, message: 'Sorry, we are closed' } });
    expect(canceled.booking?.status).toBe('CANCELED');
    await c.bookings.cancelBooking(silent.id, { revision: await bookingRevision(silent.id) });
    const mail = await outbox();
    expect(mail.filter((m) => m.bookingId === told.id)).toMatchObject([{ to: 'sdk-ada@example.com', channel: 'EMAIL', action: 'canceled', message: 'Sorry, we are closed', contact: { name: 'Ada' } }]);
    expect(mail.filter((m) => m.bookingId === silent.id)).toEqual([]);
    expect(sent.some((u) => u.startsWith(`/_api/bookings-service/v2/bookings/${told.id}/cancel`))).toBe(true);
  });

  it('deleteService cancels the future bookings by default (notifying when asked) and keeps them with preserveFutureSessionsWithParticipants', async () => {
    const gone = await studio.appointment();
    const kept = await studio.appointment();
    const a = await studio.book(gone.name, { email: 'sdk-cy@example.com', confirmed: true });
    const b = await studio.book(kept.name, { email: 'sdk-di@example.com', confirmed: true });
    const c = client();
    await c.services.deleteService(gone.id, { participantNotification: { notifyParticipants: true, message: 'The service ended' } });
    await c.services.deleteService(kept.id, { preserveFutureSessionsWithParticipants: true, participantNotification: { notifyParticipants: true } });
    // The options went as the DELETE's query parameters.
    expect(sent.find((u) => u.includes(`/v2/services/${kept.id}`))).toMatch(/preserveFutureSessionsWithParticipants=true/);
    expect(await bookingStatus(a.id)).toBe('CANCELED');
    expect(await bookingStatus(b.id)).toBe('CONFIRMED');
    const mail = await outbox();
    expect(mail.filter((m) => m.bookingId === a.id)).toMatchObject([{ to: 'sdk-cy@example.com', action: 'service_deleted', message: 'The service ended' }]);
    expect(mail.filter((m) => m.bookingId === b.id)).toEqual([]);
  });
});

/** A booking as the extended bookings query reads it. */
async function bookingOf(id: string): Promise<{ status: string; revision: string }> {
  const r = await emu.request('POST', '/_api/bookings-reader/v2/extended-bookings/query', { query: { filter: { id } } });
  expect(r.status).toBe(200);
  return r.body.extendedBookings[0].booking;
}
const bookingRevision = async (id: string) => (await bookingOf(id)).revision;
const bookingStatus = async (id: string) => (await bookingOf(id)).status;
