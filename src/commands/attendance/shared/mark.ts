/**
 * `sitectl attendance mark` (docs/bookings.md "Attendance"): who came to a booking's session, for one booking or
 * many (a session's bookings: `--service NAME --from WHEN`, any `--filter`/`--where` of bookings) as a previewed,
 * journaled run of the one engine. A state change of the booking's attendance, declared as a transition
 * (commands/shared/transition.ts): `--attended [--count N]` (default: all the booking's participants came),
 * `--not-attended`, `--not-set`. Sent 8 at a time through the platform's bulk set. Only a confirmed booking's
 * attendance is marked; more attendees than booked needs `--walk-ins`. The journal keeps each booking's former
 * attendance, so `sitectl undo` sets it back (or deletes one that did not exist) through {@link MARK_VALUE_VERB}.
 * The platform keeps no revision for attendance: its status and count stand in ({@link attendanceVersion}), so an
 * undo skips a booking whose attendance was marked otherwise since ("changed since").
 */
import * as z from 'zod/mini';
import type { Command } from 'commander';
import { attendance, attendanceFamily, MAX_ATTENDANCE_BULK } from '../../../api/attendance.js';
import type { ApiClient } from '../../../api/client.js';
import { AttendanceStatusValues } from '../../../api/schemas/attendance.js';
import { bulkSender } from '../../../bulk/actions.js';
import type { ChunkRunner, SentOutcome } from '../../../bulk/execute.js';
import { journalOptions } from '../../../bulk/journal-read.js';
import { fetchByIds } from '../../../bulk/port.js';
import { UserError } from '../../../core/errors.js';
import { parseCount } from '../../../core/numbers.js';
import { addCriteriaFlags, criteriaFilter, type CriteriaFlags, hasCriteria } from '../../bookings/shared/criteria.js';
import { fetchBooking } from '../../bookings/shared/read.js';
import { BOOKING_VIEW, type BookingRow, rowOf } from '../../bookings/shared/view.js';
import type { EntityView, KeyedVerb, TransitionOptions, TransitionSpec } from '../../shared/entity-view.js';
import { transitionVerb } from '../../shared/transition.js';
import type { ValueVerb } from '../../shared/values.js';
import { viewPort } from '../../shared/view-port.js';

type Booking = BookingRow & { id: string };

/**
 * The attendance's own version: the platform keeps no revision for it, so its status and count stand in
 * (`ATTENDED:2`, `none` when none was set). What a mark left is journaled as this, and its undo skips a booking
 * whose attendance is no longer that ("changed since").
 */
export function attendanceVersion(v: AttendanceValue): string {
  return v.absent ? 'none' : `${v.status}:${v.numberOfAttendees}`;
}

/**
 * A booking as `attendance mark` reads it: with its attendance, and the attendance's version as its revision
 * (journaled under the entity `attendance`).
 */
export const MARK_VIEW: EntityView<BookingRow> = {
  ...BOOKING_VIEW,
  noun: { one: 'booking', many: 'attendance' },
  params: { ...BOOKING_VIEW.params, withBookingAttendanceInfo: true },
  fromItem: (item) => {
    const b = rowOf(item);
    return { ...b, revision: attendanceVersion(attendanceValueOf(b)) };
  },
};

/** A booking's attendance as the journal keeps it: `absent` when none had been set (undo deletes the one made). */
const ATTENDANCE_VALUE = z.object({ status: z.enum(AttendanceStatusValues), numberOfAttendees: z.int(), absent: z.optional(z.boolean()) });
export type AttendanceValue = z.infer<typeof ATTENDANCE_VALUE>;

/** The options of `attendance mark` as the journal keeps them: the status, how many came, walk-ins allowed. */
const MARK_OPTIONS = z.object({ status: z.optional(z.enum(AttendanceStatusValues)), count: z.optional(z.int()), walkIns: z.optional(z.boolean()) });

/** The attendance a booking has now (its before-image). */
export function attendanceValueOf(b: BookingRow): AttendanceValue {
  const a = b.attendance;
  if (!a?.id) return { status: 'NOT_SET', numberOfAttendees: 0, absent: true };
  return { status: (AttendanceStatusValues as readonly string[]).includes(a.status ?? '') ? (a.status as AttendanceValue['status']) : 'NOT_SET', numberOfAttendees: a.numberOfAttendees ?? 0 };
}

/**
 * What the options give one booking: ATTENDED (the default: the interactive key marks it so) by `count`, or by
 * all its participants; NOT_ATTENDED and NOT_SET by none.
 */
function targetFor(b: BookingRow, options: Record<string, unknown>): AttendanceValue {
  const o = journalOptions({ options }, MARK_OPTIONS);
  const status = o.status ?? 'ATTENDED';
  return { status, numberOfAttendees: status === 'ATTENDED' ? (o.count ?? b.totalParticipants ?? 1) : 0 };
}

const holds = (b: BookingRow, v: AttendanceValue) => {
  const now = attendanceValueOf(b);
  return v.absent ? Boolean(now.absent) : !now.absent && now.status === v.status && now.numberOfAttendees === v.numberOfAttendees;
};

/** Marks each booking of a chunk (read first: the default count is its participants) in one bulk set. */
function markSender(api: ApiClient, options: Record<string, unknown>): ChunkRunner['send'] {
  const send = bulkSender(
    api,
    attendanceFamily.operations.bulkSetAttendance,
    (chunk) => ({ attendanceDetails: chunk.map((item) => ({ attendance: { bookingId: item.id, ...targets.get(item.id)! } })), returnFullEntity: false }),
    // What the mark left, journaled: its undo sets the former attendance back only over this.
    (item) => attendanceVersion(targets.get(item.id)!),
  );
  const targets = new Map<string, AttendanceValue>();
  return async (chunk, info) => {
    const now = await fetchByIds(viewPort<Booking>(api, MARK_VIEW), chunk.map((i) => i.id), info.signal);
    const gone: SentOutcome[] = chunk.filter((i) => !now.has(i.id)).map((i) => ({ id: i.id, status: 'refused', error: 'the booking no longer exists', httpStatus: 404 }));
    const present = chunk.filter((i) => now.has(i.id));
    for (const i of present) targets.set(i.id, targetFor(now.get(i.id)!, options));
    return present.length ? [...(await send(present, info)), ...gone] : gone;
  };
}

const plural = (n: number) => `${n} booking${n === 1 ? '' : 's'}`;

/** The declaration of `attendance mark` (and of the interactive key on bookings). */
export const MARK_SPEC: TransitionSpec<BookingRow> = {
  view: MARK_VIEW,
  verb: 'mark',
  command: 'attendance mark',
  description: "Mark who came to a booking's session (attended, with how many; not attended; not set), or to many bookings at once",
  examples: [
    'sitectl attendance mark 7c1e --attended',
    'sitectl attendance mark 7c1e --attended --count 2',
    'sitectl attendance mark 7c1e --not-attended --yes',
    "sitectl attendance mark --service 'Vinyasa Flow Yoga' --from today --days 1 --attended --dry-run",
  ],
  done: 'marked',
  title: 'Marking attendance',
  destructive: false,
  reached: (b, o) => holds(b, targetFor(b, o)),
  blocked: (b) => (b.status === 'CONFIRMED' ? undefined : `it is ${b.status} (attendance is marked for confirmed bookings)`),
  refused: (b, o) => {
    const t = targetFor(b, o);
    const booked = b.totalParticipants ?? 1;
    return t.numberOfAttendees > booked && !o.walkIns ? { reason: `${t.numberOfAttendees} came but it was booked for ${booked}`, lift: '--walk-ins' } : undefined;
  },
  // Said once marked, and when it was marked so already ("; nothing changed" follows).
  outcome: (after, label) => `booking ${after.id} (${label}): ${attendanceValueOf(after).status}, ${attendanceValueOf(after).numberOfAttendees} came`,
  fetch: (api, id, signal) => fetchBooking(api, id, signal),
  send: markSender,
  chunkSize: MAX_ATTENDANCE_BULK,
  // Its revision is the attendance's version (MARK_VIEW): nothing a user would pin.
  revisioned: false,
  beforeImage: (b) => attendanceValueOf(b),
  flags: (cmd: Command) => {
    cmd
      .option('--attended', 'they came (the default count: all the booking\'s participants)')
      .option('--not-attended', 'nobody came')
      .option('--not-set', 'clear what was marked')
      .option('--count <n>', 'how many came (with --attended)')
      .option('--walk-ins', 'allow more attendees than the booking has participants');
    addCriteriaFlags(cmd);
  },
  options: (o: TransitionOptions) => {
    const given = [o.attended, o.notAttended, o.notSet].filter(Boolean).length;
    if (given !== 1) throw new UserError('give one of --attended, --not-attended or --not-set');
    if (o.count !== undefined && !o.attended) throw new UserError('--count goes with --attended');
    const status = o.attended ? 'ATTENDED' : o.notAttended ? 'NOT_ATTENDED' : 'NOT_SET';
    return { status, ...(o.count !== undefined ? { count: parseCount(String(o.count), '--count', 1, 1000) } : {}), ...(o.walkIns ? { walkIns: true } : {}) };
  },
  hasCriteria: (o) => hasCriteria(o as CriteriaFlags),
  criteria: (o, ctx) => criteriaFilter(o as CriteriaFlags, ctx),
  question: (n) => `Mark the attendance of ${plural(n)}?`,
};

/**
 * A booking's attendance given a value: what `sitectl undo` runs with each booking's before-image (set back, or
 * the attendance the change made deleted when there was none).
 */
export const MARK_VALUE_VERB: ValueVerb<Booking, AttendanceValue> = {
  view: MARK_VIEW,
  name: 'mark',
  done: 'marked',
  title: 'Marking attendance',
  value: ATTENDANCE_VALUE,
  holds,
  inverse: (b) => attendanceValueOf(b),
  async send(api, b, v, signal) {
    const id = b.attendance?.id;
    if (v.absent) {
      if (id) await attendance.deleteAttendance(api, { attendanceId: id }, { signal });
    } else {
      await attendance.setAttendance(api, { attendance: { bookingId: b.id, status: v.status, numberOfAttendees: v.numberOfAttendees } }, { signal });
    }
    return { revision: attendanceVersion(v) };
  },
};

/** `sitectl attendance mark`. */
export const markVerb = () => transitionVerb<BookingRow>(MARK_SPEC);

/** The interactive key of bookings that marks a booking attended (all its participants came). */
export const MARK_KEY: KeyedVerb = { key: 'a', label: 'Attended', spec: MARK_SPEC as KeyedVerb['spec'] };
