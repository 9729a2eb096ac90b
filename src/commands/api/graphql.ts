/**
 * `sitectl api graphql [-f query=STRING | --query-file FILE|-] [-f/-F name=value ...] [--paginate]
 * [--api-version alpha]`: one GraphQL request, `POST /graphql/{apiVersion}` with `{query, variables}` (docs/wire.md §12), in the manner of `gh api graphql`.
 *
 * `-f key=value` values are typed as `api`'s fields are (numbers, booleans, null, JSON), `-F key=value` values are
 * always strings; `query` is the document (always text), every other key a variable (dotted keys nest). The reply `{data,
 * errors}` is printed on stdout; each error's message and code go to stderr. Exit codes: a request the server
 * refuses as invalid (syntax, unknown field, variables that do not fit) exits 2 with nothing on stdout; an
 * execution error (not found, stale revision, ...) exits 1 after the reply is printed.
 *
 * `--paginate` passes `$endCursor` (the query must declare it) while the connection's `pageInfo.hasNext` says
 * there is a next page, and prints one reply whose connection holds every page's `items`.
 */
import { ApiError } from '../../api/errors.js';
import { setPath, UnsafePathError } from '../../api/paths.js';
import type { Context } from '../../context.js';
import { ExitCode, ExitStatus, UserError } from '../../core/errors.js';
import { parseKeyValue } from '../../core/filters.js';
import { readSource } from '../../core/input.js';
import { printValue } from '../../core/output.js';
import { oneLine } from '../../core/text.js';

export interface GraphqlOptions {
  field: string[];
  rawField: string[];
  queryFile?: string;
  apiVersion?: string;
  paginate: boolean;
}

type Json = Record<string, unknown>;

interface GraphQLReply {
  data?: Json | null;
  errors?: Array<{ message?: string; path?: unknown[]; extensions?: { code?: string } }>;
}

/** Most pages `--paginate` follows (a guard against a server that never says the last page). */
const MAX_PAGES = 10_000;

/** `path.to.field` of an error, for the stderr line. */
const where = (path: unknown[] | undefined) => (path?.length ? ` at ${path.join('.')}` : '');

function reportErrors(ctx: Context, errors: GraphQLReply['errors']): void {
  for (const e of errors ?? []) ctx.io.stderr.write(`error: ${oneLine(e.message ?? 'unknown error')}${where(e.path)}${e.extensions?.code ? ` (${e.extensions.code})` : ''}\n`);
}

/** The query's variables and document from the flags. @throws UserError (exit 2) */
async function requestOf(opts: GraphqlOptions, ctx: Context): Promise<{ query: string; variables: Json }> {
  const values: Json = {};
  const put = (key: string, value: unknown, flag: string) => {
    try {
      setPath(values, key, value);
    } catch (err) {
      if (err instanceof UnsafePathError) throw new UserError(`${flag} ${err.message}`);
      throw err;
    }
  };
  for (const pair of opts.field) {
    // The document itself is text, never parsed as a value (`{ ... }` is not JSON).
    if (pair.startsWith('query=')) {
      put('query', pair.slice('query='.length), '-f');
      continue;
    }
    const [key, value] = parseKeyValue(pair, '-f');
    put(key, value, '-f');
  }
  for (const pair of opts.rawField) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UserError(`-F needs key=value, got '${pair}'`);
    put(pair.slice(0, eq), pair.slice(eq + 1), '-F');
  }
  const { query: given, ...variables } = values;
  if (given !== undefined && opts.queryFile !== undefined) throw new UserError('give the query once: -f query=... or --query-file, not both');
  let query: unknown = given;
  if (opts.queryFile !== undefined) query = await readSource('--query-file', opts.queryFile, ctx.io.stdin, 'query');
  if (typeof query !== 'string' || query.trim() === '') {
    throw new UserError('which query?', `pass -f query='{ ... }' or --query-file FILE, e.g. ${ctx.bin} api graphql -f query='{ bookingsServicesV2Services { items { id name } } }'`);
  }
  return { query, variables };
}

/** True when the document is a query (safe to send again), not a mutation. */
function isQuery(query: string): boolean {
  const text = query.replace(/#[^\n]*/g, '').trim();
  return text.startsWith('{') || /^query\b/.test(text);
}

/** The first connection (`{items: [...], pageInfo}`) in `data`, depth first, with its path. */
function connectionOf(data: unknown, path: string[] = []): { path: string[]; node: { items: unknown[]; pageInfo?: { hasNext?: boolean; endCursor?: string | null } } } | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const node = data as Json;
  if (Array.isArray(node.items) && node.pageInfo && typeof node.pageInfo === 'object') return { path, node: { items: node.items, pageInfo: node.pageInfo } };
  for (const [k, v] of Object.entries(node)) {
    const found = connectionOf(v, [...path, k]);
    if (found) return found;
  }
  return undefined;
}

/**
 * Sends the request (every page with `--paginate`) and prints the reply.
 * @throws UserError (exit 2) for bad flags; ExitStatus 2 when the server refuses the request as invalid, 1 when
 *   the reply carries execution errors; ApiError for other failures (auth, network)
 */
export async function run(opts: GraphqlOptions, ctx: Context): Promise<void> {
  const version = opts.apiVersion ?? 'alpha';
  if (!/^[a-z0-9]+$/.test(version)) throw new UserError(`--api-version must be a word such as alpha, got '${version}'`);
  const { query, variables } = await requestOf(opts, ctx);
  if (opts.paginate && !/\$endCursor\b/.test(query)) {
    throw new UserError('--paginate needs the query to take $endCursor', 'declare ($endCursor: String) and pass cursor: $endCursor to the connection field');
  }
  const api = await ctx.api();
  const send = async (vars: Json): Promise<GraphQLReply> => {
    try {
      return await api.request<GraphQLReply>({ method: 'POST', path: `/graphql/${version}`, body: { query, variables: vars }, idempotent: isQuery(query), signal: ctx.signal });
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        let reply: GraphQLReply | undefined;
        try {
          reply = JSON.parse(err.body) as GraphQLReply;
        } catch {
          reply = undefined;
        }
        if (reply?.errors?.length) {
          reportErrors(ctx, reply.errors);
          throw new ExitStatus(ExitCode.Usage);
        }
      }
      throw err;
    }
  };
  let reply = await send(variables);
  if (opts.paginate && !reply.errors?.length) {
    const first = connectionOf(reply.data);
    if (!first) throw new UserError('--paginate: the reply holds no connection ({items, pageInfo})', 'select items and pageInfo { hasNext endCursor } of a query field');
    const items = [...first.node.items];
    let page = first.node;
    for (let n = 1; page.pageInfo?.hasNext && page.pageInfo.endCursor && n < MAX_PAGES; n++) {
      const next = await send({ ...variables, endCursor: page.pageInfo.endCursor });
      if (next.errors?.length) {
        reply = { ...reply, errors: next.errors };
        break;
      }
      const found = connectionOf(next.data);
      if (!found) break;
      items.push(...found.node.items);
      page = found.node;
    }
    const merged = structuredClone(reply.data) as Json;
    setPath(merged, first.path.join('.'), { ...page, items });
    reply = { ...reply, data: merged };
  }
  await printValue(ctx.io, { kind: 'json' }, reply.errors?.length ? { data: reply.data ?? null, errors: reply.errors } : { data: reply.data ?? null });
  if (reply.errors?.length) {
    reportErrors(ctx, reply.errors);
    throw new ExitStatus(ExitCode.Failure);
  }
}
