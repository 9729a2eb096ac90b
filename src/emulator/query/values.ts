/**
 * Value access and comparison shared by filters, sort and aggregations (docs/wire.md §6).
 *
 * Paths are dotted (`payment.fixed.price.value`); arrays met on the way are walked element by element, so
 * `locations.business.id` yields the id of every location. Comparison is type-aware: numbers and numeric
 * strings (money values such as `"50"`, revisions) compare as numbers, ISO-8601 strings as instants, other
 * strings by code point.
 */

/** A dotted path split once at compile time. */
export type CompiledPath = readonly string[];

export function compilePath(path: string): CompiledPath {
  return path.split('.');
}

/** Result of walking a path: the leaf values (arrays flattened) and whether the last key exists at all. */
export interface Resolved {
  values: unknown[];
  present: boolean;
}

const NOTHING: Resolved = Object.freeze({ values: Object.freeze([]) as unknown as unknown[], present: false });

/**
 * Walks `path` through `doc`; see the module comment for the array rule. The returned arrays may be the
 * document's own: callers must not mutate them.
 */
export function resolve(doc: unknown, path: CompiledPath): Resolved {
  // Fast path for the common case of a path without arrays on the way.
  let value = doc;
  for (let i = 0; i < path.length; i++) {
    if (value === null || typeof value !== 'object') return NOTHING;
    if (Array.isArray(value)) {
      const out: Resolved = { values: [], present: false };
      walk(value, path, i, out);
      return out;
    }
    value = own(value, path[i]);
  }
  if (value === undefined) return NOTHING;
  return { values: Array.isArray(value) ? value : [value], present: true };
}

function walk(value: unknown, path: CompiledPath, i: number, out: Resolved): void {
  if (i === path.length) {
    if (value === undefined) return;
    out.present = true;
    if (Array.isArray(value)) for (const v of value) out.values.push(v);
    else out.values.push(value);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) walk(v, path, i, out);
    return;
  }
  walk(own(value, path[i]), path, i + 1, out);
}

/**
 * A document's own property, never one inherited from `Object.prototype`: a filter on `toString` or
 * `__proto__` sees nothing rather than a function.
 */
function own(value: object, key: string): unknown {
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** First value at the path (used by sort and by single-valued aggregations), or undefined. */
export function first(doc: unknown, path: CompiledPath): unknown {
  let value: unknown = doc;
  for (const key of path) {
    if (Array.isArray(value)) value = value[0];
    if (value === null || typeof value !== 'object') return undefined;
    value = own(value, key);
  }
  return Array.isArray(value) ? value[0] : value;
}

const NUMERIC = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The number a value stands for (a number, or a numeric string such as a money value), else undefined. */
export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && NUMERIC.test(v)) return Number(v);
  return undefined;
}

/** Epoch ms of an ISO-8601 date string (or a Date), else undefined. */
export function asTime(v: unknown): number | undefined {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'string' && ISO_DATE.test(v)) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/**
 * Orders two values: negative, zero or positive, or NaN when they are not comparable (e.g. a string and a
 * boolean), in which case range operators do not match.
 */
export function compare(a: unknown, b: unknown): number {
  const na = asNumber(a);
  if (na !== undefined) {
    const nb = asNumber(b);
    if (nb !== undefined) return na - nb;
  }
  const ta = asTime(a);
  if (ta !== undefined) {
    const tb = asTime(b);
    if (tb !== undefined) return ta - tb;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return Number.NaN;
}

/** Equality with the same coercions as {@link compare}, and structural equality for objects and arrays. */
export function equals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a === 'object' || typeof b === 'object') return deepEqual(a, b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return false;
  const c = compare(a, b);
  return c === 0;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return equals(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Sort order of two values: missing (undefined/null) sorts before everything, incomparable by type name. */
export function sortCompare(a: unknown, b: unknown): number {
  const ma = a === undefined || a === null;
  const mb = b === undefined || b === null;
  if (ma || mb) return ma === mb ? 0 : ma ? -1 : 1;
  const c = compare(a, b);
  if (!Number.isNaN(c)) return c;
  const sa = typeof a;
  const sb = typeof b;
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * `compare(v, arg)` with the argument's coercions worked out once (filters compare one argument with every
 * document). Returns NaN when not comparable.
 */
export function compareTo(arg: unknown): (v: unknown) => number {
  const argNum = asNumber(arg);
  const argTime = argNum === undefined ? asTime(arg) : undefined;
  return (v) => {
    if (argNum !== undefined) {
      const n = asNumber(v);
      if (n !== undefined) return n - argNum;
    }
    if (argTime !== undefined) {
      const t = asTime(v);
      if (t !== undefined) return t - argTime;
    }
    return compare(v, arg);
  };
}

/** `equals(v, expected)` with the expected value's coercions worked out once. */
export function equalsTo(expected: unknown): (v: unknown) => boolean {
  if (expected === null || typeof expected === 'object' || typeof expected === 'boolean') return (v) => equals(v, expected);
  const expNum = asNumber(expected);
  const expTime = expNum === undefined ? asTime(expected) : undefined;
  return (v) => {
    if (v === expected) return true;
    if (typeof v !== 'string' && typeof v !== 'number') return false;
    if (expNum !== undefined) return asNumber(v) === expNum;
    if (expTime !== undefined) return asTime(v) === expTime;
    return false;
  };
}

/** A value reduced to a rank and a comparable primitive, computed once per document for sorting. */
export type SortKey = readonly [rank: number, value: number | string];

/**
 * Sort key: missing values first, then numbers (and numeric strings), dates, strings, booleans, anything else
 * by its JSON text. A total order, so mixed-type fields still sort consistently.
 */
export function sortKey(v: unknown): SortKey {
  if (v === undefined || v === null) return [0, 0];
  const n = asNumber(v);
  if (n !== undefined) return [1, n];
  const t = asTime(v);
  if (t !== undefined) return [2, t];
  if (typeof v === 'string') return [3, v];
  if (typeof v === 'boolean') return [4, Number(v)];
  return [5, JSON.stringify(v)];
}

export function compareKeys(a: SortKey, b: SortKey): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  const x = a[1];
  const y = b[1];
  if (typeof x === 'number') return x - (y as number);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Path segments as a tree: `true` where a path ends (the whole value is kept). */
type PathTree = Map<string, PathTree | true>;

/**
 * A function cutting a document down to the values at `paths` (dotted), keeping the objects and arrays on the
 * way, so {@link resolve} finds the same values at each of those paths in the cut document as in the whole one.
 * Objects of the cut have no prototype (a key named `__proto__` is kept as data).
 */
export function projection(paths: readonly string[]): (doc: unknown) => unknown {
  const tree: PathTree = new Map();
  for (const p of paths) {
    let at = tree;
    const keys = compilePath(p);
    for (let i = 0; i < keys.length; i++) {
      const next = at.get(keys[i]!);
      // A shorter path keeps this whole value already.
      if (next === true) break;
      if (i === keys.length - 1) at.set(keys[i]!, true);
      else if (next) at = next;
      else {
        const fresh: PathTree = new Map();
        at.set(keys[i]!, fresh);
        at = fresh;
      }
    }
  }
  const cut = (value: unknown, node: PathTree): unknown => {
    if (Array.isArray(value)) return value.map((v) => cut(v, node));
    if (value === null || typeof value !== 'object') return value;
    const out = Object.create(null) as Record<string, unknown>;
    for (const [key, sub] of node) {
      if (!Object.hasOwn(value, key)) continue;
      const v = (value as Record<string, unknown>)[key];
      out[key] = sub === true ? v : cut(v, sub);
    }
    return out;
  };
  return (doc) => cut(doc, tree);
}
