/**
 * Handler shape shared by every API family: `(store, body, ctx) => response`. Handlers return the JSON reply
 * (an object; `{}` when there is nothing to return) or throw an EmulatorError, which the server turns into the
 * platform's error envelope.
 */
import type { Store } from '../store.js';

export interface HandlerContext {
  /** Path parameters by name, e.g. `{ id }`. */
  params: Record<string, string>;
  /** Query string (path parameters repeated there by the SDK are ignored). */
  query: URLSearchParams;
  /** ISO timestamp of this request, used for createdDate/updatedDate and events. */
  now: string;
  requestId: string;
}

// Request bodies are arbitrary JSON checked field by field by the handlers.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;

export type Handler = (store: Store, body: Body, ctx: HandlerContext) => object;

/**
 * A reply body already serialised, exactly as `JSON.stringify` of the equivalent object would print it. Lets
 * handlers splice in the JSON text the store keeps for each service instead of serialising documents again.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Canonical (proto) path with `:name` parameters, e.g. `/v2/services/:id`. */
  path: string;
  /** Runs inside one store transaction: committed before the reply, rolled back on a throw. */
  write: boolean;
  handler: Handler;
}
