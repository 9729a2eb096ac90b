/**
 * Wall-clock time in a site's or a caller's time zone (IANA names), for the scheduling engine: working hours
 * and weekly sessions are local times ("Mondays 18:00 in America/Los_Angeles"), instants are epoch ms, replies
 * are ISO-8601 UTC. Daylight-saving changes are handled by @date-fns/tz: a weekly 18:00 class stays at 18:00
 * local time across the change.
 */
import { TZDate } from '@date-fns/tz';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Weekday names as the platform writes them, Sunday first (the index is JavaScript's `getDay()`). */
export const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** True when `zone` is an IANA time zone this Node knows (`UTC`, `Europe/London`, ...). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** ISO-8601 UTC text of an instant (`2026-01-30T13:30:00.000Z`). */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
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
  return new TZDate(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0), Number((frac ?? '0').padEnd(3, '0')), localIn).getTime();
}

/** The instant of wall-clock `hh:mm` on the local day that contains `dayMs`, in `zone`. */
export function atLocalTime(dayMs: number, hhmm: string, zone: string): number {
  const day = new TZDate(dayMs, zone);
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return new TZDate(day.getFullYear(), day.getMonth(), day.getDate(), h, m, 0, 0, zone).getTime();
}

/** Start (local midnight) of the day containing `ms`, in `zone`. */
export function startOfLocalDay(ms: number, zone: string): number {
  const d = new TZDate(ms, zone);
  return new TZDate(d.getFullYear(), d.getMonth(), d.getDate(), 0, 0, 0, 0, zone).getTime();
}

/** The local midnights of every day that overlaps [from, to), in `zone`. */
export function localDays(from: number, to: number, zone: string): number[] {
  const out: number[] = [];
  let day = startOfLocalDay(from, zone);
  while (day < to) {
    out.push(day);
    const d = new TZDate(day, zone);
    day = new TZDate(d.getFullYear(), d.getMonth(), d.getDate() + 1, 0, 0, 0, 0, zone).getTime();
  }
  return out;
}

/** The weekday of the instant, in `zone`. */
export function weekdayOf(ms: number, zone: string): Weekday {
  return WEEKDAYS[new TZDate(ms, zone).getDay()]!;
}

/** `HH:mm` wall-clock time of the instant, in `zone`. */
export function localTimeOf(ms: number, zone: string): string {
  const d = new TZDate(ms, zone);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** The same wall-clock time `weeks` weeks after `ms`, in `zone` (DST-safe weekly recurrence). */
export function addLocalWeeks(ms: number, weeks: number, zone: string): number {
  const d = new TZDate(ms, zone);
  return new TZDate(d.getFullYear(), d.getMonth(), d.getDate() + 7 * weeks, d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds(), zone).getTime();
}

/** `YYYY-MM-DD` of the local day containing `ms` (for per-day limits such as `slotsPerDay`). */
export function localDateKey(ms: number, zone: string): string {
  const d = new TZDate(ms, zone);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
