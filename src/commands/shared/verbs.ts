/**
 * The verbs every entity noun has, built from its family table and a view (docs/architecture.md "Layout and dependency direction"; cli/cli's
 * Options + runF seam): `list`, `get`, `count` and `export`. Each factory declares the flags, turns them into an
 * Options value, and returns `run(opts, ctx)`, which validates every flag (format, fields, filter, sort) before
 * the first request and prints through the one exporter of core/output.
 *
 * The read verbs (`list`, `count`, `export`) come from one declaration of the noun, its {@link ReadSpec}: the
 * same selection flags (`--filter`, `--where` and the noun's own, such as `--status`) on each, read the same way,
 * so a noun that lists also counts and exports what it lists.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { invoke, type Operation, type RequestOf, type ReplyOf } from '../../api/family.js';
import { listPages, type ListOperation } from '../../api/paging.js';
import type { Filter, Sorting } from '../../api/schemas/common.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { keepHeapFlat } from '../../core/memory.js';
import { parseCount } from '../../core/numbers.js';
import { notice } from '../../core/log.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, printRecord, printRecords, printValue, resolveFormat } from '../../core/output.js';
import { checkFilter } from './fields.js';
import { type EntityView, type FilterFlags, filterOf, formatOf, idOf, type KeyedVerb, listParamsOf, sortOf, type Verb, wireFilter } from './entity-view.js';
import type { Invocation } from '../noun-list.js';
import type { OwnFlags } from './browse.js';

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

/** The platform's count call of a noun, for {@link countVerb}; made with {@link countCall}. */
export interface CountCall {
  count(api: ApiClient, filter: Filter | undefined, signal: AbortSignal): Promise<number>;
}

/** A {@link CountCall} from an operation of the family table, its request for a (wire-form) filter and its reply's number. */
export function countCall<Op extends Operation>(op: Op, request: (filter: Filter | undefined) => RequestOf<Op>, read: (reply: ReplyOf<Op>) => number): CountCall {
  return { count: async (api, filter, signal) => read(await invoke(api, op, request(filter), { signal })) };
}

/**
 * What a noun declares once for its read verbs (`list`, `count`, `export`): the view, the list operation, and
 * how the noun's own flags select. Each read verb declares the same selection flags and reads them the same way.
 */
export interface ReadSpec<E> {
  view: EntityView<E>;
  /** The list operation (default: the view's query). */
  op?: ListOperation;
  /** `--sort` when none is given (e.g. `startDate` for bookings); default: the platform's order. */
  defaultSort?: string;
  /** The noun's own selection flags (e.g. `--status`), on list, count and export alike. */
  flags?(cmd: Command): void;
  /** Flags that shape the rows rather than select them (`--with`, `--fieldset`): on list and export only. */
  rowFlags?(cmd: Command): void;
  /** The filter conditions and request fields the noun's own flags add. */
  extra?(opts: ListOptions, ctx: Context): NounExtra | Promise<NounExtra>;
  /** Columns for this run (e.g. times shown in `--tz`); default: the view's. */
  columns?(opts: ListOptions): Column<E>[];
  /**
   * The selection flags an interactive list opens with besides those typed (bookings: `--from today` when neither
   * `--from` nor `--to` was given), shown on its filter line to edit.
   */
  interactiveFlags?(opts: ListOptions): Record<string, string>;
  /** The platform's count call; without one, `count` reads the list (see {@link countVerb}). */
  count?: CountCall;
  /** The columns of `export --csv` when they differ from the list's (members: the member flattened). */
  exportColumns?: Column<E>[];
  /**
   * Entities per request of `export --csv`, whose pages are parsed (default: the most the list operation takes);
   * JSON and NDJSON ask the pages `list --all` asks, passed on as sent.
   */
  exportPage?: number;
}

export interface ListSpec<E> extends ReadSpec<E> {
  /** The verb's name (default `list`, alias `ls`): `plans public query` lists through the platform's query call. */
  name?: string;
  description: string;
  examples: string[];
  /** Rows shown without --limit/--all. */
  defaultLimit?: number;
  /** The single-key actions of `--interactive`, from the noun's verb declarations (loaded on first use). */
  keys?(): Promise<KeyedVerb[]>;
}

/** What a read verb selects: the checked filter (schema form), the request fields, and whether nothing can match. */
export interface Selection {
  filter: Filter | undefined;
  /** The request fields of the noun's own flags (and of the filter, for a list that takes parameters). */
  extra: Record<string, unknown> | undefined;
  /** Every request field sent: the view's, then {@link extra}. */
  params: Record<string, unknown> | undefined;
  /** The conditions exclude each other (a list that takes parameters): nothing is asked. */
  none: boolean;
}

/**
 * The selection of a read verb: `--filter`/`--where` ANDed with the noun's own flags, and for a list that takes
 * parameters instead of a filter, the filter as its parameters.
 * @throws UserError (exit 2) for a bad flag, filter or field
 */
async function selectionOf(spec: ReadSpec<unknown>, opts: ListOptions, ctx: Context): Promise<Selection> {
  const view = spec.view;
  const extra = (await spec.extra?.(opts, ctx)) ?? {};
  const filter = combinedFilter(ctx, view, opts, extra);
  // A list that takes parameters instead of a filter is sent the filter as its parameters.
  const selected = listParamsOf(view, filter);
  const own = extra.params || selected ? { ...extra.params, ...selected } : undefined;
  const params = view.params || own ? { ...view.params, ...own } : undefined;
  return { filter, extra: own, params, none: selected === null };
}

/**
 * The noun's own selection flags of an interactive list (browse.ts OwnFlags): those given (with the interactive
 * defaults, {@link ReadSpec.interactiveFlags}) as the filter line shows them, `--status CONFIRMED,PENDING --from
 * today` in the order the noun declares them, and their reader for flags edited there; the other options
 * (`--with`, `--tz`'s display) stay as given. `--filter`/`--where` are not among them (the filter line shows
 * them as `field=value`).
 */
async function ownFlags(spec: ReadSpec<unknown>, opts: ListOptions, ctx: Context): Promise<{ own: OwnFlags; filter: Filter | undefined }> {
  const { Command } = await import('commander');
  const probe = new Command();
  spec.flags?.(probe);
  const names = probe.options.map((o) => o.attributeName());
  const flagOf = new Map(probe.options.map((o) => [o.attributeName(), (o.long ?? '').replace(/^--/, '')]));
  const attrOf = new Map([...flagOf].map(([attr, flag]) => [flag, attr]));
  const rest: ListOptions = { ...opts, filter: undefined, where: undefined, interactive: undefined };
  for (const n of names) delete rest[n];
  const given: ListOptions = { ...(spec.interactiveFlags?.(opts) ?? {}), ...opts };
  const { flagValueText } = await import('../../ui/index.js');
  const text = names
    .filter((n) => typeof given[n] === 'string')
    .map((n) => `--${flagOf.get(n)} ${flagValueText(given[n] as string)}`)
    .join(' ');
  return {
    own: {
      text,
      async select(flags) {
        const chosen: ListOptions = { ...rest };
        for (const [flag, value] of Object.entries(flags)) {
          const attr = attrOf.get(flag);
          if (attr === undefined) throw new UserError(`unknown flag --${flag} on the filter line`, `this list takes ${[...attrOf.keys()].map((f) => `--${f}`).join(', ')} and field=value terms`);
          chosen[attr] = value;
        }
        const { filter, extra } = await selectionOf(spec, chosen, ctx);
        return { filter, params: extra };
      },
    },
    filter: filterOf(ctx, spec.view as EntityView<unknown>, opts),
  };
}

/**
 * `--sort` checked for the list operation.
 * @throws UserError (exit 2) for an unknown field, several keys where the platform sorts by one, or any sort
 *   where it takes none
 */
function sortFor(ctx: Context, spec: ReadSpec<unknown>, given: string | undefined) {
  const view = spec.view;
  const sort = sortOf(ctx, view, given ?? spec.defaultSort);
  const op = spec.op ?? view.query;
  if (sort && sort.length > 1 && op.paging.singleSort) throw new UserError(`--sort: ${view.noun.many} sort by one field, got ${sort.length}`);
  if (sort && op.paging.unsorted) throw new UserError(`--sort: the platform lists ${view.noun.many} in its own order, without a sort`);
  return sort;
}

/** The sort of an offset list read to its end when none is given (see {@link stableSort}). */
const BY_ID: Sorting[] = [{ fieldName: 'id', order: 'ASC' }];

/**
 * The sort of a read of every page (`list --all`, `export`): the one given; without one, an offset list that
 * takes a sort of several keys (members, services) is sorted by `id` ascending, so that a page asked by offset
 * follows where the previous one ended whatever is written meanwhile, and the server walks an index instead of
 * ordering every match for each page (docs/wire.md §6 "Offset paging"). Cursor lists keep
 * their own order (the cursor is the platform's stable paging); lists sorted by one key (orders: newest first)
 * or by none (plans' GET) keep theirs.
 */
export function stableSort(op: ListOperation, sort: Sorting[] | undefined): Sorting[] | undefined {
  if (sort || op.paging.kind !== 'offset' || op.paging.unsorted || op.paging.singleSort) return sort;
  return BY_ID;
}

/** Declares the selection flags of a read verb: the noun's own, then `--filter` and `--where`. */
function addSelectionFlags(cmd: Command, spec: ReadSpec<unknown>): Command {
  spec.flags?.(cmd);
  return addFilterFlags(cmd, spec.view.filterExample);
}

/** A list verb: registered with the noun's invocation, whose nouns `:NOUN` in the interactive table opens. */
export interface ListVerb extends Verb<ListOptions> {
  register(parent: Command, ctx: Context, inv?: Invocation): void;
}

/**
 * `NOUN list`: the entities matching a filter, sorted, paged as needed, in any output format; `--interactive` the
 * live table, where `:NOUN` opens another noun's list (the nouns of the invocation it was registered with).
 */
export function listVerb<E>(spec: ListSpec<E>): ListVerb {
  const defaultLimit = spec.defaultLimit ?? 50;
  const view = spec.view as EntityView<unknown>;
  // The word the noun is typed as (`staff`, not its entities' `staff members`), once registered: for the hints.
  let noun = view.noun.many;
  /** The nouns `:` jumps to (none when the list was registered without them, as in a unit test). */
  let nouns: Invocation['nouns'];
  const run = async (opts: ListOptions, ctx: Context): Promise<void> => {
    const columns = spec.columns?.(opts) ?? spec.view.columns;
    const format = formatOf(ctx, view, opts, columns);
    const { filter, extra, params, none } = await selectionOf(spec as ReadSpec<unknown>, opts, ctx);
    const given = sortFor(ctx, spec as ReadSpec<unknown>, opts.sort);
    if (opts.all && opts.limit !== undefined) throw new UserError('use either --limit or --all');
    const limit = opts.all ? undefined : opts.limit !== undefined ? parseCount(opts.limit, '--limit') : defaultLimit;
    const op = spec.op ?? view.query;
    // Every page of `--all` in a stable order, as `export` reads them (the same requests, the same bytes).
    const sort = opts.all ? stableSort(op, given) : given;
    if (opts.interactive) {
      if (format.kind !== 'table') throw new UserError('--interactive draws a table: drop --json, --ndjson and --csv');
      const [{ browse }, jump] = await Promise.all([import('./browse.js'), nouns ? import('./jump.js').then((m) => m.nounJump(ctx, nouns!)) : undefined]);
      // The noun's own flags open on the filter line as typed; the rest of the filter as field=value.
      const own = spec.flags ? await ownFlags(spec as ReadSpec<unknown>, opts, ctx) : undefined;
      return browse(ctx, { view, op, columns: columns as Column<unknown>[], filter: own ? own.filter : filter, own: own?.own, sort, params: extra, count: spec.count, command: `${noun} list`, zone: typeof opts.tz === 'string' ? opts.tz : undefined, keys: spec.keys, jump });
    }

    const api = await ctx.api();
    // Every page of a long list goes by in short bursts, as an export's do.
    if (opts.all) keepHeapFlat();
    let total: number | undefined;
    let shown = 0;
    const people = format.kind === 'table' && ctx.io.isStdoutTTY;
    async function* entities(): AsyncGenerator<E> {
      if (none) return;
      // JSON passes the items on as the platform sent them: nothing of them is read, so they are not parsed.
      const asSent = format.kind === 'json' || format.kind === 'ndjson';
      for await (const page of listPages(api, op, { filter: wireFilter(view, filter), sort, limit, pageSize: limit, params, signal: ctx.signal, asSent })) {
        if (total === undefined && page.pagingMetadata && !page.pagingMetadata.tooManyToCount) total = page.pagingMetadata.total;
        shown += page.items.length;
        const list = entitiesOf(spec.view, page.items);
        // Names for ids (an order's buyer) are read for people only: piped output keeps the ids.
        if (people) await spec.view.prepare?.(api, list, ctx.signal);
        yield* list;
      }
    }
    // On a terminal, times are on the site's clock (or --tz's), as the interactive views show them.
    const zone = people ? await tableZone(ctx, api, opts) : undefined;
    // `--all` on a terminal streams its table, sized on its first rows: a list of 100,000 is not held to be drawn.
    const streamed = opts.all ? { stream: true, widthSample: WIDTH_SAMPLE } : {};
    await printRecords(ctx.io, format, entities(), columns, { now: ctx.now(), zone, empty: `No ${view.noun.many} match.`, ...streamed });
    // A page short of the matches is said wherever a person reads stderr, piped output included (`list | wc -l`).
    if (shown > 0 && total !== undefined && total > shown && ((ctx.io.isStdoutTTY && format.kind === 'table') || ctx.io.isStderrTTY)) {
      notice(ctx.io, `Showing ${shown} of ${total} ${view.noun.many}; use --limit N or --all for more.`);
    }
  };
  return {
    run,
    register(parent, ctx, inv) {
      noun = pathOf(parent);
      nouns = inv?.nouns;
      const cmd = parent.command(spec.name ?? 'list');
      if (spec.name === undefined) cmd.alias('ls');
      cmd
        .description(spec.description)
        .option('--sort <field[:asc|desc]>', 'sort keys, comma-separated, e.g. name or createdDate:desc')
        .option('--limit <n>', `at most this many (default ${defaultLimit})`)
        .option('--all', 'every match (pages through all of them)')
        .option('-i, --interactive', 'browse every page in a live table: / filter, s sort (shift+letter by a column), : another noun, space mark, enter details, ? help')
        .addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`);
      addSelectionFlags(cmd, spec as ReadSpec<unknown>);
      spec.rowFlags?.(cmd);
      addFormatFlags(cmd).action(async (o: ListOptions) => {
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

/** The entities of one page of the list operation's reply (unwrapped when the items wrap them). */
function entitiesOf<E>(view: EntityView<E>, items: readonly unknown[]): E[] {
  return view.fromItem ? items.map((item) => view.fromItem!(item)) : (items as E[]);
}

export type CountOptions = ListOptions;

/**
 * How many entities of `spec` match `selection`: the platform's count call when the noun has one; else the
 * list operation's `pagingMetadata.total` when the first page reports it exactly (offset lists: members,
 * orders, plans; not when `tooManyToCount`); else every page read and its items counted (cursor lists
 * without a total: staff).
 */
export async function countOf(api: ApiClient, spec: ReadSpec<unknown>, selection: Selection, signal: AbortSignal): Promise<number> {
  if (selection.none) return 0;
  const filter = wireFilter(spec.view, selection.filter);
  if (spec.count) return spec.count.count(api, filter, signal);
  let counted = 0;
  let first = true;
  for await (const page of listPages(api, spec.op ?? spec.view.query, { filter, params: selection.params, signal })) {
    const meta = page.pagingMetadata;
    if (first && meta && typeof meta.total === 'number' && !meta.tooManyToCount) return meta.total;
    first = false;
    counted += page.items.length;
  }
  return counted;
}

/**
 * `NOUN count`: how many entities match the noun's selection flags (as `list` takes them); the number, or
 * `{"count": N}` with --json. How it counts: {@link countOf}.
 */
export function countVerb<E>(spec: ReadSpec<E>): Verb<CountOptions> {
  const view = spec.view as EntityView<unknown>;
  const run = async (opts: CountOptions, ctx: Context): Promise<void> => {
    const format = resolveFormat(opts, fieldsChecker(['count']));
    const selection = await selectionOf(spec as ReadSpec<unknown>, opts, ctx);
    const api = await ctx.api();
    const count = await countOf(api, spec as ReadSpec<unknown>, selection, ctx.signal);
    await printValue(ctx.io, format, { count }, { text: String(count) });
  };
  return {
    run,
    register(parent, ctx) {
      const cmd = parent
        .command('count')
        .description(`Count ${view.noun.many} matching a filter`)
        .addHelpText('after', `\nExamples:\n  sitectl ${pathOf(parent)} count\n  sitectl ${pathOf(parent)} count --json`);
      addFormatFlags(addSelectionFlags(cmd, spec as ReadSpec<unknown>)).action(async (o: CountOptions) => {
        await run(o, ctx);
      });
    },
  };
}

export type ExportOptions = ListOptions;

/**
 * `NOUN export --ndjson|--csv [fields]|--json [fields]`: every entity matching the noun's selection flags (as
 * `list` takes them), streamed page by page in constant memory (NDJSON and CSV; `--json` is one array, so it
 * holds them all); a summary on stderr. An export is data for a file or a program: it takes no table.
 * @throws UserError (exit 2) without a format, or for a bad flag, before anything is read
 */
export function exportVerb<E>(spec: ReadSpec<E>): Verb<ExportOptions> {
  const view = spec.view as EntityView<unknown>;
  /** The noun's command, for the hint (set when registered). */
  let noun = view.noun.many;
  const run = async (opts: ExportOptions, ctx: Context): Promise<void> => {
    const columns = spec.exportColumns ?? spec.columns?.(opts) ?? spec.view.columns;
    const format = formatOf(ctx, view, opts, columns);
    if (format.kind === 'table') {
      throw new UserError('export writes --ndjson, --csv or --json', `e.g. ${ctx.bin} ${noun} export --ndjson > ${noun}.ndjson`);
    }
    const selection = await selectionOf(spec as ReadSpec<unknown>, opts, ctx);
    const op = spec.op ?? view.query;
    const sort = stableSort(op, sortFor(ctx, spec as ReadSpec<unknown>, opts.sort));
    const api = await ctx.api();
    let count = 0;
    // JSON and NDJSON pass the items on as the platform sent them, as `list --all` does: each reply is checked
    // to be a page and printed as it came (the same bytes as the list), nothing parsed twice. CSV reads fields
    // of each row, so its pages are parsed by the schema (once).
    const asSent = format.kind === 'json' || format.kind === 'ndjson';
    async function* entities(): AsyncGenerator<E> {
      if (selection.none) return;
      const pageSize = asSent ? undefined : spec.exportPage;
      for await (const page of listPages(api, op, { filter: wireFilter(view, selection.filter), sort, params: selection.params, pageSize, signal: ctx.signal, asSent })) {
        count += page.items.length;
        yield* entitiesOf(spec.view, page.items);
      }
    }
    keepHeapFlat();
    await printRecords(ctx.io, format, entities(), columns, { now: ctx.now() });
    notice(ctx.io, `Exported ${count} ${count === 1 ? view.noun.one : view.noun.many}.`);
  };
  return {
    run,
    register(parent, ctx) {
      noun = pathOf(parent);
      const cmd = parent
        .command('export')
        .description(`Write every ${view.noun.one} (or those matching) as NDJSON, CSV or JSON, streaming in constant memory`)
        .option('--sort <field[:asc|desc]>', 'sort keys, comma-separated')
        .addHelpText('after', `\nExamples:\n  sitectl ${noun} export --ndjson > ${noun}.ndjson\n  sitectl ${noun} export --csv > ${noun}.csv\n  sitectl ${noun} export --json id`);
      addSelectionFlags(cmd, spec as ReadSpec<unknown>);
      spec.rowFlags?.(cmd);
      addFormatFlags(cmd).action(async (o: ExportOptions) => {
        await run(o, ctx);
      });
    },
  };
}

/** Rows of `list --all`'s terminal table that size its columns (see PrintOptions.widthSample). */
const WIDTH_SAMPLE = 200;

/** The command path of `cmd` below the program, as typed: `services booking-policies` for that group. */
function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
