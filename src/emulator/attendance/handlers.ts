/**
 * The attendance family served (docs/bookings.md "Attendance"): set (create or replace a booking's attendance,
 * one booking or up to 8 in bulk), get, query and count (the platform's query language over `bookingId`,
 * `eventId`, `status`, `numberOfAttendees`), delete. As on the platform, a status that disagrees with the number
 * of attendees is taken as sent; the booking must exist. An attendance set without a number counts 1 attendee
 * (the platform's default), one without a status is NOT_SET.
 */
import { attendanceFamily } from '../../api/attendance.js';
import { bulkReply } from '../bulk.js';
import { BOOKINGS } from '../bookings/model.js';
import { ApplicationFailure } from '../errors.js';
import { compileFilter, MAX_LIMIT, runSearch } from '../query/index.js';
import { serve, type RequestContext } from '../serve.js';
import { type AttendanceDoc, attendanceIdOf, attendanceOf, publicAttendance } from './model.js';

type Input = { bookingId: string; eventId?: string | null; status?: AttendanceDoc['status']; numberOfAttendees?: number };

/**
 * Creates or replaces the attendance of the input's booking (and session).
 * @throws ApplicationFailure 404 BOOKING_NOT_FOUND for a booking the site does not have
 */
function setOne(ctx: RequestContext<unknown>, input: Input): AttendanceDoc {
  const booking = ctx.db(BOOKINGS).get(input.bookingId);
  if (!booking) throw new ApplicationFailure(404, 'BOOKING_NOT_FOUND', `no booking has the id ${input.bookingId}`, { bookingId: input.bookingId });
  const all = attendanceOf(ctx);
  // A booking of one session (an appointment, a class) has its session's event: the attendance is that session's.
  const eventId = input.eventId ?? booking.bookedEntity?.slot?.eventId ?? undefined;
  const id = attendanceIdOf(input.bookingId, eventId);
  const current = all.get(id);
  const status = input.status ?? 'NOT_SET';
  const next: AttendanceDoc = {
    ...(current ?? {}),
    id,
    bookingId: input.bookingId,
    ...(eventId ? { eventId } : {}),
    status,
    numberOfAttendees: input.numberOfAttendees ?? 1,
    statusUpdatedDate: current && current.status === status ? (current.statusUpdatedDate ?? ctx.now) : ctx.now,
  };
  return current ? all.update(next) : all.insert(next);
}

/** Every attendance operation, served. */
export const attendanceServed = serve(attendanceFamily, {
  getAttendance(ctx) {
    return { attendance: publicAttendance(attendanceOf(ctx).require(ctx.body.attendanceId)) };
  },
  setAttendance(ctx) {
    return { attendance: publicAttendance(setOne(ctx, ctx.body.attendance)) };
  },
  bulkSetAttendance(ctx) {
    const items = ctx.body.attendanceDetails.map((d) => d.attendance);
    const reply = bulkReply(ctx.store, items, ctx.body.returnFullEntity ?? true, () => undefined, (a) => setOne(ctx, a));
    return { ...reply, results: reply.results.map(({ item, ...r }) => ({ ...r, ...(item ? { item: publicAttendance(item) } : {}) })) };
  },
  queryAttendance(ctx) {
    const query = ctx.body.query;
    // The platform pages up to 1,000; the emulator's query engine up to 100 (a client follows the cursor).
    const limit = Math.min(query.cursorPaging?.limit ?? 50, MAX_LIMIT);
    const page = runSearch(attendanceOf(ctx).all(), { ...query, cursorPaging: { ...query.cursorPaging, limit } }, 'query');
    return { attendances: page.items.map(publicAttendance), pagingMetadata: page.pagingMetadata };
  },
  countAttendances(ctx) {
    const accept = compileFilter(ctx.body.filter ?? {}, 'filter');
    let count = 0;
    for (const a of attendanceOf(ctx).all()) if (accept(a)) count++;
    return { count };
  },
  deleteAttendance(ctx) {
    attendanceOf(ctx).delete(ctx.body.attendanceId);
    return {};
  },
  bulkDeleteAttendances(ctx) {
    const all = attendanceOf(ctx);
    return bulkReply(ctx.store, ctx.body.attendanceIds, false, (id) => id, (id) => all.delete(id));
  },
});
