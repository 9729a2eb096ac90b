/**
 * The bookings families on a real emulator (docs/bookings.md): the status-by-action table, the capacity race,
 * reschedule into a full slot, policy windows, multi-service atomicity, availability excluding booked staff,
 * courses, the extended bookings query with the platform's filter paths, and the domain events. The demo seed has
 * no bookings here (`bookings: 0`), and every test books services of the file's own studio
 * (tests/helpers/studio.ts), so it sees only what it made, at any hour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStudio, runInProcess, startTestEmulator, type Studio, type TestEmulator } from '../../helpers/index.js';
import { eventsAfter } from '../bulk/support.js';

let emu: TestEmulator;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
/** The file's own staff and services (a test makes what it needs): open every day, around the clock. */
let studio: Studio;
/** Two appointments (60 and 30 minutes) that both staff members of the studio give. */
let massage: { name: string; id: string };
let sports: { name: string; id: string };

const HOUR = 3_600_000;
const DAY = 86_400_000;
const BOOKINGS = '/_api/bookings-service/v2/bookings';
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', bookings: 0 });
  studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, ...o }), 'bookings-api');
  massage = await studio.appointment();
  sports = await studio.appointment({ minutes: 30 });
});
afterAll(async () => {
  await emu?.close();
});

/** Availability entries of a service from `from` to `to` (epoch ms). */
async function entries(serviceId: string, from: number, to: number, extra: Record<string, unknown> = {}): Promise<Json[]> {
  const r = await emu.request('POST', '/availability-calendar/v1/availability/query', {
    query: { filter: { serviceId: [serviceId], startDate: iso(from), endDate: iso(to), ...extra } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.availabilityEntries;
}

/** A bookable slot of `service` (default: the massage) that no other test of the file was given. */
const appointmentSlot = (service = massage.name, staff?: string): Promise<Json> => studio.slot(service, { staff });

/** The entry of a class's first session (a class of the studio: weekly, from `firstSession`). */
async function firstSession(klass: { id: string; firstSession: string }): Promise<Json> {
  const start = Date.parse(klass.firstSession);
  const session = (await entries(klass.id, start, start + HOUR)).find((e: Json) => e.slot.startDate === klass.firstSession);
  expect(session, `the session at ${klass.firstSession}`).toBeDefined();
  return session;
}

/** A new service of the studio's staff made over the API, with the fields the studio's own leave out. */
async function service(fields: Json): Promise<Json> {
  const r = await emu.request('POST', '/v2/services', {
    service: {
      staffMemberIds: studio.staff,
      payment: { rateType: 'FIXED', fixed: { price: { value: '40', currency: 'USD' } }, options: { online: false, inPerson: true } },
      onlineBooking: { enabled: true },
      ...fields,
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.service;
}

async function create(booking: Json, extra: Json = {}) {
  return emu.request('POST', BOOKINGS, { booking, ...extra });
}

async function book(slot: Json, extra: Json = {}): Promise<Json> {
  const r = await create({ bookedEntity: { slot }, contactDetails: { firstName: 'Test', email: 'test@example.com' }, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.booking;
}

const action = (id: string, verb: string, body: Json) => emu.request('POST', `${BOOKINGS}/${id}/${verb}`, body);
const code = (r: { body: Json }) => r.body?.details?.applicationError?.code;

describe('the status table (docs/wire.md §9)', () => {
  it('CREATED -> CONFIRMED -> CANCELED; confirm again, decline confirmed, act on a final booking are refused', async () => {
    const b = await book(await appointmentSlot());
    expect(b).toMatchObject({ status: 'CREATED', revision: '1', paymentStatus: 'UNDEFINED', totalParticipants: 1 });
    expect(b.bookedEntity.tags).toEqual(['INDIVIDUAL']);
    const confirmed = await action(b.id, 'confirm', { revision: '1', paymentStatus: 'PAID' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.booking).toMatchObject({ status: 'CONFIRMED', revision: '2', paymentStatus: 'PAID' });
    expect(confirmed.body.booking.bookedEntity.slot.eventId).toHaveLength(36);
    expect(code(await action(b.id, 'confirm', { revision: '2' }))).toBe('FAILED_CONFIRMING_NON_PENDING_BOOKING');
    expect(code(await action(b.id, 'decline', { revision: '2' }))).toBe('FAILED_DECLINE_NON_PENDING_BOOKING');
    const canceled = await action(b.id, 'cancel', { revision: '2', flowControlSettings: { ignoreCancellationPolicy: true } });
    expect(canceled.body.booking).toMatchObject({ status: 'CANCELED', revision: '3' });
    expect(Date.parse(canceled.body.booking.canceledDate)).toBeGreaterThan(0);
    for (const verb of ['confirm', 'cancel', 'reschedule']) {
      const r = await action(b.id, verb, { revision: '3', slot: b.bookedEntity.slot });
      expect(r.status).toBe(428);
      expect(code(r)).toBe('INVALID_BOOKING_STATUS');
    }
  });

  it('a stale revision is a 409 REVISION_MISMATCH and changes nothing; a missing one is a 400', async () => {
    const b = await book(await appointmentSlot());
    const stale = await action(b.id, 'confirm', { revision: '7' });
    expect(stale.status).toBe(409);
    expect(code(stale)).toBe('REVISION_MISMATCH');
    const missing = await action(b.id, 'confirm', {});
    expect(missing.status).toBe(400);
    expect(missing.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'revision', violatedRule: 'REQUIRED_FIELD' });
    const now = await emu.request('POST', '/_api/bookings-reader/v2/extended-bookings/query', { query: { filter: { id: b.id } } });
    expect(now.body.extendedBookings[0].booking).toMatchObject({ status: 'CREATED', revision: '1' });
  });

  it('mark as pending: only from CREATED, only for services that require approval unless told to skip', async () => {
    const approval = await studio.appointment({ requireManualApproval: true });
    const asked = await book(await appointmentSlot(approval.name));
    expect((await action(asked.id, 'mark_booking_as_pending', { revision: '1' })).body.booking.status).toBe('PENDING');
    const b = await book(await appointmentSlot());
    const plain = await action(b.id, 'mark_booking_as_pending', { revision: '1' });
    expect(code(plain)).toBe('INVALID_BOOKING_STATUS');
    const pending = await action(b.id, 'mark_booking_as_pending', { revision: '1', flowControlSettings: { skipPendingApprovalServiceValidation: true } });
    expect(pending.body.booking.status).toBe('PENDING');
    expect(code(await action(b.id, 'mark_booking_as_pending', { revision: '2', flowControlSettings: { skipPendingApprovalServiceValidation: true } }))).toBe('INVALID_BOOKING_STATUS');
    const declined = await action(b.id, 'decline', { revision: '2' });
    expect(declined.body.booking.status).toBe('DECLINED');
  });

  it('a new booking is CREATED or CONFIRMED: other statuses are field violations', async () => {
    const r = await create({ bookedEntity: { slot: await appointmentSlot() }, status: 'CANCELED' });
    expect(r.status).toBe(400);
    expect(r.body.details.validationError.fieldViolations[0].field).toBe('booking.status');
    const confirmed = await book(await appointmentSlot(), { status: 'CONFIRMED' });
    expect(confirmed.status).toBe('CONFIRMED');
  });
});

describe('capacity', () => {
  it('50 concurrent bookings for the last 5 spots of a session: exactly 5 get a place', async () => {
    const session = await firstSession(await studio.klass({ capacity: 12 }));
    expect(session.openSpots).toBe(12);
    const fill = session.openSpots - 5;
    // Fill up to the last 5 spots (the policy may cap participants per booking: use several bookings).
    let left = fill;
    while (left > 0) {
      const n = Math.min(left, 2);
      await book(session.slot, { totalParticipants: n });
      left -= n;
    }
    const results = await Promise.all(Array.from({ length: 50 }, () => create({ bookedEntity: { slot: session.slot }, contactDetails: { firstName: 'Racer' } })));
    const placed = results.filter((r) => r.status === 200 && r.body.booking.status === 'CREATED');
    const waiting = results.filter((r) => r.status === 200 && r.body.booking.status === 'WAITING_LIST');
    const refused = results.filter((r) => r.status !== 200);
    expect(placed).toHaveLength(5);
    expect(placed.length + waiting.length + refused.length).toBe(50);
    for (const r of refused) expect(code(r)).toBe('SESSION_CAPACITY_EXCEEDED');
    const after = (await entries(session.slot.serviceId, Date.parse(session.slot.startDate), Date.parse(session.slot.endDate))).find((e: Json) => e.slot.eventId === session.slot.eventId);
    expect(after.openSpots).toBe(0);
    expect(after.bookable).toBe(false);
    if (after.waitingList) expect(after.waitingList.openSpots).toBe(after.waitingList.totalSpots - waiting.length);
  });

  it('rescheduling into a taken appointment slot is SLOT_NOT_AVAILABLE and changes nothing', async () => {
    const a = await book(await appointmentSlot());
    const other = await book(await appointmentSlot());
    const r = await action(a.id, 'reschedule', { revision: '1', slot: other.bookedEntity.slot, flowControlSettings: { ignoreReschedulePolicy: true } });
    expect(r.status).toBe(409);
    expect(code(r)).toBe('SLOT_NOT_AVAILABLE');
    const ok = await action(a.id, 'reschedule', { revision: '1', slot: await appointmentSlot(), flowControlSettings: { ignoreReschedulePolicy: true } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.booking.revision).toBe('2');
  });

  it('availability leaves out a staff member booked at that time, for any of their services', async () => {
    const [staffId, colleague] = studio.staff;
    const slot = await appointmentSlot(massage.name, staffId);
    await book(slot);
    const [start, end] = [Date.parse(slot.startDate), Date.parse(slot.endDate)];
    for (const s of [massage, sports]) {
      const around = await entries(s.id, start - 2 * HOUR, end + 2 * HOUR, { resourceId: staffId });
      // Free before and after: only the booked hour is gone.
      expect(around.length, s.name).toBeGreaterThan(0);
      const clash = around.filter((e: Json) => Date.parse(e.slot.startDate) < end && Date.parse(e.slot.endDate) > start);
      expect(clash, s.name).toEqual([]);
      expect((await entries(s.id, start, end, { resourceId: colleague })).some((e: Json) => e.slot.startDate === slot.startDate), `${s.name}: the colleague is free then`).toBe(true);
    }
  });

  it('a course is booked as a whole: its schedule fills up, and it cannot be rescheduled', async () => {
    // Three weekly sessions (the last ends within 15 days, whatever the clocks do) from a stretch the studio hands
    // no slot out in, taught by its staff.
    const first = Date.parse(studio.reserve(2));
    const course = await service({
      name: 'Studio bookings-api Course',
      type: 'COURSE',
      defaultCapacity: 6,
      staffMemberIds: [studio.staff[0]],
      schedule: { firstSessionStart: iso(first), lastSessionEnd: iso(first + 15 * DAY), availabilityConstraints: { sessionDurations: [60] } },
    });
    const before = (await emu.request('GET', `/v2/availability/schedule/${course.schedule.id}`)).body.availability;
    expect(before.totalSpots).toBe(course.defaultCapacity);
    const r = await create({ bookedEntity: { schedule: { scheduleId: course.schedule.id } }, totalParticipants: 1 }, { flowControlSettings: { skipAvailabilityValidation: true } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.booking.bookedEntity.tags).toEqual(['COURSE']);
    expect(r.body.booking.bookedEntity.schedule.firstSessionStart).toBe(new Date(course.schedule.firstSessionStart).toISOString());
    const after = (await emu.request('GET', `/v2/availability/schedule/${course.schedule.id}`)).body.availability;
    expect(after.openSpots).toBe(before.openSpots - 1);
    const re = await action(r.body.booking.id, 'reschedule', { revision: '1', slot: { serviceId: course.id, startDate: iso(Date.now() + 2 * DAY) } });
    expect(code(re)).toBe('RESCHEDULE_NOT_ALLOWED_FOR_COURSE');
    const tooMany = await create({ bookedEntity: { schedule: { scheduleId: course.schedule.id } }, totalParticipants: course.defaultCapacity }, { flowControlSettings: { skipAvailabilityValidation: false } });
    expect([409, 428]).toContain(tooMany.status);
    expect(['SCHEDULE_CAPACITY_EXCEEDED', 'BOOKING_POLICY_VIOLATION']).toContain(code(tooMany));
  });

  it('participants of an appointment cannot change; of a class they can, within the room left', async () => {
    const appt = await book(await appointmentSlot());
    expect(code(await action(appt.id, 'update_number_of_participants', { revision: '1', totalParticipants: 2 }))).toBe('PARTICIPANTS_UPDATE_NOT_ALLOWED_FOR_APPOINTMENT');
    const session = await firstSession(await studio.klass({ capacity: 3 }));
    const b = await book(session.slot);
    const two = await action(b.id, 'update_number_of_participants', { revision: '1', totalParticipants: 2 });
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect(two.body.booking.totalParticipants).toBe(2);
  });
});

describe('booking policy windows', () => {
  it('too early (past the policy horizon) and too late (already started) are BOOKING_POLICY_VIOLATION unless skipped', async () => {
    // The default policy books up to 30 days ahead.
    const far = (await entries(massage.id, Date.now() + 31 * DAY, Date.now() + 32 * DAY)).find((e: Json) => e.bookingPolicyViolations.tooEarlyToBook);
    expect(far, 'a slot beyond the booking horizon').toBeDefined();
    expect(far.bookable).toBe(false);
    const early = await create({ bookedEntity: { slot: far.slot } });
    expect(early.status).toBe(428);
    expect(code(early)).toBe('BOOKING_POLICY_VIOLATION');
    expect(early.body.details.applicationError.data).toMatchObject({ tooEarlyToBook: true });
    const forced = await create({ bookedEntity: { slot: far.slot } }, { flowControlSettings: { skipAvailabilityValidation: true } });
    expect(forced.status, JSON.stringify(forced.body)).toBe(200);
    const gone = (await entries(massage.id, Date.now() - 3 * DAY, Date.now() - DAY))[0];
    expect(gone.bookingPolicyViolations.tooLateToBook).toBe(true);
    const late = await create({ bookedEntity: { slot: gone.slot } });
    expect(late.body.details.applicationError).toMatchObject({ code: 'BOOKING_POLICY_VIOLATION', data: { tooLateToBook: true } });
  });

  it('allowed actions follow the cancellation window; cancelling inside it needs ignoreCancellationPolicy', async () => {
    // The default policy cancels until 24 hours before; a `soon` slot starts within 20.
    const massageNow = (await emu.request('POST', '/_api/bookings/v2/services/query', { query: { filter: { id: massage.id } } })).body.services[0];
    expect(massageNow.bookingPolicy.cancellationPolicy).toMatchObject({ enabled: true, latestCancellationInMinutes: 1440 });
    const b = await book(await studio.slot(massage.name, { soon: true }));
    const actions = await emu.request('POST', '/bookings/v2/bulk/bookings/calculate_allowed_actions', { bookingIds: [b.id, 'no-such-booking'] });
    expect(actions.body.results[0].item).toEqual({ cancel: false, reschedule: false });
    expect(actions.body.results[1].itemMetadata).toMatchObject({ success: false, error: { code: 'BOOKING_NOT_FOUND' } });
    const refused = await action(b.id, 'cancel', { revision: '1' });
    expect(code(refused)).toBe('BOOKING_POLICY_VIOLATION');
    const done = await action(b.id, 'cancel', { revision: '1', flowControlSettings: { ignoreCancellationPolicy: true } });
    expect(done.body.booking.status).toBe('CANCELED');
  });
});

describe('multi-service bookings', () => {
  /** A chain of two massages in a stretch no other test books in, as slots to book. */
  async function chain(): Promise<Json[]> {
    const from = Date.parse(studio.reserve());
    const r = await emu.request('POST', '/v1/availability/multislot', { from: iso(from), to: iso(from + DAY), slots: [{ serviceId: massage.id }, { serviceId: massage.id }], bookable: true, cursorPaging: { limit: 100 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const c = r.body.slots[0];
    expect(c, 'a chain of two massages').toBeDefined();
    expect(c.nestedTimeSlots[1].start).toBe(c.nestedTimeSlots[0].end);
    return c.nestedTimeSlots.map((n: Json) => ({ serviceId: n.serviceId, startDate: n.start, endDate: n.end, resource: n.resource }));
  }

  it('keeps every part of a chain, and of a sequential group, at the first part’s location', async () => {
    // Two appointment services offered at more than one place each: chains could cross locations if allowed.
    const places = (await emu.request('POST', '/v2/services/locations/query', {})).body.businessLocations.locations.map((l: Json) => ({ type: 'BUSINESS', business: { id: l.id } }));
    expect(places.length).toBeGreaterThan(2);
    const x = await service({ name: 'Studio bookings-api Two places 1', type: 'APPOINTMENT', locations: [places[0], places[1]], schedule: { availabilityConstraints: { sessionDurations: [60] } } });
    const y = await service({ name: 'Studio bookings-api Two places 2', type: 'APPOINTMENT', locations: [places[0], places[2]], schedule: { availabilityConstraints: { sessionDurations: [30] } } });
    const from = Date.parse(studio.reserve());
    const r = await emu.request('POST', '/v1/availability/multislot', { from: iso(from), to: iso(from + DAY), slots: [{ serviceId: x.id }, { serviceId: y.id }], bookable: true, cursorPaging: { limit: 100 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.slots.length).toBeGreaterThan(0);
    const second = await entries(y.id, from, from + DAY);
    const placeOf = (start: string, staff: string) => second.find((e) => e.slot.startDate === start && e.slot.resource?.id === staff)?.slot.location.id;
    let checked = 0;
    for (const c of r.body.slots) {
      const [, next] = c.nestedTimeSlots;
      // The listing grid of y may not hold a start that the chain puts on the booking grid: check those it holds.
      const place = placeOf(next.start, next.resource.id);
      if (place === undefined) continue;
      expect(place).toBe(c.slot.location.id);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
    const [first, then] = r.body.slots[0].nestedTimeSlots;
    const made = await emu.request('POST', '/_api/bookings-service/v2/multi_service_bookings', {
      bookings: [{ bookedEntity: { slot: { serviceId: first.serviceId, startDate: first.start, resource: first.resource } } }, { bookedEntity: { slot: { serviceId: then.serviceId, startDate: then.start } } }],
      returnFullEntity: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const [one, two] = made.body.multiServiceBooking.bookings.map((x: Json) => x.booking.bookedEntity.slot.location.id);
    expect(two).toBe(one);
    await emu.request('POST', `/_api/bookings-service/v2/multi_service_bookings/${made.body.multiServiceBooking.id}/cancel`, { flowControlSettings: { ignoreCancellationPolicy: true } });
  });

  it('is all or nothing: a taken second slot leaves no booking behind', async () => {
    const [first, second] = await chain();
    await book(second);
    const count = (await emu.request('POST', '/_api/bookings-reader/v2/extended-bookings/count', {})).body.count;
    const r = await emu.request('POST', '/_api/bookings-service/v2/multi_service_bookings', { bookings: [{ bookedEntity: { slot: first } }, { bookedEntity: { slot: second } }] });
    expect(r.status).toBe(409);
    expect(r.body.details.applicationError.code).toBe('SLOT_NOT_AVAILABLE');
    expect(r.body.details.applicationError.data.index).toBe(1);
    expect(r.body.message).toMatch(/^bookings\[1\]: /);
    expect((await emu.request('POST', '/_api/bookings-reader/v2/extended-bookings/count', {})).body.count).toBe(count);
    const free = (await entries(first.serviceId, Date.parse(first.startDate), Date.parse(first.endDate), { resourceId: first.resource.id })).some((e: Json) => e.slot.startDate === first.startDate);
    expect(free).toBe(true);
  });

  it('sequential timing is checked; the group is confirmed and cancelled as one, single actions are refused', async () => {
    const [first, second] = await chain();
    const gap = await emu.request('POST', '/_api/bookings-service/v2/multi_service_bookings', {
      bookings: [{ bookedEntity: { slot: first } }, { bookedEntity: { slot: { ...second, startDate: iso(Date.parse(second.startDate) + 3_600_000), endDate: undefined } } }],
    });
    expect(gap.status).toBe(400);
    expect(gap.body.details.validationError.fieldViolations[0].field).toBe('bookings[1].bookedEntity.slot.startDate');
    const made = await emu.request('POST', '/_api/bookings-service/v2/multi_service_bookings', { bookings: [{ bookedEntity: { slot: first } }, { bookedEntity: { slot: second } }], returnFullEntity: true });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const group = made.body.multiServiceBooking;
    expect(group.bookings).toHaveLength(2);
    expect(group.bookings[0].booking.multiServiceBookingInfo).toEqual({ id: group.id, type: 'SEQUENTIAL_BOOKINGS' });
    const single = await action(group.bookings[0].bookingId, 'cancel', { revision: '1', flowControlSettings: { ignoreCancellationPolicy: true } });
    expect(code(single)).toBe('NOT_ALLOWED_TO_UPDATE_BOOKING_IN_MULTI_SERVICE_BOOKING');
    const base = `/_api/bookings-service/v2/multi_service_bookings/${group.id}`;
    const partial = await emu.request('POST', `${base}/confirm`, { confirmBookingsInfo: [{ bookingId: group.bookings[0].bookingId, revision: '1' }] });
    expect(partial.body.details.applicationError.code).toBe('NOT_ALL_BOOKINGS_WERE_SENT');
    const stale = await emu.request('POST', `${base}/confirm`, { confirmBookingsInfo: group.bookings.map((b: Json) => ({ bookingId: b.bookingId, revision: '9' })) });
    expect(stale.status).toBe(409);
    expect(stale.body.details.applicationError.code).toBe('BOOKING_REVISION_MISMATCH');
    const confirmed = await emu.request('POST', `${base}/confirm`, { confirmBookingsInfo: group.bookings.map((b: Json) => ({ bookingId: b.bookingId, revision: '1' })), returnFullEntity: true });
    expect(confirmed.body.multiServiceBooking.bookings.map((b: Json) => b.booking.status)).toEqual(['CONFIRMED', 'CONFIRMED']);
    const got = await emu.request('GET', `${base}?multiServiceBookingId=${group.id}`);
    expect(got.body.metadata.totalNumberOfScheduledBookings).toBe(2);
    const canceled = await emu.request('POST', `${base}/cancel`, { returnFullEntity: true, flowControlSettings: { ignoreCancellationPolicy: true } });
    expect(canceled.body.multiServiceBooking.bookings.map((b: Json) => b.booking.status)).toEqual(['CANCELED', 'CANCELED']);
  });
});

describe('extended bookings query', () => {
  it('filters on the documented paths, pages by cursor or offset, and counts the same', async () => {
    const slot = await appointmentSlot();
    const b = await book(slot);
    const byService = await emu.request('POST', '/_api/bookings-reader/v2/extended-bookings/query', {
      query: { filter: { 'bookedEntity.item.slot.serviceId': slot.serviceId, status: { $in: ['CREATED'] } }, cursorPaging: { limit: 100 } },
      withBookingAllowedActions: true,
      withBookingAttendanceInfo: true,
    });
    expect(byService.status).toBe(200);
    const found = byService.body.extendedBookings.find((e: Json) => e.booking.id === b.id);
    expect(found.allowedActions).toEqual(expect.objectContaining({ cancel: expect.any(Boolean), reschedule: expect.any(Boolean) }));
    expect(found.attendance).toEqual({ status: 'NOT_SET', numberOfAttendees: 0 });
    for (const e of byService.body.extendedBookings) expect(e.booking.bookedEntity.slot.serviceId).toBe(slot.serviceId);
    const ids = byService.body.extendedBookings.map((e: Json) => e.booking.id);
    expect(ids).toEqual([...ids].sort());
    const range = { startDate: { $gte: slot.startDate, $lt: slot.endDate } };
    const offset = await emu.request('POST', '/_api/bookings-reader/v2/extended-bookings/query', { query: { filter: range, paging: { limit: 1, offset: 0 } } });
    expect(offset.body.pagingMetadata).toMatchObject({ count: 1, offset: 0 });
    const count = await emu.request('POST', '/_api/bookings-reader/v2/extended-bookings/count', { filter: range });
    expect(count.body.count).toBe(offset.body.pagingMetadata.total);
  });

  it('records the domain events of each change', async () => {
    const b = await book(await appointmentSlot());
    await action(b.id, 'confirm', { revision: '1' });
    await action(b.id, 'cancel', { revision: '2', flowControlSettings: { ignoreCancellationPolicy: true } });
    const events = (await eventsAfter(emu, 0)).filter((e) => e.entityId === b.id).map((e) => e.type);
    expect(events).toEqual(['booking.created', 'booking.confirmed', 'booking.canceled']);
  });
});
