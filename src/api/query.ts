/**
 * Request encodings of the wire (docs/wire.md §5, §6, §12):
 * GET parameter flattening, the `.r=` form for complex parameters, the long-GET threshold, comma-joined field
 * masks, ISO dates, and small filter helpers.
 */
import type { Filter } from './schemas/common.js';

/** A GET whose encoded query is longer than this many characters is sent as a POST instead (docs/wire.md §5, §12). */
export const LONG_GET_THRESHOLD = 4000;

/** How one call goes out: its method, its query string (without `?`) and its JSON body. */
export interface WireForm {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  search: string;
  body: unknown;
}

/**
 * The one long-GET rule (docs/wire.md §5 "The long GET"; seed B §7 "Transport", §9; `@wix/sdk`
 * `build/rest-modules.js`): the parameters are encoded as the SDK encodes them; a GET whose query string would be
 * longer than {@link LONG_GET_THRESHOLD} characters goes out instead as a POST to the same path with the
 * parameters as the JSON body. Every GET of the family tables takes that form (`invoke` passes the operation's
 * `longGetFallback`, true for every GET but the two whose POST form is another operation: a POST to the members
 * or plans list path creates one); such a GET, and a raw GET whose path the caller chose (`sitectl api`, where the
 * POST form may be a write), stays a GET, long, as the official client sends those too.
 *
 * @param method the call's method; only GET changes form
 * @param query the GET/DELETE parameters (undefined or empty: none)
 * @param body the JSON body of a call that is not a GET/DELETE
 * @param complex whether the parameters may travel as `.r=` (docs/wire.md §5)
 * @param fallback whether the POST form exists (default false: only a known operation says so)
 * @returns the method, query string (without `?`) and body to send
 */
export function wireForm(
  method: WireForm['method'],
  query: Record<string, unknown> | undefined,
  body: unknown,
  complex = false,
  fallback = false,
): WireForm {
  if (!query || Object.keys(query).length === 0) return { method, search: '', body };
  const search = toURLSearchParams(query, complex).toString();
  if (method === 'GET' && fallback && search.length > LONG_GET_THRESHOLD) return { method: 'POST', search: '', body: query };
  return { method, search, body };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function scalarToString(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/**
 * Encodes a GET/DELETE payload as query parameters the way the platform's SDK does (docs/wire.md §5):
 * - nested objects flatten with dots: `{sort:{fieldName:'name'}}` -> `sort.fieldName=name`;
 * - arrays of scalars repeat the key: `{ids:['a','b']}` -> `ids=a&ids=b`;
 * - arrays of objects are dropped; `undefined` and `null` are skipped; `Date` values become ISO strings;
 * - when `isComplex` is true and any flattened key contains a dot or an array holds objects, the whole payload
 *   is sent instead as one parameter `.r=<base64url(JSON)>` without `=` padding, so nothing is lost.
 *
 * @example toURLSearchParams({ paging: { limit: 10 }, fieldsets: ['FULL'] }, true).toString()
 *   === '.r=eyJwYWdpbmciOnsibGltaXQiOjEwfSwiZmllbGRzZXRzIjpbIkZVTEwiXX0'
 */
export function toURLSearchParams(payload: Record<string, unknown>, isComplex = false): URLSearchParams {
  const params = new URLSearchParams();
  let needsComplex = false;

  const walk = (value: unknown, key: string): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      if (key.includes('.')) needsComplex = true;
      for (const item of value) {
        if (isPlainObject(item) || Array.isArray(item)) needsComplex = true;
        else if (item !== undefined && item !== null) params.append(key, scalarToString(item));
      }
      return;
    }
    if (isPlainObject(value)) {
      for (const [name, inner] of Object.entries(value)) walk(inner, key ? `${key}.${name}` : name);
      return;
    }
    if (key.includes('.')) needsComplex = true;
    params.append(key, scalarToString(value));
  };
  walk(payload, '');

  if (isComplex && needsComplex) {
    return new URLSearchParams({ '.r': base64UrlJson(payload) });
  }
  return params;
}

/** base64url of the JSON text, without `=` padding (docs/wire.md §5 `.r=`). Dates serialise as ISO strings. */
export function base64UrlJson(payload: unknown): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** Inverse of {@link base64UrlJson}: what a server does with a `.r=` parameter. */
export function fromBase64UrlJson(encoded: string): unknown {
  return JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
}

/**
 * A field mask as the wire wants it: paths joined with commas (`['name','payment.fixed']` ->
 * `'name,payment.fixed'`). Empty and duplicate paths are dropped; order is kept.
 */
export function fieldMask(paths: readonly string[]): string {
  return [...new Set(paths.map((p) => p.trim()).filter((p) => p !== ''))].join(',');
}

/** Splits a comma-joined field mask back into paths (also accepts the `{paths:[...]}` form). */
export function parseFieldMask(mask: string | { paths?: string[] } | undefined): string[] {
  if (mask === undefined) return [];
  const paths = typeof mask === 'string' ? mask.split(',') : (mask.paths ?? []);
  return paths.map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * Combines filters the way the platform's query builder does: none -> `{}`, one -> itself,
 * several -> `{"$and":[...]}`. Empty filters are ignored.
 */
export function and(...filters: (Filter | undefined)[]): Filter {
  const parts = filters.filter((f): f is Filter => f !== undefined && Object.keys(f).length > 0);
  if (parts.length === 0) return {};
  if (parts.length === 1) return parts[0];
  return { $and: parts };
}

/** `{"$or":[...]}` of the non-empty filters; one filter is returned as is; none -> `{}`. */
export function or(...filters: (Filter | undefined)[]): Filter {
  const parts = filters.filter((f): f is Filter => f !== undefined && Object.keys(f).length > 0);
  if (parts.length === 0) return {};
  if (parts.length === 1) return parts[0];
  return { $or: parts };
}

/** `{"id":{"$in":[...]}}`: the filter that selects entities by id. */
export function idIn(ids: readonly string[]): Filter {
  return { id: { $in: [...ids] } };
}
