/**
 * Bookings in the writes table (commands/shared/writes.ts): a single `bookings create` is a journaled one-item
 * create (the request `{booking, flowControlSettings?}` as its body; the new id and the revision it left in the
 * journal), and `sitectl undo` takes it back by cancelling the booking, if it still has that revision. The undo's
 * plan reads what the platform allows the booking (its allowed actions): only when the service's booking policy
 * would refuse the cancel (inside the cancellation window) is it sent with the policy lifted
 * (`ignoreCancellationPolicy`), since the booking being taken back is one sitectl made, not a customer's.
 * Bookings are not updated through this table (their verbs do: reschedule, participants, fields).
 */
import { bookingOps } from '../../../api/bookings.js';
import { invoke } from '../../../api/family.js';
import type { ApiClient } from '../../../api/client.js';
import { readingSender } from '../../../bulk/actions.js';
import type { Entity, EntityPort } from '../../../bulk/port.js';
import type { EntityView } from '../../shared/entity-view.js';
import { viewPort } from '../../shared/view-port.js';
import { createCall, type WriteSpec } from '../../shared/writes.js';
import { BOOKING_VIEW, type BookingRow } from './view.js';

/** Bookings read with what the platform allows each (the policy windows), as the undo's plan needs them. */
function bookingPort(api: ApiClient): EntityPort {
  return viewPort(api, BOOKING_VIEW as EntityView<unknown>, { withBookingAllowedActions: true });
}

export const BOOKING_WRITES: WriteSpec = {
  view: BOOKING_VIEW as EntityView<unknown>,
  list: 'bookings list',
  port: bookingPort,
  create: createCall(bookingOps.createBooking, (body) => body as never, (reply) => reply.booking as Entity),
  remove: {
    verb: 'cancel',
    done: 'canceled',
    chunkSize: 1,
    taken: (b) => (b as BookingRow).status === 'CANCELED',
    // Read again when sent: cancelled at the revision the plan saw, the policy lifted only where it refuses.
    send: (api) =>
      readingSender(bookingPort(api), async (b, item, signal) => {
        const refused = (b as BookingRow).allowedActions?.cancel === false;
        const reply = await invoke(
          api,
          bookingOps.cancelBooking,
          { bookingId: item.id, revision: item.revision ?? '', ...(refused ? { flowControlSettings: { ignoreCancellationPolicy: true } } : {}) },
          { signal },
        );
        return { revision: reply.booking.revision ?? undefined };
      }),
  },
};
