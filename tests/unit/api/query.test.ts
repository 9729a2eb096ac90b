import { describe, expect, it } from 'vitest';
import {
  and,
  base64UrlJson,
  fieldMask,
  fromBase64UrlJson,
  idIn,
  LONG_GET_THRESHOLD,
  or,
  parseFieldMask,
  toURLSearchParams,
} from '../../../src/api/query.js';

describe('toURLSearchParams (docs/wire.md §5)', () => {
  it('flattens nested objects with dots', () => {
    expect(toURLSearchParams({ sorting: { fieldName: 'createdDate', order: 'DESC' } }).toString()).toBe(
      'sorting.fieldName=createdDate&sorting.order=DESC',
    );
  });

  it('repeats keys for arrays of scalars', () => {
    expect(toURLSearchParams({ orderStatuses: ['ACTIVE', 'PAUSED'], limit: 50 }).toString()).toBe(
      'orderStatuses=ACTIVE&orderStatuses=PAUSED&limit=50',
    );
  });

  it('drops arrays of objects, undefined and null', () => {
    expect(toURLSearchParams({ a: [{ x: 1 }], b: undefined, c: null, d: false }).toString()).toBe('d=false');
  });

  it('sends dates as ISO strings', () => {
    expect(toURLSearchParams({ from: new Date('2026-01-30T13:30:00Z') }).toString()).toBe(
      'from=2026-01-30T13%3A30%3A00.000Z',
    );
  });

  it('complex payloads become .r=<base64url JSON> without padding (docs/wire.md §5)', () => {
    const params = toURLSearchParams({ paging: { limit: 10 }, fieldsets: ['FULL'] }, true);
    expect(params.toString()).toBe('.r=eyJwYWdpbmciOnsibGltaXQiOjEwfSwiZmllbGRzZXRzIjpbIkZVTEwiXX0');
    expect(fromBase64UrlJson(params.get('.r') ?? '')).toEqual({ paging: { limit: 10 }, fieldsets: ['FULL'] });
  });

  it('complex flag with object arrays also uses .r=; flat payloads stay plain', () => {
    expect(toURLSearchParams({ items: [{ id: 'a' }] }, true).has('.r')).toBe(true);
    expect(toURLSearchParams({ limit: 5, ids: ['a', 'b'] }, true).toString()).toBe('limit=5&ids=a&ids=b');
  });

  it('base64url uses - and _ and strips padding', () => {
    // JSON '">>>???"' is 'Ij4+Pj8/PyI=' in standard base64
    const encoded = base64UrlJson('>>>???');
    expect(encoded).toBe('Ij4-Pj8_PyI');
    expect(fromBase64UrlJson(encoded)).toBe('>>>???');
  });

  it('threshold is 4000 characters', () => {
    expect(LONG_GET_THRESHOLD).toBe(4000);
  });
});

describe('field masks and filters', () => {
  it('joins paths with commas, dropping empty and duplicate ones', () => {
    expect(fieldMask(['name', 'payment.fixed.price', '', 'name'])).toBe('name,payment.fixed.price');
    expect(parseFieldMask('name, description')).toEqual(['name', 'description']);
    expect(parseFieldMask({ paths: ['a'] })).toEqual(['a']);
  });

  it('and/or combine like the query builder', () => {
    expect(and()).toEqual({});
    expect(and({ type: 'CLASS' }, {})).toEqual({ type: 'CLASS' });
    expect(and({ type: 'CLASS' }, { hidden: false })).toEqual({ $and: [{ type: 'CLASS' }, { hidden: false }] });
    expect(or({ a: 1 }, { b: 2 })).toEqual({ $or: [{ a: 1 }, { b: 2 }] });
    expect(idIn(['x', 'y'])).toEqual({ id: { $in: ['x', 'y'] } });
  });
});
