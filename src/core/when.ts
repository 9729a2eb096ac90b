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

/** Calendar days from the day of `now` to the day of `date`, both on the clock of `zone` (negative: before). */
export function calendarDays(date: Date, now: Date, zone: string): number {
  const d = new TZDate(date.getTime(), zone);
  const n = new TZDate(now.getTime(), zone);
  return Math.round((Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) - Date.UTC(n.getFullYear(), n.getMonth(), n.getDate())) / DAY_MS);
}

/**
 * `date` for a table cell on a terminal, by the rule above, on the clock of `zone` (IANA name). '' for an
 * invalid date.
 */
export function timeText(date: Date, now: Date, zone: string): string {
  if (Number.isNaN(date.getTime())) return '';
  const days = calendarDays(date, now, zone);
  return format(new TZDate(date.getTime(), zone), days >= 0 && days <= 6 ? 'EEE HH:mm' : 'yyyy-MM-dd HH:mm');
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
