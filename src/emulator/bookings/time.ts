/**
 * Wall-clock time in a site's or a caller's time zone (IANA names), for the scheduling engine: working hours
 * and weekly sessions are local times ("Mondays 18:00 in America/Los_Angeles"), instants are epoch ms, replies
 * are ISO-8601 UTC. Daylight-saving changes are handled: a weekly 18:00 class stays at 18:00 local time
 * across the change.
 *
 * The zone's UTC offset comes from @date-fns/tz (`tzOffset`, which asks Intl), cached per zone and hour: it
 * changes only at a transition, and a month of appointment slots over twenty staff members asks for it tens
 * of thousands of times. Local fields are then plain UTC arithmetic on the shifted instant.
 */
import { tzOffset } from '@date-fns/tz';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Weekday names as the platform writes them, Sunday first (the index is JavaScript's `getDay()`). */
export const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** ISO-8601 UTC text of an instant (`2026-01-30T13:30:00.000Z`). */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

const offsets = new Map<string, Map<number, number>>();
/** Zones whose offset cache is bounded (a long-running emulator sees few zones, but never grows without end). */
const MAX_HOURS_PER_ZONE = 200_000;

/** Minutes to add to UTC to get the wall-clock time of `zone` at the instant `ms`. */
function offsetAt(zone: string, ms: number): number {
  if (zone === 'UTC') return 0;
  let byHour = offsets.get(zone);
  if (!byHour) offsets.set(zone, (byHour = new Map()));
  const hour = Math.floor(ms / HOUR);
  let offset = byHour.get(hour);
  if (offset === undefined) {
    offset = tzOffset(zone, new Date(hour * HOUR));
    if (byHour.size >= MAX_HOURS_PER_ZONE) byHour.clear();
    byHour.set(hour, offset);
  }
  return offset;
}

/** The wall-clock fields of the instant in `zone`, as a Date whose UTC fields are those local fields. */
function wall(ms: number, zone: string): Date {
  return new Date(ms + offsetAt(zone, ms) * MINUTE);
}

/**
 * The instant at which `zone`'s clock shows these fields (month 0-11; out-of-range days roll over as in
 * `Date.UTC`). In a spring-forward gap the time after the gap is used; in a fall-back overlap, the first.
 */
function fromWall(y: number, mo: number, d: number, h: number, mi: number, s = 0, msec = 0, zone = 'UTC'): number {
  const asUtc = Date.UTC(y, mo, d, h, mi, s, msec);
  // The zone's offset just before and just after this wall time: equal except near a transition.
  const before = asUtc - offsetAt(zone, asUtc - DAY) * MINUTE;
  const after = asUtc - offsetAt(zone, asUtc + DAY) * MINUTE;
  const valid = [before, after].filter((t) => t + offsetAt(zone, t) * MINUTE === asUtc);
  // An overlap has two valid instants (take the first); a gap has none (the time after the gap).
  return valid.length ? Math.min(...valid) : before;
}

const OFFSET = /(Z|[+-]\d{2}:?\d{2})$/;

/**
 * The instant a request's date-time names. With an offset or `Z` it is that instant, unless `localIn` is given:
 * then the offset is ignored and the wall-clock time is read in that zone (the availability query's rule for
 * its `timezone`). Without an offset the time is local to `localIn`, else UTC.
 * @returns epoch ms, or NaN when the text is not a date-time
 */
export function instantOf(text: string, localIn?: string): number {
  if (!localIn) return Date.parse(OFFSET.test(text) ? text : `${text}Z`);
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?/.exec(text);
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s, frac] = m;
  return fromWall(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0), Number((frac ?? '0').padEnd(3, '0')), localIn);
}

/** The instant of wall-clock `hh:mm` on the local day that contains `dayMs`, in `zone`. */
export function atLocalTime(dayMs: number, hhmm: string, zone: string): number {
  const d = wall(dayMs, zone);
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return fromWall(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), h, m, 0, 0, zone);
}

/** Start (local midnight) of the day containing `ms`, in `zone`. */
export function startOfLocalDay(ms: number, zone: string): number {
  const d = wall(ms, zone);
  return fromWall(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 0, 0, 0, 0, zone);
}

/** The local midnights of every day that overlaps [from, to), in `zone`. */
export function localDays(from: number, to: number, zone: string): number[] {
  const out: number[] = [];
  let day = startOfLocalDay(from, zone);
  while (day < to) {
    out.push(day);
    const d = wall(day, zone);
    day = fromWall(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1, 0, 0, 0, 0, zone);
  }
  return out;
}

/** The weekday of the instant, in `zone`. */
export function weekdayOf(ms: number, zone: string): Weekday {
  return WEEKDAYS[wall(ms, zone).getUTCDay()]!;
}

/** `HH:mm` wall-clock time of the instant, in `zone`. */
export function localTimeOf(ms: number, zone: string): string {
  const d = wall(ms, zone);
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

/** The same wall-clock time `weeks` weeks after `ms`, in `zone` (DST-safe weekly recurrence). */
export function addLocalWeeks(ms: number, weeks: number, zone: string): number {
  const d = wall(ms, zone);
  return fromWall(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 7 * weeks, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds(), zone);
}

/** `YYYY-MM-DDThh:mm:ss`: the wall-clock date and time of the instant in `zone`, without an offset (the Time Slots API's local dates). */
export function localDateTimeOf(ms: number, zone: string): string {
  return wall(ms, zone).toISOString().slice(0, 19);
}

/** `YYYY-MM-DD` of the local day containing `ms` (for per-day limits such as `slotsPerDay`). */
export function localDateKey(ms: number, zone: string): string {
  return wall(ms, zone).toISOString().slice(0, 10);
}
