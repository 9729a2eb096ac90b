/**
 * Parsing of the query flags shared by every list-like command: `--filter JSON`, repeatable `--where
 * field=value`, `--sort field[:asc|desc]`, and typed `key=value` pairs (docs/wire.md §6 "Query
 * language"). Everything here is checked before a request is sent, so bad input fails with exit 2 and changes
 * nothing.
 */
import { UserError } from './errors.js';

/** A platform filter: `{field: value}` for equality, `{field: {$op: value}}`, `$and`/`$or`/`$not`. */
export type Filter = Record<string, unknown>;

/** One sort key of the wire: `{fieldName, order}`. */
export type SortKey = {
  fieldName: string;
  order: 'ASC' | 'DESC';
};

/** Operators of the platform's query language (docs/wire.md §6; the SDK query builder emits these). */
export const FILTER_OPERATORS: ReadonlySet<string> = new Set([
  '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$hasSome', '$hasAll',
  '$startsWith', '$endsWith', '$contains', '$isEmpty', '$and', '$or', '$not',
]);
const ARRAY_OPERATORS = new Set(['$in', '$nin', '$hasSome', '$hasAll', '$and', '$or']);
/** Operators that combine conditions: an empty list of them is refused, never read as "all" (or "none"). */
const LOGICAL_OPERATORS = new Set(['$and', '$or', '$nor']);

/**
 * Deepest a filter may be nested, counting every JSON object and array (`{"$and":[{"a":1}]}` is 3 deep). Deeper
 * filters are refused with exit 2 before anything is sent: no real condition needs more, and walking one
 * thousands of levels deep would exhaust the stack.
 */
export const MAX_FILTER_DEPTH = 32;

const FIELD_PATH = /^[A-Za-z_][\w]*(\.[\w]+)*$/;

/**
 * A typed value from the command line: `42`/`-1.5` -> number, `true`/`false` -> boolean, `null` -> null,
 * `"text"` (double-quoted) -> the string without quotes (to force a string such as `"50"`), JSON objects and
 * arrays (`{...}`, `[...]`) -> parsed, anything else -> the string as given.
 * @throws UserError when a value that starts like JSON (`{`, `[`) does not parse.
 */
export function parseScalar(raw: string): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  if (/^".*"$/s.test(raw) || raw.startsWith('{') || raw.startsWith('[')) {
    try {
      return JSON.parse(raw);
    } catch (e) {
      throw new UserError(`cannot parse ${raw} as JSON: ${(e as Error).message}`, `quote it for the shell, e.g. '{"a":1}'`);
    }
  }
  return raw;
}

/**
 * Splits `key=value` into its key and typed value (see `parseScalar`).
 * @param flag the flag name for messages, e.g. `--where`.
 * @throws UserError when there is no `=` or the key is not a dotted field path.
 */
export function parseKeyValue(pair: string, flag: string): [key: string, value: unknown] {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new UserError(`${flag} expects field=value, got '${pair}'`, `e.g. ${flag} type=CLASS`);
  const key = pair.slice(0, eq).trim();
  if (!FIELD_PATH.test(key)) {
    throw new UserError(`${flag}: '${key}' is not a field path`, 'use letters, digits and dots, e.g. payment.rateType');
  }
  return [key, parseScalar(pair.slice(eq + 1))];
}

/** The filter the hints show when the caller names none (a service's fields). */
const DEFAULT_FILTER_EXAMPLE = '{"type":"CLASS","hidden":false}';

/**
 * Parses `--filter` JSON and checks its operators.
 * @param example a filter of the noun's own fields for the hints (its view's `filterExample`)
 * @throws UserError (exit 2) on malformed JSON, a non-object, an unknown `$operator`, an operator whose
 *   value has the wrong shape (`$in`, `$nin`, `$hasSome`, `$hasAll`, `$and`, `$or` need arrays), an empty
 *   `$and`/`$or`, or nesting deeper than {@link MAX_FILTER_DEPTH}.
 */
export function parseFilterJson(text: string, flag = '--filter', example = DEFAULT_FILTER_EXAMPLE): Filter {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${flag} is not valid JSON: ${(e as Error).message}`, `e.g. ${flag} '${example}'`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UserError(`${flag} must be a JSON object`, `e.g. ${flag} '${example}'`);
  }
  checkFilterShape(value as Filter, flag);
  return value as Filter;
}

/**
 * The checks of a filter's shape that need no schema, for every filter the CLI sends (`--filter`, `--where`
 * values, the conditions a noun's flags add): known operators, arrays where an operator takes a list, no empty
 * `$and`/`$or` (an empty list would select everything on one server and nothing on another; a bulk write by it
 * must never run), nesting at most {@link MAX_FILTER_DEPTH} deep.
 * @param flag how the user gave it, for messages: `--filter`
 * @throws UserError (exit 2) naming the place in the filter
 */
export function checkFilterShape(filter: Filter, flag = '--filter'): void {
  checkFilter(filter, flag, '', 1);
}

function checkFilter(node: unknown, flag: string, at: string, depth: number): void {
  // A value JSON cannot carry (1e309 parses as Infinity and is sent as null, which matches what has no value), or
  // text that is not Unicode (a lone surrogate, which the platform cannot match and a terminal cannot show).
  if (typeof node === 'number' && !Number.isFinite(node)) throw new UserError(`${flag}: the number at ${at || 'the top'} is out of range (${node})`, 'numbers in a filter are finite: at most about 1.8e308');
  if (typeof node === 'string' && !node.isWellFormed()) throw new UserError(`${flag}: the text at ${at || 'the top'} is not valid Unicode (a lone surrogate)`);
  if (node === null || typeof node !== 'object') return;
  if (depth > MAX_FILTER_DEPTH) {
    throw new UserError(`${flag}: the filter is nested more than ${MAX_FILTER_DEPTH} levels deep (objects and arrays)`, 'write it with fewer levels: $and and $or take several conditions each');
  }
  if (Array.isArray(node)) {
    node.forEach((n, i) => checkFilter(n, flag, `${at}[${i}]`, depth + 1));
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    const where = at ? `${at}.${key}` : key;
    if (key.startsWith('$')) {
      if (!FILTER_OPERATORS.has(key)) {
        throw new UserError(
          `${flag}: unknown operator '${key}' at ${where}`,
          `operators: ${[...FILTER_OPERATORS].join(' ')}`,
        );
      }
      if (ARRAY_OPERATORS.has(key) && !Array.isArray(value)) {
        throw new UserError(`${flag}: '${key}' needs an array at ${where}`, `e.g. {"type":{"${key}":["CLASS","COURSE"]}}`);
      }
      if (LOGICAL_OPERATORS.has(key) && Array.isArray(value) && value.length === 0) {
        throw new UserError(`${flag}: '${key}' is empty at ${where}; an empty ${key} is refused, never read as "all"`, `give ${key} at least one condition, or drop it ('{}' selects everything)`);
      }
    }
    checkFilter(value, flag, where, depth + 1);
  }
}

/**
 * Combines `--filter JSON` and repeated `--where field=value` (equality, typed values) into one filter: one
 * condition is sent as is, several under `$and` (the SDK's form, docs/wire.md §10).
 * @param example a filter of the noun's own fields for the hints
 * @returns undefined when neither flag was given.
 * @throws UserError (exit 2) on any malformed part.
 */
export function parseFilterFlags(opts: { filter?: string; where?: readonly string[] }, example?: string): Filter | undefined {
  const parts: Filter[] = [];
  if (opts.filter !== undefined) parts.push(parseFilterJson(opts.filter, '--filter', example));
  for (const pair of opts.where ?? []) {
    const [field, value] = parseKeyValue(pair, '--where');
    parts.push({ [field]: value });
  }
  if (parts.length === 0) return undefined;
  const filter = parts.length === 1 ? parts[0]! : { $and: parts };
  // --where values may be JSON objects too: the whole filter gets the shape checks.
  checkFilterShape(filter, opts.filter !== undefined ? '--filter' : '--where');
  return filter;
}

/**
 * Parses `--sort name`, `--sort price:desc`, or several comma-separated keys (`type,name:desc`).
 * @throws UserError (exit 2) on an empty key, a bad field path or an order other than asc/desc.
 */
export function parseSort(spec: string): SortKey[] {
  return spec.split(',').map((part) => {
    const [field = '', order = 'asc', extra] = part.trim().split(':');
    if (extra !== undefined || !FIELD_PATH.test(field)) {
      throw new UserError(`--sort expects field[:asc|desc], got '${part}'`, 'e.g. --sort createdDate:desc');
    }
    const o = order.toLowerCase();
    if (o !== 'asc' && o !== 'desc') throw new UserError(`--sort order must be asc or desc, got '${order}'`);
    return { fieldName: field, order: o === 'asc' ? 'ASC' : 'DESC' };
  });
}

/** Commander collector for repeatable options: `.option('--where <f=v>', '...', collect, [])`. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
