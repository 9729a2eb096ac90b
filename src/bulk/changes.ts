/**
 * `--set path=value` changes for any entity: parsing, validation against the entity's schema, the derived field
 * mask, applying a change and diffing old -> new values (docs/architecture.md "Bulk runs, the journal, history and undo"; docs/wire.md §5 "Field masks" are
 * comma-joined). The schema is the family table's entity schema, so `--set` on bookings or members checks its
 * paths the same way as on services.
 */
import { safeParse } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { getPath, setPath, UnsafePathError } from '../api/paths.js';
import { isOptional, kindOf, lookupPath, acceptsString, suggest } from '../api/schemas/introspect.js';
import { UserError } from '../core/errors.js';

/** One `--set`: a dotted path into the entity and the value it gets (`null` clears the field). */
export interface SetOp {
  path: string;
  value: unknown;
}

/** A validated set of changes: the ops in command-line order and the field mask paths they touch. */
export interface ChangeSet {
  sets: SetOp[];
  /** Field mask paths, one per `--set`, in order; on the wire they are joined with commas. */
  mask: string[];
}

/** One changed value of a preview or report: `before` is undefined when the field was absent. */
export interface FieldDiff {
  path: string;
  before: unknown;
  after: unknown;
}

/** What `--set` may touch: the entity schema and the fields the platform owns. */
export interface SettableEntity {
  schema: $ZodType;
  /** Top-level fields that are never set directly (id, revision, dates...). */
  readOnly: readonly string[];
}

/** Leaf fields that are never settable wherever they appear. */
const READ_ONLY_LEAF = new Set(['createdDate', 'updatedDate']);

/**
 * Finds the schema of a dotted path in the entity, refusing unknown, read-only and forbidden fields.
 *
 * @returns the leaf schema (still wrapped in optional/nullable so callers can tell whether it may be cleared)
 * @throws UserError `unknown field "nmae" in --set; did you mean "name"?`, or a refusal for read-only paths,
 *   paths into a list, and names such as `__proto__`
 */
export function resolveSetPath(entity: SettableEntity, path: string): $ZodType {
  const segments = path.split('.');
  if (segments.some((s) => s === '')) throw new UserError(`invalid path "${path}" in --set`, 'use dotted field names, e.g. payment.fixed.price.value');
  if (entity.readOnly.includes(segments[0]!) || READ_ONLY_LEAF.has(segments[segments.length - 1]!)) {
    throw new UserError(`field "${path}" is read-only and cannot be set`, 'the platform sets it on every change');
  }
  for (let i = 1; i < segments.length; i++) {
    const here = segments.slice(0, i).join('.');
    const step = lookupPath(entity.schema, here);
    if (step.ok && kindOf(step.schema) === 'array') {
      throw new UserError(`cannot set inside the list "${here}" in --set`, `set the whole list as JSON, e.g. --set '${here}=[...]'`);
    }
  }
  const found = lookupPath(entity.schema, path);
  if (found.ok) return found.schema;
  if (found.reason === 'forbidden') throw new UserError(`invalid path "${path}" in --set: "${found.segment}" is not a field`);
  if (found.reason === 'scalar') throw new UserError(`field "${found.at}" has no sub-field "${found.segment}" in --set`);
  const prefix = found.at ? `${found.at}.` : '';
  const settable = found.known.filter((k) => !(found.at === '' && entity.readOnly.includes(k)) && !READ_ONLY_LEAF.has(k));
  const guess = suggest(found.segment, settable);
  throw new UserError(
    `unknown field "${prefix}${found.segment}" in --set${guess ? `; did you mean "${prefix}${guess}"?` : ''}`,
    `fields${found.at ? ` of ${found.at}` : ''} that can be set: ${settable.join(', ')}`,
  );
}

/**
 * Parses the value text of `--set`: JSON when it parses (numbers, booleans, null, objects, arrays, quoted
 * strings), otherwise the text itself. When the field holds a string (names, money `value`s, enums) a bare
 * number or boolean keeps its text, so `payment.fixed.price.value=45` sends `"45"` as the wire does.
 */
export function parseSetValue(raw: string, leaf?: $ZodType): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (leaf && (typeof parsed === 'number' || typeof parsed === 'boolean') && acceptsString(leaf)) return raw;
  return parsed;
}

/**
 * Parses and validates `--set path=value` arguments against the entity.
 *
 * @param args each `path=value` as given on the command line (the first `=` splits)
 * @returns the ops and the field mask (one path per op)
 * @throws UserError for a missing `=`, an unknown or read-only field, a value of the wrong type, the same path
 *   twice, or one path inside another (`payment` and `payment.rateType`)
 */
export function parseSets(args: readonly string[], entity: SettableEntity): ChangeSet {
  if (args.length === 0) throw new UserError('nothing to change', 'pass at least one --set path=value');
  const sets: SetOp[] = [];
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new UserError(`invalid --set "${arg}": expected path=value`, 'e.g. --set name="Yoga 101"');
    const path = arg.slice(0, eq).trim();
    const leaf = resolveSetPath(entity, path);
    const value = parseSetValue(arg.slice(eq + 1), leaf);
    if (value === null) {
      if (!isOptional(leaf)) throw new UserError(`field "${path}" cannot be cleared with null`);
    } else {
      const checked = safeParse(leaf, value);
      if (!checked.success) {
        throw new UserError(
          `invalid value for "${path}" in --set: ${checked.error.issues[0]?.message ?? 'wrong type'}`,
          'values are JSON when they parse (numbers, true/false, null, {...}, [...]), otherwise text',
        );
      }
    }
    sets.push({ path, value });
  }
  const mask = sets.map((s) => s.path);
  for (let i = 0; i < mask.length; i++) {
    for (let j = 0; j < mask.length; j++) {
      if (i === j) continue;
      if (mask[i] === mask[j]) throw new UserError(`field "${mask[i]}" is set twice in --set`);
      if (mask[j]!.startsWith(`${mask[i]}.`)) {
        throw new UserError(`--set "${mask[j]}" lies inside "${mask[i]}"`, 'set either the whole field or its parts');
      }
    }
  }
  return { sets, mask };
}

/** JSON form of a value for comparison: dates become ISO strings, key order does not matter. */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

/** Deep equality with JSON semantics (`null` and absent are the same: both mean "no value" on the wire). */
export function sameValue(a: unknown, b: unknown): boolean {
  const left = a === null ? undefined : a;
  const right = b === null ? undefined : b;
  return JSON.stringify(canonical(left)) === JSON.stringify(canonical(right));
}

/**
 * True when `current` holds everything `planned` says: the same scalars, and for objects every planned key
 * (extra keys in `current` are allowed), for lists the same length with each element matching. The platform
 * fills in derived fields when it stores a value (a price's `formattedValue`, a location's calculated
 * address), so an applied change reads back as a superset of what was sent.
 */
export function holdsValue(current: unknown, planned: unknown): boolean {
  if (planned === null || planned === undefined) return current === null || current === undefined;
  if (Array.isArray(planned)) {
    return Array.isArray(current) && current.length === planned.length && planned.every((p, i) => holdsValue(current[i], p));
  }
  if (typeof planned === 'object' && !(planned instanceof Date)) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return false;
    return Object.entries(planned).every(
      ([key, value]) => value === undefined || holdsValue((current as Record<string, unknown>)[key], value),
    );
  }
  return sameValue(current, planned);
}

/**
 * True when every path of the change holds its planned value in `entity` (see {@link holdsValue}): how an
 * update that may already have been applied is recognised (a reply lost after the commit).
 */
export function isApplied(entity: unknown, change: ChangeSet): boolean {
  return change.sets.every((s) => holdsValue(getPath(entity, s.path), s.value));
}

/**
 * The old -> new value of every changed path (paths whose value is already exactly the planned one are left
 * out; exact, not {@link holdsValue}, because replacing an object through the mask also drops its other keys).
 */
export function diffChange(entity: unknown, change: ChangeSet): FieldDiff[] {
  const out: FieldDiff[] = [];
  for (const s of change.sets) {
    const before = getPath(entity, s.path);
    if (!sameValue(before, s.value)) out.push({ path: s.path, before: canonical(before), after: s.value });
  }
  return out;
}

/**
 * The body of an update of one entity: `{id, revision, ...masked paths}`. A cleared path (`null`) is left
 * out, which with the path in the mask tells the platform to clear it.
 *
 * @param revision the revision the change was planned against (docs/wire.md §9: required, checked by the platform)
 * @throws UserError for a path naming a forbidden segment (parseSets refuses those first)
 */
export function updateBody(id: string, revision: string, change: ChangeSet): Record<string, unknown> {
  const body: Record<string, unknown> = { id, revision };
  try {
    // Objects and lists are copied, so a caller that edits one body leaves the others alone; other values are immutable.
    for (const s of change.sets) setPath(body, s.path, s.value === null ? undefined : typeof s.value === 'object' ? structuredClone(s.value) : s.value);
  } catch (err) {
    if (err instanceof UnsafePathError) throw new UserError(`invalid path in --set: ${err.message}`);
    throw err;
  }
  return body;
}

/** Field mask on the wire: the paths joined with commas (docs/wire.md §5). */
export function maskString(change: ChangeSet): string {
  return change.mask.join(',');
}
