/**
 * What the Context needs only once a command resolves a profile or calls the API: the profiles file reader
 * (zod), the emulator daemon helpers (node:child_process, node:http) and the API client. One module behind one
 * dynamic import in context.ts, so `--help` and usage errors do not load them and API commands load them in a
 * single step (docs/architecture.md "Start-up").
 */
export { ApiClient } from './api/client.js';
export { checkProfileName, DEFAULT_BASE_URL, LOCAL_PROFILE, readConfig } from './core/config.js';
export * as daemon from './local/daemon.js';
