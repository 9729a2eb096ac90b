/**
 * The bookings families on a real emulator (issue 6 sections 2 and 4): the status-by-action table, the capacity
 * race, reschedule into a full slot, policy windows, multi-service atomicity, availability excluding booked
 * staff, courses, the extended bookings query with the platform's filter paths, and the domain events. The demo
 * seed has no bookings here (`bookings: 0`), so every test sees only what it made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';
import { eventsAfter } from '../bulk/support.js';

let emu: TestEmulator;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
let services: Json[];

const DAY = 86_400_000;
const BOOKINGS = '/_api/bookings-service/v2/bookings';
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', bookings: 0 });
  services = (await emu.request('POST', '/_api/bookings/v2/services/query', { query: { paging: { limit: 100 } } })).body.services;
});
afterAll(async () => {
  await emu?.close();
});

const ofType = (type: string) => services.filter((s) => s.type === type);

/** Availability entries of a service over the next `days` days (from an hour from now). */
async function entries(serviceId: string, days = 20, extra: Record<string, unknown> = {}): Promise<Json[]> {
  const r = await emu.request('POST', '/availability-calendar/v1/availability/query', {
    query: { filter: { serviceId: [serviceId], startDate: iso(Date.now() + 3_600_000), endDate: iso(Date.now() + days * DAY), ...extra } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.availabilityEntries;
}

const used = new Set<string>();
/** A bookable appointment slot of `service` (or any appointment) not taken by another test. */
async function appointmentSlot(service?: Json): Promise<Json> {
  for (const s of service ? [service] : ofType('APPOINTMENT')) {
    for (const e of await entries(s.id, 20, { bookable: true })) {
      const key = `${e.slot.resource?.id}|${e.slot.startDate}`;
      if (used.has(key)) continue;
      used.add(key);
      return e.slot;
    }
  }
  throw new Error('no appointment slot left');
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

describe('the status table (wire section 9)', () => {
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
    const b = await book(await appointmentSlot());
    const service = services.find((s) => s.id === b.bookedEntity.slot.serviceId);
    const plain = await action(b.id, 'mark_booking_as_pending', { revision: '1' });
    if (!service.onlineBooking?.requireManualApproval) expect(code(plain)).toBe('INVALID_BOOKING_STATUS');
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
    let session: Json;
    for (const s of ofType('CLASS')) {
      session = (await entries(s.id, 30, { bookable: true })).find((e: Json) => e.openSpots >= 6);
      if (session) break;
    }
    expect(session, 'a class session with room').toBeDefined();
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
    const after = (await entries(session.slot.serviceId, 30)).find((e: Json) => e.slot.eventId === session.slot.eventId);
    expect(after.openSpots).toBe(0);
    expect(after.bookable).toBe(false);
    if (after.waitingList) expect(after.waitingList.openSpots).toBe(after.waitingList.totalSpots - waiting.length);
  });

  it('rescheduling into a taken appointment slot is SLOT_NOT_AVAILABLE and changes nothing', async () => {
    const a = await book(await appointmentSlot());
    const service = services.find((s) => s.id === a.bookedEntity.slot.serviceId);
    const other = await book(await appointmentSlot(service));
    const r = await action(a.id, 'reschedule', { revision: '1', slot: other.bookedEntity.slot, flowControlSettings: { ignoreReschedulePolicy: true } });
    expect(r.status).toBe(409);
    expect(code(r)).toBe('SLOT_NOT_AVAILABLE');
    const ok = await action(a.id, 'reschedule', { revision: '1', slot: await appointmentSlot(service), flowControlSettings: { ignoreReschedulePolicy: true } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.booking.revision).toBe('2');
  });

  it('availability leaves out a staff member booked at that time, for any of their services', async () => {
    const shared = ofType('APPOINTMENT').filter((s) => s.staffMemberIds?.length);
    const staffId = shared[0].staffMemberIds[0];
    const both = shared.filter((s) => s.staffMemberIds.includes(staffId));
    const slot = (await entries(both[0].id, 20, { bookable: true, resourceId: staffId }))[5].slot;
    await book(slot);
    for (const s of both) {
      const clash = (await entries(s.id, 20, { resourceId: staffId })).filter((e: Json) => Date.parse(e.slot.startDate) < Date.parse(slot.endDate) && Date.parse(e.slot.endDate) > Date.parse(slot.startDate));
      expect(clash).toEqual([]);
    }
  });

  it('a course is booked as a whole: its schedule fills up, and it cannot be rescheduled', async () => {
    const course = ofType('COURSE').find((s) => s.schedule?.firstSessionStart && Date.parse(s.schedule.firstSessionStart) > Date.now() + DAY);
    expect(course).toBeDefined();
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
    let session: Json;
    for (const s of ofType('CLASS')) {
      session = (await entries(s.id, 30, { bookable: true })).find((e: Json) => e.openSpots >= 3 && e.openSpots <= 30);
      if (session) break;
    }
    const b = await book(session.slot);
    const two = await action(b.id, 'update_number_of_participants', { revision: '1', totalParticipants: 2 });
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect(two.body.booking.totalParticipants).toBe(2);
  });
});

describe('booking policy windows', () => {
  it('too early (past the policy horizon) and too late (already started) are BOOKING_POLICY_VIOLATION unless skipped', async () => {
    const service = ofType('APPOINTMENT')[0];
    const far = (await entries(service.id, 120)).find((e: Json) => e.bookingPolicyViolations.tooEarlyToBook);
    expect(far, 'a slot beyond the booking horizon').toBeDefined();
    expect(far.bookable).toBe(false);
    const early = await create({ bookedEntity: { slot: far.slot } });
    expect(early.status).toBe(428);
    expect(code(early)).toBe('BOOKING_POLICY_VIOLATION');
    expect(early.body.details.applicationError.data).toMatchObject({ tooEarlyToBook: true });
    const forced = await create({ bookedEntity: { slot: far.slot } }, { flowControlSettings: { skipAvailabilityValidation: true } });
    expect(forced.status, JSON.stringify(forced.body)).toBe(200);
    const past = await emu.request('POST', '/availability-calendar/v1/availability/query', {
      query: { filter: { serviceId: service.id, startDate: iso(Date.now() - 3 * DAY), endDate: iso(Date.now() - DAY) } },
    });
    const gone = past.body.availabilityEntries[0];
    expect(gone.bookingPolicyViolations.tooLateToBook).toBe(true);
    const late = await create({ bookedEntity: { slot: gone.slot } });
    expect(late.body.details.applicationError).toMatchObject({ code: 'BOOKING_POLICY_VIOLATION', data: { tooLateToBook: true } });
  });

  it('allowed actions follow the cancellation window; cancelling inside it needs ignoreCancellationPolicy', async () => {
    // The first bookable slot is the soonest: inside a 24-hour cancellation window when the policy has one.
    const service = ofType('APPOINTMENT').find((s) => s.bookingPolicy?.cancellationPolicy?.latestCancellationInMinutes >= 1440);
    expect(service).toBeDefined();
    const soon = (await entries(service.id, 2, { bookable: true }))[0];
    const b = await book(soon.slot);
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
  async function chain(): Promise<Json[]> {
    const s = ofType('APPOINTMENT')[0];
    const r = await emu.request('POST', '/v1/availability/multislot', { from: iso(Date.now() + 3_600_000), to: iso(Date.now() + 20 * DAY), slots: [{ serviceId: s.id }, { serviceId: s.id }], bookable: true, cursorPaging: { limit: 100 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    for (const c of r.body.slots) {
      const key = `${c.nestedTimeSlots[0].resource?.id}|${c.nestedTimeSlots[0].start}`;
      if (used.has(key)) continue;
      used.add(key);
      used.add(`${c.nestedTimeSlots[1].resource?.id}|${c.nestedTimeSlots[1].start}`);
      expect(c.nestedTimeSlots[1].start).toBe(c.nestedTimeSlots[0].end);
      return c.nestedTimeSlots.map((n: Json) => ({ serviceId: n.serviceId, startDate: n.start, endDate: n.end, resource: n.resource }));
    }
    throw new Error('no chain');
  }

  it('keeps every part of a chain, and of a sequential group, at the first part’s location', async () => {
    // Two appointment services offered at more than one place each: chains could cross locations if allowed.
    const several = ofType('APPOINTMENT').filter((s) => (s.locations ?? []).length > 1);
    let r: Json;
    let b: Json;
    for (const [x, y] of several.flatMap((x, i) => several.slice(i + 1).map((y) => [x, y]))) {
      r = await emu.request('POST', '/v1/availability/multislot', { from: iso(Date.now() + 3_600_000), to: iso(Date.now() + 10 * DAY), slots: [{ serviceId: x.id }, { serviceId: y.id }], bookable: true, cursorPaging: { limit: 100 } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      b = y;
      if (r.body.slots.length > 0) break;
    }
    expect(r.body.slots.length).toBeGreaterThan(0);
    const second = await entries(b.id, 10);
    const placeOf = (start: string, staff: string) => second.find((e) => e.slot.startDate === start && e.slot.resource?.id === staff)?.slot.location.id;
    for (const c of r.body.slots) {
      const [, next] = c.nestedTimeSlots;
      // The listing grid of b may not hold a start that the chain puts on the booking grid: check those it holds.
      const place = placeOf(next.start, next.resource.id);
      if (place !== undefined) expect(place).toBe(c.slot.location.id);
    }
    const [first, then] = r.body.slots[0].nestedTimeSlots;
    used.add(`${first.resource.id}|${first.start}`);
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
    const free = (await entries(first.serviceId, 20, { resourceId: first.resource.id })).some((e: Json) => e.slot.startDate === first.startDate);
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
