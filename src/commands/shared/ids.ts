/**
 * Ids as the user may type them (docs/architecture.md "Output and interaction"): terminal tables show the first 8 characters of an id, and
 * every verb that takes an id accepts any unique prefix of at least 4 characters, as git does with hashes. An
 * ambiguous prefix is refused, listing the matches; a full id is used as it is, without a lookup.
 */
import type { ApiClient } from '../../api/client.js';
import { listPages, type ListOperation } from '../../api/paging.js';
import { ApiError } from '../../api/errors.js';
import { NotFoundError, UserError } from '../../core/errors.js';
import { oneLine } from '../../core/text.js';

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIX = /^[0-9a-f][0-9a-f-]{3,34}$/i;
/** Matches listed when a prefix is ambiguous. */
const SHOWN = 5;

/** Most entities a prefix is looked for in, on a list that cannot filter by id (read through page by page). */
export const MAX_SCAN = 1000;

/** True when `given` is a prefix to look up rather than an id to use as it is. */
export function isIdPrefix(given: string): boolean {
  return !FULL_ID.test(given) && PREFIX.test(given);
}

/**
 * The full id `given` stands for: itself when it is a full id (or not id-shaped), else the one entity of
 * `query` whose id starts with it (a list that cannot filter by id is read through).
 * @param noun for messages: `{one: 'service', many: 'services'}`
 * @throws UserError exit 1 when no entity matches, exit 2 when several do (listing them)
 */
export async function resolveId(
  api: ApiClient,
  query: ListOperation,
  given: string,
  noun: { one: string; many: string },
  opts: { signal?: AbortSignal; label?: (e: Record<string, unknown>) => unknown; bin?: string; fromItem?: (item: unknown) => unknown; params?: Record<string, unknown> } = {},
): Promise<string> {
  if (!isIdPrefix(given)) return given;
  const matches: Array<Record<string, unknown>> = [];
  if (!query.paging.filter) {
    // A list that cannot filter by id (the orders GET list): read it through, keeping the ids that match.
    // Bounded: past MAX_SCAN entities a prefix costs more calls than typing the id does.
    const prefix = given.toLowerCase();
    let read = 0;
    for await (const page of listPages(api, query, { signal: opts.signal, limit: MAX_SCAN })) {
      for (const item of page.items) {
        const e = (opts.fromItem ? opts.fromItem(item) : item) as Record<string, unknown>;
        if (String(e.id).toLowerCase().startsWith(prefix)) matches.push(e);
      }
      read += page.items.length;
      if (matches.length > SHOWN) break;
    }
    if (matches.length === 0 && read >= MAX_SCAN) {
      throw new UserError(`no ${noun.one} among the first ${MAX_SCAN} has an id starting with '${given}'`, `the ${noun.many} list cannot search by id: give the full id`);
    }
    return chosen(given, matches, noun, opts);
  }
  for await (const page of listPages(api, query, { filter: { id: { $startsWith: given.toLowerCase() } }, limit: SHOWN + 1, pageSize: SHOWN + 1, params: opts.params, signal: opts.signal })) {
    for (const item of page.items) matches.push((opts.fromItem ? opts.fromItem(item) : item) as Record<string, unknown>);
  }
  return chosen(given, matches, noun, opts);
}

/** The one match of a prefix. @throws UserError as {@link resolveId} */
function chosen(given: string, matches: Array<Record<string, unknown>>, noun: { one: string; many: string }, opts: { label?: (e: Record<string, unknown>) => unknown; bin?: string }): string {
  if (matches.length === 1) return String(matches[0]!.id);
  if (matches.length === 0) {
    throw new NotFoundError(`no ${noun.one} has an id starting with '${given}'`, `'${opts.bin ?? 'sitectl'} ${noun.many} list' shows the ids`);
  }
  const shown = matches.slice(0, SHOWN).map((m) => `${m.id}${opts.label ? ` (${oneLine(String(opts.label(m) ?? ''))})` : ''}`);
  throw new UserError(
    `'${given}' is ambiguous: ${matches.length > SHOWN ? `more than ${SHOWN}` : matches.length} ${noun.many} match`,
    `type more of the id: ${shown.join(', ')}`,
  );
}

/** True for an error that says an id names nothing: a prefix nothing matches, or the platform's 404. */
export function isNotFound(err: unknown): boolean {
  return err instanceof NotFoundError || (err instanceof ApiError && err.status === 404);
}

/**
 * Every id of a write that takes several (`msb add GROUP B1 B2`), each resolved and read by `one`, all before the
 * first write: the ids that name nothing are collected, and the write is refused listing them all.
 * @param noun for the message: `{one: 'booking', many: 'bookings'}`
 * @returns what `one` returned for each id, in the order given
 * @throws UserError (exit 2) `2 bookings not found: nope-1, nope-2; nothing was changed`; any other error of `one`
 */
export async function resolveAll<T>(given: readonly string[], one: (id: string) => Promise<T>, noun: { one: string; many: string }): Promise<T[]> {
  const found: T[] = [];
  const missing: string[] = [];
  for (const id of given) {
    try {
      found.push(await one(id));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      missing.push(id);
    }
  }
  if (missing.length > 0) {
    throw new UserError(`${missing.length === 1 ? `${noun.one}` : `${missing.length} ${noun.many}`} not found: ${missing.map((m) => oneLine(m)).join(', ')}; nothing was changed`);
  }
  return found;
}

/**
 * After the rows are printed: a read given ids of which some name nothing exits 1, saying which.
 * @throws NotFoundError (exit 1)
 */
export function failIfMissing(rows: ReadonlyArray<{ id: string; error?: string }>, noun: string): void {
  const missing = rows.filter((r) => r.error !== undefined && /NOT_FOUND$/.test(r.error)).map((r) => r.id);
  if (missing.length === 0) return;
  throw new NotFoundError(`${missing.length === 1 ? `${noun} ${missing[0]} was` : `${missing.length} ${noun}s were`} not found${missing.length > 1 ? `: ${missing.join(', ')}` : ''}`);
}
