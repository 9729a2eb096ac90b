/**
 * Sort specifications `[{fieldName, order: 'ASC'|'DESC'}]` (platform-wire.md section 6) compiled into a
 * comparator. Missing values sort first in ascending order; ties keep the store's creation order because
 * Array.prototype.sort is stable.
 */
import { ValidationFailure } from '../errors.js';
import { compilePath, first, sortCompare } from './values.js';

/** At most this many sort fields per query (spec 000 section 7: services query sort ≤ 50). */
export const MAX_SORT_FIELDS = 50;

export type Comparator = (a: unknown, b: unknown) => number;

/**
 * @param sort the request's sort array, or undefined for none (then `fallback` is used, if given).
 * @param field request field named in violations, e.g. `query.sort`.
 * @throws ValidationFailure when sort is not an array, has more than 50 entries, lacks a fieldName, or has an
 *   order other than ASC/DESC.
 */
export function compileSort(sort: unknown, field = 'query.sort', fallback?: Comparator): Comparator | undefined {
  if (sort === undefined || sort === null) return fallback;
  if (!Array.isArray(sort)) throw ValidationFailure.field(field, 'sort must be an array of {fieldName, order}');
  if (sort.length > MAX_SORT_FIELDS) {
    throw ValidationFailure.field(field, `at most ${MAX_SORT_FIELDS} sort fields are allowed`, 'MAX_SIZE');
  }
  if (sort.length === 0) return fallback;
  const keys = sort.map((s: unknown, i) => {
    const spec = s as { fieldName?: unknown; order?: unknown };
    if (typeof spec !== 'object' || spec === null || typeof spec.fieldName !== 'string' || spec.fieldName === '') {
      throw ValidationFailure.field(`${field}[${i}].fieldName`, 'fieldName is required', 'REQUIRED_FIELD');
    }
    const order = spec.order ?? 'ASC';
    if (order !== 'ASC' && order !== 'DESC') {
      throw ValidationFailure.field(`${field}[${i}].order`, 'order must be ASC or DESC', 'INVALID_ENUM_VALUE');
    }
    return { path: compilePath(spec.fieldName), sign: order === 'DESC' ? -1 : 1 };
  });
  return (a, b) => {
    for (const k of keys) {
      const c = sortCompare(first(a, k.path), first(b, k.path));
      if (c !== 0) return c * k.sign;
    }
    return 0;
  };
}
