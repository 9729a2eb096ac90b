/**
 * Reading one booking: the platform has no "get booking" call, so it is the extended bookings query filtered by
 * id, with every extra (allowed actions, attendance, policy settings, fee details).
 */
import type { ApiClient } from '../../../api/client.js';
import { extendedBookings } from '../../../api/extended-bookings.js';
import { NotFoundError } from '../../../core/errors.js';
import { type BookingRow, rowOf } from './view.js';

/** Every extra of the extended bookings query. */
export const ALL_EXTRAS = {
  withBookingAllowedActions: true,
  withBookingAttendanceInfo: true,
  withBookingConferencingDetails: true,
  withBookingPolicySettings: true,
  withBookingFeeDetails: true,
} as const;

/**
 * One booking with every extra.
 * @throws NotFoundError (exit 1) when no booking has this id
 */
export async function fetchBooking(api: ApiClient, id: string, signal?: AbortSignal): Promise<BookingRow> {
  const { extendedBookings: found } = await extendedBookings.queryExtendedBookings(api, { query: { filter: { id }, cursorPaging: { limit: 1 } }, ...ALL_EXTRAS }, { signal });
  if (!found[0]) throw new NotFoundError(`booking ${id} was not found`, "'bookings list' shows the bookings");
  return rowOf(found[0]);
}
