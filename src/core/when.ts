/**
 * The one time rule of the terminal (docs/architecture.md "Output and interaction"): a time is shown on the clock
 * of one zone (a site's data in the site's zone or `--tz`'s; records of this machine, such as `history`, in the
 * machine's), the zone named once on the screen, and in one of two forms a person at a front desk reads at once:
 *
 * - within the next 7 days (today and the six days after it): `Fri 14:30`
 * - otherwise: `2026-11-27 14:30`
 *
 * An age (when a change was made, when an event came) reads `45s ago`, `3m ago`, `2h ago` up to a day, then as a
 * time. Durations ("ends in 3 days") count calendar days in the same zone, so a duration and the date beside it
 * always agree. Piped output and JSON never come here: they stay ISO 8601 in UTC.
 */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';

const DAY_MS = 24 * 3600 * 1000;

/** The zone of this machine (what a time is shown in when the caller knows no site zone). */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A wall-clock reading: year, month (1-12), day, hour (0-23), minute, weekday (`Mon`..`Sun`). */
interface Wall {
  year: number;
  month: number;
  day: number;
  hour: string;
  minute: string;
  weekday: string;
}

const wallFormats = new Map<string, Intl.DateTimeFormat>();
let lastNow: { ms: number; zone: string; wall: Wall } | undefined;

/**
 * The wall clock of `ms` in `zone` by one `formatToParts` of a formatter kept per zone (a table of 300 bookings
 * formats 300 times; a TZDate per reading cost about 4x as much).
 * @throws RangeError for an unknown zone
 */
function wallOf(ms: number, zone: string): Wall {
  let f = wallFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    wallFormats.set(zone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(ms)) parts[p.type] = p.value;
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: parts.hour ?? '00', minute: parts.minute ?? '00', weekday: parts.weekday ?? '' };
}

/** {@link wallOf} of `now`, the last one kept (every cell of a table is read against the same `now`). */
function nowWall(now: Date, zone: string): Wall {
  const ms = now.getTime();
  if (lastNow?.ms !== ms || lastNow.zone !== zone) lastNow = { ms, zone, wall: wallOf(ms, zone) };
  return lastNow.wall;
}

/** Whether a reading's year is one {@link wallOf} gives whole (no era, four digits). */
const plainYear = (w: Wall): boolean => w.year >= 1000 && w.year <= 9999;

/** Calendar days from the wall-clock day of `n` to that of `d` (both of plain years). */
const daysBetween = (d: Wall, n: Wall): number => Math.round((Date.UTC(d.year, d.month - 1, d.day) - Date.UTC(n.year, n.month - 1, n.day)) / DAY_MS);

/** Calendar days from the day of `now` to the day of `date`, both on the clock of `zone` (negative: before). */
export function calendarDays(date: Date, now: Date, zone: string): number {
  const d = wallOf(date.getTime(), zone);
  const n = nowWall(now, zone);
  if (plainYear(d) && plainYear(n)) return daysBetween(d, n);
  const dz = new TZDate(date.getTime(), zone);
  const nz = new TZDate(now.getTime(), zone);
  return Math.round((Date.UTC(dz.getFullYear(), dz.getMonth(), dz.getDate()) - Date.UTC(nz.getFullYear(), nz.getMonth(), nz.getDate())) / DAY_MS);
}

/**
 * `date` for a table cell on a terminal, by the rule above, on the clock of `zone` (IANA name). '' for an
 * invalid date. Years outside 1000-9999 are read by date-fns (the wall clock's year has no era or padding).
 */
export function timeText(date: Date, now: Date, zone: string): string {
  if (Number.isNaN(date.getTime())) return '';
  const w = wallOf(date.getTime(), zone);
  const n = nowWall(now, zone);
  if (!plainYear(w) || !plainYear(n)) {
    const days = calendarDays(date, now, zone);
    return format(new TZDate(date.getTime(), zone), days >= 0 && days <= 6 ? 'EEE HH:mm' : 'yyyy-MM-dd HH:mm');
  }
  const days = daysBetween(w, n);
  const week = days >= 0 && days <= 6;
  const two = (n: number) => String(n).padStart(2, '0');
  return week ? `${w.weekday} ${w.hour}:${w.minute}` : `${w.year}-${two(w.month)}-${two(w.day)} ${w.hour}:${w.minute}`;
}

/**
 * How long ago `date` was, for a person: `45s ago`, `3m ago`, `2h ago` under a day; from a day on (or for a time
 * still to come), the time by {@link timeText} on the clock of `zone`.
 */
export function ageText(date: Date, now: Date, zone: string): string {
  const ms = now.getTime() - date.getTime();
  if (Number.isNaN(ms)) return '';
  if (ms < 0 || ms >= DAY_MS) return timeText(date, now, zone);
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  return `${Math.floor(s / 3600)}h ago`;
}

/** `date` in full for a detail view on a terminal: `Thu 2026-11-26 22:00`, on the clock of `zone`. */
export function fullTimeText(date: Date, zone: string): string {
  if (Number.isNaN(date.getTime())) return '';
  return format(new TZDate(date.getTime(), zone), 'EEE yyyy-MM-dd HH:mm');
}

/**
 * How far `date` is from today in calendar days of `zone`, in words: `today`, `tomorrow`, `in 3 days`,
 * `yesterday`, `3 days ago`. The one duration of the terminal (the orders pane's "ends in 3 days").
 */
export function daysText(date: Date, now: Date, zone: string): string {
  const days = calendarDays(date, now, zone);
  if (days === 0) return 'today';
  if (days === 1) return 'tomorrow';
  if (days === -1) return 'yesterday';
  return days > 0 ? `in ${days} days` : `${-days} days ago`;
}

/**
 * The instant `days` calendar days after `from` on the clock of `zone`: the same wall-clock time, so a window of
 * days ends at a midnight of the site even across a daylight-saving change (a day of 23 or 25 hours).
 * @param from epoch milliseconds
 */
export function daysLater(from: number, days: number, zone: string): Date {
  const d = new TZDate(from, zone);
  d.setDate(d.getDate() + days);
  return new Date(d.getTime());
}
