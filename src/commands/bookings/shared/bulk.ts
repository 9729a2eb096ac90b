/**
 * The bookings family's wiring of the entity bulk engine (docs/bookings.md "The CLI"): the port over the extended
 * bookings query (its items wrap the booking), and the senders of confirm and decline (one call per booking,
 * each at its planned revision: there is no bulk confirm at a revision) and cancel (the bulk cancel call, 100
 * per request, each item at its revision).
 */
import type { ApiClient } from '../../../api/client.js';
import { bookingOps } from '../../../api/bookings.js';
import { extendedBookingOps } from '../../../api/extended-bookings.js';
import { mapFilterFields } from '../../../api/paths.js';
import { bookingWirePath, MAX_BULK_CANCEL } from '../../../api/schemas/booking.js';
import { bulkSender, eachSender } from '../../../bulk/actions.js';
import type { ChunkRunner } from '../../../bulk/execute.js';
import { type Entity, type EntityPort, queryPort } from '../../../bulk/port.js';
import { BOOKING_VIEW, rowOf } from './view.js';

/** Bookings as the bulk engine reads them: pages of 100 by id, labelled by contact, service and time. */
export function bookingsPort(api: ApiClient): EntityPort {
  return queryPort(api, {
    query: extendedBookingOps.queryExtendedBookings,
    noun: BOOKING_VIEW.noun,
    entity: (item) => rowOf(item) as unknown as Entity,
    wire: (filter) => mapFilterFields(filter, bookingWirePath),
    label: (b) => BOOKING_VIEW.label(b as never),
    // What the platform allows each booking (policy windows): the plan lists a refusal before anything is sent.
    params: { withBookingAllowedActions: true },
  });
}

/** Bookings per request of the per-booking actions (the engine runs several such chunks at once). */
export const EACH_CHUNK = 10;

/** Confirm each booking at its planned revision. */
export function confirmSender(api: ApiClient): ChunkRunner['send'] {
  return eachSender(api, bookingOps.confirmBooking, (item) => ({ bookingId: item.id, revision: item.revision ?? '' }), (reply) => ({ revision: reply.booking.revision ?? undefined }));
}

/** Decline each booking at its planned revision. */
export function declineSender(api: ApiClient): ChunkRunner['send'] {
  return eachSender(api, bookingOps.declineBooking, (item) => ({ bookingId: item.id, revision: item.revision ?? '' }), (reply) => ({ revision: reply.booking.revision ?? undefined }));
}

/** Mark each booking as pending at its planned revision. */
export function pendingSender(api: ApiClient, options: Record<string, unknown>): ChunkRunner['send'] {
  return eachSender(
    api,
    bookingOps.markBookingAsPending,
    (item) => ({ bookingId: item.id, revision: item.revision ?? '', ...(options.skipApprovalCheck ? { flowControlSettings: { skipPendingApprovalServiceValidation: true } } : {}) }),
    (reply) => ({ revision: reply.booking.revision ?? undefined }),
  );
}

/** Cancel through the bulk cancel call, 100 per request, each at its planned revision. */
export function cancelSender(api: ApiClient, options: Record<string, unknown>): ChunkRunner['send'] {
  return bulkSender(api, bookingOps.bulkCancelBooking, (chunk) => ({
    bookings: {
      bookingsInfo: chunk.map((item) => ({
        bookingId: item.id,
        revision: item.revision ?? undefined,
        ...(options.ignorePolicy ? { flowControlSettings: { ignoreCancellationPolicy: true } } : {}),
      })),
    },
    returnFullEntity: false,
  }));
}

export { MAX_BULK_CANCEL };
