/**
 * What a noun declares to the shared verbs (docs/architecture.md "Layout and dependency direction"): how its entities look on the command line (the
 * EntityView: schema, columns, query, labels, paths), the state changes it offers (TransitionSpec, run by
 * transition.ts and by the interactive keys), and how its filter and sort flags are read through it. The rest
 * of commands/shared builds on this file; of commands/shared it imports only the checkers (fields.ts) and the
 * flag shapes (bulk-flags.ts).
 */
import type { Command } from 'commander';
import type { $ZodType } from 'zod/v4/core';
import type { ApiClient } from '../../api/client.js';
import { paramsOfFilter, UnsupportedFilterError, type ParamFilter } from '../../api/list-params.js';
import type { ListOperation } from '../../api/paging.js';
import type { Filter } from '../../api/schemas/common.js';
import type { ChunkRunner } from '../../bulk/execute.js';
import type { JournalArgs } from '../../bulk/journal.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { parseFilterFlags, parseSort } from '../../core/filters.js';
import { type Column, type FormatFlags, type OutputFormat, resolveFormat } from '../../core/output.js';
import type { BulkFlags, SelectionFlags } from './bulk-flags.js';
import { checkField, checkFilter, mapFilterFields, schemaChecker } from './fields.js';
import { resolveId } from './ids.js';

/** How a noun's entities look on the command line: names, schema, table columns, the readable view. */
export interface EntityView<E> {
  noun: { one: string; many: string };
  /** The entity schema of the family table: what `--json`, `--filter`, `--sort` and `--set` are checked against. */
  schema: $ZodType;
  /** Columns of the list table (and TSV/CSV), with drop priorities for narrow terminals. */
  columns: Column<E>[];
  /**
   * The field the list query sorts by for a column (by column key, in `--sort` form: `start: 'startDate'`), for
   * columns whose cells show that field. The interactive table sorts these columns on the server, so the order
   * holds over every page; the others (cells computed from several fields) it sorts on the loaded rows only.
   */
  sortFields?: Readonly<Record<string, string>>;
  /** The readable key/value view of one entity on a terminal. */
  rows(entity: E): Array<[string, unknown]>;
  /** Top-level fields the platform owns (never set with `--set`). */
  readOnly: readonly string[];
  /** The filterable query of the family: id prefixes and bulk selections run through it. */
  query: ListOperation;
  /** A short label for previews and ambiguous-id lists (name, title, e-mail). */
  label(entity: E): string | undefined;
  /**
   * The top-level fields {@link label} reads, when they are few (services: `name`): a bulk plan may then read
   * only those and the fields its change needs. Undefined: plans read whole entities.
   */
  labelFields?: readonly string[];
  /**
   * Reads one entity by id (throws the platform's 404 for an unknown one), for a {@link query} that cannot select
   * by id (the orders GET list): how the bulk engine reads the targets of an ids selection.
   */
  getOne?(api: ApiClient, id: string, signal?: AbortSignal): Promise<E>;
  /** A typical `--filter` of this noun for the help text, e.g. `{"type":{"$in":["CLASS","COURSE"]}}`. */
  filterExample?: string;
  /**
   * Reads, for a page of entities at once, what the terminal shows besides the entities' own fields (an order's
   * buyer's name and e-mail), into a cache kept for the session that the columns and `rows` then read.
   */
  prepare?(api: ApiClient, entities: readonly E[], signal: AbortSignal): Promise<void>;
  /** An entity from one item of the query's reply, when the items wrap it (extended bookings: `item.booking`). */
  fromItem?(item: unknown): E;
  /**
   * Field paths of filters and sorts, when the platform's documented paths differ from the JSON the view shows:
   * `toSchema` (documented -> JSON) before checking against {@link schema}, `toWire` (JSON -> documented) to send.
   */
  paths?: { toSchema(path: string): string; toWire(path: string): string };
  /**
   * When {@link query} takes parameters instead of a filter (a GET list such as the orders list): the
   * parameter that stands for each field. `--filter`/`--where` may then use only these fields, with equality
   * or `$in` (list-params.ts), and are sent as the parameters.
   */
  listParams?: ParamFilter;
  /**
   * Request fields every query of this noun sends besides filter, sort and paging (members: `fieldsets:
   * ['FULL']`, so a list shows what `get` shows); a list's own `params` override them.
   */
  params?: Record<string, unknown>;
  /**
   * How the family's query searches free text, when it can: `what` names what it looks in (for the status
   * line), `query(text)` gives the filter (ANDed with the list's) and the request fields (members: the `search`
   * that `--search` sends) for the text. The interactive list then searches what is typed after `/` over every
   * page; without it the text filters the loaded rows only. `when`: the only text the query can search (bookings:
   * a whole e-mail address, which the platform's filter matches exactly); other text filters the loaded rows.
   * `query` may read the platform first (orders: the members the text finds, as the buyers to list).
   */
  textSearch?: { what: string; when?: RegExp; query(text: string, api: ApiClient, signal: AbortSignal): TextQuery | Promise<TextQuery> };
}

/** What a text search sends: a filter (schema form, ANDed with the list's) and request fields. */
export interface TextQuery {
  filter?: Filter;
  params?: Record<string, unknown>;
}

/** A verb as the noun's index registers it, with its run function exposed for tests. */
export interface Verb<O> {
  register(parent: Command, ctx: Context): void;
  run(opts: O, ctx: Context): Promise<void>;
}

/**
 * The format flags resolved, with `--json` and `--csv` fields checked against the entity schema (`--csv` may also
 * name the keys of `columns`, default the view's).
 * @throws UserError (exit 2) as resolveFormat
 */
export function formatOf(ctx: Context, view: EntityView<unknown>, flags: FormatFlags, columns: readonly Column<never>[] = view.columns) {
  return resolveFormat(flags, schemaChecker(view.schema, ctx.flags.allowUnknownFields), { columns: columns.map((c) => c.key) });
}

/** A full id from what the user typed (a unique prefix is enough; see ids.ts). */
export function idOf(ctx: Context, api: ApiClient, view: EntityView<unknown>, given: string): Promise<string> {
  return resolveId(api, view.query, given, view.noun, {
    signal: ctx.signal,
    label: (e) => view.label(e),
    bin: ctx.bin,
    fromItem: view.fromItem,
    params: view.params,
  });
}

/** The filter the platform is sent for a checked (schema-form) filter. */
export function wireFilter(view: Pick<EntityView<unknown>, 'paths'>, filter: Filter | undefined): Filter | undefined {
  return filter && view.paths ? mapFilterFields(filter, view.paths.toWire) : filter;
}

export interface TransitionOptions extends BulkFlags, SelectionFlags {
  id?: string;
  /** Pin the revision of the single form (default: the one just read). */
  revision?: string;
  [extra: string]: unknown;
}

export interface TransitionSpec<E extends { id: string; revision?: string | null }> {
  view: EntityView<E>;
  /** The verb (`confirm`) and the journal's action name. */
  verb: string;
  /** The command path (`bookings confirm`) for hints and the resume command. */
  command: string;
  description: string;
  examples: string[];
  /** The outcome of a changed entity (`confirmed`) and the progress title (`Confirming`). */
  done: string;
  title: string;
  /** True when the entity is in the target state already, for the verb's options (as the journal keeps them). */
  reached(entity: E, options: Record<string, unknown>): boolean;
  /** Why the entity cannot make the change (undefined when it can). */
  blocked?(entity: E): string | undefined;
  /**
   * Whether the change cannot be taken back (cancel, decline, block, pause...): the single form then asks first,
   * as a change to many always does (commands/shared/confirm.ts; the interactive keys follow it too).
   */
  destructive: boolean;
  /**
   * What the platform's own answers say before anything is sent (extended bookings' `allowedActions`, a policy
   * window), for the verb's options: why it would refuse the change and the flag that lifts it
   * (`--ignore-policy`). A dry run lists such an entity `refused` (docs/architecture.md "The confirmation rule").
   */
  refused?(entity: E, options: Record<string, unknown>): { reason: string; lift?: string } | undefined;
  /** The question the single form of a destructive verb asks (default: `<Title> <noun> ID (label)?`). */
  confirmOne?(entity: E, options: Record<string, unknown>): string | undefined;
  /**
   * The line the single form prints once the change is made, given the entity as it is now, its label and the
   * verb's options (default: `<done> ID (label)`): for a change that takes effect later (an order canceled at
   * its next payment date), when it will.
   */
  outcome?(after: E, label: string, options: Record<string, unknown>): string | undefined;
  /** For one blocked entity: the command that does what was meant (`msb cancel ID`), as a hint line. */
  instead?(entity: E, bin: string): string | undefined;
  /** Reads one entity as the single form prints it once changed. @throws ApiError 404 for an unknown id */
  fetch(api: ApiClient, id: string, signal: AbortSignal): Promise<E>;
  /**
   * The operation: sends one chunk of planned items (ids and the revisions planned), one item or many alike;
   * `options` are the verb's options as the journal keeps them (bulk/actions.ts: bulkSender, eachSender,
   * filterJobSender). `args` is the run's journal header: neither `ids` nor `filter` in it means the single form
   * (`NOUN VERB ID`, or one row's key in the browser), for a family whose platform has a call of its own for one
   * entity (members approve and block: `approveMember`, `blockMember`, not the by-filter job).
   */
  send(api: ApiClient, options: Record<string, unknown>, args: JournalArgs): ChunkRunner['send'];
  /** Items per request (the operation's bulk limit; the engine runs several chunks at once). */
  chunkSize: number;
  /** What the journal keeps of each entity before the change, for `sitectl undo` (default: its status). */
  beforeImage?(entity: E): unknown;
  /** Request fields the plan reads besides the view's own (bookings: their allowed actions, for {@link refused}). */
  reads?: Record<string, unknown>;
  /** Extra flags of the verb and the options they give (kept in the journal for `--resume`). */
  flags?(cmd: Command): void;
  /**
   * The verb's own selection flags (`--status`, `--service`, `--from`, ...) as a filter (schema form), ANDed
   * with `--filter`/`--where`; undefined when none was given. Declared by `flags`.
   */
  criteria?(opts: TransitionOptions, ctx: Context): Promise<Filter | undefined>;
  /** Whether any of the verb's own selection flags was given (before anything is read). */
  hasCriteria?(opts: TransitionOptions): boolean;
  options?(opts: TransitionOptions): Record<string, unknown>;
  /** The confirm question for N entities, given the verb's options (as the journal keeps them). */
  question(n: number, options?: Record<string, unknown>): string;
  /** Whether the entity has revisions (default true); without them the verb has no `--revision` flag (members). */
  revisioned?: boolean;
}

type Spec = TransitionSpec<{ id: string; revision?: string | null }>;

/** One key of a noun: the verb it runs (whose declaration says whether it asks first for one row too). */
export interface KeyedVerb {
  key: string;
  label: string;
  spec: Spec;
}

/** `--filter JSON` and repeatable `--where field=value`. */
export interface FilterFlags {
  filter?: string;
  where?: string[];
}

/**
 * `--filter` and `--where` as one filter, every field (and the values of enumeration fields) checked against
 * the entity schema; the hints show the noun's own `filterExample`.
 * @throws UserError (exit 2) for malformed JSON, an unknown operator, field or enumeration value, or a filter
 *   nested too deeply
 */
export function filterOf(ctx: Context, view: EntityView<unknown>, flags: FilterFlags): Filter | undefined {
  const given = parseFilterFlags(flags, view.filterExample);
  // Documented paths (`bookedEntity.item.slot.serviceId`) are checked in the JSON form the user sees.
  const filter = given && view.paths ? mapFilterFields(given, view.paths.toSchema) : given;
  const flag = flags.filter !== undefined ? '--filter' : '--where';
  checkFilter(view.schema, filter, flag, ctx.flags.allowUnknownFields);
  listParamsOf(view, filter, flag);
  return filter;
}

/**
 * The GET parameters a filter stands for, for a view whose query takes no filter (undefined for one that
 * does; null when the conditions exclude each other).
 * @throws UserError (exit 2) naming the fields the list can select by, when the filter is not expressible
 */
export function listParamsOf(view: EntityView<unknown>, filter: Filter | undefined, flag = '--filter'): Record<string, unknown> | null | undefined {
  if (view.query.paging.filter) return undefined;
  try {
    return paramsOfFilter(filter, view.listParams ?? {});
  } catch (err) {
    if (!(err instanceof UnsupportedFilterError)) throw err;
    const fields = err.supported;
    throw new UserError(`${flag}: ${err.message}`, fields.length ? `${view.noun.many} can be selected by ${fields.join(', ')} (equality or $in, ANDed)` : `${view.noun.many} cannot be selected by a filter`);
  }
}

/** `--sort` keys, each checked against the entity schema. @throws UserError (exit 2) */
export function sortOf(ctx: Context, view: EntityView<unknown>, spec: string | undefined) {
  if (spec === undefined) return undefined;
  const sort = parseSort(spec);
  for (const key of sort) checkField(view.schema, view.paths ? view.paths.toSchema(key.fieldName) : key.fieldName, '--sort', ctx.flags.allowUnknownFields);
  return view.paths ? sort.map((k) => ({ ...k, fieldName: view.paths!.toWire(view.paths!.toSchema(k.fieldName)) })) : sort;
}

/**
 * A noun the single form speaks of that has no list of its own to select from or resolve a prefix against
 * (a multi-service booking, read by id): its names and label, its `--json` fields and how it is printed. The verb
 * then names its item through `OneVerbRun.resolve` of commands/shared/bulk.ts (default: the id as typed).
 */
export interface OneNoun {
  noun: { one: string; many: string };
  label(entity: unknown): string | undefined;
  /** `--json [fields]` of the entity. @throws UserError (exit 2) for an unknown field */
  format(flags: FormatFlags): OutputFormat;
  /** Prints the entity as it is now on stdout. */
  print(ctx: Context, format: OutputFormat, entity: unknown): Promise<void>;
}
