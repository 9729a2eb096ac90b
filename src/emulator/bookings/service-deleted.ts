/**
 * What deleting a service does to its future sessions and their bookings (docs/wire.md §25; the SDK's `deleteService`: "Specify `{"preserveFutureSessionsWithParticipants": true}` to retain all
 * future sessions for the service. By default, all future sessions are canceled."):
 *
 * - by default every booking of the service still to come (a slot starting after now, a course ending after now)
 *   that holds or awaits a place (CREATED, CONFIRMED, PENDING, WAITING_LIST) is canceled, its policy window
 *   ignored (the business cancels), each with its `booking.canceled` event, and its customer notified when the
 *   call asks (`participantNotification`, notify.ts, action `service_deleted`);
 * - with `preserveFutureSessionsWithParticipants` those bookings are kept as they are (their sessions with
 *   participants stay on the calendar, holding the staff member's time) and nobody is notified: nothing changed
 *   for them. Sessions without participants are derived from the service (sessions.ts) and go with it.
 *
 * Bookings of a multi-service booking are canceled one by one (the group keeps its other bookings).
 */
import type { RequestContext } from '../serve.js';
import { type BookingDoc, calendarOf, serviceIdOf } from './model.js';
import { type NotificationRequest, notifyParticipants } from './notify.js';
import { cancelBooking } from './rules.js';

const AFFECTED: ReadonlySet<string> = new Set(['CREATED', 'CONFIRMED', 'PENDING', 'WAITING_LIST']);

/** The delete options of the services table (src/api/services.ts deleteOptions). */
export interface DeleteServiceOptions {
  preserveFutureSessionsWithParticipants?: boolean | null;
  participantNotification?: NotificationRequest | null;
}

/**
 * Applies a service delete's options to the service's future bookings (call it in the delete's transaction,
 * before or after the service document is removed).
 * @returns the bookings canceled (none with preserve)
 */
export function cancelFutureBookings(ctx: RequestContext<unknown>, serviceId: string, opts: DeleteServiceOptions): BookingDoc[] {
  if (opts.preserveFutureSessionsWithParticipants === true) return [];
  const cal = calendarOf(ctx);
  const ahead = (b: BookingDoc) => Date.parse(b.bookedEntity.schedule ? b.endDate : b.startDate) > cal.nowMs;
  const targets = [...cal.bookings.all()].filter((b) => serviceIdOf(b) === serviceId && AFFECTED.has(b.status) && ahead(b));
  return targets.map((b) => {
    const canceled = cancelBooking(cal, b.id, { ignorePolicy: true, asGroup: true });
    notifyParticipants(ctx, canceled, 'service_deleted', opts.participantNotification);
    return canceled;
  });
}
