/** `parseWhen`: the time forms people type, read in the zone in use. */
import { describe, expect, it } from 'vitest';
import { parseWhen, plusCalendarDays } from '../../../src/commands/shared/time.js';

// 2026-11-23T05:41Z is still Sunday 22 November, 21:41, in Los Angeles.
const NOW = Date.parse('2026-11-23T05:41:00Z');
const LA = 'America/Los_Angeles';
const at = (text: string, zone = LA) => new Date(parseWhen(text, zone, '--start', NOW)).toISOString();

describe('parseWhen', () => {
  it('reads dates and local times on the clock of the zone', () => {
    expect(at('2026-11-24')).toBe('2026-11-24T08:00:00.000Z');
    expect(at('2026-11-24T14:15')).toBe('2026-11-24T22:15:00.000Z');
    expect(at('2026-11-24 14:15', 'Europe/London')).toBe('2026-11-24T14:15:00.000Z');
    expect(at('2026-11-24T14:15Z')).toBe('2026-11-24T14:15:00.000Z');
  });

  it('reads today and tomorrow as the zone’s calendar days, with an optional time', () => {
    expect(at('today')).toBe('2026-11-22T08:00:00.000Z');
    expect(at('tomorrow')).toBe('2026-11-23T08:00:00.000Z');
    expect(at('tomorrow 14:15')).toBe('2026-11-23T22:15:00.000Z');
    expect(at('todayT9:30')).toBe('2026-11-22T17:30:00.000Z');
    expect(at('tomorrow 14:15', 'UTC')).toBe('2026-11-24T14:15:00.000Z');
    expect(at('now')).toBe('2026-11-23T05:41:00.000Z');
  });

  it('reads a weekday as the first such day after today on the zone’s calendar (one to seven days ahead)', () => {
    expect(at('mon')).toBe('2026-11-23T08:00:00.000Z');
    expect(at('Wednesday 18:00')).toBe('2026-11-26T02:00:00.000Z');
    expect(at('next wed 18:00')).toBe('2026-11-26T02:00:00.000Z');
    // Today is Sunday in Los Angeles: "sun" is a week away, never today.
    expect(at('sun')).toBe('2026-11-29T08:00:00.000Z');
    expect(at('SAT 9:30')).toBe('2026-11-28T17:30:00.000Z');
    // In UTC it is already Monday the 23rd: "mon" is the 30th.
    expect(at('mon', 'UTC')).toBe('2026-11-30T00:00:00.000Z');
    // Across the spring-forward change: a weekday's wall-clock time keeps its meaning.
    const march = Date.parse('2027-03-12T20:00:00Z');
    expect(new Date(parseWhen('mon 09:00', LA, '--start', march)).toISOString()).toBe('2027-03-15T16:00:00.000Z');
  });

  it('counts calendar days on the zone’s clock: a day across a daylight-saving change is 23 or 25 hours', () => {
    const spring = Date.parse('2027-03-14T08:00:00Z'); // midnight in Los Angeles, the day clocks go forward
    expect(plusCalendarDays(spring, 1, LA) - spring).toBe(23 * 3_600_000);
    const fall = Date.parse('2026-11-01T07:00:00Z'); // midnight in Los Angeles, the day clocks go back
    expect(plusCalendarDays(fall, 1, LA) - fall).toBe(25 * 3_600_000);
    expect(new Date(plusCalendarDays(NOW, 7, 'UTC')).toISOString()).toBe('2026-11-30T05:41:00.000Z');
  });

  it('refuses what is not a date or time, naming the flag', () => {
    expect(() => at('tomorrow 25:00')).toThrow(/--start: 'tomorrow 25:00' is not a real time/);
    expect(() => at('2026-02-30')).toThrow(/not a real date/);
    expect(() => at('next week')).toThrow(/--start: 'next week' is not a date or time/);
    expect(() => at('next')).toThrow(/not a date or time/);
    expect(() => at('wed 24:00')).toThrow(/not a real time/);
    expect(() => at('wedn')).toThrow(/not a date or time/);
  });
});
