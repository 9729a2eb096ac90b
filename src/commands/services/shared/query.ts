/**
 * Query flags of the services verbs: `--filter JSON`, repeatable `--where field=value`, `--sort`, `--limit`,
 * `--all`. The parsing itself lives in core/filters.ts (`parseFilterFlags`, also used by `services update
 * --filter` and later nouns); this file only declares the flags the same way on every verb.
 */
import type { Command } from 'commander';
import { collect } from '../../../core/filters.js';

export { parseFilterFlags, parseSort, parseIntFlag, type Filter, type SortKey } from '../../../core/filters.js';

/** Values of the flags `addFilterFlags` declares. */
export interface FilterFlags {
  filter?: string;
  where: string[];
}

/** Declares `--filter JSON` and repeatable `--where field=value`. */
export function addFilterFlags(cmd: Command): Command {
  return cmd
    .option('--filter <json>', `platform filter as JSON, e.g. '{"type":{"$in":["CLASS","COURSE"]}}'`)
    .option('--where <field=value>', 'equality condition (numbers/booleans typed, "quoted" forces text); repeatable, ANDed', collect, []);
}
