/** The one column engine (core/columns.ts) and the one time rule (core/when.ts). */
import { describe, expect, it } from 'vitest';
import { cutStart, cutText, displayWidth, fitText, planColumns, planHeader, planLine, type ColumnShape, wrapText } from '../../../src/core/columns.js';
import { ageText, daysText, timeText } from '../../../src/core/when.js';

const shapes: ColumnShape[] = [
  { header: 'START', fit: 'whole' },
  { header: 'SERVICE', min: 10 },
  { header: 'CONTACT', min: 8 },
  { header: 'STATUS', fit: 'whole' },
  { header: 'STAFF', priority: 2 },
  { header: 'ID', fit: 'whole', priority: 1 },
];
const rows = [
  ['Thu 22:00', '瑜伽 Yoga 🧘 Flow', 'Isabella Johnson', 'CONFIRMED', 'Elena Petrova', '9ee87857'],
  ['11-26 22:00', 'Morning Wheel Throwing Pottery Course', 'Diego Kim', 'PENDING', 'Aiko Tanaka', '093046eb'],
];

describe('column engine', () => {
  it('measures display width: CJK and emoji take two cells', () => {
    expect(displayWidth('瑜伽 Yoga 🧘 Flow')).toBe(17);
    expect(displayWidth('abc')).toBe(3);
    expect(cutText('瑜伽 Yoga', 3)).toBe('瑜…');
    expect(displayWidth(fitText('瑜伽', 6))).toBe(6);
    expect(fitText('20', 5, 'right')).toBe('   20');
  });

  it('keeps every column whole when they fit, and lines up columns after wide characters', () => {
    const plan = planColumns(shapes, rows, 200);
    expect(plan).toMatchObject({ kept: [0, 1, 2, 3, 4, 5], hidden: 0 });
    const lines = rows.map((r) => planLine(plan, shapes, r));
    // The status column starts at the same display cell on both lines, whatever the service's characters.
    const at = (line: string, text: string) => displayWidth(line.slice(0, line.indexOf(text)));
    expect(at(lines[0]!, 'CONFIRMED')).toBe(at(lines[1]!, 'PENDING'));
    expect(planHeader(plan, shapes)).toMatch(/^START {8}SERVICE/);
  });

  it('drops the highest priority first, marks the header with ›, never cuts times, and cuts free text down to its minimum', () => {
    const plan = planColumns(shapes, rows, 80);
    expect(plan.kept).toEqual([0, 1, 2, 3]);
    expect(plan.hidden).toBe(2);
    expect(planHeader(plan, shapes)).toMatch(/ ›$/);
    const tight = planColumns(shapes, rows, 50);
    expect(tight.kept).toEqual([0, 1, 2, 3]);
    for (const row of rows) {
      const line = planLine(tight, shapes, row);
      expect(displayWidth(line)).toBeLessThanOrEqual(48);
      expect(line).toContain(row[0]);
      expect(line).toContain(row[3]);
    }
    // The widest free text gave way first.
    expect(tight.widths[1]).toBeLessThan(displayWidth(rows[1]![1]!));
    expect(tight.widths[1]).toBeGreaterThanOrEqual(10);
  });

  it('cuts a `cutFrom: start` column from its start, whole leading words first, and keeps its end', () => {
    const command = 'sitectl members approve --status PENDING';
    expect(cutStart(command, 40)).toBe(command);
    expect(cutStart(command, 33)).toBe('…members approve --status PENDING');
    expect(cutStart(command, 25)).toBe('…approve --status PENDING');
    expect(cutStart(command, 24)).toBe('…--status PENDING');
    // A word boundary that would leave more than a third of the cell empty: cut inside the word instead.
    expect(cutStart(command, 16)).toBe('…-status PENDING');
    expect(cutStart('0841fa2c-7d3e-4b1a-9c55', 10)).toBe('…4b1a-9c55');
    expect(cutStart('瑜伽瑜伽', 5)).toBe('…瑜伽');
    expect(cutStart('abc', 0)).toBe('');
    expect(fitText(command, 30, 'left', 'start')).toBe('…approve --status PENDING     ');
    // In a table: the cut column keeps the command's end; the other columns as before.
    const table: ColumnShape[] = [{ header: 'CHANGE', fit: 'whole' }, { header: 'COMMAND', cutFrom: 'start' }];
    const plan = planColumns(table, [['1a8197', command]], 30);
    expect(planLine(plan, table, ['1a8197', command])).toBe('1a8197  …--status PENDING');
  });

  it('a column that wants a width takes it from the columns dropped before it, and narrows once they are gone', () => {
    const command = 'sitectl members approve --where status=PENDING';
    const cols: ColumnShape[] = [
      { header: 'CHANGE', fit: 'whole' },
      { header: 'NOUN', priority: 2 },
      { header: 'PROFILE', priority: 3 },
      { header: 'COMMAND', priority: 1, want: 48, cutFrom: 'start' },
    ];
    const cells = [['1a8197', 'members', 'local', command]];
    // Wide: everything.
    expect(planColumns(cols, cells, 100).kept).toEqual([0, 1, 2, 3]);
    // Without `want` the profile would stay and COMMAND be cut to 34 cells; with it, the profile goes and COMMAND is whole.
    const plain = cols.map((c) => ({ ...c, want: undefined }));
    const without = planColumns(plain, cells, 65);
    expect(without.kept).toEqual([0, 1, 2, 3]);
    const withWant = planColumns(cols, cells, 65);
    expect(withWant.kept).toEqual([0, 1, 3]);
    expect(planLine(withWant, cols, cells[0]!)).toBe(`1a8197  members  ${command}`);
    // Narrow: the columns before it are gone, and COMMAND stays, shorter, rather than asking its want of itself.
    const narrow = planColumns(cols, cells, 40);
    expect(narrow.kept).toEqual([0, 3]);
    expect(planLine(narrow, cols, cells[0]!)).toBe('1a8197  …--where status=PENDING');
  });

  it('wraps words to a width with a hanging indent', () => {
    expect(wrapText('one two three four', 9, 2)).toEqual(['one two', '  three', '  four']);
  });

  it('cuts a word wider than the line, or with `whole` breaks it over lines and never joins its pieces', () => {
    expect(wrapText('id 0123456789abcdef end', 10, 2)).toEqual(['id', '  0123456…', '  end']);
    expect(wrapText('id 0123456789abcdef end', 10, 2, { whole: true })).toEqual(['id', '  01234567', '  89abcdef', '  end']);
    // The first line has no indent: a broken word's piece is not followed there by another piece and a space.
    expect(wrapText('0123456789a', 10, 2, { whole: true })).toEqual(['01234567', '  89a']);
    // Wide characters are never split.
    expect(wrapText('瑜伽瑜伽瑜伽', 6, 0, { whole: true })).toEqual(['瑜伽瑜', '伽瑜伽']);
  });
});

describe('time rule', () => {
  const now = new Date('2026-11-25T12:00:00Z'); // a Wednesday
  it('shows a time within the next 7 days as weekday and time, any other as date and time: one width per column', () => {
    expect(timeText(new Date('2026-11-25T13:00:00Z'), now, 'UTC')).toBe('Wed 13:00');
    expect(timeText(new Date('2026-11-26T22:00:00Z'), now, 'UTC')).toBe('Thu 22:00');
    expect(timeText(new Date('2026-12-01T22:00:00Z'), now, 'UTC')).toBe('Tue 22:00');
    // The seventh day on is no longer this week's weekday; the past never is.
    expect(timeText(new Date('2026-12-02T22:00:00Z'), now, 'UTC')).toBe('2026-12-02 22:00');
    expect(timeText(new Date('2026-11-24T08:00:00Z'), now, 'UTC')).toBe('2026-11-24 08:00');
    expect(timeText(new Date('2025-12-28T10:00:00Z'), now, 'UTC')).toBe('2025-12-28 10:00');
    // On the site's clock: 06:00 UTC is the evening before in Los Angeles.
    expect(timeText(new Date('2026-11-27T06:00:00Z'), now, 'America/Los_Angeles')).toBe('Thu 22:00');
    expect(timeText(new Date('nope'), now, 'UTC')).toBe('');
  });
  it('shows an age up to a day, then the time', () => {
    expect(ageText(new Date('2026-11-25T11:59:15Z'), now, 'UTC')).toBe('45s ago');
    expect(ageText(new Date('2026-11-25T11:57:00Z'), now, 'UTC')).toBe('3m ago');
    expect(ageText(new Date('2026-11-25T09:30:00Z'), now, 'UTC')).toBe('2h ago');
    expect(ageText(new Date('2026-11-24T11:00:00Z'), now, 'UTC')).toBe('2026-11-24 11:00');
    expect(ageText(new Date('2026-11-25T12:05:00Z'), now, 'Asia/Tokyo')).toBe('Wed 21:05');
  });
  it('counts durations in calendar days of the zone', () => {
    expect(daysText(new Date('2026-11-25T23:00:00Z'), now, 'UTC')).toBe('today');
    expect(daysText(new Date('2026-11-26T01:00:00Z'), now, 'UTC')).toBe('tomorrow');
    expect(daysText(new Date('2026-11-28T01:00:00Z'), now, 'UTC')).toBe('in 3 days');
    expect(daysText(new Date('2026-11-22T01:00:00Z'), now, 'UTC')).toBe('3 days ago');
  });
});
