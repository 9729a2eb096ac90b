/**
 * pinnedIds (src/emulator/query/pinned.ts): the ids a by-filter job's filter names, always a superset of what the
 * filter evaluator matches, so the emulator may read only those documents.
 */
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../../src/emulator/query/filter.js';
import { pinnedIds } from '../../../src/emulator/query/pinned.js';

const A = '0b5a1c3e-0000-4000-8000-00000000000a';
const B = '0b5a1c3e-0000-4000-8000-00000000000b';
const C = '0b5a1c3e-0000-4000-8000-00000000000c';
const docs = [
  { id: A, revision: '1', name: 'Yoga' },
  { id: B, revision: '2', name: 'Yoga hot' },
  { id: C, revision: '1', name: 'Pilates' },
  { id: '50', revision: '1', name: 'Numeric id' },
  { id: '050', revision: '1', name: 'Numeric id too' },
];

describe('pinnedIds', () => {
  it.each([
    [{ id: A }, [A]],
    [{ id: { $eq: A } }, [A]],
    [{ id: { $in: [A, B] } }, [A, B]],
    [{ $and: [{ name: { $startsWith: 'Yoga' } }, { $or: [{ id: { $eq: A }, revision: { $eq: '1' } }, { id: { $eq: B }, revision: { $eq: '1' } }] }] }, [A, B]],
    [{ id: { $in: [A, B] }, $and: [{ id: { $in: [B, C] } }] }, [B]],
    [{ $or: [{ id: A }, { id: { $in: [C] } }] }, [A, C]],
  ])('%j pins %j', (filter, ids) => {
    expect([...pinnedIds(filter)!].sort()).toEqual([...ids].sort());
  });

  it.each([
    [{}],
    [{ name: 'Yoga' }],
    [{ $or: [{ id: A }, { name: 'Pilates' }] }],
    [{ id: { $ne: A } }],
    [{ $not: { id: A } }],
    // Numeric and date-like strings equal other spellings under the evaluator's coercions: not pinned.
    [{ id: '50' }],
    [{ id: { $in: [A, '2026-01-01'] } }],
    [null],
    ['id'],
  ])('%j pins nothing', (filter) => {
    expect(pinnedIds(filter)).toBeUndefined();
  });

  it('every document a filter matches is among the ids it pins', () => {
    const filters: unknown[] = [
      { $and: [{ name: { $startsWith: 'Yoga' } }, { $or: [{ id: { $eq: A }, revision: { $eq: '1' } }, { id: { $eq: B }, revision: { $eq: '2' } }] }] },
      { id: { $in: [A, C] }, name: { $contains: 'a' } },
      { $or: [{ id: B }, { id: C }] },
    ];
    for (const filter of filters) {
      const pinned = pinnedIds(filter)!;
      const matched = docs.filter(compileFilter(filter)).map((d) => d.id);
      expect(matched.length).toBeGreaterThan(0);
      for (const id of matched) expect(pinned.has(id)).toBe(true);
    }
  });
});
