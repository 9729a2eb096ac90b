/**
 * The ids a filter can match at most, when it names them (docs/wire.md §6 filter language): a by-filter job whose
 * filter pins its targets' ids (`services update --filter` sends `{$and: [<selection>, {$or: [{id, revision},
 * ...]}]}`, a delete by filter `{id: {$in: [...]}}`) then reads those documents only instead of every document
 * of the site. The result is a superset of the matches: the caller still runs the compiled filter on each.
 */
import { asNumber, asTime } from './values.js';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * An id value that only the same string equals under the evaluator's coercions: a string that is neither a
 * number nor an instant (`"50"` would also equal `"050"`, two spellings of one instant each other).
 */
function exactId(v: unknown): v is string {
  return typeof v === 'string' && asNumber(v) === undefined && asTime(v) === undefined;
}

/** The ids an `id` field condition allows (`"x"`, `{$eq: "x"}`, `{$in: [...]}`), or undefined when it is another kind. */
function idsOfCondition(value: unknown): Set<string> | undefined {
  if (exactId(value)) return new Set([value]);
  if (!isPlainObject(value)) return undefined;
  if (exactId(value.$eq)) return new Set([value.$eq]);
  if (Array.isArray(value.$in) && value.$in.every(exactId)) return new Set(value.$in);
  return undefined;
}

function intersect(a: Set<string> | undefined, b: Set<string> | undefined): Set<string> | undefined {
  if (!a) return b;
  if (!b) return a;
  return new Set([...a].filter((id) => b.has(id)));
}

/**
 * The ids `filter` can match at most: its `id` condition, the intersection of what its `$and` members pin, the
 * union of its `$or` branches when every branch pins; undefined when nothing pins them (any document may match).
 * Never throws: a malformed filter pins nothing (compileFilter refuses it).
 */
export function pinnedIds(filter: unknown): Set<string> | undefined {
  if (!isPlainObject(filter)) return undefined;
  let pinned: Set<string> | undefined;
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'id') pinned = intersect(pinned, idsOfCondition(value));
    else if (key === '$and' && Array.isArray(value)) for (const sub of value) pinned = intersect(pinned, pinnedIds(sub));
    else if (key === '$or' && Array.isArray(value) && value.length > 0) {
      const branches = value.map(pinnedIds);
      if (branches.every((b) => b !== undefined)) pinned = intersect(pinned, new Set(branches.flatMap((b) => [...b!])));
    }
  }
  return pinned;
}
