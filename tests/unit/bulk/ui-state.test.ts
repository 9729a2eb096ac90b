import { describe, expect, it } from 'vitest';
import { confirmKeyAction, confirmReducer, initialConfirmState } from '../../../src/ui/confirm-state.js';
import {
  barCells,
  formatDuration,
  initialProgressState,
  progressLabel,
  progressReducer,
} from '../../../src/ui/progress-state.js';
import { cellText, columnWidths, layoutTable } from '../../../src/ui/table-layout.js';
import { cutText } from '../../../src/core/columns.js';

describe('confirm reducer', () => {
  it('answers with y/n at once and Enter takes the highlighted default', () => {
    const s = initialConfirmState(false);
    expect(confirmReducer(s, { type: 'yes' })).toEqual({ value: true, status: 'answered' });
    expect(confirmReducer(s, { type: 'no' })).toEqual({ value: false, status: 'answered' });
    expect(confirmReducer(s, { type: 'submit' })).toEqual({ value: false, status: 'answered' });
    const toggled = confirmReducer(s, { type: 'toggle' });
    expect(confirmReducer(toggled, { type: 'submit' })).toEqual({ value: true, status: 'answered' });
  });

  it('cancels and then ignores late keys', () => {
    const cancelled = confirmReducer(initialConfirmState(true), { type: 'cancel' });
    expect(cancelled.status).toBe('cancelled');
    expect(confirmReducer(cancelled, { type: 'yes' })).toBe(cancelled);
  });

  it('maps keys to actions', () => {
    expect(confirmKeyAction('y', {})).toEqual({ type: 'yes' });
    expect(confirmKeyAction('N', {})).toEqual({ type: 'no' });
    expect(confirmKeyAction('', { return: true })).toEqual({ type: 'submit' });
    expect(confirmKeyAction('', { leftArrow: true })).toEqual({ type: 'toggle' });
    expect(confirmKeyAction('c', { ctrl: true })).toEqual({ type: 'cancel' });
    expect(confirmKeyAction('', { escape: true })).toEqual({ type: 'no' });
    expect(confirmKeyAction('x', {})).toBeUndefined();
  });
});

describe('progress state', () => {
  it('never moves backwards or past the total', () => {
    let s = initialProgressState('Updating', 200);
    s = progressReducer(s, { done: 100, ratePerSec: 50, etaMs: 2000, failed: 1 });
    s = progressReducer(s, { done: 40 });
    expect(s.done).toBe(100);
    s = progressReducer(s, { done: 500 });
    expect(s.done).toBe(200);
  });

  it('formats the label and the bar', () => {
    const s = progressReducer(initialProgressState('Updating', 2000), { done: 512, ratePerSec: 85.2, etaMs: 17_400, failed: 3 });
    expect(progressLabel(s)).toBe('512/2000  25%  85/s  ETA 17s  3 failed');
    expect(progressLabel(progressReducer(s, { type: 'finish' }))).toBe('512/2000  25%  85/s  3 failed');
    expect(barCells(512, 2000, 20)).toEqual({ filled: 5, empty: 15 });
    expect(barCells(0, 0, 10)).toEqual({ filled: 10, empty: 0 });
    expect(formatDuration(undefined)).toBe('--');
    expect(formatDuration(185_000)).toBe('3m 05s');
    expect(formatDuration(3_720_000)).toBe('1h 02m');
  });
});

describe('table layout', () => {
  const columns = [{ key: 'id' }, { key: 'name', minWidth: 6 }];
  const rows = [
    { id: 'abc', name: 'a very long service name indeed' },
    { id: 'defgh', name: { x: 1 } },
  ];

  it('fits the width by shrinking the widest column first, with an ellipsis', () => {
    expect(columnWidths(columns, rows, 200)).toEqual([5, 31]);
    const { widths, body } = layoutTable(columns, rows, 20);
    expect(widths.reduce((a, b) => a + b, 0) + 2).toBeLessThanOrEqual(20);
    expect(body[0][1].trimEnd().endsWith('…')).toBe(true);
  });

  it('renders cells as text', () => {
    expect(cellText(undefined)).toBe('');
    expect(cellText({ x: 1 })).toBe('{"x":1}');
    expect(cellText('a\nb')).toBe('a b');
    expect(cutText('abcdef', 4)).toBe('abc…');
  });
});
