import { describe, expect, it } from 'vitest';
import { setPath } from '../../../src/api/paths.js';
import {
  type ChangeSet,
  diffChange,
  isApplied,
  maskString,
  parseSets,
  parseSetValue,
  updateBody,
} from '../../../src/bulk/changes.js';
import { UserError } from '../../../src/core/errors.js';
import { SERVICE_VIEW } from '../../../src/commands/services/shared/view.js';

/** What the platform stores after applying `change` (each path set, `null` removes the field). */
function applyChange<T extends object>(entity: T, change: ChangeSet): T {
  const copy = structuredClone(entity) as Record<string, unknown>;
  for (const s of change.sets) setPath(copy, s.path, s.value === null ? undefined : structuredClone(s.value));
  return copy as T;
}

function errorOf(fn: () => unknown): UserError {
  try {
    fn();
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error('expected a UserError');
}

describe('parseSets', () => {
  it('parses JSON values and keeps text otherwise', () => {
    const c = parseSets(['defaultCapacity=12', 'hidden=true', 'name=Yoga 101', 'tags=["a","b"]', 'onlineBooking={"enabled":false}'], SERVICE_VIEW);
    expect(c.sets).toEqual([
      { path: 'defaultCapacity', value: 12 },
      { path: 'hidden', value: true },
      { path: 'name', value: 'Yoga 101' },
      { path: 'tags', value: ['a', 'b'] },
      { path: 'onlineBooking', value: { enabled: false } },
    ]);
    expect(c.mask).toEqual(['defaultCapacity', 'hidden', 'name', 'tags', 'onlineBooking']);
  });

  it('keeps money values and other string fields as strings, like the wire', () => {
    const c = parseSets(['payment.fixed.price.value=45', 'name=123', 'description=true'], SERVICE_VIEW);
    expect(c.sets.map((s) => s.value)).toEqual(['45', '123', 'true']);
  });

  it('splits at the first = only', () => {
    expect(parseSets(['description=a=b'], SERVICE_VIEW).sets[0]).toEqual({ path: 'description', value: 'a=b' });
  });

  it('names an unknown field and suggests the closest one', () => {
    const e = errorOf(() => parseSets(['nmae=x'], SERVICE_VIEW));
    expect(e.message).toBe('unknown field "nmae" in --set; did you mean "name"?');
    const nested = errorOf(() => parseSets(['payment.fixed.prcie.value=1'], SERVICE_VIEW));
    expect(nested.message).toBe('unknown field "payment.fixed.prcie" in --set; did you mean "payment.fixed.price"?');
  });

  it('refuses read-only fields', () => {
    for (const path of ['id', 'revision', 'createdDate', 'updatedDate', 'mainSlug.createdDate']) {
      expect(errorOf(() => parseSets([`${path}=x`], SERVICE_VIEW)).message).toBe(`field "${path}" is read-only and cannot be set`);
    }
  });

  it('refuses values of the wrong type, a missing =, duplicates and nested overlaps', () => {
    expect(errorOf(() => parseSets(['hidden=yes'], SERVICE_VIEW)).message).toMatch(/^invalid value for "hidden" in --set/);
    expect(errorOf(() => parseSets(['defaultCapacity=1.5'], SERVICE_VIEW)).message).toMatch(/^invalid value for "defaultCapacity"/);
    expect(errorOf(() => parseSets(['name'], SERVICE_VIEW)).message).toBe('invalid --set "name": expected path=value');
    expect(errorOf(() => parseSets(['name=a', 'name=b'], SERVICE_VIEW)).message).toBe('field "name" is set twice in --set');
    expect(errorOf(() => parseSets(['payment={}', 'payment.rateType=FIXED'], SERVICE_VIEW)).message).toBe(
      '--set "payment.rateType" lies inside "payment"',
    );
    expect(errorOf(() => parseSets(['locations.0.type=CUSTOM'], SERVICE_VIEW)).message).toBe('cannot set inside the list "locations" in --set');
    expect(errorOf(() => parseSets([], SERVICE_VIEW)).message).toBe('nothing to change');
  });

  it('allows null to clear an optional field', () => {
    expect(parseSets(['description=null'], SERVICE_VIEW).sets[0]).toEqual({ path: 'description', value: null });
  });
});

describe('parseSetValue', () => {
  it('is JSON first, text otherwise', () => {
    expect(parseSetValue('45')).toBe(45);
    expect(parseSetValue('"45"')).toBe('45');
    expect(parseSetValue('{"a":1}')).toEqual({ a: 1 });
    expect(parseSetValue('{not json')).toBe('{not json');
    expect(parseSetValue('null')).toBeNull();
  });
});

describe('apply, diff, mask', () => {
  const service = {
    id: 's1',
    revision: '7',
    name: 'Yoga',
    payment: { rateType: 'FIXED', fixed: { price: { value: '40', currency: 'USD' } } },
    updatedDate: new Date('2026-01-01T00:00:00Z'),
  };

  it('derives the comma-joined mask', () => {
    expect(maskString(parseSets(['name=A', 'payment.fixed.price.value=45'], SERVICE_VIEW))).toBe('name,payment.fixed.price.value');
  });

  it('applies a change without touching the original', () => {
    const change = parseSets(['payment.fixed.price.value=45', 'tagLine=new'], SERVICE_VIEW);
    const after = applyChange(service, change);
    expect(after.payment.fixed.price).toEqual({ value: '45', currency: 'USD' });
    expect((after as Record<string, unknown>).tagLine).toBe('new');
    expect(service.payment.fixed.price.value).toBe('40');
    expect(after.updatedDate).toEqual(service.updatedDate);
  });

  it('diffs old -> new values and sees an applied change', () => {
    const change = parseSets(['name=Yoga', 'payment.fixed.price.value=45', 'description=x'], SERVICE_VIEW);
    expect(diffChange(service, change)).toEqual([
      { path: 'payment.fixed.price.value', before: '40', after: '45' },
      { path: 'description', before: undefined, after: 'x' },
    ]);
    expect(isApplied(service, change)).toBe(false);
    expect(isApplied(applyChange(service, change), change)).toBe(true);
    expect(isApplied(service, parseSets(['name=Yoga'], SERVICE_VIEW))).toBe(true);
  });

  it('recognises an applied value that the platform completed with derived fields', () => {
    const change = parseSets(['payment.fixed.price={"value":"45","currency":"USD"}', 'tags=["a"]'], SERVICE_VIEW);
    const stored = applyChange(service, change);
    stored.payment.fixed.price = { value: '45', currency: 'USD', formattedValue: '$45.00' } as typeof stored.payment.fixed.price;
    expect(isApplied(stored, change)).toBe(true);
    // ...but the plan still sends it: the mask replaces the whole object.
    expect(diffChange(stored, change).map((d) => d.path)).toEqual(['payment.fixed.price']);
    const otherValue = applyChange(stored, parseSets(['payment.fixed.price={"value":"46","currency":"USD"}'], SERVICE_VIEW));
    expect(isApplied(otherValue, change)).toBe(false);
    expect(isApplied(applyChange(stored, parseSets(['tags=["a","b"]'], SERVICE_VIEW)), change)).toBe(false);
  });

  it('treats an absent field and null as the same (clearing an absent field is no change)', () => {
    expect(diffChange(service, parseSets(['description=null'], SERVICE_VIEW))).toEqual([]);
  });

  it('builds the update body with id, revision and only the masked paths', () => {
    const change = parseSets(['payment.fixed.price.value=45', 'description=null'], SERVICE_VIEW);
    expect(updateBody('s1', '7', change)).toEqual({ id: 's1', revision: '7', payment: { fixed: { price: { value: '45' } } } });
  });
});
