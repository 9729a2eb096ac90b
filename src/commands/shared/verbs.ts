/**
 * The verbs every entity noun has, built from its family table and a view (docs/architecture.md "Layout and dependency direction"; cli/cli's
 * Options + runF seam): `list`, `get` and `count`. Each factory declares the flags, turns them into an Options
 * value, and returns `run(opts, ctx)`, which validates every flag (format, fields, filter, sort) before the
 * first request and prints through the one exporter of core/output.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { invoke, type Operation, type RequestOf, type ReplyOf } from '../../api/family.js';
import { listPages, type ListOperation } from '../../api/paging.js';
import type { Filter } from '../../api/schemas/common.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { parseCount } from '../../core/numbers.js';
import { notice } from '../../core/log.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, printRecord, printRecords, printValue, resolveFormat } from '../../core/output.js';
import { checkFilter } from './fields.js';
import { type EntityView, type FilterFlags, filterOf, formatOf, idOf, type KeyedVerb, listParamsOf, sortOf, type Verb, wireFilter } from './entity-view.js';

export type { Verb } from './entity-view.js';

/** Declares `--filter JSON` (with `example` in its help) and repeatable `--where field=value`. */
export function addFilterFlags(cmd: Command, example = '{"type":{"$in":["CLASS","COURSE"]}}'): Command {
  return cmd
    .option('--filter <json>', `platform filter as JSON, e.g. '${example}'`)
    .option('--where <field=value>', 'equality condition (numbers/booleans typed, "quoted" forces text); repeatable, ANDed', collect, []);
}

export { formatOf, idOf } from './entity-view.js';

/** What a noun's own flags (`--status`, `--from`, ...) add to a list or count: filter conditions, request fields. */
export interface NounExtra {
  filter?: Filter;
  params?: Record<string, unknown>;
}

/**
 * `--filter`/`--where` ANDed with the noun's own conditions (each checked against the schema).
 * @throws UserError (exit 2) as {@link filterOf}
 */
function combinedFilter(ctx: Context, view: EntityView<unknown>, opts: FilterFlags, extra: NounExtra): Filter | undefined {
  const given = filterOf(ctx, view, opts);
  checkFilter(view.schema, extra.filter, '--filter', true);
  return given && extra.filter ? { $and: [given, extra.filter] } : (given ?? extra.filter);
}

export interface ListOptions extends FilterFlags, FormatFlags {
  sort?: string;
  limit?: string;
  all?: boolean;
  [extra: string]: unknown;
}

export interface ListSpec<E> {
  view: EntityView<E>;
  /** The list operation (default: the view's query). */
  op?: ListOperation;
  description: string;
  examples: string[];
  /** Rows shown without --limit/--all. */
  defaultLimit?: number;
  /** `--sort` when none is given (e.g. `startDate` for bookings); default: the platform's order. */
  defaultSort?: string;
  /** Extra flags of this noun's list (e.g. `--status`), and the filter and request fields they add. */
  flags?(cmd: Command): void;
  extra?(opts: ListOptions, ctx: Context): NounExtra | Promise<NounExtra>;
  /** Columns for this run (e.g. times shown in `--tz`); default: the view's. */
  columns?(opts: ListOptions): Column<E>[];
  /** The single-key actions of `--interactive`, from the noun's verb declarations (loaded on first use). */
  keys?(): Promise<KeyedVerb[]>;
}

/** `NOUN list`: the entities matching a filter, sorted, paged as needed, in any output format. */
export function listVerb<E>(spec: ListSpec<E>): Verb<ListOptions> {
  const defaultLimit = spec.defaultLimit ?? 50;
  const view = spec.view as EntityView<unknown>;
  const run = async (opts: ListOptions, ctx: Context): Promise<void> => {
    const format = formatOf(ctx, view, opts);
    const extra = (await spec.extra?.(opts, ctx)) ?? {};
    const filter = combinedFilter(ctx, view, opts, extra);
    const sort = sortOf(ctx, view, opts.sort ?? spec.defaultSort);
    if (opts.all && opts.limit !== undefined) throw new UserError('use either --limit or --all');
    const limit = opts.all ? undefined : opts.limit !== undefined ? parseCount(opts.limit, '--limit') : defaultLimit;
    // A list that takes parameters instead of a filter is sent the filter as its parameters.
    const selected = listParamsOf(view, filter);
    if (selected) extra.params = { ...extra.params, ...selected };
    if (sort && sort.length > 1 && (spec.op ?? view.query).paging.singleSort) throw new UserError(`--sort: ${view.noun.many} sort by one field, got ${sort.length}`);
    if (sort && (spec.op ?? view.query).paging.unsorted) throw new UserError(`--sort: the platform lists ${view.noun.many} in its own order, without a sort`);
    if (opts.interactive) {
      if (format.kind !== 'table') throw new UserError('--interactive draws a table: drop --json, --ndjson and --csv');
      const { browse } = await import('./browse.js');
      const columns = (spec.columns?.(opts) ?? spec.view.columns) as Column<unknown>[];
      return browse(ctx, { view, op: spec.op ?? view.query, columns, filter, sort, params: extra.params, command: `${view.noun.many} list`, zone: typeof opts.tz === 'string' ? opts.tz : undefined, keys: spec.keys });
    }

    const api = await ctx.api();
    let total: number | undefined;
    let shown = 0;
    const op = spec.op ?? view.query;
    const people = format.kind === 'table' && ctx.io.isStdoutTTY;
    async function* entities(): AsyncGenerator<E> {
      if (selected === null) return;
      const params = view.params || extra.params ? { ...view.params, ...extra.params } : undefined;
      // JSON passes the items on as the platform sent them: nothing of them is read, so they are not parsed.
      const asSent = format.kind === 'json' || format.kind === 'ndjson';
      for await (const page of listPages(api, op, { filter: wireFilter(view, filter), sort, limit, pageSize: limit, params, signal: ctx.signal, asSent })) {
        if (total === undefined && page.pagingMetadata && !page.pagingMetadata.tooManyToCount) total = page.pagingMetadata.total;
        shown += page.items.length;
        const list = spec.view.fromItem ? page.items.map((item) => spec.view.fromItem!(item)) : (page.items as E[]);
        // Names for ids (an order's buyer) are read for people only: piped output keeps the ids.
        if (people) await spec.view.prepare?.(api, list, ctx.signal);
        yield* list;
      }
    }
    // On a terminal, times are on the site's clock (or --tz's), as the interactive views show them.
    const zone = people ? await tableZone(ctx, api, opts) : undefined;
    await printRecords(ctx.io, format, entities(), spec.columns?.(opts) ?? spec.view.columns, { now: ctx.now(), zone });
    if (ctx.io.isStdoutTTY && format.kind === 'table') {
      if (shown === 0) notice(ctx.io, `No ${view.noun.many} match.`);
      else if (total !== undefined && total > shown) notice(ctx.io, `Showing ${shown} of ${total} ${view.noun.many}; use --limit N or --all for more.`);
    }
  };
  return {
    run,
    register(parent, ctx) {
      const cmd = parent
        .command('list')
        .alias('ls')
        .description(spec.description)
        .option('--sort <field[:asc|desc]>', 'sort keys, comma-separated, e.g. name or createdDate:desc')
        .option('--limit <n>', `at most this many (default ${defaultLimit})`)
        .option('--all', 'every match (pages through all of them)')
        .option('-i, --interactive', 'browse every page in a live table: / filter, s sort, space mark, enter details, ? help')
        .addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`);
      spec.flags?.(cmd);
      addFormatFlags(addFilterFlags(cmd, view.filterExample)).action(async (o: ListOptions) => {
        await run(o, ctx);
      });
    },
  };
}

export interface GetOptions extends FormatFlags {
  id: string;
}

/**
 * The clock a table on a terminal shows times on (docs/architecture.md, the one time rule): `--tz` when the verb
 * has it, else the site's (its default business location's); undefined (this machine's) when the site's cannot be
 * read, so a table is never lost to that lookup.
 */
async function tableZone(ctx: Context, api: ApiClient, opts: object): Promise<string | undefined> {
  // Loaded here, for terminals only: the site's zone comes from the services API's locations query.
  const { siteZone, tzFlag } = await import('./time.js');
  const tz = (opts as { tz?: unknown }).tz;
  if (typeof tz === 'string') return tzFlag(tz);
  return siteZone(ctx, api).catch(() => undefined);
}

/** `NOUN get ID`: one entity (a unique id prefix is enough), as a readable view, TSV, or JSON. */
export function getVerb<E>(spec: { view: EntityView<E>; description: string; fetch(api: ApiClient, id: string, signal: AbortSignal): Promise<E> }): Verb<GetOptions> {
  const view = spec.view as EntityView<unknown>;
  const run = async (opts: GetOptions, ctx: Context): Promise<void> => {
    const format = formatOf(ctx, view, opts);
    const api = await ctx.api();
    const id = await idOf(ctx, api, view, opts.id);
    const entity = await spec.fetch(api, id, ctx.signal);
    const people = format.kind === 'table' && ctx.io.isStdoutTTY;
    if (people) await spec.view.prepare?.(api, [entity], ctx.signal);
    const zone = people ? await tableZone(ctx, api, opts) : undefined;
    await printRecord(ctx.io, format, entity, { rows: spec.view.rows(entity), columns: spec.view.columns, now: ctx.now(), zone });
  };
  return {
    run,
    register(parent, ctx) {
      addFormatFlags(parent.command('get').alias('view').description(spec.description).argument('<id>', `${view.noun.one} id (or a unique prefix)`)).action(
        async (id: string, o: FormatFlags) => {
          await run({ id, ...o }, ctx);
        },
      );
    },
  };
}

export type CountOptions = FilterFlags & FormatFlags & { [extra: string]: unknown };

/** `NOUN count`: how many entities match a filter; the number, or `{"count": N}` with --json. */
export function countVerb<E, Op extends Operation>(spec: {
  view: EntityView<E>;
  op: Op;
  request(filter: Filter | undefined): RequestOf<Op>;
  read(reply: ReplyOf<Op>): number;
  /** The noun's own selection flags, as for {@link ListSpec} (`params` are not used by a count). */
  flags?(cmd: Command): void;
  extra?(opts: CountOptions, ctx: Context): NounExtra | Promise<NounExtra>;
}): Verb<CountOptions> {
  const view = spec.view as EntityView<unknown>;
  const run = async (opts: CountOptions, ctx: Context): Promise<void> => {
    const format = resolveFormat(opts, fieldsChecker(['count']));
    const filter = combinedFilter(ctx, view, opts, (await spec.extra?.(opts, ctx)) ?? {});
    const api = await ctx.api();
    const count = spec.read(await invoke(api, spec.op, spec.request(wireFilter(view, filter)), { signal: ctx.signal }));
    await printValue(ctx.io, format, { count }, { text: String(count) });
  };
  return {
    run,
    register(parent, ctx) {
      const cmd = parent.command('count').description(`Count ${view.noun.many} matching a filter`);
      spec.flags?.(cmd);
      addFormatFlags(addFilterFlags(cmd, view.filterExample)).action(async (o: CountOptions) => {
        await run(o, ctx);
      });
    },
  };
}
