import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { parseFilterFlags, parseFilterJson, parseScalar, parseSort } from '../../../src/core/filters.js';

describe('parseScalar', () => {
  it('types numbers, booleans, null, JSON and quoted strings', () => {
    expect(parseScalar('42')).toBe(42);
    expect(parseScalar('-1.5')).toBe(-1.5);
    expect(parseScalar('true')).toBe(true);
    expect(parseScalar('null')).toBeNull();
    expect(parseScalar('"50"')).toBe('50');
    expect(parseScalar('[1,"a"]')).toEqual([1, 'a']);
    expect(parseScalar('CLASS')).toBe('CLASS');
    expect(parseScalar('007')).toBe('007');
    expect(() => parseScalar('{oops')).toThrow(UserError);
  });
});

describe('parseFilterFlags', () => {
  it('returns undefined without flags, one condition as is, several under $and', () => {
    expect(parseFilterFlags({})).toBeUndefined();
    expect(parseFilterFlags({ where: ['type=CLASS'] })).toEqual({ type: 'CLASS' });
    expect(parseFilterFlags({ filter: '{"hidden":false}', where: ['defaultCapacity=10', 'payment.rateType=FIXED'] })).toEqual({
      $and: [{ hidden: false }, { defaultCapacity: 10 }, { 'payment.rateType': 'FIXED' }],
    });
  });

  it('rejects malformed JSON, non-objects, unknown operators and bad operator shapes', () => {
    expect(() => parseFilterFlags({ filter: '{bad' })).toThrow(/not valid JSON/);
    expect(() => parseFilterFlags({ filter: '[1]' })).toThrow(/must be a JSON object/);
    expect(() => parseFilterFlags({ filter: '{"type":{"$like":"x"}}' })).toThrow(/unknown operator '\$like' at type\.\$like/);
    expect(() => parseFilterFlags({ filter: '{"$or":[{"a":{"$regex":1}}]}' })).toThrow(/\$regex/);
    expect(() => parseFilterFlags({ filter: '{"type":{"$in":"CLASS"}}' })).toThrow(/needs an array/);
    expect(parseFilterJson('{"type":{"$in":["CLASS"]},"$not":{"hidden":true}}')).toEqual({
      type: { $in: ['CLASS'] },
      $not: { hidden: true },
    });
  });

  it('rejects a --where without = or with a bad field path', () => {
    expect(() => parseFilterFlags({ where: ['type'] })).toThrow(/expects field=value/);
    expect(() => parseFilterFlags({ where: ['=x'] })).toThrow(/expects field=value/);
    expect(() => parseFilterFlags({ where: ['a b=1'] })).toThrow(/not a field path/);
  });
});

describe('parseSort', () => {
  it('parses keys with optional order', () => {
    expect(parseSort('name')).toEqual([{ fieldName: 'name', order: 'ASC' }]);
    expect(parseSort('type,createdDate:desc')).toEqual([
      { fieldName: 'type', order: 'ASC' },
      { fieldName: 'createdDate', order: 'DESC' },
    ]);
    expect(() => parseSort('name:up')).toThrow(UserError);
    expect(() => parseSort('a:asc:b')).toThrow(UserError);
  });
});
