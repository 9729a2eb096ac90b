/**
 * Everything `main.ts` needs past the `--version` fast path, gathered in one module so the bundle loads it as one
 * file (issue 2 section 7: on Node 20 every extra ESM file on the start-up path costs resolve, read, compile and
 * link time; `services list --json` went from ~34 files to a handful).
 *
 * The rule that keeps this cheap: what every API command needs (context, Commander, the nouns and their verbs,
 * the API client, the services API and its schemas) is imported statically from here; only what some runs never
 * need stays behind dynamic import(): undici (api/transport.ts), Ink/React (src/ui), the emulator server
 * (better-sqlite3), conf (profile writes), cli-table3 and date-fns (TTY output).
 */
export { createIOStreams } from './core/iostreams.js';
export { AuthError, CancelError, ExitCode, PartialFailureError, UserError } from './core/errors.js';
export { createContext } from './context.js';
export { consumeUsageHint, createProgram, nounNames, nounOf, parse } from './program.js';
export { ApiError, NetworkError, ValidationError } from './api/errors.js';
