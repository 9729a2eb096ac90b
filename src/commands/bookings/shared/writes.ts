/**
 * Bookings in the writes table (commands/shared/writes.ts): a single `bookings create` is a journaled one-item
 * create (the request `{booking, flowControlSettings?}` as its body; the new id and the revision it left in the
 * journal), `bookings create --file` one journaled change of one item per booking through the bulk create call
 * (createMany, each booking's intent journaled before it is sent), and `sitectl undo` takes each back by
 * cancelling the booking, if it still has the revision the create left. The undo's plan reads what the platform allows the booking (its allowed actions): only when the service's booking policy
 * would refuse the cancel (inside the cancellation window) is it sent with the policy lifted
 * (`ignoreCancellationPolicy`), since the booking being taken back is one sitectl made, not a customer's.
 * Bookings are not updated through this table (their verbs do: reschedule, participants, fields).
 */
import { bookingOps } from '../../../api/bookings.js';
import { MAX_BULK_CREATE } from '../../../api/schemas/booking.js';
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
  // `bookings create --file`: the bulk create call, 40 per request, each body answered on its own.
  createMany: {
    chunkSize: MAX_BULK_CREATE,
    async create(api, bodies, signal) {
      const reply = await invoke(api, bookingOps.bulkCreateBooking, { createBookingsInfo: bodies as never, returnFullEntity: true }, { signal });
      const answers: (Entity | { error: string; code?: string })[] = bodies.map(() => ({ error: 'no result for this booking in the reply' }));
      for (const r of reply.results) {
        const m = r.itemMetadata;
        if (m.success && (r.item?.id ?? m.id)) answers[m.originalIndex] = (r.item ?? { id: m.id }) as Entity;
        else answers[m.originalIndex] = { error: `${m.error?.code ?? 'FAILED'}: ${m.error?.description ?? ''}`.trim(), ...(m.error?.code ? { code: m.error.code } : {}) };
      }
      return answers;
    },
    // What a booking is, journaled before it is sent: what it books, when, and for whom.
    intent: (body) => {
      const b = (body.booking ?? {}) as { bookedEntity?: unknown; contactDetails?: unknown; totalParticipants?: unknown };
      return { bookedEntity: b.bookedEntity, contactDetails: b.contactDetails, ...(b.totalParticipants !== undefined ? { totalParticipants: b.totalParticipants } : {}) };
    },
  },
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
