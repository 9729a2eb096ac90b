/**
 * The operation table: each API family is declared once, as data (docs/architecture.md "One table per API family"). An operation is keyed by the official SDK's method name and
 * says how it travels on the wire (method, proto path, SDK URL and gateway aliases, docs/wire.md §1),
 * what it takes and returns (zod/mini schemas), how it pages, whether it may be repeated, whether it is
 * revision-checked and how many items a bulk request may hold.
 *
 * From a table the client derives its calls ({@link invoke}, {@link callsOf}: one typed function per
 * operation, reply validated by the operation's schema), the emulator its routes and request validation
 * (`serve(family, handlers)` in src/emulator), the bulk engine its entity ports, and the contract test its
 * list of what must answer.
 *
 * Path templates: `{serviceId}` or `{service.id}` name a (dotted) field of the request, filled in by the client
 * as the SDK's `resolveUrl` does. The SDK URL of an operation is the first prefix mapping whose proto prefix
 * starts its path (docs/wire.md §1: "takes the first entry whose destPath prefixes the path"); the other URLs of
 * that mapping are aliases the gateway also routes.
 */
import type { $ZodType, output as Output, input as Input } from 'zod/v4/core';
import type { ApiClient } from './client.js';
import { getPath } from './paths.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** How a list operation pages (docs/wire.md §6). */
export interface PagingSpec<Items extends string = string> {
  /** `offset`: `paging:{limit, offset}` (or top-level `limit`/`offset` for GET lists); `cursor`: `cursorPaging`. */
  kind: 'offset' | 'cursor';
  /** The reply key holding the page's entities, e.g. `services`. */
  items: Items;
  /** The request key that wraps filter, sort and paging (`query`, `search`); absent for flat GET lists. */
  wrapper?: string;
  /** The sort key inside the wrapper: `sort` (most APIs) or `sorting` (members, orders). */
  sortKey?: 'sort' | 'sorting';
  /** The sort is one `{fieldName, order}` object, not a list (the orders GET lists: `sorting.fieldName=...`). */
  singleSort?: boolean;
  /** The list takes no sort at all (the plans GET lists): a sort is refused rather than silently dropped. */
  unsorted?: boolean;
  /** The reply key of the paging metadata: `pagingMetadata` (default) or `metadata` (members). */
  meta?: 'pagingMetadata' | 'metadata';
  /**
   * Where a list without a wrapper takes its offset paging: top-level `limit`/`offset` (default, the plans and
   * orders GET lists) or a `paging: {limit, offset}` object (the members GET list, sent as `.r=`).
   */
  offsetIn?: 'top' | 'paging';
  /**
   * Where a cursor list without a wrapper takes its cursor paging: `cursorPaging` (default) or a `paging:
   * {limit, cursor}` object (the staff trash bin, `listDeletedStaffMembers`).
   */
  cursorIn?: 'cursorPaging' | 'paging';
  /** Largest page the platform serves. */
  maxLimit: number;
  /** Whether the request takes a filter object (a query) or only fixed parameters (GET lists). */
  filter: boolean;
}

/**
 * One operation as declared in a family table. `request` and `reply` are given as functions that build the
 * schema: a command loads every table of its family but uses one or two operations, and building zod schemas
 * is start-up time (`services list --json` builds only the query's reply). The defined {@link Operation}
 * exposes them as schemas, built on first use.
 */
export interface OperationSpec<Req extends $ZodType = $ZodType, Res extends $ZodType = $ZodType> {
  method: HttpMethod;
  /** Proto path with `{param}` placeholders, e.g. `/v2/services/{service.id}` (docs/wire.md §1). */
  path: string;
  /** One line: what the call does (help texts, the GraphQL schema, the contract test's report). */
  summary: string;
  /** The request: the JSON body, or for GET/DELETE the parameters; path parameters are fields of it. */
  request: () => Req;
  /** The reply; the client parses with it (ISO dates become `Date`), the emulator must satisfy it. */
  reply: () => Res;
  paging?: PagingSpec;
  /** Safe to send again (reads, and writes the platform refuses to apply twice). Default: GET only. */
  idempotent?: boolean;
  /** The request carries the entity's current revision; a stale one is refused with 409. */
  revisioned?: boolean;
  /** Most items one request may hold (docs/wire.md §7). */
  bulkLimit?: number;
  /** GET parameters may travel as `.r=<base64url JSON>` (docs/wire.md §5). */
  complexQuery?: boolean;
  /**
   * A GET whose parameters exceed 4000 characters goes out as a POST to the same path (docs/wire.md §5). Filled in
   * by {@link defineFamily}: true for every GET whose POST form is no other operation of the family (a POST to the
   * members or plans list path creates one), false otherwise; a declaration need not say it.
   */
  longGetFallback?: boolean;
  /** The SDK sends the proto path as is: the gateway has no mapping for it (e.g. availability multislot). */
  bare?: boolean;
  /**
   * Other spellings of the proto path that the emulator also routes (through the same prefix mappings), e.g. the
   * seed's `/v1/Start` beside the SDK's `/v1/start`. The client always sends {@link Operation.url}.
   */
  aliases?: readonly string[];
  /** An account-level call (docs/wire.md §2): it carries `wix-account-id`, not `wix-site-id` (the sites query). */
  accountLevel?: boolean;
  /**
   * Changes nothing (the emulator serves it outside a write transaction). Default: GET, or an SDK name that
   * starts with get, list, query, search, count or validate.
   */
  readOnly?: boolean;
}

/** A gateway prefix mapping: a proto prefix and the URL prefixes that reach it, the SDK's first. */
export interface PrefixMapping {
  proto: string;
  urls: readonly [string, ...string[]];
}

export interface FamilySpec<Ops extends Record<string, OperationSpec>> {
  /** The family's name, as the CLI and the emulator's registry know it: `services`, `bookings`, ... */
  name: string;
  prefixes: readonly PrefixMapping[];
  operations: Ops;
}

/** An operation of a defined family: the declaration plus everything derived from it. */
export type Operation<Spec extends OperationSpec = OperationSpec> = Omit<Spec, 'request' | 'reply'> & {
  /** The request schema (built on first use). */
  readonly request: ReturnType<Spec['request']>;
  /** The reply schema (built on first use). */
  readonly reply: ReturnType<Spec['reply']>;
  /** The SDK method name, e.g. `queryServices`. */
  readonly name: string;
  readonly family: string;
  /** The URL the client sends (the SDK URL), with `{param}` placeholders. */
  readonly url: string;
  /** Every path template the gateway routes to this operation: the proto path, the SDK URL, the aliases (and those of {@link OperationSpec.aliases}). */
  readonly routes: readonly string[];
  /** The request fields that fill the path, in order (`serviceId`, `service.id`). */
  readonly pathParams: readonly string[];
  /** Changes nothing (see {@link OperationSpec.readOnly}; the default is filled in). */
  readonly readOnly: boolean;
};

export interface Family<Ops extends Record<string, OperationSpec> = Record<string, OperationSpec>> {
  readonly name: string;
  readonly prefixes: readonly PrefixMapping[];
  readonly operations: { readonly [K in keyof Ops]: Operation<Ops[K]> };
}

/** Something with a request and a reply schema, or their builders: an operation or its declaration. */
type HasSchemas = { request: $ZodType | (() => $ZodType); reply: $ZodType | (() => $ZodType) };
type SchemaOf<S> = S extends () => infer T ? T : S;

/** The request an operation takes, in wire form (ISO date strings). */
export type RequestOf<Op extends HasSchemas> = Input<SchemaOf<Op['request']>>;
/** The reply of an operation after parsing (dates are `Date`). */
export type ReplyOf<Op extends HasSchemas> = Output<SchemaOf<Op['reply']>>;
/** The reply of an operation in wire form, as a server sends it. */
export type WireReplyOf<Op extends HasSchemas> = Input<SchemaOf<Op['reply']>>;
/** The entity type of a list operation's page (`Service` for queryServices). */
export type ItemOf<Op extends HasSchemas> = Op extends { paging: PagingSpec<infer K> }
  ? ReplyOf<Op> extends { [P in K]?: ReadonlyArray<infer I> | null }
    ? I
    : unknown
  : never;

const PARAM = /\{([A-Za-z_][\w.]*)\}/g;

function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

function rewrite(path: string, prefixes: readonly PrefixMapping[]): { url: string; routes: string[] } {
  const mapping = prefixes.find((m) => path === m.proto || path.startsWith(`${m.proto}/`));
  if (!mapping) return { url: path, routes: [path] };
  const rest = path.slice(mapping.proto.length);
  const urls = mapping.urls.map((u) => u + rest);
  return { url: urls[0]!, routes: [...new Set([path, ...urls])] };
}

/** SDK method names of calls that change nothing. */
const READ_NAME = /^(get|list|query|search|count|validate)[A-Z]/;

/**
 * Declares a family. Every operation gets its SDK URL (first matching prefix mapping, or the proto path when
 * `bare` or unmapped), its route list and its path parameters.
 * @throws Error at load time when two operations claim the same method and path, or a path is malformed.
 */
export function defineFamily<const Ops extends Record<string, OperationSpec>>(spec: FamilySpec<Ops>): Family<Ops> {
  const operations = {} as Record<string, Operation>;
  const seen = new Map<string, string>();
  for (const [name, op] of Object.entries(spec.operations)) {
    if (!op.path.startsWith('/')) throw new Error(`${spec.name}.${name}: path must start with '/'`);
    const { url, routes: own } = op.bare ? { url: op.path, routes: [op.path] } : rewrite(op.path, spec.prefixes);
    const routes = [...new Set([...own, ...(op.aliases ?? []).flatMap((a) => (op.bare ? [a] : rewrite(a, spec.prefixes).routes))])];
    const pathParams = [...op.path.matchAll(PARAM)].map((m) => m[1]!);
    const key = `${op.method} ${op.path.replace(PARAM, '{}')}`;
    const other = seen.get(key);
    if (other) throw new Error(`${spec.name}: ${name} and ${other} are both ${key}`);
    seen.set(key, name);
    const { request, reply, ...rest } = op;
    const readOnly = op.readOnly ?? (op.method === 'GET' || READ_NAME.test(name));
    const defined = { ...rest, name, family: spec.name, url, routes, pathParams, readOnly } as Record<string, unknown>;
    Object.defineProperty(defined, 'request', { get: once(request), enumerable: true });
    Object.defineProperty(defined, 'reply', { get: once(reply), enumerable: true });
    operations[name] = defined as unknown as Operation;
  }
  // The long GET (docs/wire.md §5): every GET has its POST form, unless a POST of the family owns one of its routes.
  const shape = (route: string) => route.replace(PARAM, '{}');
  const posted = new Set(Object.values(operations).flatMap((op) => (op.method === 'POST' ? op.routes.map(shape) : [])));
  for (const op of Object.values(operations)) {
    if (op.method === 'GET') (op as { longGetFallback?: boolean }).longGetFallback = op.longGetFallback ?? !op.routes.some((r) => posted.has(shape(r)));
    Object.freeze(op);
  }
  return Object.freeze({ name: spec.name, prefixes: spec.prefixes, operations }) as unknown as Family<Ops>;
}

/**
 * Fills the `{param}` placeholders of `template` from the request (URI-encoded).
 * @throws TypeError when a path parameter is missing or empty (a caller's bug: the types require it)
 */
export function fillPath(template: string, request: unknown): string {
  return template.replace(PARAM, (_, name: string) => {
    const value = getPath(request, name);
    if (value === undefined || value === null || value === '') throw new TypeError(`path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/** Options every call takes. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the operation's `idempotent` (a caller that recognises its own earlier attempt may retry). */
  idempotent?: boolean;
  /**
   * A check of the reply instead of the operation's schema (the reply is then returned as sent): a list passed
   * on as the platform sent it checks only that it is a page ({@link ListOptions.asSent} in paging.ts).
   */
  check?: (json: unknown) => string | undefined;
}

/**
 * Sends one operation: the path filled from the request; for GET and DELETE the request travels as query
 * parameters (path parameters repeated there, as the SDK does), otherwise as the JSON body (action bodies
 * repeat the path parameters too, docs/wire.md §11).
 *
 * @returns the reply parsed by the operation's reply schema
 * @throws the errors of errors.ts (ValidationError, ApplicationError, SystemError, NetworkError); TypeError when
 *   a path parameter is missing
 */
export function invoke<Op extends Operation>(
  api: ApiClient,
  op: Op,
  request: RequestOf<Op>,
  opts: CallOptions = {},
): Promise<ReplyOf<Op>> {
  const path = fillPath(op.url, request);
  const asQuery = op.method === 'GET' || op.method === 'DELETE';
  return api.request({
    method: op.method,
    path,
    query: asQuery ? (request as Record<string, unknown> | undefined) : undefined,
    body: asQuery ? undefined : (request ?? {}),
    complexQuery: op.complexQuery,
    longGetFallback: op.longGetFallback,
    accountLevel: op.accountLevel,
    schema: opts.check ? undefined : (op.reply as $ZodType<ReplyOf<Op>>),
    check: opts.check,
    idempotent: opts.idempotent ?? op.idempotent ?? op.method === 'GET',
    signal: opts.signal,
  });
}

/**
 * A request assembled from a body the types cannot know (a noun's fields from flags, a file or a journal's
 * before-image, inside the operation's envelope), sent as it is: the platform is the judge of a body's fields,
 * and its refusal (400, `fieldViolations`, with the request id) is what the user is shown. The one place such a
 * request is typed, so no write casts its own.
 * @returns the request as given
 */
export function bodyRequest<Op extends Operation>(_op: Op, request: object): RequestOf<Op> {
  // Not checked here on purpose: a schema of ours stricter than the platform's must not stop a valid write.
  return request as RequestOf<Op>;
}

/** A typed call of one operation: `(api, request, opts) => reply`. */
export type Call<Op extends HasSchemas> = (api: ApiClient, request: RequestOf<Op>, opts?: CallOptions) => Promise<ReplyOf<Op>>;

/** One typed call per operation of the family, named as the SDK names them (stripe-node's resource methods). */
export function callsOf<Ops extends Record<string, OperationSpec>>(
  family: Family<Ops>,
): { readonly [K in keyof Ops]: Call<Ops[K]> } {
  const calls = {} as Record<string, Call<OperationSpec>>;
  for (const [name, op] of Object.entries(family.operations as Record<string, Operation>)) {
    calls[name] = (api, request, opts) => invoke(api, op, request as never, opts);
  }
  return calls as { readonly [K in keyof Ops]: Call<Ops[K]> };
}

/** Every operation of the family, in declaration order. */
export function operationsOf(family: Family): Operation[] {
  return Object.values(family.operations as Record<string, Operation>);
}
