/**
 * Times as people type them (`--from`, `--to`, `--start`): `2026-11-24` (the start of that day), `2026-11-24T09:30`
 * (on the clock of the zone in use), an ISO instant with `Z` or an offset, or `now`, `today`, `tomorrow`, a weekday
 * (`wed`, `wednesday` or `next wed`: the first such day after today, so one to seven days ahead), each of the day
 * words also with a time (`tomorrow 14:15`, `wed 18:00`). Weekdays let an example name a day a weekly timetable
 * always has, whatever day it is run on. The zone in use is `--tz`, else the site's (its default business
 * location's), else UTC. Parsed with date-fns and @date-fns/tz.
 */
import { TZDate } from '@date-fns/tz';
import type { ApiClient } from '../../api/client.js';
import { services } from '../../api/services.js';
import { isTimeZone } from '../../api/time-zones.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';

/** `--tz`, checked. @throws UserError (exit 2) for an unknown zone */
export function tzFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isTimeZone(value)) throw new UserError(`--tz: '${value}' is not a time zone`, 'use an IANA name such as America/New_York, Europe/London or UTC');
  return value;
}

/** The site's time zone: its default business location's (the first one's), else UTC. */
export async function siteZone(ctx: Context, api: ApiClient): Promise<string> {
  const { businessLocations } = await services.queryLocations(api, { filter: {} }, { signal: ctx.signal });
  const located = businessLocations.locations.filter((l) => l.timeZone && isTimeZone(l.timeZone));
  return (located.find((l) => l.default) ?? located[0])?.timeZone ?? 'UTC';
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
/** `today`, `tomorrow` or a weekday (`wed`, `wednesday`, `next wed`), optionally with a wall-clock time: `tomorrow 14:15`, `todayT09:30`. */
const RELATIVE = /^(today|tomorrow|(?:next\s+)?(?:mon|tue|wed|thu|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday))(?:[T ]\s*(\d{1,2}):(\d{2}))?$/i;
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** Days from today to the day `word` names: 0 today, 1 tomorrow, 1-7 for a weekday (the first one after today). */
function daysAhead(word: string, todayWeekday: number): number {
  const w = word.toLowerCase().replace(/^next\s+/, '');
  if (w === 'today') return 0;
  if (w === 'tomorrow') return 1;
  const target = WEEKDAYS.indexOf(w.slice(0, 3));
  return (target - todayWeekday + 7) % 7 || 7;
}
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * The instant `text` names (epoch ms), reading dates and local times in `zone`.
 * @param flag for messages: `--from`
 * @throws UserError (exit 2) for text that is not one of the forms above, or not a real date
 */
export function parseWhen(text: string, zone: string, flag: string, now = Date.now()): number {
  const t = text.trim();
  const today = () => {
    const d = new TZDate(now, zone);
    return new TZDate(d.getFullYear(), d.getMonth(), d.getDate(), 0, 0, 0, 0, zone);
  };
  let ms: number;
  const relative = RELATIVE.exec(t);
  if (t.toLowerCase() === 'now') ms = now;
  else if (relative) {
    const [, day, h, mi] = relative;
    if (h !== undefined && (Number(h) > 23 || Number(mi) > 59)) throw new UserError(`${flag}: '${text}' is not a real time`);
    const d = today();
    ms = new TZDate(d.getFullYear(), d.getMonth(), d.getDate() + daysAhead(day!, d.getDay()), Number(h ?? 0), Number(mi ?? 0), 0, 0, zone).getTime();
  } else if (WITH_OFFSET.test(t)) ms = Date.parse(t);
  else {
    const m = DATE.exec(t) ?? LOCAL.exec(t);
    if (!m) throw new UserError(`${flag}: '${text}' is not a date or time`, 'use 2026-11-24, 2026-11-24T09:30 (in --tz or the site’s zone), 2026-11-24T17:30Z, now, today, tomorrow, a weekday (wed: the next one) or \'tomorrow 14:15\'');
    const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
    const date = new TZDate(y, mo - 1, d, h, mi, s, 0, zone);
    if (date.getMonth() !== mo - 1 || date.getDate() !== d) throw new UserError(`${flag}: '${text}' is not a real date`);
    ms = date.getTime();
  }
  if (Number.isNaN(ms)) throw new UserError(`${flag}: '${text}' is not a real date`);
  return ms;
}

/** Whether `text` needs a zone to be read (a date or local time without an offset). */
export function needsZone(text: string | undefined): boolean {
  return text !== undefined && !WITH_OFFSET.test(text.trim()) && text.trim().toLowerCase() !== 'now';
}

/**
 * `days` calendar days after the instant `t` (epoch ms) on `zone`'s clock: the same wall-clock time, so a day across
 * a daylight-saving change is 23 or 25 hours (`--days N` of availability and of the bookings selection).
 */
export function plusCalendarDays(t: number, days: number, zone: string): number {
  const d = new TZDate(t, zone);
  d.setDate(d.getDate() + days);
  return d.getTime();
}
