/**
 * Entry point: `run(argv) -> exit code`. The only place that maps error classes to exit codes
 * (docs/architecture.md "Output and interaction"). Never calls process.exit.
 *
 * Startup cost matters (docs/architecture.md "Start-up"): this module imports only node:v8, node:fs and the inlined
 * version. Everything else (errors, streams, Commander, the commands, the API client) comes from one dynamic
 * import of `./cli.js`. The bundle puts main.ts, cli.ts and their static imports in one `cli` chunk that
 * dist/main.js loads with itself (rolldown.config.ts `hotPathChunks`): the one command that needs neither,
 * `--version`, is answered by bin/sitectl.js before dist/main.js is read.
 */
import { writeSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { VERSION } from './core/version.js';
import type * as Cli from './cli.js';
import type { Context } from './context.js';
import type { IOStreams } from './core/iostreams.js';

// undici's llhttp parser is WebAssembly: TurboFan tier-up of it costs ~150 ms on the first request of a
// process, Liftoff alone is plenty for a CLI (docs/architecture.md "Start-up", measured 0.71x). Must run before undici loads.
setFlagsFromString('--liftoff-only');

/**
 * Runs the CLI.
 * @param argv arguments after `node bin/sitectl.js` (process.argv.slice(2)).
 * @param overrides test seams: io, env, now... merged into the Context built here.
 * @returns the exit code: 0 ok, 1 failure, 2 usage or bad input (including the platform's 400 validation
 *   errors, which reject the user's input before anything changes), 3 partial failure of a bulk action,
 *   4 authentication missing or refused (401/403), 130 interrupted.
 */
export async function run(argv: string[], overrides: Partial<Context> = {}): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    // writeSync(1) rather than process.stdout: building the stdout stream object costs a few ms here.
    if (overrides.io) overrides.io.stdout.write(`${VERSION}\n`);
    else writeSync(1, `${VERSION}\n`);
    return 0;
  }
  const cli = await import('./cli.js');
  const { createIOStreams, ExitCode } = cli;
  const env = overrides.env ?? process.env;
  const debug = argv.includes('--debug');
  const io = overrides.io ?? createIOStreams({ env, noInput: argv.includes('--no-input') });
  // `sitectl ... | head` closes stdout early: that is the reader saying "enough", not a failure. The listener
  // stays attached because the EPIPE can be emitted after the last write returned.
  let stdoutClosed = false;
  io.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') stdoutClosed = true;
    else io.stderr.write(`error: cannot write to stdout: ${e.message}\n`);
  });
  let ctx: Context | undefined;
  let dispose: (() => Promise<void>) | undefined;
  try {
    const created = cli.createContext({ argv, ...overrides, io, env });
    ctx = created.ctx;
    dispose = created.dispose;
    const program = await cli.createProgram(ctx, argv);
    await cli.parse(program, argv);
    return ExitCode.Ok;
  } catch (err) {
    if (stdoutClosed || io.stdout.destroyed) return ExitCode.Ok;
    return await report(cli, err, io, debug || Boolean(ctx?.flags.debug), argv, Boolean(ctx?.signal.aborted), ctx?.bin ?? 'sitectl');
  } finally {
    await dispose?.();
  }
}

/** Hints for the platform's application error codes a person can act on. */
const CODE_HINTS: Record<string, (bin: string) => string> = {
  REVISION_MISMATCH: () => 'it changed since it was read; run the command again to act on its current state',
  BOOKING_REVISION_MISMATCH: () => 'a booking of the group changed since it was read; run the command again',
  SLOT_NOT_AVAILABLE: (bin) => `'${bin} availability SERVICE' lists the open slots`,
  SESSION_NOT_FOUND: (bin) => `'${bin} availability SERVICE' lists the sessions and their start times`,
  SESSION_CAPACITY_EXCEEDED: (bin) => `'${bin} availability SERVICE --bookable' lists sessions with room (or pass --skip-availability to overbook)`,
  SCHEDULE_CAPACITY_EXCEEDED: (bin) => `'${bin} availability COURSE' shows the places left`,
  BOOKING_POLICY_VIOLATION: () => 'the service’s booking policy forbids it now; cancel and reschedule take --ignore-policy, and create’s --skip-availability lifts only the booking window',
  INVALID_BOOKING_STATUS: (bin) => `'${bin} bookings get ID' shows its status, '${bin} bookings actions ID' what its policy still allows`,
  FAILED_CONFIRMING_NON_PENDING_BOOKING: () => 'it is confirmed already',
  FAILED_DECLINE_NON_PENDING_BOOKING: () => 'only a PENDING, CREATED or WAITING_LIST booking can be declined',
  NOT_ALLOWED_TO_UPDATE_BOOKING_IN_MULTI_SERVICE_BOOKING: (bin) => `change the whole group with '${bin} msb ...'`,
  SERVICE_NOT_FOUND: (bin) => `'${bin} services list' shows the services`,
  BOOKING_NOT_FOUND: (bin) => `'${bin} bookings list' shows the bookings`,
  MULTI_SERVICE_BOOKING_NOT_FOUND: (bin) => `'${bin} bookings list --json id,multiServiceBookingInfo' shows the groups`,
  INVALID_MEMBER_STATUS: (bin) => `'${bin} members get ID' shows its status; approve takes PENDING or BLOCKED, block PENDING or APPROVED, and an OFFLINE member is disconnected for good`,
  MEMBER_NOT_FOUND: (bin) => `'${bin} members list' shows the members`,
  SLUG_ALREADY_EXISTS: () => 'another one holds that slug; choose another',
  EMAIL_ALREADY_EXISTS: (bin) => `'${bin} members list --search ADDRESS' finds the member who has it`,
  CONTENT_ASSIGNEE_NOT_FOUND: (bin) => `--content-assignee takes the full id of an existing member ('${bin} members list')`,
  CONTENT_ASSIGNEE_IS_DELETED: () => 'choose a content assignee who is not among the members being deleted',
  PLAN_NOT_FOUND: (bin) => `'${bin} plans list --state all' shows the plans`,
  PLAN_ARCHIVED: (bin) => `an archived plan cannot be bought or changed; '${bin} plans list' shows the active ones`,
  PLAN_ALREADY_ARCHIVED: () => 'it is archived already',
  ARCHIVED_PLAN_CANNOT_BE_PRIMARY: (bin) => `choose an active plan ('${bin} plans list')`,
  HIDDEN_PLAN_CANNOT_BE_PRIMARY: (bin) => `show it first: '${bin} plans visibility PLAN public'`,
  ORDER_NOT_FOUND: (bin) => `'${bin} orders list' shows the orders`,
  ORDER_NOT_SUSPENDABLE: (bin) => `only an ACTIVE order, started and past its free trial, can be paused; '${bin} orders get ID' shows its dates`,
  ORDER_NOT_PAUSED: () => 'only a PAUSED order resumes',
  ORDER_ALREADY_CANCELED: () => 'it is canceled already',
  ORDER_ALREADY_ENDED: () => 'an ENDED order cannot be canceled',
  CANNOT_CANCEL_AT_NEXT_PAYMENT_DATE: () => 'only an active, started subscription ends at its next payment date; cancel it now instead (--at now)',
  AUTO_RENEW_ALREADY_CANCELED: () => 'it ends at its next payment date already',
  ORDER_NOT_OFFLINE: () => 'only offline orders are marked paid; online ones are paid on the site',
  ORDER_ALREADY_PAID: () => 'it is paid already',
  ORDER_IS_FREE: () => 'a free order has nothing to pay',
  INVALID_ORDER_STATUS: (bin) => `'${bin} orders get ID' shows its status`,
  ORDER_HAS_NO_END_DATE: () => 'it renews until canceled (or never ends): there is no end date to move',
  INVALID_END_DATE: () => 'give a date later than the current end date',
  BUYER_CANNOT_CANCEL: () => 'the plan does not let buyers cancel; the site owner can (orders cancel)',
  INVALID_COUPON: () => 'check the code; it may be expired, inactive or for other plans',
  PURCHASE_LIMIT_EXCEEDED: (bin) => `the member has bought the plan as often as it allows ('${bin} orders list --buyer MEMBER --plan PLAN')`,
  FUTURE_START_DATE_NOT_ALLOWED: () => 'this plan starts when bought: leave out --start',
  INVALID_PRICING_PLAN: (bin) => `'${bin} plans list --state all' shows the plan ids`,
};

/** Prints `err` as one line (plus an optional hint) on stderr and returns its exit code. */
async function report(
  cli: typeof Cli,
  err: unknown,
  io: IOStreams,
  debug: boolean,
  argv: string[],
  interrupted: boolean,
  bin: string,
): Promise<number> {
  const { AuthError, CancelError, DeclinedError, ExitCode, ExitStatus, FieldsAsked, PartialFailureError, UserError, oneLine } = cli;
  const write = (line: string) => io.stderr.write(line + '\n');
  const stack = () => {
    if (debug && err instanceof Error && err.stack) write(err.stack);
  };

  if (isCommanderError(err)) {
    // Commander has already printed its own message through configureOutput.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
      return ExitCode.Ok;
    }
    const { nounOf, nounNames, consumeUsageHint } = cli;
    if (consumeUsageHint()) return ExitCode.Usage;
    const noun = nounOf(argv);
    const known = noun !== undefined && nounNames().includes(noun);
    write(`hint: run '${bin} ${known ? noun + ' ' : ''}--help' for usage`);
    return ExitCode.Usage;
  }
  if (err instanceof ExitStatus) return err.exitCode;
  if (err instanceof FieldsAsked) {
    // Asked for (`--json help`): the answer is data, on stdout.
    io.stdout.write(err.fields.map((f) => `${f}\n`).join(''));
    return err.exitCode;
  }
  if (err instanceof DeclinedError) {
    // Answering no is not an error: say what happened, nothing more.
    write(err.message);
    return err.exitCode;
  }
  if (err instanceof CancelError) {
    write(`error: ${err.message}`);
    if (err.hint) write(`hint: ${err.hint}`);
    return err.exitCode;
  }
  if (err instanceof PartialFailureError) {
    write(`error: ${err.message}`);
    if (err.hint) write(`hint: ${err.hint}`);
    return err.exitCode;
  }
  if (err instanceof UserError) {
    // AuthError is a UserError carrying exit 4. Messages may quote server or file text: one escaped line.
    write(`error: ${oneLine(err.message)}`);
    if (err.hint) write(`hint: ${oneLine(err.hint)}`);
    stack();
    return err.exitCode;
  }
  if ((err as { name?: unknown } | null)?.name === 'UnsafePathError') {
    write(`error: ${oneLine((err as Error).message)}`);
    return ExitCode.Usage;
  }
  if (isAbort(err) || (interrupted && !(err instanceof UserError))) {
    write('error: interrupted');
    return ExitCode.Interrupted;
  }
  // API errors: loaded only on this path so a successful run never pays for the module (and node:http).
  const api = await import('./api/errors.js');
  if (err instanceof api.ApiError) {
    // SystemError messages already end with the request id (docs/wire.md §4 rule 4).
    const rid = err.requestId && !err.message.includes(err.requestId) ? `request id: ${err.requestId}` : '';
    // An application error names the platform's code: what a script matches on and a person searches for.
    const code = err instanceof api.ApplicationError && !err.message.includes(err.code) && !/^\d+$/.test(err.code) ? err.code : '';
    const extra = [code, rid].filter(Boolean).join(', ');
    write(`error: ${oneLine(err.message)}${extra ? ` (${extra})` : ''}`);
    stack();
    const hint = err instanceof api.ApplicationError ? CODE_HINTS[err.code]?.(bin) : undefined;
    if (hint) {
      write(`hint: ${hint}`);
      return err.status === 400 ? ExitCode.Usage : ExitCode.Failure;
    }
    if (err.status === 401 || err.status === 403) {
      write(`hint: check the API key and site id of the profile ('${bin} profile show')`);
      return new AuthError(err.message).exitCode;
    }
    // 400: the request itself was wrong (a field, a date, a time zone): bad input, exit 2.
    if (err instanceof api.ValidationError || err.status === 400) return ExitCode.Usage;
    if (err instanceof api.NetworkError) {
      write(`hint: is the server reachable? ('${bin} profile show' prints the base URL in use)`);
      return ExitCode.Failure;
    }
    if (err.status === 404) {
      write(`hint: check the id; the list commands show the ids that exist`);
    }
    return ExitCode.Failure;
  }
  if (isNetworkError(err)) {
    write(`error: ${oneLine((err as Error).message)}`);
    write(`hint: is the server reachable? ('${bin} profile show' prints the base URL in use)`);
    stack();
    return ExitCode.Failure;
  }
  if (isFileSystemError(err)) {
    // A path we were given or derived (data dir, journal, config) is not usable: the user can fix that.
    write(`error: ${oneLine((err as Error).message)}`);
    write(`hint: check the path and its permissions`);
    stack();
    return ExitCode.Usage;
  }
  // Anything else is our bug: say so and ask for a report.
  const message = err instanceof Error ? err.message : String(err);
  write(`error: unexpected: ${oneLine(message)}`);
  if (debug && err instanceof Error && err.stack) write(err.stack);
  else write(`hint: this is a bug in sitectl; rerun with --debug and report the output`);
  return ExitCode.Failure;
}

/** Commander's thrown exits (exitOverride); matched by name so this path need not load commander. */
function isCommanderError(err: unknown): err is { code: string; exitCode: number; message: string } {
  // By code, not by class name: bundling may rename Commander's classes (CommanderError -> CommanderError2).
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('commander.');
}

/** A file-system error about a path (ENOTDIR, EACCES, EEXIST...): the path is wrong, not the program. */
function isFileSystemError(err: unknown): boolean {
  const e = err as { code?: unknown; syscall?: unknown; path?: unknown } | null;
  return typeof e?.code === 'string' && typeof e.path === 'string' && /^(ENOTDIR|EISDIR|EACCES|EPERM|EEXIST|ENOENT|EROFS|ENOSPC)$/.test(e.code);
}

function isAbort(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: string }).name === 'AbortError';
}

function isNetworkError(err: unknown): boolean {
  const code = (err as { code?: unknown; cause?: { code?: unknown } } | null)?.code ??
    (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|UND_ERR_)/.test(code);
}
