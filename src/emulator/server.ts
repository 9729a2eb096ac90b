/**
 * The HTTP layer: node:http on 127.0.0.1, one handler per request, routes from the served family tables.
 *
 * For every reply: `x-wix-request-id` (unique), JSON 200 on success (`{}` when nothing to return), the
 * platform's error envelope for EmulatorErrors, and a 500 with an empty body for anything unexpected
 * (docs/wire.md §4 and §10). A request whose `Host` is not a loopback name gets 421, whatever its
 * route ({@link isLoopbackHost}). A request body over {@link MAX_BODY_BYTES} gets 413. API requests pass
 * auth, then faults (throttle, 5xx or drop before or after the commit, latency); a handler runs in one store
 * transaction, committed before the reply, at the emulator clock's time.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticate, type Authenticator } from './auth.js';
import { matchControlRoute } from './control.js';
import type { ControlState } from './control-state.js';
import { ApplicationFailure, EmulatorError, ValidationFailure, routeNotFound } from './errors.js';
import type { FaultInjector } from './faults.js';
import { GraphQLEndpoint, GRAPHQL_VERSIONS } from './graphql/endpoint.js';
import { handleOAuth } from './oauth/http.js';
import type { OAuthDeps } from './oauth/reply.js';
import { isOAuthToken } from './oauth/access.js';
import { Router } from './router.js';
import { decodeRequest, RawJson, runServed, type ServedOperation } from './serve.js';
import type { Store } from './store/store.js';

/** Largest request body accepted (bytes); a bulk request of 100 full services is well below it. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
const EMPTY_QUERY = new URLSearchParams();

export interface ServerDeps {
  store: Store;
  faults: FaultInjector;
  authenticators: Authenticator[];
  /** Every operation of every family the emulator serves. */
  served: readonly ServedOperation[];
  control: ControlState;
  /** The OAuth server and hosted pages (`/oauth2/...`, `/hosted/...`): no API credentials, never faulted. */
  oauth?: OAuthDeps;
  log: (line: string) => void;
}

class BodyTooLarge extends Error {}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/;

/**
 * True when `host` (a request's `Host` header) names this emulator by a loopback name: `127.0.0.1`,
 * `localhost` or `[::1]` (any case), alone or with `port`, the port the request came in on. Anything else is
 * a name that resolves here only by DNS rebinding (a site's name pointed at 127.0.0.1 so its pages can read
 * the emulator's answers), or a request meant for another server: 421 Misdirected Request (RFC 9110 section
 * 15.5.20). A request without a `Host` is refused too.
 */
export function isLoopbackHost(host: string | undefined, port: number | undefined): boolean {
  const m = host === undefined ? null : LOOPBACK_HOST.exec(host.toLowerCase());
  return m !== null && (m[2] === undefined || Number(m[2]) === port);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) reject(new BodyTooLarge());
      else chunks.push(c);
    });
    req.on('end', () => resolve(chunks.length === 0 ? '' : chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, requestId: string, body: unknown, extra?: Record<string, string>): void {
  // Encoded once: measuring the string and then writing it would walk a large page of documents twice.
  const payload = Buffer.from(body === undefined ? '' : body instanceof RawJson ? body.text : JSON.stringify(body));
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': payload.length,
    'x-wix-request-id': requestId,
    ...extra,
  });
  res.end(payload);
}

function parseJson(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw ValidationFailure.field('body', 'the request body is not valid JSON', 'INVALID_JSON');
  }
}

/** Creates the server (not yet listening). @throws Error when two served operations claim one route. */
export function createEmulatorServer(deps: ServerDeps): Server {
  const router = new Router<ServedOperation>();
  for (const served of deps.served) {
    for (const route of served.op.routes) {
      router.add(served.op.method, route, served);
      // The POST form of a long GET (docs/wire.md §5): the same request as a JSON body, to the same path.
      if (served.op.longGetFallback) router.add('POST', route, served);
    }
  }
  const { store, faults } = deps;
  const graphqlEndpoint = new GraphQLEndpoint(deps.served, store);

  const fail = (res: ServerResponse, requestId: string, err: unknown) => {
    if (err instanceof EmulatorError) return send(res, err.status, requestId, err.body());
    deps.log(`request ${requestId} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    send(res, 500, requestId, undefined);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const query = q === -1 ? EMPTY_QUERY : new URLSearchParams(url.slice(q + 1));
    const method = req.method ?? 'GET';
    // HTTP/1.1 (RFC 9112 section 3.2): a request with more than one Host header is refused with 400. Node keeps
    // the first of them only, so they are counted in the raw headers.
    if (req.rawHeaders.filter((_, i) => i % 2 === 0 && req.rawHeaders[i]!.toLowerCase() === 'host').length > 1) {
      const failure = new ApplicationFailure(400, 'BAD_REQUEST', 'a request carries one Host header');
      send(res, 400, requestId, failure.body(), { connection: 'close' });
      req.resume();
      return;
    }
    if (!isLoopbackHost(req.headers.host, req.socket.localPort)) {
      const failure = new ApplicationFailure(421, 'MISDIRECTED_REQUEST', 'the emulator answers only loopback host names (127.0.0.1, localhost, [::1]) with its port');
      send(res, 421, requestId, failure.body(), { connection: 'close' });
      req.resume();
      return;
    }
    let raw: string;
    try {
      raw = await readBody(req);
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        const failure = new ApplicationFailure(413, 'PAYLOAD_TOO_LARGE', `the request body is larger than ${MAX_BODY_BYTES} bytes`);
        send(res, 413, requestId, failure.body(), { connection: 'close' });
        req.resume();
      }
      return;
    }

    if (deps.oauth) {
      try {
        if (handleOAuth(deps.oauth, { method, path, query, headers: req.headers, raw, requestId }, res)) return;
      } catch (err) {
        fail(res, requestId, err);
        return;
      }
    }

    if (path.startsWith('/__emulator/')) {
      try {
        const principal = authenticate(req.headers, deps.authenticators);
        // The control plane is the account owner's: the admin API key only, never an OAuth token (a visitor's
        // is anyone's for the asking, and with it the outbox's codes and new apps' secrets were anyone's).
        if (principal.kind !== 'admin' || isOAuthToken(req.headers.authorization)) {
          throw new ApplicationFailure(403, 'PERMISSION_DENIED', 'the control plane (/__emulator/...) takes the admin API key, not an OAuth token', {}, 'Permission denied');
        }
        const route = matchControlRoute(method, path);
        if (!route) throw routeNotFound(method, path);
        const siteId = typeof req.headers['wix-site-id'] === 'string' ? req.headers['wix-site-id'] : undefined;
        send(res, 200, requestId, await route.handler(deps.control, parseJson(raw), { query, requestId, params: route.params, ...(siteId ? { siteId } : {}) }));
      } catch (err) {
        fail(res, requestId, err);
      }
      return;
    }

    const graphql = /^\/graphql\/([^/]+)$/.exec(path);
    if (graphql) {
      try {
        if (method !== 'POST') throw new ApplicationFailure(405, 'METHOD_NOT_ALLOWED', 'GraphQL requests are POSTs of {query, variables}');
        if (!(GRAPHQL_VERSIONS as readonly string[]).includes(graphql[1]!)) throw routeNotFound(method, path);
        const principal = authenticate(req.headers, deps.authenticators);
        const reply = graphqlEndpoint.handle(parseJson(raw), principal, requestId, faults.current);
        send(res, reply.status, requestId, reply.body);
      } catch (err) {
        fail(res, requestId, err);
      }
      return;
    }

    let result: unknown;
    const siteHeader = req.headers['wix-site-id'];
    const decision = faults.decide(typeof siteHeader === 'string' ? siteHeader : undefined);
    try {
      const principal = authenticate(req.headers, deps.authenticators);
      const match = router.match(method, path);
      if (!match) throw routeNotFound(method, path);
      if (decision.throttle) {
        const f = faults.current;
        return send(
          res,
          429,
          requestId,
          new ApplicationFailure(429, 'TOO_MANY_REQUESTS', `rate limit of ${f.rateLimitPerSec} requests per second exceeded`).body(),
          { 'retry-after': String(f.retryAfterSec) },
        );
      }
      if ((decision.errorStatus || decision.drop) && !decision.afterCommit) {
        if (decision.latencyMs > 0) await sleep(decision.latencyMs);
        if (decision.drop) req.socket.destroy();
        else send(res, decision.errorStatus, requestId, undefined);
        return;
      }
      const body = decodeRequest(match.target.op, parseJson(raw), query, match.params, method !== match.target.op.method);
      result = runServed(store, match.target, body, principal, requestId, query, faults.current);
    } catch (err) {
      if (decision.latencyMs > 0) await sleep(decision.latencyMs);
      fail(res, requestId, err);
      return;
    }
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    if (decision.drop) req.socket.destroy();
    else if (decision.errorStatus) send(res, decision.errorStatus, requestId, undefined);
    else send(res, 200, requestId, result);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      deps.log(`unhandled: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      if (!res.headersSent) send(res, 500, 'unknown', undefined);
    });
  });
  server.keepAliveTimeout = 30_000;
  return server;
}
