/**
 * Field names the user writes (in `--filter`, `--where`, `--sort`, `--agg`, `--json fields`) checked against
 * the entity's schema from the family table before anything is sent (issue 5 section 4): a typo such as
 * `{"hiden":{"$ne":true}}` would otherwise match every entity and a delete by that filter would select the
 * whole catalogue. Unknown names are refused with a did-you-mean, exit 2; `--allow-unknown-fields` sends them
 * anyway (for fields the platform has and the schema does not know yet). Filters nested deeper than
 * {@link MAX_FILTER_DEPTH} are refused, as are names that reach the prototype chain.
 */
import type { $ZodType } from 'zod/v4/core';
import { FORBIDDEN_KEYS } from '../../api/paths.js';
export { mapFilterFields } from '../../api/paths.js';
import { isDateField, lookupPath, suggest } from '../../api/schemas/introspect.js';
import type { Filter } from '../../api/schemas/common.js';
import { UserError } from '../../core/errors.js';
import type { FieldChecker } from '../../core/output.js';

/** Deepest nesting of `$and`/`$or`/`$not` and operator objects a filter may have. */
export const MAX_FILTER_DEPTH = 10;

/** A checker for `--json fields` over an entity schema (every field passes with `allowUnknown`). */
export function schemaChecker(schema: $ZodType, allowUnknown = false): FieldChecker {
  return (path) => {
    const found = lookupPath(schema, path);
    if (found.ok || (allowUnknown && found.reason !== 'forbidden')) return { ok: true };
    if (found.reason === 'forbidden') return { ok: false, known: [] };
    const known = found.reason === 'unknown' ? found.known : [];
    const prefix = found.reason === 'unknown' && found.at ? `${found.at}.` : '';
    const guess = found.reason === 'unknown' ? suggest(found.segment, found.known) : undefined;
    return { ok: false, known: known.map((k) => prefix + k), suggestion: guess ? prefix + guess : undefined };
  };
}

/**
 * Checks one field path against the schema.
 * @param where how the user gave it, for the message: `--filter`, `--sort`, `--agg`
 * @throws UserError (exit 2) for an unknown field (with a did-you-mean and the valid names) or a forbidden one
 */
export function checkField(schema: $ZodType, path: string, where: string, allowUnknown = false): void {
  if (path.split('.').some((s) => FORBIDDEN_KEYS.has(s) || s === '')) {
    throw new UserError(`${where}: "${path}" is not a field name`);
  }
  const found = lookupPath(schema, path);
  if (found.ok || allowUnknown) return;
  if (found.reason === 'forbidden') throw new UserError(`${where}: "${path}" is not a field name`);
  if (found.reason === 'scalar') {
    throw new UserError(`${where}: field "${found.at}" has no sub-field "${found.segment}"`, 'pass --allow-unknown-fields to send it anyway');
  }
  const prefix = found.at ? `${found.at}.` : '';
  const guess = suggest(found.segment, found.known);
  throw new UserError(
    `${where}: unknown field "${prefix}${found.segment}"${guess ? `; did you mean "${prefix}${guess}"?` : ''}`,
    `fields${found.at ? ` of ${found.at}` : ''}: ${found.known.join(', ')} (or pass --allow-unknown-fields)`,
  );
}

/**
 * Checks every field a filter names (keys that do not start with `$`, at any depth under `$and`, `$or` and
 * `$not`) and its nesting depth.
 * @throws UserError (exit 2) for an unknown or forbidden field, or a filter nested too deeply
 */
export function checkFilter(schema: $ZodType, filter: Filter | undefined, where = '--filter', allowUnknown = false): void {
  if (!filter) return;
  const walk = (node: unknown, depth: number): void => {
    if (depth > MAX_FILTER_DEPTH) throw new UserError(`${where}: the filter is nested more than ${MAX_FILTER_DEPTH} levels deep`);
    if (Array.isArray(node)) {
      for (const n of node) walk(n, depth + 1);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$and' || key === '$or' || key === '$not') walk(value, depth + 1);
      else if (key.startsWith('$')) walk(value, depth + 1);
      else {
        checkField(schema, key, where, allowUnknown);
        checkDates(schema, key, value, where);
        // The value of a field is a plain value or an operator object; only its depth matters here.
        if (value !== null && typeof value === 'object') walk(onlyOperators(value), depth + 1);
      }
    }
  };
  walk(filter, 1);
}

/** The operator part of a field's condition (plain values below a field are data, not field names). */
function onlyOperators(value: object): unknown {
  if (Array.isArray(value)) return [];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k.startsWith('$')) out[k] = k === '$not' ? v : [];
  return out;
}


/** An ISO-8601 date or date-time (`2025-01-01`, `2025-01-01T09:30:00Z`, with an offset). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Checks the values a filter compares a date field with: each must be an ISO-8601 date (a range on `createdDate`
 * with `2025-1-1` or `notadate` would otherwise compare as text and select the wrong entities).
 * @throws UserError (exit 2) naming the field and the value
 */
function checkDates(schema: $ZodType, key: string, value: unknown, where: string): void {
  const found = lookupPath(schema, key);
  if (!found.ok || !isDateField(found.schema)) return;
  const bad = (v: unknown) => v !== null && (typeof v !== 'string' || !ISO_DATE.test(v) || Number.isNaN(Date.parse(v)));
  const values: unknown[] = [];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [op, arg] of Object.entries(value)) {
      if (op === '$exists') continue;
      if (Array.isArray(arg)) values.push(...arg);
      else values.push(arg);
    }
  } else values.push(value);
  const wrong = values.find(bad);
  if (wrong !== undefined) {
    throw new UserError(`${where}: "${key}" is a date; ${JSON.stringify(wrong)} is not an ISO-8601 date`, 'e.g. 2025-01-01 or 2025-01-01T09:30:00Z');
  }
}
