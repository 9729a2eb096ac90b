/**
 * The bookings behind a page of attendances, read this session for people: an attendance names its booking by
 * id, so the view (shared/view.ts) shows the booking's contact, service and start once `rememberBookings` has
 * read them. A leaf that the view and its reader both import.
 */
import type { ApiClient } from '../../../api/client.js';
import { extendedBookings } from '../../../api/extended-bookings.js';
import type { AttendanceRecord } from '../../../api/schemas/attendance.js';
import { BOOKING_VIEW, type BookingRow, rowOf } from '../../bookings/shared/view.js';

/** Booking id -> the booking as read. */
const read = new Map<string, BookingRow>();

/** A booking once read; undefined before. */
export function knownBooking(id: string | null | undefined): BookingRow | undefined {
  return id ? read.get(id) : undefined;
}

/** A booking's label (contact · service · time) once read; undefined before. */
export function bookingLabel(id: string | null | undefined): string | undefined {
  const b = knownBooking(id);
  return b ? (BOOKING_VIEW.label(b) ?? undefined) : undefined;
}

/**
 * Reads the bookings of `list` not read yet (one extended bookings query per 100) and keeps their labels.
 * @throws ApiError from the query
 */
export async function rememberBookings(api: ApiClient, list: readonly AttendanceRecord[], signal: AbortSignal): Promise<void> {
  const ids = [...new Set(list.map((a) => a.bookingId).filter((id): id is string => Boolean(id) && !read.has(id!)))];
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    const { extendedBookings: found } = await extendedBookings.queryExtendedBookings(api, { query: { filter: { id: { $in: chunk } }, cursorPaging: { limit: 100 } } }, { signal });
    for (const item of found) {
      const b = rowOf(item);
      if (b.id) read.set(b.id, b);
    }
  }
}
