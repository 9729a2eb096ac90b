/**
 * Selecting the targets of a bulk action (docs/architecture.md "Bulk runs, the journal, history and undo"): a filter
 * (`--filter JSON`, combined with `--where`), or ids (`--ids a,b,c`, repeated, or `--ids-file FILE|-`, which
 * also takes the NDJSON a list command prints). Targets arrive page by page, so a 10,000-entity run never holds
 * every document at once.
 */
import type { Readable } from 'node:stream';
import type { Filter } from '../api/schemas/common.js';
import { readSource } from '../core/input.js';
import { UserError } from '../core/errors.js';
import { fetchByIds, type Entity, type EntityPort } from './port.js';

export type Selection = { kind: 'filter'; filter: Filter } | { kind: 'ids'; ids: string[] };

/** A page of targets; `missing` lists requested ids that do not exist (ids selections only). */
export interface TargetPage {
  entities: Entity[];
  missing: string[];
}

/** Ids per lookup query of an ids selection. */
const IDS_PER_QUERY = 100;

/** Ids from `--ids` values: comma-separated, repeatable; blanks dropped, duplicates removed, order kept. */
export function parseIdList(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    for (const part of v.split(/[,\s]+/)) if (part.trim() !== '') out.add(part.trim());
  }
  return [...out];
}

/**
 * Ids from the text of `--ids-file`: one per line (commas also split), `#` comments and blank lines ignored;
 * a line holding a JSON object (NDJSON from `list --ndjson`) gives its `id`.
 * @throws UserError when a JSON line does not parse or has no string `id`
 */
export function parseIdsText(text: string, source: string): string[] {
  const plain: string[] = [];
  const ids: string[] = [];
  text.split('\n').forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed.startsWith('{')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(trimmed);
      } catch {
        throw new UserError(`${source} line ${i + 1} is not valid JSON`);
      }
      const id = (parsed as { id?: unknown }).id;
      if (typeof id !== 'string' || id === '') throw new UserError(`${source} line ${i + 1} has no "id"`);
      ids.push(id);
    } else {
      plain.push(line.replace(/#.*$/, ''));
    }
  });
  return parseIdList([...ids, ...plain]);
}

/**
 * Ids from `--ids-file`; `-` reads stdin.
 * @throws UserError when the file cannot be read or holds a bad JSON line
 */
export async function readIdsFile(path: string, stdin: Readable): Promise<string[]> {
  return parseIdsText(await readSource('--ids-file', path, stdin), path === '-' ? 'stdin' : path);
}

/**
 * Streams the targets of a selection.
 *
 * Filters: the platform's own paging (sorted by id). Ids: looked up 100 at a time with `{"id":{"$in":[...]}}`,
 * in the order given; ids the platform does not return are reported in `missing`. `fields`: the fields of each
 * target the caller reads (see {@link EntityPort.pages}; undefined: whole entities).
 */
export async function* selectTargets(port: EntityPort, selection: Selection, signal?: AbortSignal, fields?: readonly string[]): AsyncGenerator<TargetPage> {
  if (selection.kind === 'filter') {
    for await (const entities of port.pages(selection.filter, signal, fields)) yield { entities, missing: [] };
    return;
  }
  for (let i = 0; i < selection.ids.length; i += IDS_PER_QUERY) {
    const ids = selection.ids.slice(i, i + IDS_PER_QUERY);
    const byId = await fetchByIds(port, ids, signal, fields);
    yield {
      entities: ids.filter((id) => byId.has(id)).map((id) => byId.get(id)!),
      missing: ids.filter((id) => !byId.has(id)),
    };
  }
}
