/**
 * Everything `main.ts` needs past the `--version` fast path, gathered in one module so the bundle loads it in one
 * step (docs/architecture.md "Start-up": on Node 20 each sequential dynamic import() on the start-up path costs a round of
 * resolve, read, compile and link; `services list --json` went from a chain of ~10 such steps to 3).
 *
 * Only what every command needs (streams, errors, the context, Commander and the root program) is imported
 * statically from here. The rest is one dynamic import away: the invoked noun (program.ts), the config reader,
 * daemon helpers and API client (context-deps.ts), undici (api/transport.ts), Ink/React (src/ui), the emulator
 * server (node:sqlite), conf (profile writes), the column engine and date-fns (TTY output).
 */
export { createIOStreams } from './core/iostreams.js';
export { AuthError, CancelError, DeclinedError, ExitCode, ExitStatus, FieldsAsked, PartialFailureError, UserError } from './core/errors.js';
export { oneLine } from './core/text.js';
export { createContext } from './context.js';
export { consumeUsageHint, createProgram, nounNames, nounOf, parse } from './program.js';
