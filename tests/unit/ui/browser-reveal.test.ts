/**
 * `o` / `→` in a table whose optional columns do not all fit (docs/architecture.md "Interactive views"; as k9s
 * reveals hidden columns): the columns hidden at this width show instead of the optional ones that fitted; the key
 * columns stay; the header keeps its `›`; the key toggles back.
 */
import { describe, expect, it } from 'vitest';
import { browserKey } from '../../../src/ui/browser-keys.js';
import { paneTable, revealed } from '../../../src/ui/browser-layout.js';
import { browserReducer, initialBrowserState, initialPane } from '../../../src/ui/browser-state.js';

const columns = ['NAME', 'EMAIL', 'STATUS', 'JOINED', 'PHONE', 'ID'];
const shapes = [{ priority: 0 }, { priority: 0 }, { priority: 0 }, { priority: 2 }, { priority: 3 }, { priority: 1 }];
const row = { id: 'm1', cells: ['Ada Lovelace', 'ada@example.com', 'APPROVED', '2026-11-01', '+1 415 555 0101', '8f2a9c41-0000-4000-8000-000000000000'] };

describe('revealing hidden columns', () => {
  it('keeps the hidden columns as key columns and lets the optional ones that fitted give way, in reverse', () => {
    // At this width ID (priority 1) fitted; JOINED and PHONE did not.
    expect(revealed(shapes.map((s, i) => ({ ...s, header: columns[i]! })), [0, 1, 2, 5]).map((s) => s.priority)).toEqual([0, 0, 0, 0, 0, 3]);
  });

  it('shows the one optional column of a pane whose key columns fill the width', () => {
    const keyed = ['START', 'SERVICE', 'CONTACT', 'STATUS', 'ID'];
    const keyShapes = [{ fit: 'whole' as const }, { min: 10 }, { min: 10 }, { fit: 'whole' as const }, { priority: 2, fit: 'whole' as const }];
    const wide = { id: 'b1', cells: ['Fri 14:30', 'Morning Reformer Pilates for everyone', 'Isabella Johnson-Smith', 'CONFIRMED', '9ee87857'] };
    let state = initialBrowserState([initialPane('today', 'Today', keyed)], 20);
    expect(paneTable(state.panes[0]!, keyShapes, [wide], 50).header).toMatch(/^START\s+SERVICE\s+CONTACT\s+STATUS\s+›$/);
    state = browserReducer(state, { type: 'reveal' });
    const shown = paneTable(state.panes[0]!, keyShapes, [wide], 50);
    expect(shown.header).toMatch(/^START\s+SERV\S*\s+CONT\S*\s+STATUS\s+ID$/);
    expect(shown.header.length).toBeLessThanOrEqual(50);
  });

  it('o and → show the columns that did not fit instead of the optional ones that did, and toggle back', () => {
    let state = initialBrowserState([initialPane('members', 'Members', columns)], 20);
    const header = () => paneTable(state.panes[0]!, shapes, [row], 72).header;
    const before = header();
    expect(before).toMatch(/^NAME\s+EMAIL\s+STATUS\s+ID\s+›$/);
    for (const [input, key] of [['o', {}], ['', { rightArrow: true }]] as const) {
      const outcome = browserKey(state, input, key, { actions: [] });
      expect(outcome.kind).toBe('actions');
      if (outcome.kind === 'actions') for (const a of outcome.actions) state = browserReducer(state, a);
      const now = header();
      if (state.panes[0]!.reveal) {
        expect(now).toMatch(/^NAME\s+EMAIL\s+STATUS\s+JOINED\s+PHONE\s+›$/);
      } else {
        expect(now).toBe(before);
      }
    }
  });
});
