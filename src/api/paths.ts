/**
 * Dotted paths into plain JSON objects (`payment.fixed.price.value`): what field masks, `--set`, `--json
 * fields`, `api -f key=value`, filter keys and path parameters are written in (docs/wire.md §5).
 *
 * Paths are walked over own properties only, and `__proto__`, `constructor` and `prototype` are never walked
 * or written (docs/architecture.md "Safety rules": a path must not reach the prototype chain). This module imports nothing, so
 * the client, the emulator and the CLI's core all use this one implementation.
 */

/** Segment names that would reach the prototype chain. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A path that names a forbidden segment or an empty one. */
export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
  constructor(
    readonly path: string,
    readonly segment: string,
  ) {
    super(segment === '' ? `"${path}" has an empty segment` : `"${path}" names "${segment}", which is not a field`);
  }
}

/**
 * The segments of a dotted path.
 * @throws UnsafePathError for an empty segment or a forbidden name
 */
export function splitPath(path: string): string[] {
  const segments = path.split('.');
  for (const s of segments) if (s === '' || FORBIDDEN_KEYS.has(s)) throw new UnsafePathError(path, s);
  return segments;
}

/** The first forbidden key anywhere in a JSON value, as a dotted path (`a.b.__proto__`), or undefined. */
export function findForbiddenKey(value: unknown, prefix = '', depth = 0): string | undefined {
  if (value === null || typeof value !== 'object' || depth > 200) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findForbiddenKey(value[i], `${prefix}[${i}]`, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key)) return path;
    const hit = findForbiddenKey((value as Record<string, unknown>)[key], path, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

/** How deeply a JSON value nests (a scalar is 0, `{}` 1). */
export function depthOf(value: unknown, limit = Infinity): number {
  if (value === null || typeof value !== 'object') return 0;
  let max = 0;
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    if (max >= limit) break;
    max = Math.max(max, depthOf(v, limit));
  }
  return max + 1;
}

/**
 * The value at `path` (own properties only); undefined when a step is missing, not an object, or forbidden.
 */
export function getPath(doc: unknown, path: string | readonly string[]): unknown {
  let current: unknown = doc;
  for (const segment of typeof path === 'string' ? path.split('.') : path) {
    if (current === null || typeof current !== 'object' || FORBIDDEN_KEYS.has(segment) || !Object.hasOwn(current, segment)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * Sets `path` in `doc`, creating (or replacing non-object) intermediate steps with `{}`; `value` undefined
 * removes the last key instead. Objects on the way are changed in place.
 * @throws UnsafePathError for an empty or forbidden segment (nothing is changed)
 */
export function setPath(doc: Record<string, unknown>, path: string | readonly string[], value: unknown): void {
  const segments = typeof path === 'string' ? splitPath(path) : checked(path);
  let current = doc;
  for (const segment of segments.slice(0, -1)) {
    const next = Object.hasOwn(current, segment) ? current[segment] : undefined;
    if (next === null || typeof next !== 'object' || Array.isArray(next)) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  }
  const last = segments[segments.length - 1]!;
  if (value === undefined) delete current[last];
  else current[last] = value;
}

/**
 * Like {@link setPath} but copying each object on the way (copy on write), so objects `doc` shares with a
 * stored document are never changed.
 * @throws UnsafePathError for an empty or forbidden segment
 */
export function setPathCopying(doc: Record<string, unknown>, path: string | readonly string[], value: unknown): void {
  const segments = typeof path === 'string' ? splitPath(path) : checked(path);
  let current = doc;
  for (const segment of segments.slice(0, -1)) {
    const child = Object.hasOwn(current, segment) ? current[segment] : undefined;
    current[segment] = child !== null && typeof child === 'object' && !Array.isArray(child) ? { ...child } : {};
    current = current[segment] as Record<string, unknown>;
  }
  const last = segments[segments.length - 1]!;
  if (value === undefined) delete current[last];
  else current[last] = value;
}

function checked(segments: readonly string[]): readonly string[] {
  const path = segments.join('.');
  for (const s of segments) if (s === '' || FORBIDDEN_KEYS.has(s)) throw new UnsafePathError(path, s);
  return segments;
}

/**
 * A copy of `filter` with every field name (keys not starting with `$`, at any depth under `$and`, `$or`,
 * `$nor` and `$not`) passed through `rename`; operators and values are kept as they are. Families whose
 * documented filter paths differ from their JSON (bookings: `bookedEntity.item.slot.serviceId` for
 * `bookedEntity.slot.serviceId`) convert with it, one way to check against the schema, the other to send.
 */
export function mapFilterFields<F extends Record<string, unknown>>(filter: F, rename: (path: string) => string): F {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$and' || key === '$or' || key === '$nor' || key === '$not') out[key] = walk(value);
      else out[key.startsWith('$') ? key : rename(key)] = value;
    }
    return out;
  };
  return walk(filter) as F;
}
