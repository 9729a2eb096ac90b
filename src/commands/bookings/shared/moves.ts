/**
 * The two changes of one booking that can be made again the other way, as bulk-engine actions
 * (docs/architecture.md "Bulk runs, the journal, history and undo"): `bookings reschedule` (a booking to another
 * slot of its service) and `bookings participants` (how many take part). The CLI runs them as one-item plans;
 * `sitectl undo` runs the same action back to the slot or the number the journal's before-image kept, each only if
 * the booking still has the revision the change left (else "changed since", skipped), and a reschedule back only
 * if the former slot is still free (else "slot taken", skipped).
 */
import * as z from 'zod/mini';
import type { ApiClient } from '../../../api/client.js';
import { bookingOps } from '../../../api/bookings.js';
import { eachSender, type EntityAction, transitionAction } from '../../../bulk/actions.js';
import type { ItemResult } from '../../../bulk/execute.js';
import type { JournalArgs } from '../../../bulk/journal.js';
import { journalOptions } from '../../../bulk/journal-read.js';
import type { EntityPort } from '../../../bulk/port.js';
import { NOTIFY_OPTION, participantNotification } from '../../shared/notify.js';
import { viewPort } from '../../shared/view-port.js';
import type { EntityView } from '../../shared/entity-view.js';
import { BOOKING_VIEW, type BookingRow, serviceIdOf } from './view.js';

/** A booking's slot as a reschedule sends it and the journal keeps it. */
const SLOT = z.object({
  serviceId: z.string(),
  /** ISO instant. */
  startDate: z.string(),
  timezone: z.string(),
  /** The staff member (appointments); undefined: any free one. */
  staffId: z.optional(z.string()),
});
export type SlotOf = z.infer<typeof SLOT>;

/** The slot a booking has now (its before-image for a reschedule). */
export function slotOf(b: BookingRow): SlotOf {
  const slot = b.bookedEntity?.slot;
  return {
    serviceId: serviceIdOf(b) ?? '',
    startDate: b.startDate?.toISOString() ?? '',
    timezone: slot?.timezone ?? 'UTC',
    ...(slot?.resource?.id ? { staffId: slot.resource.id } : {}),
  };
}

/** How one booking of a move is changed (the type of a {@link moveTargets} entry). */
export type MoveTarget<T> = { to: T; expect?: string | undefined };
/**
 * How each booking of a move is changed: the target `to`, and `expect`, the revision the change being undone left
 * (a booking at another one was changed since and is skipped).
 */
const moveTargets = <T extends z.ZodMiniType>(to: T) => z.record(z.string(), z.object({ to, expect: z.optional(z.string()) }));

/** The platform's codes of a slot with no room, which an undo reports as "slot taken" (skipped). */
const TAKEN = new Set(['SLOT_NOT_AVAILABLE', 'SESSION_CAPACITY_EXCEEDED', 'SCHEDULE_CAPACITY_EXCEEDED']);

const port = (api: ApiClient): EntityPort => viewPort(api, BOOKING_VIEW as EntityView<unknown>);

/** Why a booking cannot be moved at all (a course; one of a group moves with it), with the command meant instead. */
export function unmovable(b: BookingRow): { reason: string; instead?(bin: string): string } | undefined {
  if (b.bookedEntity?.schedule) return { reason: 'it is of a course, which is booked whole' };
  const group = b.multiServiceBookingInfo?.id;
  if (group) return { reason: `it belongs to multi-service booking ${group}`, instead: (bin) => `move the group: ${bin} msb reschedule ${group} --start WHEN` };
  return undefined;
}

/** The moves of a reschedule (or its undo) as the journal's options keep them; `undo`: a slot with no room is skipped ("slot taken"), not a failure. */
export const RESCHEDULE_OPTIONS = z.object({
  moves: moveTargets(SLOT),
  ignorePolicy: z.optional(z.boolean()),
  skipAvailability: z.optional(z.boolean()),
  /** `--notify`: the customer is told of the move (an undo's options never carry it: a move back is silent). */
  notify: NOTIFY_OPTION,
  undo: z.optional(z.boolean()),
});
export type RescheduleOptions = z.infer<typeof RESCHEDULE_OPTIONS>;

/**
 * Moves each booking of `args.options.moves` to its slot, at the revision the plan read (`--revision` pins it).
 * Journals each booking's former slot (its before-image) and settles an unconfirmed move by reading it back.
 */
export function rescheduleRun(api: ApiClient, args: JournalArgs): { port: EntityPort; action: EntityAction } {
  const o = journalOptions(args, RESCHEDULE_OPTIONS);
  const target = (id: string) => o.moves[id];
  const flow = o.ignorePolicy || o.skipAvailability ? { flowControlSettings: { ...(o.ignorePolicy ? { ignoreReschedulePolicy: true } : {}), ...(o.skipAvailability ? { skipAvailabilityValidation: true } : {}) } } : {};
  const action = transitionAction<BookingRow>({
    name: 'reschedule',
    done: 'rescheduled',
    title: o.undo ? 'Undoing' : 'Rescheduling',
    reached: (b) => {
      const t = target(b.id)?.to;
      return t !== undefined && b.startDate?.toISOString() === t.startDate && (t.staffId === undefined || b.bookedEntity?.slot?.resource?.id === t.staffId);
    },
    blocked: (b) => {
      const expect = target(b.id)?.expect;
      if (expect !== undefined && b.revision !== expect) return `changed since (revision ${expect} -> ${b.revision})`;
      return unmovable(b)?.reason;
    },
    send: eachSender(
      api,
      bookingOps.rescheduleBooking,
      (item) => {
        const t = target(item.id)!.to;
        return {
          bookingId: item.id,
          revision: item.revision ?? '',
          slot: { serviceId: t.serviceId, startDate: t.startDate, timezone: t.timezone, ...(t.staffId ? { resource: { id: t.staffId } } : {}) },
          ...flow,
          ...participantNotification(o),
        };
      },
      (reply) => ({ revision: reply.booking.revision ?? undefined }),
    ),
    chunkSize: 1,
    args,
    beforeImage: (b) => slotOf(b),
  });
  const plain = action;
  return { port: port(api), action: o.undo ? takenIsSkipped(plain) : plain };
}

/** An undo's move: a former slot that has no room now is skipped as "slot taken" (exit 3), not failed. */
function takenIsSkipped(action: EntityAction): EntityAction {
  return {
    ...action,
    runner: (p) => {
      const runner = action.runner(p);
      return {
        ...runner,
        async settle(open, signal) {
          const taken = open.filter((o) => o.sent.status === 'refused' && TAKEN.has(o.sent.code ?? ''));
          const rest = open.filter((o) => !taken.includes(o));
          const settled = rest.length && runner.settle ? await runner.settle(rest, signal) : [];
          return [...taken.map((o): ItemResult => ({ id: o.item.id, outcome: 'skipped', error: `slot taken: the former slot has no room now (${o.sent.status === 'refused' ? o.sent.error : ''})` })), ...settled];
        },
      };
    },
  };
}

/** The participant counts of a change (or its undo) as the journal's options keep them. */
export const PARTICIPANTS_OPTIONS = z.object({ counts: moveTargets(z.number().check(z.int(), z.positive())), undo: z.optional(z.boolean()) });
export type ParticipantsOptions = z.infer<typeof PARTICIPANTS_OPTIONS>;

/** Why a booking's participants cannot change: an appointment is for one. */
export function fixedParticipants(b: BookingRow): string | undefined {
  return b.bookedEntity?.tags?.includes('INDIVIDUAL') ? 'it is an appointment: its participants cannot be changed' : undefined;
}

/** Sets each booking's number of participants (`args.options.counts`), journaling the former number. */
export function participantsRun(api: ApiClient, args: JournalArgs): { port: EntityPort; action: EntityAction } {
  const o = journalOptions(args, PARTICIPANTS_OPTIONS);
  const target = (id: string) => o.counts[id];
  const action = transitionAction<BookingRow>({
    name: 'participants',
    done: 'updated',
    title: o.undo ? 'Undoing' : 'Changing participants',
    reached: (b) => b.totalParticipants === target(b.id)?.to,
    blocked: (b) => {
      const expect = target(b.id)?.expect;
      if (expect !== undefined && b.revision !== expect) return `changed since (revision ${expect} -> ${b.revision})`;
      return fixedParticipants(b);
    },
    send: eachSender(
      api,
      bookingOps.updateNumberOfParticipants,
      (item) => ({ bookingId: item.id, revision: item.revision ?? '', totalParticipants: target(item.id)!.to }),
      (reply) => ({ revision: reply.booking.revision ?? undefined }),
    ),
    chunkSize: 1,
    args,
    beforeImage: (b) => ({ totalParticipants: b.totalParticipants }),
  });
  return { port: port(api), action: action };
}
