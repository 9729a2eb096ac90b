/**
 * `POST /graphql/{apiVersion}` (docs/wire.md §12): `{query, variables?,
 * operationName?}` answered `{data, errors?}`. Only `alpha` is served (the platform's developer preview).
 *
 * A request that cannot run — no query, unparsable, invalid against the schema (unknown field, wrong argument),
 * variables that do not fit, a query longer than {@link MAX_QUERY_CHARS}, nested deeper than {@link MAX_DEPTH}
 * or selecting more than {@link MAX_FIELDS} fields — gets HTTP 400 with `{errors}` and no `data`. Execution errors
 * (a refused operation: not found, stale revision, a field violation) are in `errors` beside `data`, HTTP 200, each
 * with the platform's code in `extensions.code`. Introspection works.
 */
import { execute, GraphQLError, type GraphQLSchema, Kind, parse, specifiedRules, validate, type ASTVisitor, type DocumentNode, type ValidationContext } from 'graphql';
import type { Principal } from '../auth.js';
import type { Faults } from '../faults.js';
import type { ServedOperation } from '../serve.js';
import type { Store } from '../store/store.js';
import { buildSchema, type GraphQLContext } from './schema.js';

/** Longest query text accepted. */
export const MAX_QUERY_CHARS = 100_000;
/** Deepest selection nesting (the standard introspection query needs about 13). */
export const MAX_DEPTH = 20;
/** Most field selections in one document. */
export const MAX_FIELDS = 5_000;
/** The API versions served. */
export const GRAPHQL_VERSIONS = ['alpha'] as const;

/** Refuses documents nested deeper than MAX_DEPTH or selecting more than MAX_FIELDS fields (fragments counted where defined). */
function limits(context: ValidationContext): ASTVisitor {
  let depth = 0;
  let fields = 0;
  return {
    SelectionSet: {
      enter(node) {
        depth += 1;
        if (depth > MAX_DEPTH) context.reportError(new GraphQLError(`the query is nested more than ${MAX_DEPTH} levels deep`, { nodes: [node] }));
      },
      leave() {
        depth -= 1;
      },
    },
    Field(node) {
      fields += 1;
      if (fields === MAX_FIELDS + 1) context.reportError(new GraphQLError(`the query selects more than ${MAX_FIELDS} fields`, { nodes: [node] }));
    },
  };
}

const requestError = (message: string, code = 'GRAPHQL_VALIDATION_FAILED') => ({ errors: [{ message, extensions: { code } }] });

/** Serves GraphQL requests over the served operations; the schema is built on the first request. */
export class GraphQLEndpoint {
  private schema: GraphQLSchema | undefined;

  constructor(
    private readonly served: readonly ServedOperation[],
    private readonly store: Store,
  ) {}

  /** The generated schema (built once). */
  schemaOf(): GraphQLSchema {
    this.schema ??= buildSchema(this.served);
    return this.schema;
  }

  /**
   * Runs one request as `principal`.
   * @returns the HTTP status and the body: 400 `{errors}` for a request that cannot run, 200 `{data, errors?}`
   */
  handle(body: unknown, principal: Principal, requestId: string, faults?: Faults): { status: number; body: unknown } {
    const b = (body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
    if (typeof b !== 'object' || Array.isArray(b)) return { status: 400, body: requestError('the body must be a JSON object {query, variables?}', 'BAD_REQUEST') };
    if (typeof b.query !== 'string' || b.query.trim() === '') return { status: 400, body: requestError('the body needs a query string', 'BAD_REQUEST') };
    if (b.query.length > MAX_QUERY_CHARS) return { status: 400, body: requestError(`the query is longer than ${MAX_QUERY_CHARS} characters`, 'BAD_REQUEST') };
    if (b.variables !== undefined && b.variables !== null && (typeof b.variables !== 'object' || Array.isArray(b.variables))) {
      return { status: 400, body: requestError('variables must be a JSON object', 'BAD_REQUEST') };
    }
    if (b.operationName !== undefined && b.operationName !== null && typeof b.operationName !== 'string') return { status: 400, body: requestError('operationName must be a string', 'BAD_REQUEST') };
    const schema = this.schemaOf();
    let document: DocumentNode;
    try {
      document = parse(b.query);
    } catch (err) {
      const e = err as GraphQLError;
      return { status: 400, body: { errors: [{ message: e.message, locations: e.locations, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] } };
    }
    const invalid = validate(schema, document, [...specifiedRules, limits]);
    if (invalid.length) return { status: 400, body: { errors: invalid.map((e) => ({ message: e.message, locations: e.locations, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })) } };
    if (document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'subscription')) {
      return { status: 400, body: requestError('subscriptions are not served', 'BAD_REQUEST') };
    }
    const contextValue: GraphQLContext = { store: this.store, principal, requestId, ...(faults ? { faults } : {}) };
    const result = execute({ schema, document, variableValues: (b.variables as Record<string, unknown> | undefined) ?? undefined, operationName: (b.operationName as string | undefined) ?? undefined, contextValue });
    if (result instanceof Promise) throw new TypeError('resolvers are synchronous');
    const errors = result.errors?.map((e) => ({ message: e.message, locations: e.locations, path: e.path, extensions: { code: 'INTERNAL', ...e.extensions } }));
    // No data at all: the variables did not fit the operation (a request error).
    if (result.data === undefined) return { status: 400, body: { errors: errors?.map((e) => ({ ...e, extensions: { ...e.extensions, code: e.extensions.code === 'INTERNAL' ? 'BAD_USER_INPUT' : e.extensions.code } })) } };
    return { status: 200, body: { data: result.data, ...(errors?.length ? { errors } : {}) } };
  }
}
