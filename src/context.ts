/**
 * The Context every command receives (contracts.md "src/context.ts"; gh's cmdutil.Factory): streams, environment,
 * global flags, a lazily built API client, an abort signal for Ctrl-C and a clock.
 *
 * Nothing here loads zod, node:http, undici or the emulator until a command resolves a profile or calls the
 * API: then context-deps.ts (config reader, daemon helpers, API client) arrives in one dynamic import, so
 * `--help` stays cheap and API commands pay one load step (docs/architecture.md "Start-up"). context-auth.ts (an
 * app's client credentials) is loaded the same way, only for a profile without an API key. The profile itself is
 * resolved in context-profile.ts (re-exported here). All three sit below this module and import nothing of it
 * (docs/architecture.md "Layout and dependency direction").
 */
import type { ApiClient, CallWait, Credentials } from './api/client.js';
import { loadDeps, resolveProfile } from './context-profile.js';
import { findSite, listSites, type SiteRef } from './context-sites.js';
import { AuthError, DeclinedError, UserError } from './core/errors.js';
import { parseDecimal } from './core/numbers.js';
import { invocationName } from './core/invocation.js';
import { createIOStreams, type IOStreams } from './core/iostreams.js';
import { WAIT_NOTICE_AFTER_MS, waitNotices } from './core/waits.js';

export interface GlobalFlags {
  profile?: string;
  debug: boolean;
  noInput: boolean;
  /**
   * `--timeout SECONDS` (else SITECTL_TIMEOUT): most time one request attempt may take. A call with its retries and
   * waits may take 120 s, or 4 attempts of a longer timeout, or SITECTL_CALL_BUDGET seconds ({@link callBudgetMs}).
   */
  timeoutSec?: number;
  /** `--allow-unknown-fields`: send field names the entity schema does not know (filters, --set, --json). */
  allowUnknownFields?: boolean;
  /** `--site ID|NAME`: a site of the account other than the profile's (else SITECTL_SITE_ID). */
  site?: string;
}

export type { SiteRef } from './context-sites.js';
export { resolveLocalProfile, resolveProfile, type ProfileSource, type ResolvedProfile } from './context-profile.js';

/**
 * Every confirmation goes through the Prompter (docs/architecture.md "Layout and dependency direction"): it draws the prompt only when one may be
 * drawn (stdin and stdout are terminals, CI unset, no --no-input) and otherwise refuses with the flag to pass.
 */
export interface Prompter {
  /**
   * Asks a yes/no question.
   * @returns the answer
   * @param opts.what what needs the answer, for the refusal without a terminal (`removing profile 'x'`)
   * @throws UserError (exit 2) naming `flag` (default `--yes`) when no prompt may be drawn; CancelError on Ctrl-C
   *   (Esc answers no)
   */
  confirm(question: string, opts?: { defaultValue?: boolean; flag?: string; what?: string }): Promise<boolean>;
  /**
   * Like {@link confirm}, but a "no" ends the command: DeclinedError (exit 1, "canceled: nothing was changed").
   * @throws DeclinedError, or what confirm throws
   */
  require(question: string, opts?: { flag?: string; declined?: string; what?: string }): Promise<void>;
  /**
   * Reads a secret (an API key) on the terminal without echoing it; Enter ends the entry.
   * @returns what was entered, trimmed ('' when the user just pressed Enter)
   * @throws UserError (exit 2) naming `flag` when no prompt may be drawn; CancelError on Esc or Ctrl-C
   */
  secret(question: string, opts?: { flag?: string; what?: string }): Promise<string>;
}

export interface Context {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  /** Filled in by the root command's preAction hook once Commander has parsed the global flags. */
  flags: GlobalFlags;
  /** The API client for the resolved profile (and `--site`); built once, on first use. May start the local emulator. */
  api(): Promise<ApiClient>;
  /**
   * A client for another site of the account, by id or name (`services clone --to-site`). Closed with the context.
   * @throws UserError (exit 2) for a site the account does not have, or a name that cannot be looked up
   */
  siteApi(site: string): Promise<{ api: ApiClient; site: SiteRef }>;
  /**
   * Looks the local emulator's address up again (its pid file) and points the clients built so far at it, so an
   * interactive view recovers when the emulator was started again on another port. Only the built-in `local`
   * profile moves; any other profile, or no client built yet, is left as it is.
   * @returns the new base URL when it changed, else undefined
   */
  relink(): Promise<string | undefined>;
  /** The sites the profile's key reaches (the account-level sites query). @throws UserError without the account id */
  sites(): Promise<SiteRef[]>;
  /** Aborted on the first SIGINT, or on SIGHUP (the terminal closed); commands pass it to requests and loops. */
  signal: AbortSignal;
  now(): Date;
  prompter: Prompter;
  /** The command the user typed to start the CLI (`sitectl`, `./bin/sitectl.js`), for hints. */
  bin: string;
  /** The arguments after it, as given (journaled as the command of a change for `sitectl history`). */
  argv?: readonly string[];
  /**
   * The API client's wait observer (api/client.ts `onWait`), wired into every client the context builds: a wait
   * that lasts says so on stderr (core/waits.ts; after SITECTL_WAIT_NOTICE seconds, default 3). A command that
   * builds its own client passes it on.
   * @returns what to call when the wait ends, or undefined
   * @throws UserError (exit 2) for a SITECTL_WAIT_NOTICE that is not a number of seconds
   */
  noticeWait(wait: CallWait): (() => void) | undefined;
  /**
   * Holds the waiting notices back while an interactive view owns the terminal (their lines would be drawn into
   * it). @returns the function that lets them out again
   */
  holdWaitNotices(): () => void;
  /**
   * Sets the line printed when a second Ctrl-C forces an exit (a bulk run's resume command), so the hint is
   * not lost; undefined clears it.
   */
  setInterruptHint(hint: string | undefined): void;
}

export interface CreateContextResult {
  ctx: Context;
  /** Removes the SIGINT handler and closes the API client (keep-alive sockets). Call once, at the end. */
  dispose(): Promise<void>;
}

/**
 * Builds the Context for one CLI run.
 * @param overrides test seams (io, env, now, api, signal); `flags` is merged over the defaults.
 */
export function createContext(overrides: Partial<Context> = {}): CreateContextResult {
  const env = overrides.env ?? process.env;
  const flags: GlobalFlags = { debug: false, noInput: false, ...overrides.flags };
  const baseIo = overrides.io ?? createIOStreams({ env });
  // --no-input is known only after parsing, so the check reads the live flags.
  const baseCanPrompt = baseIo.canPrompt.bind(baseIo);
  const io: IOStreams = { ...baseIo, canPrompt: () => !flags.noInput && baseCanPrompt() };

  const controller = new AbortController();
  let interrupts = 0;
  let interruptHint: string | undefined;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts === 1) {
      controller.abort(new DOMException('Interrupted', 'AbortError'));
      return;
    }
    // A second Ctrl-C means "now": skip the clean-up the first one asked for, but keep the way back.
    io.stderr.write('\nerror: interrupted twice, exiting now\n');
    if (interruptHint) io.stderr.write(`hint: ${interruptHint}\n`);
    process.exit(130);
  };
  // The terminal closing (SIGHUP) stops the command as a first Ctrl-C does: a run waiting at its question is
  // declined and leaves no journal; a run under way stops after the items in flight, its journal resumable.
  // Nobody is left to press a second Ctrl-C: whatever has not ended 3 s later exits (129, killed by SIGHUP).
  const onSighup = () => {
    if (!controller.signal.aborted) controller.abort(new DOMException('Interrupted', 'AbortError'));
    setTimeout(() => process.exit(129), 3000).unref();
  };
  const listenSigint = !overrides.signal;
  if (listenSigint) {
    process.on('SIGINT', onSigint);
    process.on('SIGHUP', onSighup);
  }

  let client: Promise<ApiClient> | undefined;
  /** The local emulator's data dir when the client targets the built-in `local` profile. */
  let localDir: string | undefined;
  let siteList: Promise<SiteRef[]> | undefined;
  const others = new Map<string, Promise<ApiClient>>();
  let bin: string | undefined;
  let held = 0;
  let notices: ((wait: CallWait) => (() => void) | undefined) | undefined;
  const ctx: Context = {
    io,
    env,
    flags,
    signal: overrides.signal ?? controller.signal,
    now: overrides.now ?? (() => new Date()),
    api:
      overrides.api ??
      (() => {
        client ??= buildClient(ctx, (dir) => (localDir = dir));
        return client;
      }),
    relink:
      overrides.relink ??
      (async () => {
        if (!client || localDir === undefined) return undefined;
        const [base, { daemon }] = await Promise.all([client.catch(() => undefined), loadDeps()]);
        const running = daemon.readRunning(localDir);
        if (!base || !running || running.url === base.baseUrl) return undefined;
        base.retarget(running.url);
        for (const other of others.values()) (await other).retarget(running.url);
        return running.url;
      }),
    sites:
      overrides.sites ??
      (() => {
        siteList ??= ctx.api().then((api) => listSites(api, ctx.signal));
        return siteList;
      }),
    siteApi:
      overrides.siteApi ??
      (async (given) => {
        const api = await ctx.api();
        const site = await findSite(() => ctx.sites(), given, '--to-site');
        if (site.id === api.siteId) return { api, site };
        let other = others.get(site.id);
        if (!other) others.set(site.id, (other = Promise.resolve(api.forSite(site.id))));
        return { api: await other, site };
      }),
    prompter: overrides.prompter ?? terminalPrompter(io, () => ctx.signal),
    argv: overrides.argv,
    // Computed on first use (a PATH lookup): only hints need it.
    get bin() {
      bin ??= overrides.bin ?? invocationName(process.argv[1], env, process.cwd());
      return bin;
    },
    setInterruptHint: (hint) => {
      interruptHint = hint;
    },
    noticeWait(wait) {
      // Built on the first wait, once the flags are parsed: --debug's trace lines would run into a line redrawn in place.
      notices ??= waitNotices({
        stderr: io.stderr,
        afterMs: waitNoticeAfterMs(env),
        inPlace: io.isStderrTTY && !flags.debug,
        columns: io.columns,
        enabled: () => held === 0,
      });
      return notices(wait);
    },
    holdWaitNotices() {
      held += 1;
      let released = false;
      return () => {
        if (!released) held -= 1;
        released = true;
      };
    },
  };
  return {
    ctx,
    async dispose() {
      if (listenSigint) {
        process.off('SIGINT', onSigint);
        process.off('SIGHUP', onSighup);
      }
      if (client) {
        const c = await client.catch(() => undefined);
        await c?.close();
      }
      for (const other of others.values()) await (await other).close();
    },
  };
}

/**
 * Where a prompt is drawn: stderr keeps stdout data-only, but when stderr is redirected (`2>log`) the prompt
 * goes to the terminal on stdout so the user sees what is asked.
 */
export function promptStream(io: IOStreams): NodeJS.WriteStream {
  return (io.isStderrTTY ? io.stderr : io.stdout) as NodeJS.WriteStream;
}

/** The Prompter of a real terminal: Ink's confirm prompt, loaded only when a question is asked. */
function terminalPrompter(io: IOStreams, signal: () => AbortSignal): Prompter {
  const prompter: Prompter = {
    async confirm(question, opts = {}) {
      if (!io.canPrompt()) {
        throw new UserError(`${opts.what ?? 'this'} needs confirmation, and there is no terminal to ask on`, `pass ${opts.flag ?? '--yes'} to go ahead without a prompt`);
      }
      signal().throwIfAborted();
      const { renderConfirm } = await import('./ui/index.js');
      return renderConfirm({ message: question, defaultValue: opts.defaultValue ?? false, stdout: promptStream(io), signal: signal() });
    },
    async require(question, opts = {}) {
      if (!(await prompter.confirm(question, { flag: opts.flag, what: opts.what }))) throw new DeclinedError(opts.declined);
    },
    async secret(question, opts = {}) {
      if (!io.canPrompt()) {
        throw new UserError(`${opts.what ?? 'this'} needs a terminal to type on`, `pass ${opts.flag ?? '--yes'}`);
      }
      signal().throwIfAborted();
      const { renderSecret } = await import('./ui/index.js');
      return renderSecret({ message: question, stdout: promptStream(io), signal: signal() });
    },
  };
  return prompter;
}

/** `--timeout` or SITECTL_TIMEOUT in ms (undefined: the client's default). @throws UserError for a bad value */
function timeoutMs(ctx: Context): number | undefined {
  const raw = ctx.flags.timeoutSec ?? (ctx.env.SITECTL_TIMEOUT ? parseDecimal(ctx.env.SITECTL_TIMEOUT, 'the timeout in SITECTL_TIMEOUT', { min: 0, max: 3600, unit: 'seconds' }) : undefined);
  if (raw === undefined) return undefined;
  return Math.round(raw * 1000);
}

/**
 * SITECTL_WAIT_NOTICE in ms: how long a wait lasts before the waiting notice tells it (default 3 s; 0 tells every
 * wait). @throws UserError (exit 2) for a value that is not a number of seconds from 0 to 3600
 */
export function waitNoticeAfterMs(env: NodeJS.ProcessEnv): number {
  const raw = env.SITECTL_WAIT_NOTICE;
  if (!raw) return WAIT_NOTICE_AFTER_MS;
  return Math.round(parseDecimal(raw, 'SITECTL_WAIT_NOTICE', { min: 0, max: 3600, inclusive: true, unit: 'seconds' }) * 1000);
}

/**
 * The most time one API call may take with its retries and waits, in ms: SITECTL_CALL_BUDGET seconds when set,
 * else 4 attempts of a `--timeout` longer than 30 s, else undefined (the client's 120 s).
 * @param timeoutMs the per-attempt timeout in force (`--timeout`, SITECTL_TIMEOUT), undefined for the default
 * @throws UserError (exit 2) for a SITECTL_CALL_BUDGET that is not a number of seconds above 0 and at most 14400
 */
export function callBudgetMs(env: NodeJS.ProcessEnv, timeoutMs: number | undefined): number | undefined {
  const raw = env.SITECTL_CALL_BUDGET;
  if (raw) return Math.round(parseDecimal(raw, 'SITECTL_CALL_BUDGET', { min: 0, max: 14_400, unit: 'seconds' }) * 1000);
  // A longer per-attempt timeout stretches the whole call's budget with it (4 attempts).
  return timeoutMs !== undefined ? Math.max(120_000, timeoutMs * 4) : undefined;
}

/** The client of the resolved profile and `--site`; `onLocal` is told the data dir when it is the local emulator. */
async function buildClient(ctx: Context, onLocal: (dataDir: string) => void): Promise<ApiClient> {
  const base = await buildProfileClient(ctx, onLocal);
  if (!ctx.flags.site) return base;
  const site = await findSite(() => listSites(base, ctx.signal), ctx.flags.site, '--site');
  if (site.id === base.siteId) return base;
  const other = base.forSite(site.id);
  await base.close();
  return other;
}

async function buildProfileClient(ctx: Context, onLocal: (dataDir: string) => void): Promise<ApiClient> {
  const profile = await resolveProfile(ctx, { startEmulator: true });
  if (profile.dataDir) onLocal(profile.dataDir);
  // Without an API key, an app's client credentials (sitectl login --client-id ID --client-secret-stdin) serve.
  const appToken = profile.apiKey ? undefined : await (await import('./context-auth.js')).appAccessToken(ctx, profile.name, profile.baseUrl, profile.instanceId);
  if (!profile.apiKey && !appToken) {
    throw new AuthError(
      `profile '${profile.name}' has no API key`,
      `add one with '${ctx.bin} profile add ${profile.name === 'env' ? 'NAME' : profile.name} --base-url URL --site-id ID --api-key-stdin', set SITECTL_API_KEY, or sign in as an app: '${ctx.bin} login --client-id ID --client-secret-stdin'`,
    );
  }
  if (!profile.siteId && !appToken) {
    throw new AuthError(
      `profile '${profile.name}' has no site id (an API key needs one)`,
      `set it with '${ctx.bin} profile add ... --site-id ID' or SITECTL_SITE_ID`,
    );
  }
  const credentials: Credentials = appToken
    ? { kind: 'accessToken', accessToken: appToken }
    : { kind: 'apiKey', apiKey: profile.apiKey!, siteId: profile.siteId!, ...(profile.accountId ? { accountId: profile.accountId } : {}) };
  const { ApiClient } = await loadDeps();
  const timeout = timeoutMs(ctx);
  const budgetMs = callBudgetMs(ctx.env, timeout);
  // Checked here, before any request: the notices are built on the first wait.
  waitNoticeAfterMs(ctx.env);
  try {
    return new ApiClient({
      baseUrl: profile.baseUrl,
      credentials,
      timeoutMs: timeout,
      budgetMs,
      onDebug: ctx.flags.debug ? (line) => ctx.io.stderr.write(`debug: ${line}\n`) : undefined,
      onWait: (wait) => ctx.noticeWait(wait),
    });
  } catch (err) {
    throw new UserError(`the base URL of profile '${profile.name}' is not usable: ${(err as Error).message}`, `it must be http(s)://host[:port] (${profile.source === 'env' ? 'SITECTL_BASE_URL' : `'${ctx.bin} profile show'`})`);
  }
}
