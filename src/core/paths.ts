/**
 * Dotted paths into plain JSON objects (`payment.fixed.price.value`): what `--json fields`, `--set path=value`,
 * `api --field key=value` and field masks are written in (platform-wire.md section 5: masks are dotted paths).
 */

/** The value at `path`; undefined when any step is missing or not an object. */
export function getPath(doc: unknown, path: string): unknown {
  let current: unknown = doc;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * Sets `path` in `doc`, creating (or replacing non-object) intermediate steps with `{}`.
 * `value` undefined removes the last key instead.
 */
export function setPath(doc: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.');
  let current = doc;
  for (const segment of segments.slice(0, -1)) {
    const next = current[segment];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  }
  const last = segments[segments.length - 1]!;
  if (value === undefined) delete current[last];
  else current[last] = value;
}
