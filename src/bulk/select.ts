/**
 * Selecting the targets of a bulk action (issue 2 §5 "stream the targets"): a filter (`--filter JSON`, combined
 * with `--where`), or ids (`--ids a,b,c`, repeated, or `--ids-file FILE|-`). Targets arrive page by page (at
 * most 100 services), so a 10,000-service run never holds the full documents at once.
 */
import type { Readable } from 'node:stream';
import type { Service } from '../api/schemas/service.js';
import type { Filter } from '../api/schemas/common.js';
import { readSource } from '../core/input.js';
import type { ServicesPort } from './port.js';

export type Selection = { kind: 'filter'; filter: Filter } | { kind: 'ids'; ids: string[] };

/** A page of targets; `missing` lists requested ids that do not exist (ids selections only). */
export interface TargetPage {
  services: Service[];
  missing: string[];
}

/** Ids from `--ids` values: comma-separated, repeatable; blanks dropped, duplicates removed, order kept. */
export function parseIdList(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    for (const part of v.split(/[,\s]+/)) if (part.trim() !== '') out.add(part.trim());
  }
  return [...out];
}

/**
 * Ids from `--ids-file`: one per line (commas also split), `#` comments and blank lines ignored; `-` reads stdin.
 * @throws UserError when the file cannot be read
 */
export async function readIdsFile(path: string, stdin: Readable): Promise<string[]> {
  const text = await readSource('--ids-file', path, stdin);
  return parseIdList(text.split('\n').map((l) => l.replace(/#.*$/, '')));
}

/**
 * Streams the targets of a selection.
 *
 * Filters: the platform's own paging (offset pages of 100, sorted by id). Ids: queried 100 at a time with
 * `{"id":{"$in":[...]}}`, in the order given; ids the platform does not return are reported in `missing`.
 */
export async function* selectTargets(port: ServicesPort, selection: Selection, signal?: AbortSignal): AsyncGenerator<TargetPage> {
  if (selection.kind === 'filter') {
    for await (const services of port.pages(selection.filter, signal)) yield { services, missing: [] };
    return;
  }
  for (let i = 0; i < selection.ids.length; i += 100) {
    const ids = selection.ids.slice(i, i + 100);
    const byId = new Map<string, Service>();
    for await (const services of port.pages({ id: { $in: ids } }, signal)) {
      for (const s of services) if (s.id) byId.set(s.id, s);
    }
    yield {
      services: ids.filter((id) => byId.has(id)).map((id) => byId.get(id)!),
      missing: ids.filter((id) => !byId.has(id)),
    };
  }
}
