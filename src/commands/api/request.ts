/**
 * `sitectl api METHOD PATH [--input FILE|-] [--field k=v]... [--paginate] [--ndjson]`: sends one call through the
 * ApiClient (auth, retries, request id, error rules of docs/wire.md §4 all apply) and prints the JSON reply.
 *
 * `--field key=value` values are typed like `--where` (numbers, booleans, null, JSON); dotted keys build nested
 * objects (`query.paging.limit=5`). For GET and DELETE the fields become query parameters (flattened per docs/wire.md
 * §5); otherwise they are merged into the JSON body from `--input`.
 *
 * `--paginate` follows the platform's paging (docs/wire.md §6): cursor paging when the body's `query`/`search`
 * object holds `cursorPaging` (or the wrapper is `search`), otherwise offset paging through `paging.offset`
 * (`offset` for a GET with a top-level `limit`). The records (the reply's first array-valued field) are printed
 * as one merged JSON array, or one per line with `--ndjson`.
 */
import type { Command } from 'commander';
import type { RequestOptions } from '../../api/client.js';
import type * as PagingModule from '../../api/paging.js';
import type { Page } from '../../api/paging.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { collect, parseKeyValue } from '../../core/filters.js';
import { readJsonSource } from '../../core/input.js';
import { addShapeFlags } from '../../core/json-shape.js';
import { printRecord, printRecords } from '../../core/output.js';
import { findForbiddenKey, getPath, setPath, UnsafePathError } from '../../api/paths.js';

type Method = RequestOptions<unknown>['method'];
const METHODS: readonly Method[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

export interface ApiOptions {
  method: string;
  path: string;
  input?: string;
  field: string[];
  paginate: boolean;
  ndjson: boolean;
}

export function register(cmd: Command, ctx: Context): void {
  // The reply is JSON always: `--jq` and `--template` shape it (core/json-shape.ts), as `gh api --jq` does.
  addShapeFlags(cmd)
    .argument('<method>', 'GET, POST, PATCH, PUT or DELETE; or graphql')
    .argument('[path]', 'endpoint path, e.g. /_api/bookings/v2/services/query (not for graphql)')
    .option('--input <file>', "JSON body from a file, or '-' for stdin")
    .option('-f, --field <key=value>', 'body field (query parameter for GET/DELETE; a variable, or the query, for graphql); repeatable; dotted keys nest', collect, [])
    .option('-F, --raw-field <key=value>', 'like --field, the value always a string', collect, [])
    .option('--query-file <file>', "graphql: the query from a file, or '-' for stdin")
    .option('--api-version <version>', 'graphql: the API version of /graphql/{version}', 'alpha')
    .option('--paginate', 'follow offset or cursor paging and print every record', false)
    .option('--ndjson', 'with --paginate: one record per line instead of one JSON array', false)
    .addHelpText(
      'after',
      `\nExamples:\n` +
        `  sitectl api GET /_api/bookings/v2/services/SERVICE_ID\n` +
        `  sitectl api POST /_api/bookings/v2/services/query -f query.paging.limit=5\n` +
        `  sitectl api POST /_api/bookings/v2/services/query --paginate --ndjson\n` +
        `  sitectl api POST /_api/bookings/v2/services/query --paginate --jq '.[].name'\n` +
        `  echo '{"filter":{"type":"CLASS"}}' | sitectl api POST /_api/bookings/v2/services/count --input -\n` +
        `  sitectl api graphql -f query='{ bookingsServicesV2Services(queryInput: {query: {paging: {limit: 5}}}) { items { id name } } }'\n` +
        `  sitectl api graphql --paginate -f query='query($endCursor: String) { membersMembersV1Members(cursor: $endCursor) { items { id loginEmail } pageInfo { hasNext endCursor } } }'`,
    )
    .action(async (method: string, path: string | undefined, o: Omit<ApiOptions, 'method' | 'path'> & { rawField: string[]; queryFile?: string; apiVersion?: string }) => {
      if (method.toLowerCase() === 'graphql') {
        if (path !== undefined) throw new UserError(`api graphql takes no path (it posts to /graphql/${o.apiVersion ?? 'alpha'}), got '${path}'`);
        if (o.input !== undefined || o.ndjson) throw new UserError('api graphql takes -f/-F or --query-file, not --input or --ndjson');
        const { run: graphql } = await import('./graphql.js');
        await graphql({ field: o.field, rawField: o.rawField, queryFile: o.queryFile, apiVersion: o.apiVersion, paginate: o.paginate }, ctx);
        return;
      }
      if (path === undefined) throw new UserError('which endpoint?', `pass a path, e.g. ${ctx.bin} api GET /_api/bookings/v2/services/SERVICE_ID`);
      if (o.queryFile !== undefined || (o.apiVersion !== undefined && o.apiVersion !== 'alpha')) throw new UserError('--query-file and --api-version go with api graphql');
      for (const pair of o.rawField) {
        const eq = pair.indexOf('=');
        if (eq <= 0) throw new UserError(`-F needs key=value, got '${pair}'`);
        o.field.push(`${pair.slice(0, eq)}=${JSON.stringify(pair.slice(eq + 1))}`);
      }
      await run({ method, path, ...o }, ctx);
    });
}

/**
 * @throws UserError (exit 2) on an unknown method, unreadable or malformed input, a bad field, or `--paginate`
 *   on a reply without a list; ApiError subclasses from the call.
 */
export async function run(opts: ApiOptions, ctx: Context): Promise<void> {
  const method = opts.method.toUpperCase() as Method;
  if (!METHODS.includes(method)) {
    throw new UserError(`unknown method '${opts.method}'`, `use one of ${METHODS.join(', ')}`);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(opts.path)) {
    throw new UserError(`'${opts.path}' is a URL; give the path only`, `the base URL comes from the profile, e.g. ${ctx.bin} api GET /_api/bookings/v2/services/ID`);
  }
  if (!opts.path.startsWith('/')) {
    throw new UserError(`the path must start with '/', got '${opts.path}'`, `e.g. ${ctx.bin} api ${method} /${opts.path}`);
  }
  const path = opts.path;
  const fields: Record<string, unknown> = {};
  for (const pair of opts.field) {
    const [key, value] = parseKeyValue(pair, '--field');
    try {
      setPath(fields, key, value);
    } catch (err) {
      if (err instanceof UnsafePathError) throw new UserError(`--field ${err.message}`, 'use the field names of the request body, e.g. -f query.paging.limit=5');
      throw err;
    }
  }
  let body: unknown = opts.input !== undefined ? await readJsonSource('--input', opts.input, ctx.io.stdin) : undefined;
  if (opts.input !== undefined && body === undefined) {
    throw new UserError(`--input ${opts.input} is empty`, opts.input === '-' ? `pipe a JSON body in, e.g. echo '{}' | ${ctx.bin} api ${method} ${path} --input -` : 'put a JSON body in the file');
  }
  const forbidden = findForbiddenKey(body);
  if (forbidden) throw new UserError(`--input: "${forbidden}" is not an allowed field name`);
  let query: Record<string, unknown> | undefined;
  if (method === 'GET' || method === 'DELETE') {
    if (body !== undefined) throw new UserError(`--input sends a body, which ${method} does not take`, 'use --field for query parameters');
    query = Object.keys(fields).length ? fields : undefined;
  } else if (Object.keys(fields).length) {
    if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
      throw new UserError('--field needs the --input body to be a JSON object');
    }
    body = deepMerge((body as Record<string, unknown>) ?? {}, fields);
  }

  const api = await ctx.api();
  const call = (b: unknown, q: Record<string, unknown> | undefined) =>
    api.request<unknown>({ method, path, body: b, query: q, complexQuery: true, signal: ctx.signal });

  if (!opts.paginate) {
    const reply = await call(body, query);
    await printRecord(ctx.io, { kind: 'json' }, reply);
    return;
  }

  const paging = await import('../../api/paging.js');
  const pages = pagesOf(method, body, query, call, paging);
  await printRecords(ctx.io, { kind: opts.ndjson ? 'ndjson' : 'json' }, paging.items(pages), []);
}

type Call = (body: unknown, query: Record<string, unknown> | undefined) => Promise<unknown>;

function pagesOf(
  method: Method,
  body: unknown,
  query: Record<string, unknown> | undefined,
  call: Call,
  paging: typeof PagingModule,
): AsyncIterable<Page<unknown>> {
  if (method === 'GET' || method === 'DELETE') {
    const q = { ...(query ?? {}) };
    const topLevel = Object.hasOwn(q, 'limit');
    const pageSize = Number(topLevel ? q.limit : getPath(q, 'paging.limit')) || paging.DEFAULT_PAGE_SIZE;
    return paging.offsetPages(
      async ({ limit, offset }) => {
        const next = structuredClone(q);
        if (topLevel) Object.assign(next, { limit, offset });
        else setPath(next, 'paging', { ...(getPath(next, 'paging') as object), limit, offset });
        return pageFrom(await call(undefined, next));
      },
      { pageSize },
    );
  }
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b !== 'object' || Array.isArray(b)) throw new UserError('--paginate needs a JSON object body');
  const wrapper = Object.hasOwn(b, 'search') ? 'search' : 'query';
  const inner = (b[wrapper] ?? {}) as Record<string, unknown>;
  const cursor = Object.hasOwn(inner, 'cursorPaging') || wrapper === 'search';
  if (cursor) {
    const pageSize = Number(getPath(inner, 'cursorPaging.limit')) || paging.DEFAULT_PAGE_SIZE;
    return paging.cursorPages(
      async ({ limit, cursor: c }) => {
        // Wire section 6: a next-page request carries only cursorPaging, no filter or sort.
        const next =
          c === undefined
            ? { ...b, [wrapper]: { ...inner, cursorPaging: { ...(inner.cursorPaging as object), limit } } }
            : { [wrapper]: { cursorPaging: { limit, cursor: c } } };
        return pageFrom(await call(next, undefined));
      },
      { pageSize },
    );
  }
  const pageSize = Number(getPath(inner, 'paging.limit')) || paging.DEFAULT_PAGE_SIZE;
  return paging.offsetPages(
    async ({ limit, offset }) =>
      pageFrom(await call({ ...b, [wrapper]: { ...inner, paging: { ...(inner.paging as object), limit, offset } } }, undefined)),
    { pageSize, offset: Number(getPath(inner, 'paging.offset')) || 0 },
  );
}

/** The reply's records (its first array-valued field) and paging metadata (`pagingMetadata` or members' `metadata`). */
function pageFrom(reply: unknown): Page<unknown> {
  if (reply === null || typeof reply !== 'object') throw new UserError('--paginate: the reply is not a JSON object');
  const entries = Object.entries(reply as Record<string, unknown>);
  const list = entries.find(([, v]) => Array.isArray(v));
  if (!list) throw new UserError('--paginate: the reply holds no list of records', 'drop --paginate for this endpoint');
  const r = reply as { pagingMetadata?: Page<unknown>['pagingMetadata']; metadata?: Page<unknown>['pagingMetadata'] };
  return { items: list[1] as unknown[], pagingMetadata: r.pagingMetadata ?? r.metadata };
}

function deepMerge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    const prev = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && prev && typeof prev === 'object' && !Array.isArray(prev)
        ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}
