/** `rangeOf` (availability and availability multislot): `--days N` counts calendar days on the zone's clock. */
import { describe, expect, it } from 'vitest';
import { rangeOf } from '../../../src/commands/availability/slots.js';

const NOW = Date.parse('2026-11-23T05:41:00Z');
const LA = 'America/Los_Angeles';
const range = (opts: { from?: string; to?: string; days?: string }, zone = LA) => rangeOf(opts, zone, NOW).map((t) => new Date(t).toISOString());

describe('rangeOf', () => {
  it('ends --days N calendar days later, at midnight in the zone, across a DST change', () => {
    // Clocks go forward on 14 March 2027 in Los Angeles: two days from midnight are 47 hours.
    expect(range({ from: '2027-03-14', days: '2' })).toEqual(['2027-03-14T08:00:00.000Z', '2027-03-16T07:00:00.000Z']);
    // Clocks go back on 1 November 2026: that day has 25 hours, and --days 1 ends at the next midnight, not 23:00.
    expect(range({ from: '2026-11-01', days: '1' })).toEqual(['2026-11-01T07:00:00.000Z', '2026-11-02T08:00:00.000Z']);
    expect(range({ from: '2026-11-01', days: '1' }, 'Europe/London')).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z']);
  });

  it('keeps the wall-clock time of --from, and the default of 7 days is calendar days too', () => {
    expect(range({ from: '2027-03-13T09:30', days: '1' })).toEqual(['2027-03-13T17:30:00.000Z', '2027-03-14T16:30:00.000Z']);
    expect(range({ from: '2027-03-10' })).toEqual(['2027-03-10T08:00:00.000Z', '2027-03-17T07:00:00.000Z']);
  });

  it('allows 366 calendar days however many hours they hold, and no more', () => {
    // 9 March 2026 to 10 March 2027 is 366 days holding one fall-back change and no spring-forward: 8785 hours.
    expect(range({ from: '2026-03-09', days: '366' })).toEqual(['2026-03-09T07:00:00.000Z', '2027-03-10T08:00:00.000Z']);
    expect(range({ from: '2026-03-09', to: '2027-03-10' })[1]).toBe('2027-03-10T08:00:00.000Z');
    expect(() => range({ from: '2026-03-09', to: '2027-03-10T00:15' })).toThrow(/at most 366 days/);
    expect(() => range({ from: '2026-11-01', days: '367' })).toThrow(/--days/);
  });
});
