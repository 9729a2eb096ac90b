/**
 * Everything `main.ts` needs past the `--version` fast path, gathered in one module so the bundle loads it in one
 * step (issue 2 section 7: on Node 20 each sequential dynamic import() on the start-up path costs a round of
 * resolve, read, compile and link; `services list --json` went from a chain of ~10 such steps to 3).
 *
 * What every command needs (context with the config reader, the emulator daemon helpers and the API client,
 * Commander and the root program) is imported statically from here. Each noun is one more file (program.ts);
 * only what some runs never need stays behind dynamic import(): undici (api/transport.ts), Ink/React
 * (src/ui), the emulator server (better-sqlite3), conf (profile writes), cli-table3 and date-fns (TTY output).
 */
export { createIOStreams } from './core/iostreams.js';
export { AuthError, CancelError, ExitCode, PartialFailureError, UserError } from './core/errors.js';
export { createContext } from './context.js';
export { consumeUsageHint, createProgram, nounNames, nounOf, parse } from './program.js';
export { ApiError, NetworkError, ValidationError } from './api/errors.js';
