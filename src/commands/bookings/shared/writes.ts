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
import { extendedBookingOps } from '../../../api/extended-bookings.js';
import { listPages } from '../../../api/paging.js';
import { MAX_BULK_CREATE } from '../../../api/schemas/booking.js';
import { bodyRequest, invoke } from '../../../api/family.js';
import type { ApiClient } from '../../../api/client.js';
import { readingSender } from '../../../bulk/actions.js';
import type { Entity, EntityPort } from '../../../bulk/port.js';
import { type EntityView, wireFilter } from '../../shared/entity-view.js';
import { viewPort } from '../../shared/view-port.js';
import { createCall, type WriteSpec } from '../../shared/writes.js';
import { BOOKING_VIEW, type BookingRow, rowOf } from './view.js';

/**
 * A time of the wire (ISO text) or as parsed (Date) in ms since the epoch; NaN when absent. ISO text without an
 * offset is read as UTC, as the create reads a slot's `startDate` (not on this machine's clock, as Date.parse would).
 */
const msOf = (t: unknown): number =>
  t instanceof Date ? t.getTime() : typeof t === 'string' ? Date.parse(/(?:Z|[+-]\d\d(?::?\d\d)?)$/i.test(t.trim()) ? t : `${t.trim()}Z`) : Number.NaN;

interface CreateLine {
  bookedEntity?: { slot?: { serviceId?: string; startDate?: string; resource?: { id?: string } }; schedule?: { scheduleId?: string } };
  contactDetails?: { contactId?: string; email?: string; phone?: string; firstName?: string; lastName?: string };
}

/** The contact fields a line names, which a booking it made holds alike (compared without case). */
const CONTACT_FIELDS = ['contactId', 'email', 'phone', 'firstName', 'lastName'] as const;

/**
 * The bookings that a `--file` line's create could have made since `since` (ISO), oldest first: for a slot, the
 * bookings of its service starting at its time (and with its staff member, when it names one); for a course, the
 * bookings of its schedule; in both, for the line's contact: every contact field the line gives (contact id,
 * e-mail, phone, first and last name) alike, text without case. Read through the extended bookings query filtered by what the CLI filters on elsewhere
 * (the service and `startDate`, or the contact; mapped to the wire's paths as `bookings list` maps them), then
 * matched field by field.
 */
async function bookingsMadeBy(api: ApiClient, body: Record<string, unknown>, since: string, signal?: AbortSignal): Promise<Entity[]> {
  const line = (body.booking ?? {}) as CreateLine;
  const slot = line.bookedEntity?.slot;
  const schedule = line.bookedEntity?.schedule;
  const contact = line.contactDetails ?? {};
  const start = msOf(slot?.startDate);
  let filter: Record<string, unknown>;
  if (slot?.serviceId && Number.isFinite(start)) {
    filter = { 'bookedEntity.slot.serviceId': slot.serviceId, startDate: { $gte: new Date(start).toISOString(), $lt: new Date(start + 1000).toISOString() } };
  } else if (schedule?.scheduleId && (contact.contactId || contact.email)) {
    filter = contact.contactId ? { 'contactDetails.contactId': contact.contactId } : { 'contactDetails.email': contact.email };
  } else {
    return []; // nothing tells a booking this line made from another
  }
  const from = Date.parse(since);
  const made: Array<BookingRow & Entity> = [];
  for await (const page of listPages(api, extendedBookingOps.queryExtendedBookings, { filter: wireFilter(BOOKING_VIEW as EntityView<unknown>, filter), pageSize: 100, signal })) {
    for (const item of page.items) {
      const b = rowOf(item);
      if (!b.id || !(msOf(b.createdDate) >= from)) continue;
      if (slot) {
        const s = b.bookedEntity?.slot;
        if (s?.serviceId !== slot.serviceId || msOf(s?.startDate ?? b.startDate) !== start) continue;
        if (slot.resource?.id && s?.resource?.id !== slot.resource.id) continue;
      } else if (b.bookedEntity?.schedule?.scheduleId !== schedule?.scheduleId) continue;
      const held = (b.contactDetails ?? {}) as Record<string, unknown>;
      const fold = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v);
      if (CONTACT_FIELDS.some((k) => contact[k] !== undefined && fold(held[k]) !== fold(contact[k]))) continue;
      made.push({ ...b, id: b.id });
    }
  }
  return made.sort((a, b) => msOf(a.createdDate) - msOf(b.createdDate));
}

/** Bookings read with what the platform allows each (the policy windows), as the undo's plan needs them. */
function bookingPort(api: ApiClient): EntityPort {
  return viewPort(api, BOOKING_VIEW as EntityView<unknown>, { withBookingAllowedActions: true });
}

export const BOOKING_WRITES: WriteSpec = {
  view: BOOKING_VIEW as EntityView<unknown>,
  list: 'bookings list',
  port: bookingPort,
  create: createCall(bookingOps.createBooking, (body) => body, (reply) => reply.booking as Entity),
  // `bookings create --file`: the bulk create call, 40 per request, each body answered on its own.
  createMany: {
    chunkSize: MAX_BULK_CREATE,
    async create(api, bodies, signal) {
      const reply = await invoke(api, bookingOps.bulkCreateBooking, bodyRequest(bookingOps.bulkCreateBooking, { createBookingsInfo: bodies, returnFullEntity: true }), { signal });
      // A body the reply says nothing of stays undefined: it may have been made (see bodiesCreateAction).
      const answers: Array<Entity | { error: string; code?: string } | undefined> = bodies.map(() => undefined);
      for (const r of reply.results) {
        const m = r.itemMetadata;
        if (m.success && (r.item?.id ?? m.id)) answers[m.originalIndex] = (r.item ?? { id: m.id }) as Entity;
        else answers[m.originalIndex] = { error: `${m.error?.code ?? 'FAILED'}: ${m.error?.description ?? ''}`.trim(), ...(m.error?.code ? { code: m.error.code } : {}) };
      }
      return answers;
    },
    // A run resumed after a lost reply finds the bookings it made rather than making them twice.
    find: bookingsMadeBy,
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
