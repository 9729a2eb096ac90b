/**
 * The terminal's time rule (core/when.ts): a cell's text and the calendar days it counts are read from the wall
 * clock of the zone; they must be what date-fns' TZDate gives for the same instant, across daylight-saving
 * changes, zones east and west of UTC, half-hour zones, day and year ends, and far years.
 */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { describe, expect, it } from 'vitest';
import { calendarDays, timeText } from '../../../src/core/when.js';

const DAY = 86_400_000;

/** The rule as TZDate reads it: the reference. */
function reference(date: Date, now: Date, zone: string): { days: number; text: string } {
  const d = new TZDate(date.getTime(), zone);
  const n = new TZDate(now.getTime(), zone);
  const days = Math.round((Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) - Date.UTC(n.getFullYear(), n.getMonth(), n.getDate())) / DAY);
  return { days, text: format(new TZDate(date.getTime(), zone), days >= 0 && days <= 6 ? 'EEE HH:mm' : 'yyyy-MM-dd HH:mm') };
}

const ZONES = ['UTC', 'America/Los_Angeles', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Kiritimati', 'America/St_Johns'];
// Around the 2026 changes of the zones above (March/April, October/November), a year end and a leap day.
const NOWS = ['2026-03-08T09:59:00Z', '2026-03-29T00:30:00Z', '2026-04-04T15:45:00Z', '2026-10-25T00:59:00Z', '2026-11-01T08:00:00Z', '2026-12-31T23:30:00Z', '2028-02-28T22:15:00Z'];

describe('timeText and calendarDays', () => {
  it('read each instant as TZDate does, every 113 minutes over ten days around each change, in every zone', () => {
    let checked = 0;
    for (const zone of ZONES) {
      for (const at of NOWS) {
        const now = new Date(at);
        for (let ms = now.getTime() - 2 * DAY; ms < now.getTime() + 8 * DAY; ms += 113 * 60_000) {
          const date = new Date(ms);
          const want = reference(date, now, zone);
          expect(calendarDays(date, now, zone), `${date.toISOString()} from ${at} in ${zone}`).toBe(want.days);
          expect(timeText(date, now, zone), `${date.toISOString()} from ${at} in ${zone}`).toBe(want.text);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5_000);
  });

  it('reads years outside 1000-9999 and the edges of that range as date-fns does', () => {
    const now = new Date('2026-11-28T12:00:00Z');
    for (const iso of ['0999-12-31T23:00:00Z', '1000-01-01T12:00:00Z', '0050-06-01T00:00:00Z', '9999-12-31T12:00:00Z', '+010000-01-02T00:00:00Z', '-000044-03-15T12:00:00Z']) {
      const date = new Date(iso);
      for (const zone of ['UTC', 'America/Los_Angeles', 'Asia/Kolkata']) {
        expect(timeText(date, now, zone), `${iso} in ${zone}`).toBe(reference(date, now, zone).text);
        expect(calendarDays(date, now, zone), `${iso} in ${zone}`).toBe(reference(date, now, zone).days);
      }
    }
    // And a `now` far from today: the days count from its own calendar.
    const far = new Date('0800-05-05T10:00:00Z');
    expect(timeText(new Date('0800-05-07T10:00:00Z'), far, 'UTC')).toBe(reference(new Date('0800-05-07T10:00:00Z'), far, 'UTC').text);
  });

  it('gives an invalid date no text', () => {
    expect(timeText(new Date(Number.NaN), new Date(), 'UTC')).toBe('');
  });
});
