/**
 * `--set path=value` changes: parsing, validation against the service schema, the derived field mask, applying a
 * change to a service and diffing old -> new values (issue 2 §4 "update (`--set path=value`, field mask derived
 * from the paths)"; wire §5 "Field masks" are comma-joined).
 */
import type { z } from 'zod/mini';
import { Service } from '../api/schemas/service.js';
import { UserError } from '../core/errors.js';
import { getPath, setPath } from '../core/paths.js';

/** One `--set`: a dotted path into the service and the value it gets (`null` clears the field). */
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

/** Fields the platform owns: a `--set` on them is refused (they change only as a side effect of an update). */
const READ_ONLY_TOP = new Set(['id', 'revision', 'createdDate', 'updatedDate']);
const READ_ONLY_LEAF = new Set(['createdDate', 'updatedDate']);

type AnySchema = z.ZodMiniType;
interface SchemaDef {
  type: string;
  innerType?: AnySchema;
  in?: AnySchema;
  options?: AnySchema[];
  shape?: Record<string, AnySchema>;
  element?: AnySchema;
  valueType?: AnySchema;
}

function defOf(schema: AnySchema): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/** Strips optional/nullable/default/transform wrappers so the structural kind (object, array, ...) shows. */
function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) {
      current = def.innerType;
    } else if (def.type === 'pipe' && def.in) {
      current = def.in;
    } else {
      return current;
    }
  }
}

function objectShape(schema: AnySchema): Record<string, AnySchema> | undefined {
  const s = unwrap(schema) as unknown as { shape?: Record<string, AnySchema> };
  return defOf(unwrap(schema)).type === 'object' ? s.shape : undefined;
}

/** True when a value of this schema may be a string (plain strings, open enums, ISO dates). */
function acceptsString(schema: AnySchema): boolean {
  const def = defOf(unwrap(schema));
  if (def.type === 'string' || def.type === 'enum' || def.type === 'literal') return true;
  if (def.type === 'union') return (def.options ?? []).some((o) => acceptsString(o));
  return false;
}

function isOptional(schema: AnySchema): boolean {
  return defOf(schema).type === 'optional' || defOf(schema).type === 'nullable';
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

/** The closest known name, when it is close enough to be a plausible typo. */
function suggest(name: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = levenshtein(name, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/**
 * Finds the schema of a dotted path in the service, refusing unknown and read-only fields.
 *
 * @returns the leaf schema (still wrapped in optional/nullable so callers can tell whether it may be cleared)
 * @throws UserError `unknown field "nmae" in --set; did you mean "name"?`, or a refusal for read-only paths and
 *   paths that index into a list
 */
export function resolveServicePath(path: string): AnySchema {
  const segments = path.split('.');
  if (segments.some((s) => s === '')) throw new UserError(`invalid path "${path}" in --set`, 'use dotted field names, e.g. payment.fixed.price.value');
  if (READ_ONLY_TOP.has(segments[0]) || READ_ONLY_LEAF.has(segments[segments.length - 1])) {
    throw new UserError(`field "${path}" is read-only and cannot be set`, 'the platform sets it on every change');
  }
  let schema: AnySchema = Service;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const here = segments.slice(0, i).join('.');
    const inner = unwrap(schema);
    const def = defOf(inner);
    if (def.type === 'record') {
      schema = def.valueType ?? schema;
      continue;
    }
    if (def.type === 'unknown' || def.type === 'any') return schema;
    if (def.type === 'array') {
      throw new UserError(
        `cannot set inside the list "${here}" in --set`,
        `set the whole list as JSON, e.g. --set '${here}=[...]'`,
      );
    }
    const shape = objectShape(inner);
    if (!shape) {
      throw new UserError(`field "${here}" has no sub-field "${segment}" in --set`);
    }
    const next = shape[segment];
    if (!next) {
      const prefix = here ? `${here}.` : '';
      const settable = Object.keys(shape).filter((k) => !(i === 0 && READ_ONLY_TOP.has(k)) && !READ_ONLY_LEAF.has(k));
      const guess = suggest(segment, settable);
      throw new UserError(
        `unknown field "${prefix}${segment}" in --set${guess ? `; did you mean "${prefix}${guess}"?` : ''}`,
        `fields${here ? ` of ${here}` : ''} that can be set: ${settable.join(', ')}`,
      );
    }
    schema = next;
  }
  return schema;
}

/**
 * Parses the value text of `--set`: JSON when it parses (numbers, booleans, null, objects, arrays, quoted
 * strings), otherwise the text itself. When the field holds a string (names, money `value`s, enums) a bare
 * number or boolean keeps its text, so `payment.fixed.price.value=45` sends `"45"` as the wire does.
 */
export function parseSetValue(raw: string, leaf?: AnySchema): unknown {
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
 * Parses and validates `--set path=value` arguments.
 *
 * @param args each `path=value` as given on the command line (the first `=` splits)
 * @returns the ops and the field mask (one path per op)
 * @throws UserError for a missing `=`, an unknown or read-only field, a value of the wrong type, the same path
 *   twice, or one path inside another (`payment` and `payment.rateType`)
 */
export function parseSets(args: readonly string[]): ChangeSet {
  if (args.length === 0) throw new UserError('nothing to change', 'pass at least one --set path=value');
  const sets: SetOp[] = [];
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new UserError(`invalid --set "${arg}": expected path=value`, 'e.g. --set name="Yoga 101"');
    const path = arg.slice(0, eq).trim();
    const leaf = resolveServicePath(path);
    const value = parseSetValue(arg.slice(eq + 1), leaf);
    if (value === null) {
      if (!isOptional(leaf)) throw new UserError(`field "${path}" cannot be cleared with null`);
    } else {
      const checked = leaf.safeParse(value);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        throw new UserError(
          `invalid value for "${path}" in --set: ${issue?.message ?? 'wrong type'}`,
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
      if (mask[j].startsWith(`${mask[i]}.`)) {
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
 * True when every path of the change holds its planned value in `service` (see {@link holdsValue}): how an
 * update that may already have been applied is recognised (a reply lost after the commit).
 */
export function isApplied(service: unknown, change: ChangeSet): boolean {
  return change.sets.every((s) => holdsValue(getPath(service, s.path), s.value));
}

/**
 * The new document: a deep copy of `service` with every set applied (`null` removes the field). Intermediate
 * objects are created as needed.
 */
export function applyChange<T extends object>(service: T, change: ChangeSet): T {
  const copy = structuredClone(service) as Record<string, unknown>;
  for (const s of change.sets) setPath(copy, s.path, s.value === null ? undefined : structuredClone(s.value));
  return copy as T;
}

/**
 * The old -> new value of every changed path (paths whose value is already exactly the planned one are left
 * out; exact, not {@link holdsValue}, because replacing an object through the mask also drops its other keys).
 */
export function diffChange(service: unknown, change: ChangeSet): FieldDiff[] {
  const out: FieldDiff[] = [];
  for (const s of change.sets) {
    const before = getPath(service, s.path);
    if (!sameValue(before, s.value)) out.push({ path: s.path, before: canonical(before), after: s.value });
  }
  return out;
}

/**
 * The `service` body of an update of one service: `{id, revision, ...masked paths}`. A cleared path (`null`)
 * is left out, which with the path in the mask tells the platform to clear it.
 *
 * @param revision the revision the change was planned against (wire §9: required, checked by the platform)
 */
export function updateBody(id: string, revision: string, change: ChangeSet): Record<string, unknown> {
  const body: Record<string, unknown> = { id, revision };
  for (const s of change.sets) setPath(body, s.path, s.value === null ? undefined : structuredClone(s.value));
  return body;
}

/** Field mask on the wire: the paths joined with commas (wire §5). */
export function maskString(change: ChangeSet): string {
  return change.mask.join(',');
}
