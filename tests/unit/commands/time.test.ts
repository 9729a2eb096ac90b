/** `parseWhen`: the time forms people type, read in the zone in use. */
import { describe, expect, it } from 'vitest';
import { parseWhen } from '../../../src/commands/shared/time.js';

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

  it('refuses what is not a date or time, naming the flag', () => {
    expect(() => at('tomorrow 25:00')).toThrow(/--start: 'tomorrow 25:00' is not a real time/);
    expect(() => at('2026-02-30')).toThrow(/not a real date/);
    expect(() => at('next week')).toThrow(/--start: 'next week' is not a date or time/);
  });
});
