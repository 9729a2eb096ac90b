/**
 * Reading the structure of a zod/mini schema: what a dotted field path points to, which fields an entity has,
 * which name the user probably meant. One place for the CLI's field checks (`--set`, `--where`, `--sort`,
 * `--json fields`, filter keys) and for the emulator's decoding of GET parameters, so both read the schemas of
 * the family tables the same way.
 *
 * zod/mini keeps a schema's structure in `schema._zod.def` (`type` plus `shape`, `element`, `innerType`, ...);
 * that is the only part of zod's internals used here.
 */
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { FORBIDDEN_KEYS } from '../paths.js';
import { isoDate } from './common.js';

/** The structural kind of a schema once optional/nullable/default/pipe wrappers are removed. */
export type SchemaKind =
  | 'object'
  | 'array'
  | 'record'
  | 'string'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'literal'
  | 'union'
  | 'unknown'
  | 'date'
  | 'other';

interface Def {
  type: string;
  getter?: () => $ZodType;
  innerType?: $ZodType;
  in?: $ZodType;
  shape?: Record<string, $ZodType>;
  element?: $ZodType;
  valueType?: $ZodType;
  options?: $ZodType[];
  entries?: Record<string, string>;
  values?: unknown[];
  checks?: unknown[];
}

function defOf(schema: $ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strips optional, nullable, default, readonly, lazy and pipe (its input side) wrappers. */
export function unwrap(schema: $ZodType): $ZodType {
  let current = schema;
  for (let i = 0; i < 32; i++) {
    const def = defOf(current);
    if (def.innerType && ['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch'].includes(def.type)) {
      current = def.innerType;
    } else if (def.type === 'pipe' && def.in) {
      current = def.in;
    } else if (def.type === 'lazy' && def.getter) {
      current = def.getter();
    } else {
      return current;
    }
  }
  return current;
}

/** True when the field is a wire date (`isoDate`: an ISO-8601 string on the wire, a `Date` once parsed). */
export function isDateField(schema: $ZodType): boolean {
  let current = schema;
  for (let i = 0; i < 8; i++) {
    if ((current as unknown) === (isoDate as unknown)) return true;
    const def = defOf(current);
    if (def.innerType && ['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch'].includes(def.type)) current = def.innerType;
    else return false;
  }
  return false;
}

/** True when the schema accepts `undefined` or `null` (the field may be left out or cleared). */
export function isOptional(schema: $ZodType): boolean {
  const t = defOf(schema).type;
  return t === 'optional' || t === 'nullable' || t === 'default';
}

/** The structural kind of `schema` (see {@link SchemaKind}). */
export function kindOf(schema: $ZodType): SchemaKind {
  const def = defOf(unwrap(schema));
  switch (def.type) {
    case 'object':
    case 'array':
    case 'record':
    case 'string':
    case 'boolean':
    case 'enum':
    case 'literal':
    case 'union':
    case 'date':
      return def.type;
    case 'number':
    case 'int':
    case 'bigint':
      return 'number';
    case 'unknown':
    case 'any':
      return 'unknown';
    default:
      return 'other';
  }
}

/** The fields of an object schema (after unwrapping), or undefined for any other kind. */
export function shapeOf(schema: $ZodType): Record<string, $ZodType> | undefined {
  const def = defOf(unwrap(schema));
  return def.type === 'object' ? def.shape : undefined;
}

/** The element schema of an array schema, or undefined. */
export function elementOf(schema: $ZodType): $ZodType | undefined {
  const def = defOf(unwrap(schema));
  return def.type === 'array' ? def.element : undefined;
}

/** The members of a union (after unwrapping), or undefined. */
function optionsOf(schema: $ZodType): $ZodType[] | undefined {
  const def = defOf(unwrap(schema));
  return def.type === 'union' ? def.options : undefined;
}

/** The values an enum schema (or an open enum: a union holding an enum) lists; empty for other kinds. */
export function enumValues(schema: $ZodType): string[] {
  const def = defOf(unwrap(schema));
  if (def.type === 'enum' && def.entries) return Object.values(def.entries);
  if (def.type === 'literal' && def.values) return def.values.filter((v): v is string => typeof v === 'string');
  if (def.type === 'union') return (def.options ?? []).flatMap(enumValues);
  return [];
}

/** True when a value of this schema may be a string (plain strings, enums, ISO dates before parsing). */
export function acceptsString(schema: $ZodType): boolean {
  const kind = kindOf(schema);
  if (kind === 'string' || kind === 'enum' || kind === 'literal') return true;
  if (kind === 'union') return (optionsOf(schema) ?? []).some(acceptsString);
  return false;
}

/** True when the schema (or one member of a union) is a number. */
export function acceptsNumber(schema: $ZodType): boolean {
  const kind = kindOf(schema);
  if (kind === 'number') return true;
  if (kind === 'union') return (optionsOf(schema) ?? []).some(acceptsNumber);
  return false;
}

/** Where a dotted path led: the schema found, or why it could not be followed. */
export type PathLookup =
  | { ok: true; schema: $ZodType; throughArray: boolean }
  | { ok: false; reason: 'unknown'; at: string; segment: string; known: string[] }
  | { ok: false; reason: 'forbidden'; segment: string }
  | { ok: false; reason: 'scalar'; at: string; segment: string };

/**
 * Follows a dotted path (`payment.fixed.price.value`) through an entity schema. Arrays are stepped through
 * (`locations.type` reaches the `type` of each location, as the platform's filters do); records and `unknown`
 * accept any key below them (free-form data such as `extendedFields`).
 *
 * @returns the schema at the path, or why the path does not exist (with the names known at that level)
 */
export function lookupPath(root: $ZodType, path: string): PathLookup {
  const segments = path.split('.');
  let schema = root;
  let throughArray = false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (FORBIDDEN_KEYS.has(segment)) return { ok: false, reason: 'forbidden', segment };
    const at = segments.slice(0, i).join('.');
    for (let element = elementOf(schema); element; element = elementOf(schema)) {
      schema = element;
      throughArray = true;
    }
    const kind = kindOf(schema);
    if (kind === 'unknown') return { ok: true, schema, throughArray };
    if (kind === 'record') {
      schema = defOf(unwrap(schema)).valueType ?? schema;
      continue;
    }
    if (kind === 'union') {
      // A union of objects (a oneof): a field of any member counts.
      const members = (optionsOf(schema) ?? []).map(shapeOf).filter((s): s is Record<string, $ZodType> => Boolean(s));
      const hit = members.find((s) => Object.hasOwn(s, segment));
      if (hit) {
        schema = hit[segment]!;
        continue;
      }
      if (members.length === 0) return { ok: false, reason: 'scalar', at, segment };
      return { ok: false, reason: 'unknown', at, segment, known: [...new Set(members.flatMap(Object.keys))].sort() };
    }
    const shape = shapeOf(schema);
    if (!shape) return { ok: false, reason: 'scalar', at, segment };
    if (!Object.hasOwn(shape, segment)) return { ok: false, reason: 'unknown', at, segment, known: Object.keys(shape).sort() };
    schema = shape[segment]!;
  }
  return { ok: true, schema, throughArray };
}

/**
 * A list reply's schema narrowed to some fields of its items: the reply as `reply` declares it, except that each
 * entity under `itemsKey` keeps only `fields` (each parsed by its own schema, so a date still becomes a `Date`)
 * and its other fields are neither checked nor kept. For callers that read a few fields of many entities (the
 * bulk engine's plan over 10,000 services), where checking and copying every field of every entity is most of
 * the CPU a page costs.
 *
 * @returns undefined when the reply cannot be narrowed that way: it, its item list or its item schema is not
 *   a plain object / array / object (wrappers, refinements, unions), or a field is not one of the item's own
 */
export function pickListItems(reply: $ZodType, itemsKey: string, fields: readonly string[]): $ZodType | undefined {
  const plain = (def: Def, type: string) => def.type === type && !def.checks?.length;
  const replyDef = defOf(reply);
  if (!plain(replyDef, 'object') || !replyDef.shape || !Object.hasOwn(replyDef.shape, itemsKey)) return undefined;
  let list = replyDef.shape[itemsKey]!;
  const optional = defOf(list).type === 'optional';
  if (optional) list = defOf(list).innerType!;
  const listDef = defOf(list);
  if (!plain(listDef, 'array') || !listDef.element) return undefined;
  const itemDef = defOf(listDef.element);
  if (!plain(itemDef, 'object') || !itemDef.shape) return undefined;
  const picked: Record<string, $ZodType> = {};
  for (const field of fields) {
    if (FORBIDDEN_KEYS.has(field) || !Object.hasOwn(itemDef.shape, field)) return undefined;
    picked[field] = itemDef.shape[field]!;
  }
  const items = z.array(z.object(picked));
  return z.object({ ...replyDef.shape, [itemsKey]: optional ? z.optional(items) : items });
}

/**
 * Every dotted field path of an entity schema down to `depth` levels (arrays stepped through), for help texts
 * and "valid fields are ..." messages.
 */
export function fieldPaths(root: $ZodType, depth = 2): string[] {
  const out: string[] = [];
  const walk = (schema: $ZodType, prefix: string, level: number) => {
    let s = schema;
    for (let e = elementOf(s); e; e = elementOf(s)) s = e;
    const shape = shapeOf(s);
    if (!shape) return;
    for (const [key, child] of Object.entries(shape)) {
      const path = prefix ? `${prefix}.${key}` : key;
      out.push(path);
      if (level < depth) walk(child, path, level + 1);
    }
  };
  walk(root, '', 1);
  return out;
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/**
 * The candidate closest to `name` when it is close enough to be a plausible typo (edit distance), else the
 * shortest one `name` abbreviates (same first letter, its letters in order); undefined when none is.
 */
export function suggest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = levenshtein(name, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3))) return best;
  // Not a typo but an abbreviation (`strt` for `startDate`, `created` for `createdDate`): the shortest candidate
  // that starts with the same letter and holds every letter of `name` in order.
  const wanted = name.toLowerCase();
  if (wanted.length < 3) return undefined;
  const holds = (c: string) => {
    let at = 0;
    for (const ch of c.toLowerCase()) if (ch === wanted[at]) at++;
    return at === wanted.length;
  };
  return candidates.filter((c) => c[0]?.toLowerCase() === wanted[0] && holds(c)).sort((x, y) => x.length - y.length)[0];
}
