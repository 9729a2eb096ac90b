/**
 * The emulator's GraphQL schema, generated from the served family tables (docs/wire.md §12: `POST /graphql/{apiVersion}` with `{query, variables}`), with graphql-js. No type is written by
 * hand: each operation's request schema becomes an input type and its reply schema an output type, walked from
 * the zod/mini schemas of the tables (objects -> types, lists -> lists, strings, enums and dates -> String,
 * numbers -> Float, booleans -> Boolean, anything open -> the JSON scalar).
 *
 * Fields are named as the platform names them, `<package><Resource>V<n><Suffix>` from the operation's SDK URL:
 * - a query with paging: suffix = its items (`bookingsServicesV2Services(queryInput: ..., cursor: ...)`), answered
 *   as `{items, pageInfo {count, offset, total, hasNext, endCursor}}` beside the reply's own fields;
 * - a get: suffix = the entity (`getService` -> `bookingsServicesV2Service(input: ...)`);
 * - any other read: suffix = the method name, under Query; a write: the same, under Mutation
 *   (`bookingsServicesV2UpdateService(input: ...)`).
 * Resolvers run the same handlers as REST (validation, rules, revisions, errors) through `runServed`.
 */
import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  valueFromASTUntyped,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLType,
} from 'graphql';
import type { $ZodType } from 'zod/v4/core';
import type { Operation } from '../../api/family.js';
import { acceptsString, elementOf, kindOf, shapeOf } from '../../api/schemas/introspect.js';
import type { Principal } from '../auth.js';
import { EmulatorError } from '../errors.js';
import type { Faults } from '../faults.js';
import { decodeJsonRequest, RawJson, runServed, type ServedOperation } from '../serve.js';
import type { Store } from '../store/store.js';

/** What every resolver gets: the store, who asked, and the request id of the HTTP request. */
export interface GraphQLContext {
  store: Store;
  principal: Principal;
  requestId: string;
  /** The fault settings at the request (the rule faults handlers answer: faults.ts); none when absent. */
  faults?: Faults;
}

type Json = Record<string, unknown>;

/** Any JSON value (objects the tables leave open, records, unions of shapes). */
const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

const PageInfo = new GraphQLObjectType({
  name: 'PageInfo',
  description: 'Paging of a query: pass endCursor back as `cursor` for the next page while hasNext',
  fields: {
    count: { type: GraphQLFloat },
    offset: { type: GraphQLFloat },
    total: { type: GraphQLFloat },
    tooManyToCount: { type: GraphQLBoolean },
    hasNext: { type: GraphQLBoolean },
    endCursor: { type: GraphQLString },
  },
});

const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
const camel = (s: string) => {
  const p = pascal(s);
  return p ? p[0]!.toLowerCase() + p.slice(1) : p;
};
const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** `bookingsServicesV2` from `/_api/bookings/v2/services/query` (bulk and id segments skipped). */
function prefixOf(url: string): string {
  const segments = url.replace(/^\/_api\//, '/').split('/').filter(Boolean);
  const v = segments.findIndex((s) => /^v\d+$/.test(s));
  if (v === -1) return camel(segments[0] ?? 'api');
  const pkg = segments.slice(0, v).join('-');
  const resource = segments.slice(v + 1).find((s) => s !== 'bulk' && !s.startsWith('{')) ?? '';
  return camel(`${pkg} ${resource}`) + segments[v]!.toUpperCase();
}

/** Builds GraphQL types from zod schemas, one type per schema object (recursion-safe), with unique names. */
class TypeBuilder {
  private readonly outputs = new WeakMap<object, GraphQLOutputType>();
  private readonly inputs = new WeakMap<object, GraphQLInputType>();
  private readonly names = new Set<string>(['JSON', 'PageInfo', 'Query', 'Mutation']);

  private unique(hint: string): string {
    let name = pascal(hint) || 'Type';
    if (!NAME.test(name)) name = `T${name}`;
    let n = name;
    for (let i = 2; this.names.has(n); i++) n = `${name}${i}`;
    this.names.add(n);
    return n;
  }

  /**
   * The type of a schema that is not an object with fields: a list, a scalar, or the JSON scalar; undefined for an
   * object to build. `element` builds a list's element in the caller's direction (output or input).
   */
  private leaf<T extends GraphQLType>(schema: $ZodType, element: (el: $ZodType) => T): GraphQLType | undefined {
    const kind = kindOf(schema);
    if (kind === 'array') {
      const el = elementOf(schema);
      return new GraphQLList(el ? element(el) : JSONScalar);
    }
    if (kind === 'string' || kind === 'enum' || kind === 'literal' || kind === 'date') return GraphQLString;
    if (kind === 'number') return GraphQLFloat;
    if (kind === 'boolean') return GraphQLBoolean;
    // A revision is a string or a number on the wire: the string form (what the platform sends) is the type.
    if (kind === 'union') return acceptsString(schema) ? GraphQLString : JSONScalar;
    const shape = kind === 'object' ? shapeOf(schema) : undefined;
    if (!shape || Object.keys(shape).filter((k) => NAME.test(k)).length === 0) return JSONScalar;
    return undefined;
  }

  output(schema: $ZodType, hint: string): GraphQLOutputType {
    const leaf = this.leaf(schema, (el) => this.output(el, hint));
    if (leaf) return leaf as GraphQLOutputType;
    const shape = shapeOf(schema)!;
    const known = this.outputs.get(shape);
    if (known) return known;
    const type: GraphQLObjectType = new GraphQLObjectType({
      name: this.unique(hint),
      fields: () => {
        const out: GraphQLFieldConfigMap<unknown, unknown> = {};
        for (const [k, v] of Object.entries(shape)) if (NAME.test(k)) out[k] = { type: this.output(v, `${type.name}${pascal(k)}`) };
        return out;
      },
    });
    this.outputs.set(shape, type);
    return type;
  }

  input(schema: $ZodType, hint: string): GraphQLInputType {
    const leaf = this.leaf(schema, (el) => this.input(el, hint));
    if (leaf) return leaf as GraphQLInputType;
    const shape = shapeOf(schema)!;
    const known = this.inputs.get(shape);
    if (known) return known;
    const type: GraphQLInputObjectType = new GraphQLInputObjectType({
      name: this.unique(hint.endsWith('Input') ? hint : `${hint}Input`),
      fields: () => {
        const out: GraphQLInputFieldConfigMap = {};
        // Every field nullable: what is required is the request schema's to say (a field violation, as on REST).
        for (const [k, v] of Object.entries(shape)) if (NAME.test(k)) out[k] = { type: this.input(v, `${type.name.replace(/Input$/, '')}${pascal(k)}Input`) };
        return out;
      },
    });
    this.inputs.set(shape, type);
    return type;
  }
}

/** The reply as plain JSON (a handler may answer pre-serialised text). */
function plain(reply: unknown): Json {
  return (reply instanceof RawJson ? JSON.parse(reply.text) : reply) as Json;
}

/** An emulator error as a GraphQL error carrying the platform's code and details in `extensions`. */
function toGraphQLError(err: unknown): GraphQLError {
  if (err instanceof EmulatorError) {
    const body = err.body() as { message?: string; details?: { applicationError?: { code?: string; description?: string; data?: unknown }; validationError?: { fieldViolations?: unknown } } };
    const app = body.details?.applicationError;
    const code = app?.code ?? (body.details?.validationError ? 'INVALID_ARGUMENT' : `HTTP_${err.status}`);
    return new GraphQLError(app?.description ?? body.message ?? err.message, {
      extensions: { code, status: err.status, ...(app?.data !== undefined ? { data: app.data } : {}), ...(body.details?.validationError ? { fieldViolations: body.details.validationError.fieldViolations } : {}) },
    });
  }
  return new GraphQLError('internal error', { extensions: { code: 'INTERNAL', status: 500 } });
}

/** How an operation appears: under Query or Mutation, with which field name. */
function fieldOf(op: Operation, taken: Set<string>): { root: 'Query' | 'Mutation'; name: string; paged: boolean } {
  // Named after the gateway's public path (`/bookings/v2/services`), not the SDK's `/_api/...` form.
  const prefix = prefixOf(op.routes.find((r) => !r.startsWith('/_api/') && /^\/[^/]+\/v\d+\//.test(r)) ?? op.url);
  const paged = Boolean(op.paging);
  let suffix: string;
  if (paged) suffix = pascal(op.paging!.items);
  else if (op.readOnly && /^get[A-Z]/.test(op.name)) suffix = pascal(op.name.slice(3));
  else suffix = pascal(op.name);
  let name = `${prefix}${suffix}`;
  if (taken.has(name)) name = `${prefix}${pascal(op.name)}`;
  for (let i = 2; taken.has(name); i++) name = `${prefix}${pascal(op.name)}${i}`;
  taken.add(name);
  // Reads are queries even where the emulator runs them in a transaction (orders that end when read).
  const reads = op.readOnly || op.method === 'GET' || /^(get|list|query|search|count|calculate|validate|bulkGet)[A-Z]/.test(op.name);
  return { root: reads ? 'Query' : 'Mutation', name, paged };
}

/**
 * The request of a paged query with `cursor` applied: for cursor paging the next page's request carries only
 * `cursorPaging` (docs/wire.md §6); for offset paging the cursor is the next offset.
 */
function withCursor(op: Operation, request: Json, cursor: string | null | undefined): Json {
  if (cursor === undefined || cursor === null || cursor === '') return request;
  const spec = op.paging!;
  const inner = (spec.wrapper ? ((request[spec.wrapper] as Json | undefined) ?? {}) : request) as Json;
  let next: Json;
  if (spec.kind === 'cursor') {
    const limit = (inner.cursorPaging as Json | undefined)?.limit;
    next = { cursorPaging: { ...(limit !== undefined ? { limit } : {}), cursor } };
  } else {
    const offset = Number(cursor);
    if (!Number.isInteger(offset) || offset < 0) throw new GraphQLError(`cursor '${cursor}' is not one this query gave`, { extensions: { code: 'INVALID_CURSOR', status: 400 } });
    next = spec.wrapper || spec.offsetIn === 'paging' ? { ...inner, paging: { ...((inner.paging as Json | undefined) ?? {}), offset } } : { ...inner, offset };
  }
  return spec.wrapper ? { ...(spec.kind === 'cursor' ? {} : request), [spec.wrapper]: next } : next;
}

/** `pageInfo` of a paged reply: the metadata, and the cursor of the next page as `endCursor`. */
function pageInfoOf(op: Operation, reply: Json): Json {
  const meta = ((reply.pagingMetadata ?? reply.metadata ?? reply.cursorPagingMetadata) as Json | undefined) ?? {};
  const count = Number(meta.count ?? (reply[op.paging!.items] as unknown[] | undefined)?.length ?? 0);
  const cursors = meta.cursors as { next?: string | null } | undefined;
  const offset = meta.offset !== undefined ? Number(meta.offset) : undefined;
  const hasNext =
    meta.hasNext !== undefined ? Boolean(meta.hasNext) : cursors?.next ? true : meta.total !== undefined && offset !== undefined ? offset + count < Number(meta.total) : false;
  const endCursor = op.paging!.kind === 'cursor' ? (cursors?.next ?? null) : hasNext ? String((offset ?? 0) + count) : null;
  return { ...meta, count, hasNext, endCursor };
}

/**
 * The schema of every served operation. @throws Error when two operations cannot be named apart (never for the
 * tables as they are: names fall back to the method name, then a number)
 */
export function buildSchema(served: readonly ServedOperation[]): GraphQLSchema {
  const types = new TypeBuilder();
  const query: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
  const mutation: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
  const taken = new Set<string>();
  for (const s of served) {
    const { op } = s;
    const { root, name, paged } = fieldOf(op, taken);
    const replyType = types.output(op.reply as $ZodType, `${pascal(op.name)}Reply`);
    const argName = paged ? 'queryInput' : 'input';
    const run = (request: unknown, ctx: GraphQLContext): Json => {
      try {
        return plain(runServed(ctx.store, s, decodeJsonRequest(op, request), ctx.principal, ctx.requestId, undefined, ctx.faults));
      } catch (err) {
        throw toGraphQLError(err);
      }
    };
    let field: GraphQLFieldConfig<unknown, GraphQLContext>;
    const inputType = types.input(op.request as $ZodType, `${pascal(op.name)}Request`);
    if (paged && replyType instanceof GraphQLObjectType) {
      const itemsField = replyType.getFields()[op.paging!.items];
      const connection = new GraphQLObjectType({
        name: `${pascal(name)}Connection`,
        fields: () => ({
          ...Object.fromEntries(Object.entries(replyType.getFields()).map(([k, f]) => [k, { type: f.type }])),
          items: { type: itemsField?.type ?? new GraphQLList(JSONScalar) },
          pageInfo: { type: PageInfo },
        }),
      });
      field = {
        type: connection,
        description: `${op.summary} (${op.method} ${op.url})`,
        args: { queryInput: { type: inputType }, cursor: { type: GraphQLString, description: 'pageInfo.endCursor of the previous page' } },
        resolve: (_root, args: { queryInput?: Json | null; cursor?: string | null }, ctx) => {
          const reply = run(withCursor(op, args.queryInput ?? {}, args.cursor), ctx);
          return { ...reply, items: reply[op.paging!.items] ?? [], pageInfo: pageInfoOf(op, reply) };
        },
      };
    } else {
      field = {
        type: replyType,
        description: `${op.summary} (${op.method} ${op.url})`,
        args: { [argName]: { type: inputType } },
        resolve: (_root, args: Record<string, Json | null | undefined>, ctx) => run(args[argName] ?? {}, ctx),
      };
    }
    (root === 'Query' ? query : mutation)[name] = field;
  }
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }),
  });
}
