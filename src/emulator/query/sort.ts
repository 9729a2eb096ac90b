/**
 * Sort specifications `[{fieldName, order: 'ASC'|'DESC'}]` (docs/wire.md §6) compiled into a sorter.
 * Each document's keys are computed once (decorate-sort-undecorate), so sorting 10,000 services by name does
 * not re-parse values on every comparison. Missing values sort first in ascending order; ties keep the
 * store's creation order (the sort is stable).
 */
import { ValidationFailure } from '../errors.js';
import { compareKeys, compilePath, first, sortKey, type SortKey } from './values.js';

/** At most this many sort fields per query (docs/wire.md §14: services query sort ≤ 50). */
export const MAX_SORT_FIELDS = 50;

/** Sorts an array in place. */
export type Sorter = <T>(docs: T[]) => void;

/**
 * @param sort the request's sort array, or undefined for none (then undefined: keep the store's order).
 * @param field request field named in violations, e.g. `query.sort`.
 * @throws ValidationFailure when sort is not an array, has more than 50 entries, lacks a fieldName, or has an
 *   order other than ASC/DESC.
 */
export function compileSort(sort: unknown, field = 'query.sort'): Sorter | undefined {
  if (sort === undefined || sort === null) return undefined;
  if (!Array.isArray(sort)) throw ValidationFailure.field(field, 'sort must be an array of {fieldName, order}');
  if (sort.length > MAX_SORT_FIELDS) {
    throw ValidationFailure.field(field, `at most ${MAX_SORT_FIELDS} sort fields are allowed`, 'MAX_SIZE');
  }
  if (sort.length === 0) return undefined;
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
  return <T>(docs: T[]) => {
    const decorated = docs.map((doc) => ({ doc, k: keys.map((key): SortKey => sortKey(first(doc, key.path))) }));
    decorated.sort((a, b) => {
      for (let i = 0; i < keys.length; i++) {
        const c = compareKeys(a.k[i], b.k[i]);
        if (c !== 0) return c * keys[i].sign;
      }
      return 0;
    });
    for (let i = 0; i < docs.length; i++) docs[i] = decorated[i].doc;
  };
}
