// Deep imports of two undici 7 modules (CommonJS, `module.exports = <fn or class>`). The client loads these
// instead of the package index, which also pulls in fetch, WebSocket, caching and the mock agents and costs
// about 40 ms more at startup (docs/architecture.md "Start-up" "importing only the dispatcher you use"). The types are the public ones.
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import type { EnvHttpProxyAgent } from 'undici';
  const EnvHttpProxyAgentClass: typeof EnvHttpProxyAgent;
  export default EnvHttpProxyAgentClass;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  function request(this: Dispatcher, opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}
