/**
 * `serve(family, handlers)`: how the emulator serves an API family from its operation table (docs/architecture.md "One table per API family"). Routes and aliases, request decoding (JSON body; GET and DELETE parameters, flattened or `.r=`), path
 * parameters, and request validation all come from the table; a handler keyed by the SDK method name receives
 * a validated, typed request and returns the reply in wire form. What a schema says about a request is never
 * checked again by hand; handlers check only what needs the store (references, states, revisions, capacity).
 *
 * Validation failures are reported as the platform does (docs/wire.md §4): HTTP 400 with
 * `details.validationError.fieldViolations`, one per failed rule, fields written as request paths
 * (`services[3].service.name`), rules named REQUIRED_FIELD, MAX_LENGTH, MAX_SIZE, INVALID_ENUM_VALUE, ...
 */
import { safeParse } from 'zod/mini';
import type { $ZodIssue, $ZodType } from 'zod/v4/core';
import { operationsOf, type Family, type Operation, type OperationSpec, type RequestOf, type WireReplyOf } from '../api/family.js';
import { getPath, setPath, UnsafePathError } from '../api/paths.js';
import { fromBase64UrlJson } from '../api/query.js';
import { acceptsNumber, elementOf, isOptional, kindOf, lookupPath, shapeOf } from '../api/schemas/introspect.js';
import type { Principal } from './auth.js';
import { type Access, checkAccess } from './oauth/roles.js';
import { ApplicationFailure, ValidationFailure, type FieldViolation } from './errors.js';
import type { CollectionDef, Doc, SiteCollection } from './store/collection.js';
import { NO_FAULTS, type Faults } from './faults.js';
import type { Store } from './store/store.js';

/** Deepest nesting a request body may have (deeper ones are refused before any recursive code sees them). */
export const MAX_BODY_DEPTH = 32;

/**
 * A reply body already serialised, exactly as `JSON.stringify` of the equivalent object would print it. Lets
 * handlers splice in the JSON text the store keeps for each document instead of serialising it again.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** What a handler gets: the validated request and the request's site, time and identity. */
export interface RequestContext<Body> {
  /** The request (body, or GET/DELETE parameters) with path parameters filled in, validated by the table. */
  body: Body;
  /** The raw query string (path parameters repeated there by the SDK are already in `body`). */
  query: URLSearchParams;
  /** The site of the request (`wix-site-id`, or the token's site). */
  site: string;
  principal: Principal;
  /** The emulator clock's time for this request, ISO-8601. */
  now: string;
  requestId: string;
  store: Store;
  /** A collection as this request's site sees it. */
  db<T extends Doc>(def: CollectionDef<T>): SiteCollection<T>;
  /** The emulator's fault settings at this request (the rule faults some handlers answer: faults.ts). */
  faults: Faults;
}

/** A handler of one operation: returns the wire reply (or its JSON text), or throws an EmulatorError. */
export type OperationHandler<Op extends OperationSpec> = (ctx: RequestContext<RequestOf<Op>>) => WireReplyOf<Op> | RawJson;

/** One handler per operation of the family: a missing one does not compile. */
export type Handlers<Ops extends Record<string, OperationSpec>> = { [K in keyof Ops]: OperationHandler<Ops[K]> };

export interface ServedOperation {
  op: Operation;
  handler: OperationHandler<OperationSpec>;
  /** Who may call it (oauth/roles.ts checks it before the handler runs). */
  access: Access;
}

/**
 * Pairs every operation of `family` with its handler, and says which of them a visitor or a member may call
 * (every other one needs the admin credential).
 * @param open the operations a visitor token may call (`visitor`) and those a member token may call besides
 *   (`member`), by SDK method name
 * @throws Error when an operation has no handler (a table entry the emulator does not serve)
 */
export function serve<Ops extends Record<string, OperationSpec>>(
  family: Family<Ops>,
  handlers: Handlers<Ops>,
  open: { visitor?: ReadonlyArray<keyof Ops & string>; member?: ReadonlyArray<keyof Ops & string> } = {},
): ServedOperation[] {
  return operationsOf(family).map((op) => {
    const handler = (handlers as Record<string, OperationHandler<OperationSpec>>)[op.name];
    if (typeof handler !== 'function') throw new Error(`${family.name}.${op.name} has no handler`);
    const access: Access = open.visitor?.includes(op.name) ? 'visitor' : open.member?.includes(op.name) ? 'member' : 'admin';
    return { op, handler, access };
  });
}

/** `services[3].service.name` from a zod issue path. */
function fieldName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || 'body';
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  record: 'an object',
};

function pathValue(request: unknown, path: readonly PropertyKey[]): unknown {
  return getPath(request, path.map(String));
}

/** One platform field violation for one zod issue (see the module comment for the rule names). */
function violationOf(issue: $ZodIssue, request: unknown, prefix: readonly PropertyKey[] = []): FieldViolation {
  const path = [...prefix, ...issue.path];
  const field = fieldName(path);
  const v = (description: string, violatedRule: string, data?: Record<string, unknown>): FieldViolation => ({
    field,
    description,
    violatedRule,
    ...(data ? { data } : {}),
  });
  switch (issue.code) {
    case 'invalid_type':
      if (pathValue(request, path) === undefined) return v('is required', 'REQUIRED_FIELD');
      return v(`must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`, 'INVALID');
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return v(`must be at most ${max} characters`, 'MAX_LENGTH', { max });
      if (issue.origin === 'array') return v(`must hold at most ${max} items`, 'MAX_SIZE', { max });
      return v(`must be at most ${max}`, 'MAX', { max });
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return v(min <= 1 ? 'must not be empty' : `must be at least ${min} characters`, 'MIN_LENGTH', { min });
      if (issue.origin === 'array') return v(`must hold at least ${min} item${min === 1 ? '' : 's'}`, 'MIN_SIZE', { min });
      return v(`must be at least ${min}`, 'MIN', { min });
    }
    case 'invalid_value':
      if (pathValue(request, path) === undefined) return v(`is required (one of ${issue.values.map(String).join(', ')})`, 'REQUIRED_FIELD');
      return v(`must be one of ${issue.values.map(String).join(', ')}`, 'INVALID_ENUM_VALUE');
    case 'invalid_format':
      return v(issue.message, 'FORMAT');
    case 'invalid_union': {
      if (pathValue(request, path) === undefined) return v('is required', 'REQUIRED_FIELD');
      const first = issue.errors.find((branch) => branch.length > 0)?.[0];
      return first ? violationOf(first, request, path) : v(issue.message, 'INVALID');
    }
    case 'unrecognized_keys':
      return v(`unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`, 'INVALID');
    default:
      return v(issue.message, 'INVALID');
  }
}

/**
 * Checks `request` against `schema`; every failed rule becomes one field violation.
 * @param prefix where `request` sits in the whole request, for the field names (`services[2].service`)
 * @throws ValidationFailure (400) listing them all
 */
export function validate(schema: $ZodType, request: unknown, prefix?: string): void {
  const violations = violationsOf(schema, request, prefix);
  if (violations.length) throw new ValidationFailure(violations);
}

/** The field violations of `request` against `schema` (none when it is valid), named as {@link validate} names them. */
export function violationsOf(schema: $ZodType, request: unknown, prefix?: string): FieldViolation[] {
  const result = safeParse(schema, request);
  if (result.success) return [];
  const seen = new Set<string>();
  const violations: FieldViolation[] = [];
  for (const issue of result.error.issues) {
    const violation = violationOf(issue, request);
    if (prefix) violation.field = violation.field === 'body' ? prefix : `${prefix}${violation.field.startsWith('[') ? '' : '.'}${violation.field}`;
    const key = `${violation.field}\u0000${violation.violatedRule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    violations.push(violation);
  }
  return violations;
}

/**
 * Checks an updated document against the entity's create schema, field by field, looking only at the top-level
 * fields that changed: `next` shares every unchanged field with `previous` by reference (copy on write), and
 * `previous` was valid when it was stored. A bulk update of one field therefore validates that field, not the
 * whole document; a field the update cleared is still reported when the schema requires it.
 * @param schema an object schema (the entity as a create request gives it)
 * @param prefix where the document sits in the request (`service`, `services[3].service`)
 * @returns the violations, empty when the changed fields are valid
 */
export function changedFieldViolations(schema: $ZodType, next: Record<string, unknown>, previous: Record<string, unknown>, prefix: string): FieldViolation[] {
  const shape = shapeOf(schema);
  if (!shape) return violationsOf(schema, next, prefix);
  const out: FieldViolation[] = [];
  for (const key of new Set([...Object.keys(next), ...Object.keys(previous)])) {
    const field = shape[key];
    if (!field || next[key] === previous[key]) continue;
    if (next[key] === undefined && !isOptional(field)) {
      out.push({ field: `${prefix}.${key}`, description: 'is required', violatedRule: 'REQUIRED_FIELD' });
      continue;
    }
    out.push(...violationsOf(field, next[key], `${prefix}.${key}`));
  }
  return out;
}

/** A GET parameter's text as the type the schema wants at that path (numbers, booleans; strings as they are). */
function coerce(text: string, schema: $ZodType | undefined): unknown {
  if (!schema) return text;
  const kind = kindOf(schema);
  if ((kind === 'number' || (kind === 'union' && acceptsNumber(schema))) && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/**
 * The request a GET or DELETE carries in its query string (docs/wire.md §5): `.r=<base64url JSON>`, or dotted
 * keys (`sorting.fieldName=name`) with repeated keys as lists (`orderStatuses=ACTIVE&orderStatuses=PAUSED`),
 * each value typed by the schema at its path.
 * @throws ValidationFailure for an undecodable `.r` or a key naming a forbidden segment
 */
export function requestFromQuery(query: URLSearchParams, schema: $ZodType): Record<string, unknown> {
  let out: Record<string, unknown> = {};
  const r = query.get('.r');
  if (r !== null) {
    let decoded: unknown;
    try {
      decoded = fromBase64UrlJson(r);
    } catch {
      throw ValidationFailure.field('.r', 'must be base64url-encoded JSON', 'INVALID');
    }
    if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) {
      throw ValidationFailure.field('.r', 'must encode a JSON object', 'INVALID');
    }
    out = decoded as Record<string, unknown>;
  }
  for (const key of new Set(query.keys())) {
    if (key === '.r') continue;
    const lookup = lookupPath(schema, key);
    const leaf = lookup.ok ? lookup.schema : undefined;
    const values = query.getAll(key);
    const element = leaf ? elementOf(leaf) : undefined;
    const value = element ? values.map((t) => coerce(t, element)) : coerce(values[values.length - 1]!, leaf);
    try {
      if (getPath(out, key) === undefined) setPath(out, key, value);
    } catch (err) {
      if (err instanceof UnsafePathError) throw ValidationFailure.field(key, 'is not an allowed parameter name', 'INVALID');
      throw err;
    }
  }
  return out;
}

/**
 * Refuses keys that reach the prototype chain and nesting deeper than {@link MAX_BODY_DEPTH}, in one walk.
 * @throws ValidationFailure
 */
function checkShape(value: unknown, at: Array<string | number> = []): void {
  if (value === null || typeof value !== 'object') return;
  // The path is built only for an error: a bulk body has thousands of keys.
  const here = () => at.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('') || 'body';
  if (at.length >= MAX_BODY_DEPTH) throw ValidationFailure.field(here(), `is nested more than ${MAX_BODY_DEPTH} levels deep`, 'MAX_DEPTH');
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      at.push(i);
      checkShape(value[i], at);
      at.pop();
    }
    return;
  }
  for (const key in value) {
    at.push(key);
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw ValidationFailure.field(here(), 'is not an allowed field name', 'INVALID');
    checkShape((value as Record<string, unknown>)[key], at);
    at.pop();
  }
}

/**
 * Builds and validates the request of `op`: the JSON body (or the query parameters for GET and DELETE, unless
 * `asBody`: the POST form of a long GET, docs/wire.md §5) with the path parameters set at their fields. A body field that disagrees with the path is refused, as are keys
 * that reach the prototype chain and bodies nested deeper than {@link MAX_BODY_DEPTH}.
 * @throws ValidationFailure (400)
 */
export function decodeRequest(op: Operation, body: unknown, query: URLSearchParams, params: Record<string, string>, asBody = false): unknown {
  let request: Record<string, unknown>;
  if ((op.method === 'GET' || op.method === 'DELETE') && !asBody) {
    request = requestFromQuery(query, op.request);
  } else if (body === undefined) {
    request = {};
  } else if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw ValidationFailure.field('body', 'the request body must be a JSON object', 'INVALID');
  } else {
    request = body as Record<string, unknown>;
  }
  checkShape(request);
  for (const [name, value] of Object.entries(params)) {
    const given = getPath(request, name);
    if (given === undefined || given === null || given === '') setPath(request, name, value);
    else if (String(given) !== value) throw ValidationFailure.field(name, 'must match the id in the path', 'INVALID');
  }
  validate(op.request, request);
  return request;
}

/**
 * A request given as a JSON object (a POST body, or a GraphQL argument of any operation), checked as
 * {@link decodeRequest} checks a body: forbidden keys, nesting, then the operation's request schema.
 * @throws ValidationFailure (400)
 */
export function decodeJsonRequest(op: Operation, body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) body = {};
  if (typeof body !== 'object' || Array.isArray(body)) throw ValidationFailure.field('body', 'the request must be a JSON object', 'INVALID');
  checkShape(body);
  validate(op.request, body);
  return body as Record<string, unknown>;
}

const NO_QUERY = new URLSearchParams();

/**
 * Runs a served operation on a decoded request as `principal`, in one store transaction (read-only operations
 * outside one, so a write from them throws). What the HTTP layer and the GraphQL endpoint both call.
 * @returns the handler's reply (wire JSON, or {@link RawJson})
 * @throws ApplicationFailure 401 for an account-level principal on a site operation, 403 for a visitor or member
 *   token on an operation its role may not call (oauth/roles.ts); what the handler throws
 */
export function runServed(store: Store, served: ServedOperation, request: unknown, principal: Principal, requestId: string, query: URLSearchParams = NO_QUERY, faults: Faults = NO_FAULTS): unknown {
  const { op, handler } = served;
  checkAccess(principal, served);
  if (principal.accountLevel && !op.accountLevel) {
    throw new ApplicationFailure(401, 'UNAUTHENTICATED', 'a site call needs the wix-site-id header (wix-account-id names only the account)', {}, 'Unauthenticated');
  }
  const site = principal.siteId;
  const run = () => {
    const ctx: RequestContext<unknown> = {
      body: request,
      query,
      site,
      principal,
      now: store.now(),
      requestId,
      store,
      db: (def) => store.collection(def).at(site),
      faults,
    };
    return (handler as (ctx: RequestContext<never>) => unknown)(ctx as RequestContext<never>);
  };
  return op.readOnly ? run() : store.tx(run);
}
