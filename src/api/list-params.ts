/**
 * Filters over GET lists (docs/wire.md §20: the orders lists take `orderStatuses`, `planIds`, `buyerIds`,
 * `paymentStatuses`, `autoRenewCanceled` as parameters, not a filter object). A list operation whose table
 * entry says `filter: false` can still be selected from with a filter, as long as every condition is one its
 * parameters express: equality or `$in` on a mapped field, ANDed. This module turns such a filter into the
 * parameters, and says which conditions cannot be expressed.
 */
import type { Filter } from './schemas/common.js';

/** Entity field path -> the GET parameter that selects by it (`list`: repeated values, else one value). */
export type ParamFilter = Readonly<Record<string, { readonly param: string; readonly list: boolean }>>;

/** A filter condition the list's parameters cannot express. */
export class UnsupportedFilterError extends Error {
  constructor(
    message: string,
    /** The fields the list can select by. */
    readonly supported: readonly string[],
  ) {
    super(message);
    this.name = 'UnsupportedFilterError';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The conditions of a filter, `$and` flattened: `[field, condition]` pairs. */
function conditionsOf(filter: Filter, out: Array<[string, unknown]>, table: ParamFilter): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and') {
      if (!Array.isArray(value)) throw new UnsupportedFilterError('$and must hold a list of conditions', Object.keys(table));
      for (const part of value) {
        if (!isObject(part)) throw new UnsupportedFilterError('each $and part must be an object', Object.keys(table));
        conditionsOf(part, out, table);
      }
    } else {
      out.push([key, value]);
    }
  }
}

/** The values a condition accepts (`v`, `{$eq: v}`, `{$in: [...]}`). */
function valuesOf(field: string, condition: unknown, table: ParamFilter): unknown[] {
  if (!isObject(condition)) return [condition];
  const ops = Object.keys(condition);
  if (ops.length === 1 && ops[0] === '$eq') return [condition.$eq];
  if (ops.length === 1 && ops[0] === '$in' && Array.isArray(condition.$in)) return condition.$in as unknown[];
  throw new UnsupportedFilterError(`${field}: only equality or $in can be sent to this list (got ${ops.join(', ') || '{}'})`, Object.keys(table));
}

/**
 * The GET parameters that select what `filter` selects.
 * @returns the parameters, or `null` when the conditions contradict each other (nothing can match)
 * @throws UnsupportedFilterError for a field the list cannot select by, an operator other than equality or
 *   `$in`, `$or`/`$not`, or several values for a single-valued parameter
 */
export function paramsOfFilter(filter: Filter | undefined, table: ParamFilter): Record<string, unknown> | null {
  const params: Record<string, unknown> = {};
  if (!filter) return params;
  const conditions: Array<[string, unknown]> = [];
  conditionsOf(filter, conditions, table);
  const sets = new Map<string, unknown[]>();
  for (const [field, condition] of conditions) {
    const target = Object.hasOwn(table, field) ? table[field] : undefined;
    if (!target) {
      throw new UnsupportedFilterError(
        field.startsWith('$') ? `${field} cannot be sent to this list: its conditions are ANDed` : `this list cannot select by ${field}`,
        Object.keys(table),
      );
    }
    const values = valuesOf(field, condition, table);
    const before = sets.get(target.param);
    sets.set(target.param, before ? before.filter((v) => values.includes(v)) : [...new Set(values)]);
  }
  for (const [field, target] of Object.entries(table)) {
    const values = sets.get(target.param);
    if (values === undefined) continue;
    if (values.length === 0) return null;
    if (target.list) params[target.param] = values;
    else if (values.length === 1) params[target.param] = values[0];
    else throw new UnsupportedFilterError(`${field} takes one value here`, Object.keys(table));
  }
  return params;
}
