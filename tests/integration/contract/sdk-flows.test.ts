/**
 * The official SDK itself against a real emulator on port 0
 * (docs/contracts.md "The official SDK as the reference"): `@wix/sdk` `createClient` with its auth strategies and
 * the per-family modules, so the emulator answers the official client as the platform does. Every request the SDK
 * makes to the platform's hosts (`www.wixapis.com`, and `edge.wixapis.com` for its OAuth strategy) is rewritten to
 * the emulator's loopback origin: the SDK's module calls take a `fetch` option, but its token calls
 * (`OAuthStrategy`, `AppStrategy`) use the global `fetch` with a fixed host, so the global one is replaced for
 * these tests (setup: sdk-client.ts). The URL is rewritten, not proxied: the Host header is the emulator's own.
 */
import * as attendance from '@wix/auto_sdk_bookings_attendance';
import * as bookingPolicies from '@wix/auto_sdk_bookings_booking-policies';
import * as bookings from '@wix/auto_sdk_bookings_bookings';
import type { DeviceAuthorizeResponseOriginal } from '@wix/auto_sdk_identity_oauth/meta';
import * as members from '@wix/auto_sdk_members_members';
import * as services from '@wix/auto_sdk_bookings_services';
import { AppStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { describe, expect, it } from 'vitest';
import { sdkTypeFields } from '../../helpers/sdk-meta.js';
import { apiKeyClient, useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-flows', { size: 20 });

describe('the official SDK against the emulator', () => {
  it('an API key client creates a booking and confirms it (bookings module)', async () => {
    const client = apiKeyClient(ctx, { bookings });
    const slot = await ctx.fx.freeSlot();
    const created = await client.bookings.createBooking({ bookedEntity: { slot: slot as never }, contactDetails: { firstName: 'Sdk', email: 'sdk@example.com' }, totalParticipants: 1 });
    const booking = created.booking!;
    expect(booking._id).toMatch(/./);
    expect(booking.status).toBe('CREATED');
    expect(ctx.lastTo('/_api/bookings-service/v2/bookings')).toMatchObject({ method: 'POST', host: new URL(ctx.emu.url).host, authorization: ctx.emu.apiKey, siteId: ctx.emu.siteId });
    const confirmed = await client.bookings.confirmBooking(booking._id!, booking.revision!, {});
    expect(confirmed.booking).toMatchObject({ _id: booking._id, status: 'CONFIRMED' });
    expect(ctx.lastTo(`/_api/bookings-service/v2/bookings/${booking._id}/confirm`)?.method).toBe('POST');
  });

  it("an API key client marks a booking's attendance, reads it back and finds it in the booking's extended info (attendance module)", async () => {
    const client = apiKeyClient(ctx, { attendance });
    const booking = await ctx.fx.freshBooking();
    const set = await client.attendance.setAttendance({ bookingId: booking.id, status: 'ATTENDED', numberOfAttendees: 1 });
    const id = set.attendance!._id!;
    expect(set.attendance).toMatchObject({ bookingId: booking.id, status: 'ATTENDED', numberOfAttendees: 1 });
    expect(ctx.lastTo('/bookings/bookings-attendance/set')).toMatchObject({ method: 'POST', authorization: ctx.emu.apiKey, siteId: ctx.emu.siteId });
    const again = await client.attendance.setAttendance({ bookingId: booking.id, status: 'NOT_ATTENDED', numberOfAttendees: 0 });
    expect(again.attendance!._id).toBe(id);
    expect(await client.attendance.getAttendance(id)).toMatchObject({ _id: id, status: 'NOT_ATTENDED' });
    const page = await client.attendance.queryAttendance().eq('bookingId', booking.id).find();
    expect(page.items.map((a) => a._id)).toEqual([id]);
    const extended = await ctx.fx.emu.request('POST', '/_api/bookings-reader/v2/extended-bookings/query', { query: { filter: { id: booking.id } }, withBookingAttendanceInfo: true });
    expect(extended.body.extendedBookings[0].attendance).toMatchObject({ id, status: 'NOT_ATTENDED', numberOfAttendees: 0 });
    const bulk = await client.attendance.bulkSetAttendance({ attendanceDetails: [{ attendance: { bookingId: 'no-such-booking', status: 'ATTENDED' } }] });
    expect(bulk.bulkActionMetadata).toMatchObject({ totalSuccesses: 0, totalFailures: 1 });
    expect(bulk.results![0]!.itemMetadata!.error).toMatchObject({ code: 'BOOKING_NOT_FOUND' });
  });

  it('STAFF_MEMBER_DETAILS fills staffMemberDetails on getService and queryServices (services module), only when asked', async () => {
    const client = apiKeyClient(ctx, { services });
    const page = await client.services.queryServices({ conditionalFields: ['STAFF_MEMBER_DETAILS'] }).eq('type', 'APPOINTMENT').limit(5).find();
    const withStaff = page.items.find((s) => (s.staffMemberIds?.length ?? 0) > 0)!;
    expect(withStaff).toBeDefined();
    const staff = withStaff.staffMemberDetails?.staffMembers ?? [];
    expect(staff.map((m) => m.staffMemberId)).toEqual(withStaff.staffMemberIds);
    expect(staff.every((m) => typeof m.name === 'string' && m.name !== '')).toBe(true);
    expect(ctx.lastTo('/_api/bookings/v2/services/query')?.body).toMatchObject({ conditionalFields: ['STAFF_MEMBER_DETAILS'] });
    const one = await client.services.getService(withStaff._id!, { conditionalFields: ['STAFF_MEMBER_DETAILS'] });
    expect(one.staffMemberDetails?.staffMembers?.map((m) => m.staffMemberId)).toEqual(withStaff.staffMemberIds);
    expect(ctx.lastTo(`/_api/bookings/v2/services/${withStaff._id}`)?.url).toContain('conditionalFields=STAFF_MEMBER_DETAILS');
    expect((await client.services.getService(withStaff._id!)).staffMemberDetails).toBeUndefined();
  });

  it('an API key client queries members with the query builder (members module)', async () => {
    const client = apiKeyClient(ctx, { members });
    const page = await client.members.queryMembers().limit(3).find();
    expect(page.items).toHaveLength(3);
    expect(page.items[0]!._id).toMatch(/./);
    expect(ctx.lastTo('/members/v1/members/query')?.body).toMatchObject({ query: { paging: { limit: 3 } } });
  });

  it("an app's client credentials (AppStrategy with its instance) get a token the members module calls with", async () => {
    const app = await ctx.emu.request('POST', '/__emulator/oauth-apps', { name: 'SDK app' });
    const { clientId, instanceId } = app.body.app as { clientId: string; instanceId: string };
    const client = createClient({ auth: AppStrategy({ appId: clientId, appSecret: app.body.clientSecret, instanceId }), modules: { members } });
    const page = await client.members.queryMembers().limit(2).find();
    expect(page.items).toHaveLength(2);
    expect(ctx.lastTo('/oauth2/token')?.body).toEqual({ grant_type: 'client_credentials', client_id: clientId, client_secret: app.body.clientSecret, instance_id: instanceId });
    expect(ctx.lastTo('/members/v1/members/query')?.siteId).toBeNull();
  });

  it("starts a device authorization answered in the names of the SDK's identity oauth typings", async () => {
    // The SDK types the call (DeviceCodeRequest/DeviceAuthorizeResponse) but exposes no method: sent as it is typed.
    const res = await fetch('https://www.wixapis.com/oauth2/device/code', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: ctx.emu.emulator.clientId, scope: 'offline_access' }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as DeviceAuthorizeResponseOriginal;
    expect(Object.keys(body).filter((k) => !sdkTypeFields('identity_oauth', 'DeviceAuthorizeResponse').includes(k))).toEqual([]);
    expect(body).toMatchObject({ deviceCode: expect.any(String), userCode: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/), verificationUri: `${ctx.emu.url}/oauth2/device`, expiresIn: 600, interval: expect.any(Number) });
    expect(body.verificationUriComplete).toContain(body.userCode!);
  });

  it("the OAuth strategy's register and login read the emulator's e-mail and captcha failures as the SDK's error codes", async () => {
    const auth = OAuthStrategy({ clientId: ctx.emu.emulator.clientId! });
    auth.setTokens(await auth.generateVisitorTokens());
    // The SDK finds the e-mail violation by its data.type (a violation without data would make it throw).
    expect(await auth.register({ email: 'not-an-email', password: 'secret-pass' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidEmail', error: expect.stringContaining('not a valid e-mail') });
    const email = `sdk-${Date.now()}@example.com`;
    expect(await auth.register({ email, password: 'secret-pass' })).toMatchObject({ loginState: 'SUCCESS' });
    expect(await auth.register({ email, password: 'secret-pass' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'emailAlreadyExists' });
    await ctx.emu.request('PUT', '/__emulator/auth-policy', { requireCaptcha: true });
    try {
      expect(await auth.login({ email, password: 'secret-pass' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'missingCaptchaToken' });
      expect(await auth.login({ email, password: 'secret-pass', captchaTokens: { recaptchaToken: 'wrong' } })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidCaptchaToken' });
      expect(await auth.login({ email, password: 'secret-pass', captchaTokens: { recaptchaToken: 'emulator-captcha-ok' } })).toMatchObject({ loginState: 'SUCCESS' });
    } finally {
      await ctx.emu.request('PUT', '/__emulator/auth-policy', { requireCaptcha: false });
    }
    expect(await auth.login({ email, password: 'wrong-pass' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidPassword' });
  });

  it('the OAuth strategy gets member tokens with the authorized_client grant, and calls as that member', async () => {
    const member = await ctx.fx.freshMember();
    const auth = OAuthStrategy({ clientId: ctx.emu.emulator.clientId! });
    auth.setTokens(await auth.generateVisitorTokens());
    const tokens = await auth.getMemberTokensForExternalLogin(member.id, ctx.emu.apiKey);
    const grant = ctx.lastTo('/oauth2/token')!;
    expect(grant.body).toEqual({ grant_type: 'authorized_client', scope: 'offline_access', member_id: member.id });
    expect(grant.authorization).toBe(`${auth.getTokens().accessToken.value},${ctx.emu.apiKey}`);
    expect(grant.siteId).toBeNull();
    const client = createClient({ auth, modules: { members } });
    auth.setTokens(tokens);
    const me = await client.members.getCurrentMember();
    expect(me.member?._id).toBe(member.id);
    // OAuth calls go to the edge host, rewritten like the others.
    expect(ctx.lastTo('/members/v1/members/my')).toMatchObject({ authorization: tokens.accessToken.value, siteId: null });
  });
});

describe('booking policies through the official module', () => {
  const client = () => apiKeyClient(ctx, { bookingPolicies, services, bookings });

  it('a new policy comes back with every rule field at the defaults the typings document; an update merges deeply', async () => {
    const c = client();
    const created = await c.bookingPolicies.createBookingPolicy({ name: `Sdk defaults ${ctx.stamp()}` });
    expect(ctx.lastTo('/bookings/v1/booking-policies')?.method).toBe('POST');
    // Every field the reply has is one the module types (wire form, meta.d.ts BookingPolicy).
    const wire = ctx.lastTo('/bookings/v1/booking-policies')!;
    expect(wire.body).toEqual({ bookingPolicy: { name: created.name } });
    expect(created).toMatchObject({
      default: false,
      customPolicyDescription: { enabled: false, description: '' },
      limitEarlyBookingPolicy: { enabled: false, earliestBookingInMinutes: 10080 },
      limitLateBookingPolicy: { enabled: false, latestBookingInMinutes: 1440 },
      bookAfterStartPolicy: { enabled: false },
      cancellationPolicy: { enabled: false, limitLatestCancellation: false, latestCancellationInMinutes: 1440 },
      reschedulePolicy: { enabled: false, limitLatestReschedule: false, latestRescheduleInMinutes: 1440 },
      waitlistPolicy: { enabled: false, capacity: 10, reservationTimeInMinutes: 10 },
      participantsPolicy: { maxParticipantsPerBooking: 1 },
      cancellationFeePolicy: { enabled: false, cancellationWindows: [] },
      saveCreditCardPolicy: { enabled: false },
      staffSortingPolicy: { sortingMethodType: 'RANDOM' },
      intakeFormPolicy: { enabled: false },
    });
    expect(created._createdDate).toBeInstanceOf(Date);
    const typed = sdkTypeFields('bookings_booking-policies', 'BookingPolicy');
    const got = await fetch(`${ctx.emu.url}/bookings/v1/booking-policies/${created._id}`, { headers: { authorization: ctx.emu.apiKey, 'wix-site-id': ctx.emu.siteId } });
    expect(Object.keys(((await got.json()) as { bookingPolicy: object }).bookingPolicy).filter((k) => !typed.includes(k))).toEqual([]);

    const updated = await c.bookingPolicies.updateBookingPolicy(created._id!, { revision: created.revision!, cancellationPolicy: { enabled: true }, waitlistPolicy: { capacity: 3 } });
    expect(updated.revision).toBe('2');
    expect(updated.cancellationPolicy).toEqual({ enabled: true, limitLatestCancellation: false, latestCancellationInMinutes: 1440 });
    expect(updated.waitlistPolicy).toEqual({ enabled: false, capacity: 3, reservationTimeInMinutes: 10 });
    expect(updated.participantsPolicy).toEqual({ maxParticipantsPerBooking: 1 });
  });

  it('participantsPolicy.maxParticipantsPerBooking 3 on a class: a booking for 4 is refused, one for 3 accepted', async () => {
    const c = client();
    const klass = await ctx.studio.klass({ capacity: 10 });
    const policy = await c.bookingPolicies.createBookingPolicy({ name: `Sdk three ${ctx.stamp()}`, participantsPolicy: { maxParticipantsPerBooking: 3 } });
    expect(policy.participantsPolicy).toEqual({ maxParticipantsPerBooking: 3 });
    const service = await c.services.getService(klass.id);
    const moved = await c.services.updateService(klass.id, { revision: service.revision!, bookingPolicy: { _id: policy._id! } });
    expect(moved.bookingPolicy?._id).toBe(policy._id);
    const slot = await ctx.studio.slot(klass.name);
    const book = (totalParticipants: number) => c.bookings.createBooking({ bookedEntity: { slot: slot as never }, contactDetails: { firstName: 'Sdk', email: 'sdk-policy@example.com' }, totalParticipants });
    await expect(book(4)).rejects.toMatchObject({ details: { applicationError: { code: 'BOOKING_POLICY_VIOLATION', data: { maxParticipantsPerBooking: 3 } } } });
    const made = await book(3);
    expect(made.booking).toMatchObject({ totalParticipants: 3, status: 'CREATED' });
  });

  it('query, count and strictest answer what the typings describe', async () => {
    const c = client();
    const tag = `Sdk set ${ctx.stamp()}`;
    const a = await c.bookingPolicies.createBookingPolicy({ name: `${tag} a`, participantsPolicy: { maxParticipantsPerBooking: 5 }, cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 60 }, waitlistPolicy: { enabled: true, capacity: 4 } });
    const b = await c.bookingPolicies.createBookingPolicy({ name: `${tag} b`, participantsPolicy: { maxParticipantsPerBooking: 2 }, cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 600 }, limitLateBookingPolicy: { enabled: true, latestBookingInMinutes: 30 } });

    const page = await c.bookingPolicies.queryBookingPolicies().startsWith('name', tag).ascending('name').limit(1).find();
    expect(page.items.map((p) => p._id)).toEqual([a._id]);
    expect(page.hasNext()).toBe(true);
    expect(ctx.lastTo('/bookings/v1/booking-policies/query')?.body).toMatchObject({ query: { filter: { name: { $startsWith: tag } }, cursorPaging: { limit: 1 } } });
    const next = await page.next();
    expect(next.items.map((p) => p._id)).toEqual([b._id]);
    expect(next.items[0]!._createdDate).toBeInstanceOf(Date);
    const wide = await c.bookingPolicies.queryBookingPolicies().gt('participantsPolicy.maxParticipantsPerBooking', 4).startsWith('name', tag).find();
    expect(wide.items.map((p) => p._id)).toEqual([a._id]);

    expect(await c.bookingPolicies.countBookingPolicies({ filter: { name: { $startsWith: tag } } })).toEqual({ count: 2 });
    expect((await c.bookingPolicies.countBookingPolicies()).count).toBeGreaterThanOrEqual(5);

    const { bookingPolicy: strictest } = await c.bookingPolicies.getStrictestBookingPolicy([a._id!, b._id!]);
    expect(ctx.lastTo('/bookings/v1/booking-policies/strictest')?.body).toEqual({ bookingPolicyIds: [a._id, b._id] });
    expect(strictest?._id ?? null).toBeNull();
    expect(strictest).toMatchObject({
      participantsPolicy: { maxParticipantsPerBooking: 2 },
      cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 600 },
      limitLateBookingPolicy: { enabled: true, latestBookingInMinutes: 30 },
      waitlistPolicy: { enabled: false },
      bookAfterStartPolicy: { enabled: false },
    });
    await expect(c.bookingPolicies.getStrictestBookingPolicy([a._id!, '00000000-0000-4000-8000-000000000000'])).rejects.toMatchObject({ details: { applicationError: { code: 'BOOKING_POLICY_NOT_FOUND' } } });
  });
});
