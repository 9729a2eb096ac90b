/**
 * Multi-service bookings in the entity bulk engine (docs/architecture.md "Bulk runs, the journal, history and
 * undo"): the group verbs run as one-item plans, journaled, in `sitectl history`. The platform has no list of
 * groups, so the port reads a group by id only; a group has no revision of its own, so its revision is that of
 * its bookings (`bookingId@revision`, in the group's order): any change to a booking, or to who is in the group,
 * changes it. Every action reads the group again when it is sent ({@link readingSender}) and sends each booking at
 * the revision the plan saw; a group changed since is refused and settled as a conflict, never acted on.
 *
 * Undo (commands/undo): `msb add` and `msb remove` are undone by the opposite verb over the same bookings, and
 * `msb create` (the group's entry in the writes table, {@link GROUP_WRITES}) by cancelling the group it made; the
 * other group verbs cannot be undone.
 */
import type { ApiClient } from '../../../api/client.js';
import { ApiError } from '../../../api/errors.js';
import { bodyRequest } from '../../../api/family.js';
import { multiServiceBookings as calls, multiServiceBookingsFamily } from '../../../api/multi-service-bookings.js';
import type { MultiServiceBooking } from '../../../api/schemas/booking.js';
import { type EntityAction, readingSender, transitionAction } from '../../../bulk/actions.js';
import type { JournalArgs } from '../../../bulk/journal.js';
import { type Entity, type EntityPort, readWithRetries } from '../../../bulk/port.js';
import type { Context } from '../../../context.js';
import type { FormatFlags, OutputFormat } from '../../../core/output.js';
import type { OneNoun } from '../../shared/bulk.js';
import { type NotifyOption, participantNotification } from '../../shared/notify.js';
import type { WriteSpec } from '../../shared/writes.js';
import { groupFormat, infosOf, printGroup } from './group.js';

/** A group as the engine sees it: its id, its bookings' revisions as one, and the group as read (whole). */
export interface GroupEntity extends Entity {
  revision: string;
  group: MultiServiceBooking & { id: string };
}

const NOUN = { one: 'multi-service booking', many: 'multi-service bookings' };

/** The revision of a group: `bookingId@revision` of each booking, in order, comma-separated. */
export function groupRevision(g: MultiServiceBooking): string {
  return (g.bookings ?? []).map((e) => `${e.bookingId ?? e.booking?.id ?? ''}@${e.booking?.revision ?? ''}`).join(',');
}

/** The ids of a group's bookings, in order. */
export function memberIds(g: MultiServiceBooking): string[] {
  return (g.bookings ?? []).map((e) => e.bookingId ?? e.booking?.id ?? '').filter(Boolean);
}

/** `2 bookings`: how a group is labelled in questions and messages. */
function labelOf(e: unknown): string {
  const n = ((e as GroupEntity).group?.bookings ?? []).length;
  return `${n} booking${n === 1 ? '' : 's'}`;
}

/** How a single group verb names, prints and formats a group (commands/shared/one.ts runOneVerb). */
export const GROUP_NOUN: OneNoun = {
  noun: NOUN,
  label: labelOf,
  format: (flags: FormatFlags): OutputFormat => groupFormat(flags),
  print: (ctx: Context, format: OutputFormat, entity: unknown) => printGroup(ctx, format, (entity as GroupEntity).group),
};

/**
 * The port of multi-service bookings: by id only (each group read with its bookings; an unknown id is missing),
 * since the platform has no list to page.
 */
export function groupPort(api: ApiClient): EntityPort<GroupEntity> {
  const read = async (id: string, signal?: AbortSignal): Promise<GroupEntity | undefined> => {
    try {
      const { multiServiceBooking } = await calls.getMultiServiceBooking(api, { multiServiceBookingId: id }, { signal });
      const group = { ...multiServiceBooking, id: multiServiceBooking.id ?? id };
      return { id: group.id, revision: groupRevision(group), group };
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  };
  return {
    noun: NOUN,
    // eslint-disable-next-line require-yield
    async *pages() {
      throw new TypeError('multi-service bookings are selected by id: the platform has no list of them');
    },
    label: labelOf,
    async byIds(ids, signal) {
      const out = new Map<string, GroupEntity>();
      for (const id of ids) {
        const e = await readWithRetries(() => read(id, signal), signal);
        if (e) out.set(id, e);
      }
      return out;
    },
  };
}

/** The options of a group verb as its journal keeps them. */
export interface GroupOptions {
  /** pending: also for services that do not require approval. */
  skipApprovalCheck?: boolean;
  /** cancel, reschedule: inside the services' policy windows too. */
  ignorePolicy?: boolean;
  /** reschedule: the first booking's new start (ISO instant); the others keep their offsets. */
  start?: string;
  /** reschedule: the zone of a booking that has none. */
  zone?: string;
  /** add, remove: the bookings (full ids). */
  bookings?: string[];
  /** confirm, decline, pending, cancel, reschedule: `--notify` (commands/shared/notify.ts): the group's customer is told, once for the group. */
  notify?: NotifyOption;
}

const statusesOf = (g: MultiServiceBooking) => (g.bookings ?? []).map((e) => e.booking?.status);
const every = (g: MultiServiceBooking, status: string) => {
  const s = statusesOf(g);
  return s.length > 0 && s.every((x) => x === status);
};
const FINAL = new Set(['CANCELED', 'DECLINED']);

/** The group's state as its bookings tell it: `canceled` or `declined` when every booking is. */
function finalStateOf(g: MultiServiceBooking): string | undefined {
  const statuses = statusesOf(g);
  if (statuses.length === 0) return undefined;
  if (statuses.every((s) => s === 'CANCELED')) return 'canceled';
  if (statuses.every((s) => FINAL.has(String(s)))) return 'declined';
  return undefined;
}

/** The first booking's start, ms. */
const firstStart = (g: MultiServiceBooking) => g.bookings?.[0]?.booking?.startDate?.getTime();

/** One group verb: what it reaches, what blocks it, the call it makes (given the group as it is when sent). */
export interface GroupVerbSpec {
  verb: 'confirm' | 'decline' | 'pending' | 'cancel' | 'reschedule' | 'add' | 'remove';
  /** The outcome (`confirmed`), said in "already ..." and in the history. */
  done: string;
  title: string;
  /** Asks first even for one group (commands/shared/confirm.ts). */
  destructive: boolean;
  /** True when the group is as asked already (nothing is sent). */
  reached(g: MultiServiceBooking, o: GroupOptions): boolean;
  /** Why the group cannot make the change (nothing is sent), and the command meant instead. */
  blocked?(g: MultiServiceBooking & { id: string }, o: GroupOptions): { reason: string; instead?(bin: string): string } | undefined;
  /** The call, given the group as it is now (at the revisions the plan saw). */
  send(api: ApiClient, g: MultiServiceBooking & { id: string }, o: GroupOptions, signal?: AbortSignal): Promise<unknown>;
}

/** Each booking's new slot when the group moves so its first booking starts at `start` (offsets kept). */
function movedSlots(g: MultiServiceBooking, start: number, zone: string) {
  const bookings = (g.bookings ?? []).map((e) => e.booking!).filter(Boolean);
  const shift = start - (bookings[0]?.startDate?.getTime() ?? start);
  return bookings.map((b) => ({
    bookingId: b.id,
    revision: b.revision ?? '',
    slot: { serviceId: b.bookedEntity?.slot?.serviceId ?? '', startDate: new Date((b.startDate?.getTime() ?? 0) + shift).toISOString(), timezone: b.bookedEntity?.slot?.timezone ?? zone },
  }));
}

/** The bookings of `o.bookings` at their current revisions, as add and remove take them. */
async function atRevisions(api: ApiClient, o: GroupOptions, signal?: AbortSignal) {
  const { fetchBooking } = await import('../../bookings/shared/read.js');
  const out: Array<{ bookingId: string; revision: string }> = [];
  for (const id of o.bookings ?? []) out.push({ bookingId: id, revision: (await fetchBooking(api, id, signal)).revision ?? '' });
  return out;
}

/** The group verbs, by name: what the CLI runs and what `sitectl undo` runs as the opposite of add and remove. */
export const GROUP_VERBS: Record<GroupVerbSpec['verb'], GroupVerbSpec> = {
  confirm: {
    verb: 'confirm',
    done: 'confirmed',
    title: 'Confirming',
    destructive: false,
    reached: (g) => every(g, 'CONFIRMED'),
    send: (api, g, o, signal) =>
      calls.confirmMultiServiceBooking(api, { multiServiceBookingId: g.id, confirmBookingsInfo: infosOf(g), returnFullEntity: false, ...participantNotification(o as Record<string, unknown>) }, { signal }),
  },
  decline: {
    verb: 'decline',
    done: 'declined',
    title: 'Declining',
    destructive: true,
    reached: (g) => every(g, 'DECLINED'),
    send: (api, g, o, signal) =>
      calls.declineMultiServiceBooking(api, { multiServiceBookingId: g.id, declineBookingsInfo: infosOf(g), returnFullEntity: false, ...participantNotification(o as Record<string, unknown>) }, { signal }),
  },
  pending: {
    verb: 'pending',
    done: 'pending',
    title: 'Marking pending',
    // The rule of `bookings pending` (and `msb confirm`): the bookings still await a decision; acts at once.
    destructive: false,
    reached: (g) => every(g, 'PENDING'),
    send: (api, g, o, signal) =>
      calls.markMultiServiceBookingAsPending(
        api,
        {
          multiServiceBookingId: g.id,
          markAsPendingBookingsInfo: infosOf(g),
          returnFullEntity: false,
          ...(o.skipApprovalCheck ? { flowControlSettings: { skipPendingApprovalServiceValidation: true } } : {}),
          ...participantNotification(o as Record<string, unknown>),
        },
        { signal },
      ),
  },
  cancel: {
    verb: 'cancel',
    done: 'cancelled',
    title: 'Cancelling',
    destructive: true,
    reached: (g) => every(g, 'CANCELED'),
    blocked: (g) => (statusesOf(g).length > 0 && statusesOf(g).every((s) => FINAL.has(String(s))) ? { reason: 'every booking of it is cancelled or declined already' } : undefined),
    send: (api, g, o, signal) =>
      calls.cancelMultiServiceBooking(
        api,
        { multiServiceBookingId: g.id, returnFullEntity: false, ...(o.ignorePolicy ? { flowControlSettings: { ignoreCancellationPolicy: true } } : {}), ...participantNotification(o as Record<string, unknown>) },
        { signal },
      ),
  },
  reschedule: {
    verb: 'reschedule',
    done: 'rescheduled',
    title: 'Rescheduling',
    // The rule of `bookings reschedule`: it can be moved again; acts at once.
    destructive: false,
    reached: (g, o) => o.start !== undefined && firstStart(g) === Date.parse(o.start),
    blocked: (g) => ((g.bookings ?? []).length === 0 ? { reason: 'it has no bookings' } : undefined),
    send: (api, g, o, signal) =>
      calls.rescheduleMultiServiceBooking(
        api,
        {
          multiServiceBookingId: g.id,
          rescheduleBookingsInfo: movedSlots(g, Date.parse(o.start ?? ''), o.zone ?? 'UTC'),
          returnFullEntity: false,
          ...(o.ignorePolicy ? { flowControlSettings: { ignoreReschedulePolicy: true } } : {}),
          ...participantNotification(o as Record<string, unknown>),
        },
        { signal },
      ),
  },
  add: {
    verb: 'add',
    done: 'added',
    title: 'Adding',
    destructive: false,
    reached: (g, o) => (o.bookings ?? []).every((b) => memberIds(g).includes(b)),
    // The rule the platform applies too: a canceled or declined group takes no more bookings.
    blocked: (g) => {
      const state = finalStateOf(g);
      return state ? { reason: `it is ${state}: bookings cannot be added to it`, instead: (bin) => `book the services as a new group: ${bin} msb create ...` } : undefined;
    },
    send: async (api, g, o, signal) => calls.addBookingsToMultiServiceBooking(api, { multiServiceBookingId: g.id, bookings: await atRevisions(api, o, signal) }, { signal }),
  },
  remove: {
    verb: 'remove',
    done: 'removed',
    title: 'Removing',
    destructive: false,
    reached: (g, o) => !(o.bookings ?? []).some((b) => memberIds(g).includes(b)),
    // A removal never leaves a group empty (the platform refuses it too): cancel the group instead.
    blocked: (g, o) => {
      const members = memberIds(g);
      const outside = (o.bookings ?? []).filter((b) => !members.includes(b));
      if (outside.length > 0 && outside.length < (o.bookings ?? []).length) return { reason: `not every booking given is in it (${outside.join(', ')} is not)`, instead: (bin) => `'${bin} msb get ${g.id}' lists its bookings` };
      if (members.length > 0 && members.every((m) => (o.bookings ?? []).includes(m))) {
        return { reason: `removing ${members.length === 1 ? 'its last booking' : 'every booking'} would leave it empty`, instead: (bin) => `cancel the group instead: ${bin} msb cancel ${g.id}` };
      }
      return undefined;
    },
    send: async (api, g, o, signal) => calls.removeBookingsFromMultiServiceBooking(api, { multiServiceBookingId: g.id, bookings: await atRevisions(api, o, signal) }, { signal }),
  },
};

/**
 * The port and action of a group verb over `args` (its options as the journal keeps them): what the CLI and
 * `sitectl undo` (the opposite of add and remove) run. The journal keeps each group's bookings and their
 * statuses and starts before the change.
 */
export function groupRun(spec: GroupVerbSpec, api: ApiClient, args: JournalArgs): { port: EntityPort; action: EntityAction } {
  const o = (args.options ?? {}) as GroupOptions;
  const port = groupPort(api);
  const action = transitionAction<GroupEntity>({
    name: spec.verb,
    done: spec.done,
    title: spec.title,
    reached: (e) => spec.reached(e.group, o),
    blocked: spec.blocked ? (e) => spec.blocked!(e.group, o)?.reason : undefined,
    send: readingSender(port, async (e, _item, signal) => {
      await spec.send(api, e.group, o, signal);
    }),
    chunkSize: 1,
    args,
    beforeImage: (e) => ({
      bookings: (e.group.bookings ?? []).map((b) => ({ bookingId: b.bookingId ?? b.booking?.id, status: b.booking?.status, startDate: b.booking?.startDate, revision: b.booking?.revision })),
    }),
  });
  return { port: port, action: action };
}

/**
 * Multi-service bookings in the writes table (commands/shared/writes.ts): `msb create` is a journaled one-item
 * create (the create request as its body; the group's id and revision, its bookings' revisions, in the journal),
 * and `sitectl undo` takes it back by cancelling the whole group, if none of its bookings changed since and no
 * booking was added or removed. The policy windows are lifted (`ignoreCancellationPolicy`) only when a booking's
 * policy would refuse the cancel (its allowed actions, read when the undo is sent), as for a booking's create.
 */
export const GROUP_WRITES: WriteSpec = {
  view: GROUP_NOUN,
  list: 'bookings list',
  port: (api) => groupPort(api),
  async create(api, body, signal) {
    const { multiServiceBooking } = await calls.createMultiServiceBooking(api, bodyRequest(multiServiceBookingsFamily.operations.createMultiServiceBooking, { ...body, returnFullEntity: true }), { signal });
    const group = { ...multiServiceBooking, id: multiServiceBooking.id ?? '' };
    return { id: group.id, revision: groupRevision(group), group } satisfies GroupEntity;
  },
  remove: {
    verb: 'cancel',
    done: GROUP_VERBS.cancel.done,
    chunkSize: 1,
    taken: (e) => every((e as GroupEntity).group, 'CANCELED'),
    send: (api) =>
      readingSender(groupPort(api), async (e, _item, signal) => {
        const { fetchBooking } = await import('../../bookings/shared/read.js');
        let ignorePolicy = false;
        for (const id of memberIds(e.group)) if ((await fetchBooking(api, id, signal)).allowedActions?.cancel === false) ignorePolicy = true;
        await GROUP_VERBS.cancel.send(api, e.group, ignorePolicy ? { ignorePolicy } : {}, signal);
      }),
  },
};
