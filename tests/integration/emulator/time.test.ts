/**
 * The scheduling engine's wall-clock arithmetic (src/emulator/bookings/time.ts) against @date-fns/tz's TZDate
 * as the oracle, over a year in zones with daylight saving (including Lord Howe's half-hour shift) and
 * without; and the rules at the transitions: a time in a spring-forward gap lands after the gap, one in a
 * fall-back overlap on its first occurrence.
 */
import { TZDate } from '@date-fns/tz';
import { describe, expect, it } from 'vitest';
import { addLocalWeeks, atLocalTime, instantOf, localDateKey, localDays, localTimeOf, startOfLocalDay, WEEKDAYS, weekdayOf } from '../../../src/emulator/bookings/time.js';

const ZONES = ['America/Los_Angeles', 'Europe/London', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'];
const pad = (n: number) => String(n).padStart(2, '0');

describe('wall-clock time in a zone', () => {
  it.each(ZONES)('%s: local fields, midnights, local times and weekly steps agree with TZDate over 2026', (zone) => {
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 4 * 3_600_000 + 17 * 60_000) {
      const a = new TZDate(ms, zone);
      expect(localTimeOf(ms, zone)).toBe(`${pad(a.getHours())}:${pad(a.getMinutes())}`);
      expect(weekdayOf(ms, zone)).toBe(WEEKDAYS[a.getDay()]);
      expect(localDateKey(ms, zone)).toBe(`${a.getFullYear()}-${pad(a.getMonth() + 1)}-${pad(a.getDate())}`);
      expect(startOfLocalDay(ms, zone)).toBe(new TZDate(a.getFullYear(), a.getMonth(), a.getDate(), 0, 0, 0, 0, zone).getTime());
      expect(atLocalTime(ms, '09:30', zone)).toBe(new TZDate(a.getFullYear(), a.getMonth(), a.getDate(), 9, 30, 0, 0, zone).getTime());
      // A wall time in a fall-back overlap names two instants (TZDate picks either, by zone): compare wall fields.
      const week = addLocalWeeks(ms, 1, zone);
      const oracle = new TZDate(a.getFullYear(), a.getMonth(), a.getDate() + 7, a.getHours(), a.getMinutes(), 0, 0, zone).getTime();
      expect([localDateKey(week, zone), localTimeOf(week, zone)]).toEqual([localDateKey(oracle, zone), localTimeOf(oracle, zone)]);
      expect(Math.abs(week - oracle)).toBeLessThanOrEqual(3_600_000);
    }
  });

  it('a weekly 18:00 session stays at 18:00 local across the change to summer time', () => {
    const first = instantOf('2026-03-02T18:00:00', 'America/Los_Angeles');
    expect(new Date(first).toISOString()).toBe('2026-03-03T02:00:00.000Z');
    expect(new Date(addLocalWeeks(first, 1, 'America/Los_Angeles')).toISOString()).toBe('2026-03-10T01:00:00.000Z');
  });

  it('gaps land after the gap; overlaps on the first occurrence; offsets in the text are ignored when a zone is given', () => {
    expect(new Date(instantOf('2026-03-08T02:30:00', 'America/Los_Angeles')).toISOString()).toBe('2026-03-08T10:30:00.000Z');
    expect(new Date(instantOf('2026-11-01T01:30:00', 'America/Los_Angeles')).toISOString()).toBe('2026-11-01T08:30:00.000Z');
    expect(instantOf('2026-06-01T09:00:00+05:00', 'Europe/London')).toBe(Date.parse('2026-06-01T08:00:00Z'));
    expect(instantOf('2026-06-01T09:00:00+05:00')).toBe(Date.parse('2026-06-01T04:00:00Z'));
    expect(instantOf('not a date')).toBeNaN();
  });

  it('lists each local day once, 23- and 25-hour days included', () => {
    const days = localDays(Date.parse('2026-03-07T12:00:00Z'), Date.parse('2026-03-10T12:00:00Z'), 'America/Los_Angeles');
    expect(days.map((d) => localDateKey(d, 'America/Los_Angeles'))).toEqual(['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']);
  });
});
