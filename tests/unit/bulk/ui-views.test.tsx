/** The Ink views rendered to a string (no terminal): what the progress bar and the table draw. */
import { createElement } from 'react';
import { renderToString } from 'ink';
import { describe, expect, it } from 'vitest';
import { Progress } from '../../../src/ui/progress.js';
import { initialProgressState, progressReducer } from '../../../src/ui/progress-state.js';
import { Table } from '../../../src/ui/table.js';

describe('Ink views', () => {
  it('draws the progress bar with counts, rate, ETA and failures', () => {
    const state = progressReducer(initialProgressState('Updating', 200), { done: 50, ratePerSec: 25, etaMs: 6000, failed: 2 });
    const text = renderToString(createElement(Progress, { state, columns: 100 }), { columns: 100 });
    expect(text).toMatch(/^Updating █+░+ 50\/200 {2}25% {2}25\/s {2}ETA 6s {2}2 failed$/);
    const filled = (text.match(/█/g) ?? []).length;
    const empty = (text.match(/░/g) ?? []).length;
    expect(filled / (filled + empty)).toBeCloseTo(0.25, 1);
  });

  it('draws a table fitted to the width', () => {
    const text = renderToString(
      createElement(Table, {
        columns: [{ key: 'id', header: 'ID' }, { key: 'name', header: 'NAME' }],
        rows: [{ id: 'a1', name: 'Yoga' }, { id: 'b2', name: 'A rather long service name that will not fit' }],
        width: 30,
      }),
      { columns: 30 },
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe('ID  NAME');
    expect(lines[1]).toBe('a1  Yoga');
    expect(lines[2].length).toBeLessThanOrEqual(30);
    expect(lines[2]).toMatch(/^b2 {2}A rather long .*…$/);
  });
});
