/**
 * `sitectl services search [TEXT] [--filter JSON] [--where f=v]... [--agg SPEC]... [--limit N]`: free-text search
 * with aggregations (docs/wire.md §14 "POST /v2/services/search"; cursor paging per docs/wire.md §6).
 *
 * Aggregation specs: `VALUE:field`, `SCALAR:MIN|MAX|COUNT_DISTINCT:field`, `RANGE:field:0,50,100` (buckets
 * [0,50) and [50,100)), `DATE_HISTOGRAM:field:YEAR|MONTH|WEEK|DAY|HOUR|MINUTE|SECOND`, and a NESTED chain of 2 to
 * 10 of them joined by `>` (`VALUE:type>SCALAR:MAX:defaultCapacity`: each within every bucket of the one before;
 * only the last may be a SCALAR).
 */
import type { Command } from 'commander';
import type { Aggregation, AggregationResult, NestedResultValue } from '../../api/schemas/common.js';
import type { Service } from '../../api/schemas/service.js';
import { MAX_SERVICES_PAGE, services } from '../../api/services.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { parseCount } from '../../core/numbers.js';
import { notice, style } from '../../core/log.js';
import { addFormatFlags, printRecords, printValue, resolveFormat, writeOut, type FormatFlags } from '../../core/output.js';
import { escapeControl } from '../../core/text.js';
import { checkField, schemaChecker } from '../shared/fields.js';
import { addFilterFlags } from '../shared/verbs.js';
import { filterOf, sortOf, type FilterFlags } from '../shared/entity-view.js';
import { SERVICE_COLUMNS, SERVICE_VIEW } from './shared/view.js';

const SCALARS = ['MIN', 'MAX', 'COUNT_DISTINCT'];
const INTERVALS = ['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND'];
const BUCKET_HEADERS: Record<string, string> = { VALUE: 'VALUE', RANGE: 'RANGE', SCALAR: 'SCALAR', DATE_HISTOGRAM: 'DATE', NESTED: 'BUCKETS' };
const HINT = "use VALUE:field, SCALAR:MIN:field, RANGE:field:0,50,100, DATE_HISTOGRAM:field:MONTH, or a NESTED chain of them joined by '>'";
const FIELD = /^[A-Za-z_]\w*(\.\w+)*$/;
/** The keys of `--json`'s object besides each service's fields. */
const ENVELOPE = ['services', 'aggregationData'];

export interface SearchOptions extends FilterFlags, FormatFlags {
  text?: string;
  agg: string[];
  sort?: string;
  limit?: string;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('search')
    .description('Search services by text, with aggregations')
    .argument('[text]', 'text to search for (name, description, ...)')
    .option('--agg <spec>', "aggregation: VALUE:field, SCALAR:MIN:field, RANGE:field:0,50,100, DATE_HISTOGRAM:field:MONTH, or NESTED as 'VALUE:type>SCALAR:MAX:defaultCapacity'; repeatable", collect, [])
    .option('--sort <field[:asc|desc]>', 'sort keys, comma-separated')
    .option('--limit <n>', 'at most this many services (default 50)')
    .addHelpText(
      'after',
      `\nExamples:\n  sitectl services search yoga --agg VALUE:type --agg 'SCALAR:MAX:defaultCapacity'\n` +
        `  sitectl services search --agg DATE_HISTOGRAM:createdDate:MONTH --limit 0 --json aggregationData\n` +
        `  sitectl services search --agg 'VALUE:type>SCALAR:MAX:defaultCapacity' --limit 0`,
    );
  addFormatFlags(addFilterFlags(cmd)).action(async (text: string | undefined, o: Omit<SearchOptions, 'text'>) => {
    await run({ text, ...o }, ctx);
  });
}

/**
 * Parses one `--agg` spec into the wire's aggregation request; its `name` is the spec itself. Specs joined by `>`
 * are one NESTED aggregation (2 to 10, only the last a SCALAR; SDK `bookings_services` `NestedAggregation`).
 * @throws UserError (exit 2) on an unknown type, scalar, interval, a bad field path or bad range edges, or a bad chain.
 */
export function parseAggregation(spec: string): Aggregation {
  if (!spec.includes('>')) return parseOne(spec, spec);
  const items = spec.split('>').map((part) => parseOne(part, spec));
  const bad = (why: string) => new UserError(`--agg '${spec}': ${why}`, HINT);
  if (items.length > 10) throw bad('a NESTED aggregation holds at most 10 aggregations');
  if (items.slice(0, -1).some((i) => i.type === 'SCALAR')) throw bad('a SCALAR has no buckets to nest in: it may only come last');
  // Each item is named by its own spec: the reply keys each level's result by name.
  if (new Set(items.map((i) => i.name)).size !== items.length) throw bad('the same aggregation twice in one chain');
  return { name: spec, type: 'NESTED', nested: { nestedAggregations: items.map((i) => ({ ...i, type: i.type as 'VALUE', fieldPath: i.fieldPath! })) } };
}

/** One spec of a field (not NESTED), named `part`. @throws UserError as {@link parseAggregation} */
function parseOne(part: string, spec: string): Aggregation {
  const parts = part.split(':');
  const type = (parts[0] ?? '').toUpperCase();
  const bad = (why: string) => new UserError(`--agg '${spec}': ${why}`, HINT);
  const field = (f: string | undefined) => {
    if (!f || !FIELD.test(f)) throw bad(`'${f ?? ''}' is not a field path`);
    return f;
  };
  switch (type) {
    case 'VALUE':
      if (parts.length !== 2) throw bad('expected VALUE:field');
      return { name: part, type: 'VALUE', fieldPath: field(parts[1]) };
    case 'SCALAR': {
      const scalar = (parts[1] ?? '').toUpperCase();
      if (parts.length !== 3 || !SCALARS.includes(scalar)) throw bad(`expected SCALAR:${SCALARS.join('|')}:field`);
      return { name: part, type: 'SCALAR', fieldPath: field(parts[2]), scalar: { type: scalar as 'MIN' } };
    }
    case 'RANGE': {
      if (parts.length !== 3) throw bad('expected RANGE:field:edge,edge,...');
      const edges = (parts[2] ?? '').split(',').map(Number);
      if (edges.length < 2 || edges.some((e) => !Number.isFinite(e)) || edges.some((e, i) => i > 0 && e <= edges[i - 1]!)) {
        throw bad('range edges must be two or more increasing numbers');
      }
      const buckets = edges.slice(1).map((to, i) => ({ from: edges[i]!, to }));
      return { name: part, type: 'RANGE', fieldPath: field(parts[1]), range: { buckets } };
    }
    case 'DATE_HISTOGRAM': {
      const interval = (parts[2] ?? '').toUpperCase();
      if (parts.length !== 3 || !INTERVALS.includes(interval)) throw bad(`expected DATE_HISTOGRAM:field:${INTERVALS.join('|')}`);
      return { name: part, type: 'DATE_HISTOGRAM', fieldPath: field(parts[1]), dateHistogram: { interval: interval as 'MONTH' } };
    }
    default:
      throw bad(`unknown aggregation type '${parts[0]}'`);
  }
}

/** One bucket of an aggregation result as a table row. */
export interface AggregationRow {
  bucket: string;
  count: number;
}

/** A NESTED entry's level as a bucket's text: its value, `[from, to)`, its date, or the scalar's value. */
function levelText(v: NestedResultValue): string {
  if (v.value) return v.value.value;
  if (v.range) return `[${v.range.from ?? '-inf'}, ${v.range.to ?? 'inf'})`;
  if (v.dateHistogram) return v.dateHistogram.value;
  return String(v.scalar?.value ?? '');
}

/**
 * The rows of one aggregation result: value/count, `[from, to)`/count, date/count, or the scalar's value; a
 * NESTED result one row per path through its buckets (`Class / [0, 50)`), counted by its last level (the
 * scalar's value when the chain ends in one).
 */
export function aggregationRows(r: AggregationResult): AggregationRow[] {
  if (r.nested) {
    return r.nested.results.map((entry) => {
      const levels = Object.values(entry.results);
      const last = levels.at(-1);
      const buckets = last?.scalar ? levels.slice(0, -1) : levels;
      const count = last?.scalar ? (last.scalar.value ?? 0) : (last?.value?.count ?? last?.range?.count ?? last?.dateHistogram?.count ?? 0);
      return { bucket: buckets.map(levelText).join(' / '), count };
    });
  }
  if (r.values) return r.values.results.map((v) => ({ bucket: v.value, count: v.count }));
  if (r.ranges) {
    return r.ranges.results.map((b) => ({ bucket: `[${b.from ?? '-inf'}, ${b.to ?? 'inf'})`, count: b.count }));
  }
  if (r.dateHistogram) return r.dateHistogram.results.map((v) => ({ bucket: v.value, count: v.count }));
  if (r.scalar) return [{ bucket: String(r.scalar.type), count: r.scalar.value }];
  return [];
}

/**
 * Runs the search. `--json` prints `{services, aggregationData}` (a field list applies to each service; naming
 * `aggregationData` or `services` prints only the keys named, core/output.ts `envelope`). On a
 * terminal the services table is followed by one small table per aggregation; piped, the same sections as TSV
 * (a blank line, then `aggregation<TAB>bucket<TAB>count` rows). `--ndjson` and `--csv` print the services only
 * and say so on stderr when aggregations were asked.
 * @throws UserError (exit 2) for a bad flag, aggregation spec or unknown field, before any request
 */
export async function run(opts: SearchOptions, ctx: Context): Promise<void> {
  // `--json` wraps the services beside `aggregationData`; a field list may name either key (--json aggregationData).
  const fields = schemaChecker(SERVICE_VIEW.schema, ctx.flags.allowUnknownFields);
  const format = resolveFormat(opts, (path) => (ENVELOPE.includes(path.split('.')[0]!) ? { ok: true } : fields(path)), { columns: SERVICE_COLUMNS.map((c) => c.key) });
  const filter = filterOf(ctx, SERVICE_VIEW, opts);
  const sort = sortOf(ctx, SERVICE_VIEW, opts.sort);
  const aggregations = opts.agg.map(parseAggregation);
  const fieldPaths = aggregations.flatMap((x): string[] => (x.nested ? x.nested.nestedAggregations.map((i) => i.fieldPath) : [x.fieldPath!]));
  for (const path of fieldPaths) checkField(SERVICE_VIEW.schema, path, '--agg', ctx.flags.allowUnknownFields);
  const limit = opts.limit !== undefined ? parseCount(opts.limit, '--limit', 0) : 50;

  const api = await ctx.api();
  const first = await services.searchServices(
    api,
    {
      search: {
        filter,
        sort,
        aggregations: aggregations.length ? aggregations : undefined,
        search: opts.text ? { expression: opts.text } : undefined,
        cursorPaging: { limit: Math.max(1, Math.min(limit, MAX_SERVICES_PAGE)) },
      },
    },
    { signal: ctx.signal },
  );
  const found: Service[] = first.services.slice(0, limit);
  let cursor = first.pagingMetadata?.cursors?.next;
  while (found.length < limit && cursor) {
    // Wire section 6: a next page is asked with cursorPaging alone.
    const page = await services.searchServices(api, { search: { cursorPaging: { limit: Math.min(limit - found.length, MAX_SERVICES_PAGE), cursor } } }, { signal: ctx.signal });
    found.push(...page.services.slice(0, limit - found.length));
    const next = page.pagingMetadata?.cursors?.next;
    cursor = next && next !== cursor ? next : undefined;
  }
  const aggregationData = first.aggregationData ?? { results: [] };

  await printRecords(ctx.io, format, found, SERVICE_COLUMNS, { now: ctx.now(), envelope: { key: 'services', extra: { aggregationData } }, empty: limit > 0 ? 'No services found.' : undefined });
  if (aggregationData.results.length === 0 || format.kind === 'json') return;
  if (format.kind !== 'table') {
    notice(ctx.io, 'aggregations are printed with --json, on a terminal, or in the piped table output; not with --ndjson or --csv');
    return;
  }
  for (const result of aggregationData.results) {
    const title = `${result.name ?? result.type} (${result.type}${result.fieldPath ? ` of ${result.fieldPath}` : ''})`;
    if (ctx.io.isStdoutTTY) {
      await writeOut(ctx.io, `\n${style(ctx.io, 'bold', escapeControl(title))}\n`);
      await printRecords(ctx.io, format, aggregationRows(result), [
        { key: 'bucket', header: BUCKET_HEADERS[result.type] ?? 'VALUE' },
        { key: 'count', header: result.type === 'SCALAR' || result.nested?.results[0]?.results[Object.keys(result.nested.results[0].results).at(-1)!]?.scalar ? 'RESULT' : 'COUNT', align: 'right' },
      ]);
    } else {
      const rows = aggregationRows(result).map((r) => `${result.name ?? result.type}\t${r.bucket}\t${r.count}`);
      await printValue(ctx.io, format, undefined, { text: `\n${rows.join('\n')}` });
    }
  }
}
