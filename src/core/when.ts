/**
 * The one time rule of the terminal (docs/architecture.md "Output and interaction"): a time is shown on the clock of one zone (the site's,
 * or `--tz`), and as short as it can be while it stays whole and unambiguous for a person at a front desk:
 *
 * - within six days before or after today: `Thu 22:00`
 * - otherwise within the same calendar year: `11-26 22:00`
 * - otherwise the date: `2027-11-12`
 *
 * Durations ("ends in 3 days") count calendar days in the same zone, so a duration and the date beside it
 * always agree. Piped output and JSON never come here: they stay ISO.
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
  const d = new TZDate(date.getTime(), zone);
  if (Math.abs(calendarDays(date, now, zone)) <= 6) return format(d, 'EEE HH:mm');
  if (d.getFullYear() === new TZDate(now.getTime(), zone).getFullYear()) return format(d, 'MM-dd HH:mm');
  return format(d, 'yyyy-MM-dd');
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
