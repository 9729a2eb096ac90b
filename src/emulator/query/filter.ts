/**
 * The platform's filter language (docs/wire.md §6), compiled once into a predicate.
 *
 * Grammar: a filter is an object whose keys are `$and` / `$or` (arrays of filters), `$not` (a filter) or
 * dotted field paths. A field maps either to a plain value (implicit equality, as the SDK's query builder
 * sends it) or to an operator object: `$eq $ne $gt $gte $lt $lte $in $nin $exists $hasSome $hasAll
 * $startsWith $endsWith $contains $isEmpty $not`. Several operators on one field must all hold.
 *
 * Fields that hold arrays (or paths that cross arrays) match when any element matches, except `$ne` and `$nin`
 * which require that no element matches (so they also match a missing field), like the platform's Mongo-style
 * semantics. String operators are case-insensitive.
 */
import { ValidationFailure } from '../errors.js';
import { asNumber, asTime, compareTo, compilePath, equals, equalsTo, resolve, type CompiledPath } from './values.js';

export type Predicate = (doc: unknown) => boolean;

const FIELD_OPERATORS = new Set([
  '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$hasSome', '$hasAll',
  '$startsWith', '$endsWith', '$contains', '$isEmpty', '$not',
]);

const MATCH_ALL: Predicate = () => true;

/**
 * Compiles `filter` (undefined, null or `{}` match everything).
 * @param field the request field named in violations, e.g. `query.filter`.
 * @throws ValidationFailure (400, fieldViolations on `field`) for an unknown operator or a malformed filter.
 */
export function compileFilter(filter: unknown, field = 'query.filter'): Predicate {
  if (filter === undefined || filter === null) return MATCH_ALL;
  return compileNode(filter, field);
}

function fail(field: string, description: string): never {
  throw ValidationFailure.field(field, description, 'INVALID_FILTER');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function compileNode(node: unknown, field: string): Predicate {
  if (!isPlainObject(node)) fail(field, 'filter must be an object');
  const parts: Predicate[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value)) fail(field, `${key} takes an array of filters`);
      // Refused rather than read as "all" (or "none"): a write by such a filter must not run.
      if (value.length === 0) fail(field, `${key} takes at least one filter`);
      const subs = value.map((v) => compileNode(v, field));
      parts.push(key === '$and' ? (d) => subs.every((p) => p(d)) : (d) => subs.some((p) => p(d)));
    } else if (key === '$not') {
      const sub = compileNode(value, field);
      parts.push((d) => !sub(d));
    } else if (key.startsWith('$')) {
      fail(field, `unknown operator ${key}`);
    } else if (key === '') {
      fail(field, 'empty field name');
    } else {
      parts.push(compileField(compilePath(key), key, value, field));
    }
  }
  if (parts.length === 0) return MATCH_ALL;
  if (parts.length === 1) return parts[0];
  return (d) => parts.every((p) => p(d));
}

function isOperatorObject(value: unknown, name: string, field: string): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  if (keys.length === 0) return false;
  const ops = keys.filter((k) => k.startsWith('$')).length;
  if (ops === 0) return false;
  if (ops !== keys.length) fail(field, `${name}: operators cannot be mixed with plain keys`);
  return true;
}

function compileField(path: CompiledPath, name: string, value: unknown, field: string): Predicate {
  if (!isOperatorObject(value, name, field)) return eqPredicate(path, value);
  const parts = Object.entries(value).map(([op, arg]) => compileOperator(path, name, op, arg, field));
  return parts.length === 1 ? parts[0] : (d) => parts.every((p) => p(d));
}

function eqPredicate(path: CompiledPath, expected: unknown): Predicate {
  const eq = equalsTo(expected);
  return (d) => {
    const r = resolve(d, path);
    if (expected === null) return r.values.length === 0 || r.values.some((v) => v === null);
    if (r.values.some(eq)) return true;
    // An array compared with an array value: whole-array equality.
    if (Array.isArray(expected)) return equals(r.values, expected);
    return false;
  };
}

function lower(v: unknown): string | undefined {
  return typeof v === 'string' ? v.toLowerCase() : undefined;
}

function compileOperator(path: CompiledPath, name: string, op: string, arg: unknown, field: string): Predicate {
  if (!FIELD_OPERATORS.has(op)) fail(field, `unknown operator ${op} on ${name}`);
  const needArray = (): unknown[] => {
    if (!Array.isArray(arg)) fail(field, `${op} on ${name} takes an array`);
    return arg;
  };
  const needString = (): string => {
    if (typeof arg !== 'string') fail(field, `${op} on ${name} takes a string`);
    return arg.toLowerCase();
  };
  const needBoolean = (): boolean => {
    if (typeof arg !== 'boolean') fail(field, `${op} on ${name} takes true or false`);
    return arg;
  };
  const range = (test: (c: number) => boolean): Predicate => {
    if (typeof arg !== 'string' && typeof arg !== 'number' && typeof arg !== 'boolean') {
      fail(field, `${op} on ${name} takes a string, number or boolean`);
    }
    const cmp = compareTo(arg);
    // A date compared with text that is no date would compare as text: refused, as the platform refuses it.
    const notADate = typeof arg === 'string' && asNumber(arg) === undefined && asTime(arg) === undefined;
    return (d) =>
      resolve(d, path).values.some((v) => {
        if (notADate && asTime(v) !== undefined) fail(field, `${op} on ${name} compares a date: give an ISO-8601 date such as 2025-01-01T00:00:00Z`);
        const c = cmp(v);
        return !Number.isNaN(c) && test(c);
      });
  };
  switch (op) {
    case '$eq':
      return eqPredicate(path, arg);
    case '$ne': {
      const eq = eqPredicate(path, arg);
      return (d) => !eq(d);
    }
    case '$gt':
      return range((c) => c > 0);
    case '$gte':
      return range((c) => c >= 0);
    case '$lt':
      return range((c) => c < 0);
    case '$lte':
      return range((c) => c <= 0);
    case '$in':
    case '$hasSome': {
      const list = needArray().map(equalsTo);
      return (d) => resolve(d, path).values.some((v) => list.some((eq) => eq(v)));
    }
    case '$nin': {
      const list = needArray().map(equalsTo);
      return (d) => !resolve(d, path).values.some((v) => list.some((eq) => eq(v)));
    }
    case '$hasAll': {
      const list = needArray().map(equalsTo);
      return (d) => {
        const values = resolve(d, path).values;
        return list.every((eq) => values.some(eq));
      };
    }
    case '$exists': {
      const want = needBoolean();
      return (d) => {
        const r = resolve(d, path);
        const exists = r.present && !(r.values.length === 1 && r.values[0] === null);
        return exists === want;
      };
    }
    case '$isEmpty': {
      const want = needBoolean();
      return (d) => {
        const values = resolve(d, path).values;
        const empty =
          values.length === 0 || values.every((v) => v === null || v === '' || (typeof v === 'object' && Object.keys(v as object).length === 0));
        return empty === want;
      };
    }
    case '$startsWith': {
      const s = needString();
      return (d) => resolve(d, path).values.some((v) => lower(v)?.startsWith(s) === true);
    }
    case '$endsWith': {
      const s = needString();
      return (d) => resolve(d, path).values.some((v) => lower(v)?.endsWith(s) === true);
    }
    case '$contains': {
      const s = needString();
      return (d) => resolve(d, path).values.some((v) => lower(v)?.includes(s) === true);
    }
    case '$not': {
      const inner = compileField(path, name, arg, field);
      return (d) => !inner(d);
    }
    default:
      return fail(field, `unknown operator ${op} on ${name}`);
  }
}
