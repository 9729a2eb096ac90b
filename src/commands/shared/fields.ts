/**
 * Field names the user writes (in `--filter`, `--where`, `--sort`, `--agg`, `--json fields`) checked against
 * the entity's schema from the family table before anything is sent (docs/architecture.md "Layout and dependency direction"): a typo such as
 * `{"hiden":{"$ne":true}}` would otherwise match every entity and a delete by that filter would select the
 * whole catalogue. Unknown names are refused with a did-you-mean, exit 2; `--allow-unknown-fields` sends them
 * anyway (for fields the platform has and the schema does not know yet). Filters nested deeper than
 * {@link MAX_FILTER_DEPTH} are refused, as are names that reach the prototype chain.
 */
import type { $ZodType } from 'zod/v4/core';
import { FORBIDDEN_KEYS } from '../../api/paths.js';
export { mapFilterFields } from '../../api/paths.js';
import { elementOf, enumValues, isDateField, kindOf, lookupPath, shapeOf, suggest } from '../../api/schemas/introspect.js';
import type { Filter } from '../../api/schemas/common.js';
import { UserError } from '../../core/errors.js';
import { checkFilterShape } from '../../core/filters.js';
import type { FieldChecker } from '../../core/output.js';

export { MAX_FILTER_DEPTH } from '../../core/filters.js';

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
 * `$not`), the values it compares an enumeration field with, and its nesting depth. With `allowUnknown`
 * (`--allow-unknown-fields`) unknown field names and enumeration values are sent as given.
 * @throws UserError (exit 2) for an unknown or forbidden field, a value an enumeration field does not have, or
 *   a filter nested too deeply
 */
export function checkFilter(schema: $ZodType, filter: Filter | undefined, where = '--filter', allowUnknown = false): void {
  if (!filter) return;
  // The shape first (operators, empty $and/$or, depth), so the walk below is bounded.
  checkFilterShape(filter, where);
  const walk = (node: unknown, depth: number): void => {
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
        checkValueTypes(schema, key, value, where);
        if (!allowUnknown) checkEnumValues(schema, key, value, where);
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

/** Every value a field's condition compares the field with, whatever the operator (under `$not` too). */
function operands(condition: unknown): unknown[] {
  if (condition === null || typeof condition !== 'object') return [condition];
  if (Array.isArray(condition)) return condition;
  const out: unknown[] = [];
  for (const [op, arg] of Object.entries(condition)) {
    if (op === '$exists') continue;
    if (op === '$not') out.push(...operands(arg));
    else if (Array.isArray(arg)) out.push(...arg);
    else out.push(arg);
  }
  return out;
}

/**
 * Checks the values a filter compares a number or a true/false field with: `{"defaultCapacity":{"$gt":"abc"}}`
 * would compare a number with text and select nothing (or everything) without a word.
 * @throws UserError (exit 2) naming the field, its type and the value
 */
function checkValueTypes(schema: $ZodType, key: string, condition: unknown, where: string): void {
  const found = lookupPath(schema, key);
  if (!found.ok) return;
  const kind = kindOf(found.schema) === 'array' ? kindOf(elementOf(found.schema) ?? found.schema) : kindOf(found.schema);
  const want = kind === 'number' ? 'number' : kind === 'boolean' ? 'boolean' : undefined;
  if (!want) return;
  const wrong = operands(condition).find((v) => v !== null && typeof v !== want);
  if (wrong === undefined) return;
  throw new UserError(`${where}: "${key}" is a ${want === 'number' ? 'number' : 'true/false field'}; ${JSON.stringify(wrong)} is not ${want === 'number' ? 'a number' : 'true or false'}`, want === 'number' ? 'write the number without quotes, e.g. {"defaultCapacity":{"$gt":5}}' : 'write true or false without quotes');
}

/** Operators whose operand is compared with the field's values: one value, or a list of them. */
const ONE_VALUE = new Set(['$eq', '$ne']);
const VALUE_LISTS = new Set(['$in', '$nin', '$hasSome', '$hasAll']);

/** The values a field's condition compares the field with for equality (`$eq`, `$ne`, `$in`, `$nin`, `$hasSome`, `$hasAll`, under `$not` too). */
function comparedValues(condition: unknown): unknown[] {
  if (condition === null || typeof condition !== 'object') return [condition];
  if (Array.isArray(condition)) return condition;
  const out: unknown[] = [];
  for (const [op, arg] of Object.entries(condition)) {
    if (ONE_VALUE.has(op)) out.push(arg);
    else if (VALUE_LISTS.has(op) && Array.isArray(arg)) out.push(...arg);
    else if (op === '$not') out.push(...comparedValues(arg));
  }
  return out;
}

/**
 * The values of a field that is an enumeration (or a list of one, for `$hasSome`/`$hasAll`); empty for any
 * other field.
 */
export function enumerationOf(schema: $ZodType, path: string): string[] {
  const found = lookupPath(schema, path);
  if (!found.ok) return [];
  const own = enumValues(found.schema);
  if (own.length) return own;
  const element = elementOf(found.schema);
  return element ? enumValues(element) : [];
}

/**
 * Checks the values a filter compares an enumeration field with (`{"status":"PENDNG"}` would otherwise match
 * nothing, and a bulk verb by that filter would report "nothing to do" with exit 0).
 * @throws UserError (exit 2) naming the value and the field's values, with a did-you-mean when one is close
 */
function checkEnumValues(schema: $ZodType, key: string, condition: unknown, where: string): void {
  const allowed = enumerationOf(schema, key);
  if (!allowed.length) return;
  const wrong = comparedValues(condition).find((v) => typeof v === 'string' && !allowed.includes(v));
  if (wrong === undefined) return;
  const guess = suggest(wrong as string, allowed);
  throw new UserError(
    `${where}: "${key}" has no value ${JSON.stringify(wrong)}${guess ? `; did you mean "${guess}"?` : ''} (its values: ${allowed.join(', ')})`,
    'pass --allow-unknown-fields to send it anyway',
  );
}

/** Deepest nesting of a `--file` entity that is checked (deeper levels are left to the request schema). */
const MAX_FILE_DEPTH = 32;

/**
 * Checks every field name of an entity given as JSON (`--file`) against the schemas that describe it, the
 * way `--set` paths are checked: the request's input schema and the entity schema (so a file made with
 * `get --json` still passes with the fields the platform owns, which the call ignores). A name neither knows
 * (`profile.titel`) would be sent and dropped without a word; it is refused, with a did-you-mean. Below free-form
 * fields (records, `unknown`, objects declared without fields) any name passes; a value of the wrong type is
 * left to the request schema's check.
 * @param where how the user gave it, for the message: `--file member.json`
 * @param allowUnknown `--allow-unknown-fields`: unknown names are sent as given
 * @throws UserError (exit 2) naming the dotted path of the first unknown or forbidden field
 */
export function checkFileFields(schemas: readonly $ZodType[], value: unknown, where: string, allowUnknown = false): void {
  const freeForm = (s: $ZodType) => kindOf(s) === 'unknown' || (kindOf(s) === 'object' && Object.keys(shapeOf(s) ?? {}).length === 0);
  const walk = (node: unknown, here: readonly $ZodType[], at: string, depth: number): void => {
    if (depth > MAX_FILE_DEPTH) return;
    if (Array.isArray(node)) {
      for (const n of node) walk(n, here, at, depth + 1);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) {
      const path = at ? `${at}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key) || key === '') throw new UserError(`${where}: "${path}" is not a field name`);
      const next: $ZodType[] = [];
      const known = new Set<string>();
      // A key is one name even with dots in it (a custom field `custom.referral` of a record): it is looked up
      // whole, as a name no object declares, which a record or a free-form field still takes.
      const name = key.includes('.') ? ' ' : key;
      for (const schema of here) {
        const found = lookupPath(schema, name);
        if (found.ok) next.push(found.schema);
        else if (found.reason === 'unknown') for (const k of found.known) known.add(k);
      }
      if (next.length === 0) {
        // Only scalars here: the value has the wrong type, which the request schema reports.
        if (known.size === 0 || allowUnknown) continue;
        const names = [...known].sort();
        const guess = suggest(key, names);
        const prefix = at ? `${at}.` : '';
        throw new UserError(
          `${where}: unknown field "${path}"${guess ? `; did you mean "${prefix}${guess}"?` : ''}`,
          `fields${at ? ` of ${at}` : ''}: ${names.join(', ')} (or pass --allow-unknown-fields)`,
        );
      }
      if (next.some(freeForm)) continue;
      walk(child, next, path, depth + 1);
    }
  };
  walk(value, schemas, '', 1);
}
