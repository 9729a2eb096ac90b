/**
 * The two undici 7 modules the client uses (see undici-internals.d.ts), in one module so the bundle loads them
 * as one file on the first request (docs/architecture.md "Start-up"). Imported only through dynamic import() from client.ts:
 * commands that never call the API never load undici.
 */
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import request from 'undici/lib/api/api-request.js';

export { EnvHttpProxyAgent, request };
