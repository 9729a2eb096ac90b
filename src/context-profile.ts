/**
 * The profile a command talks to (docs/architecture.md "Profiles and auth"): flags, then the environment, then the
 * stored profiles, else the built-in `local` profile of the emulator (started in the background on first use).
 *
 * The dependency runs one way: context.ts imports this module (and re-exports what it names), and this module does
 * not import context.ts; what it needs of a Context is {@link ProfileCallContext}, declared here
 * (docs/architecture.md "Layout and dependency direction"). The config reader and daemon helpers arrive with
 * context-deps.ts, by a dynamic import, only when a profile is resolved.
 */
import { join } from 'node:path';
import type * as ContextDeps from './context-deps.js';
import type { SiteRef } from './context-sites.js';
import { UserError } from './core/errors.js';
import type { IOStreams } from './core/iostreams.js';
import { notice, warn } from './core/log.js';

let depsPromise: Promise<typeof ContextDeps> | undefined;

/** The config reader, daemon helpers and API client (context-deps.ts), loaded once, on first use. */
export function loadDeps(): Promise<typeof ContextDeps> {
  depsPromise ??= import('./context-deps.js');
  return depsPromise;
}

/**
 * What resolving a profile takes of a command's Context (context.ts's Context has all of it): the environment,
 * the global flags that pick a target (`--profile`, `--site`), the streams for its notices and warnings, and the
 * command name for hints.
 */
export interface ProfileCallContext {
  env: NodeJS.ProcessEnv;
  flags: { profile?: string; site?: string };
  io: IOStreams;
  bin: string;
}

/**
 * Where the resolved target came from, for `profile show` and error hints: `--profile`, the SITECTL_* variables
 * that define a target, SITECTL_PROFILE naming a stored profile, the config file's current profile, or nothing.
 */
export type ProfileSource = 'flag' | 'env' | 'env-profile' | 'stored' | 'local';

/** The profile a command will talk to, after flags, environment and the stored profiles are applied. */
export interface ResolvedProfile {
  /** Profile name (`local` for the emulator default; `env` when only environment variables define it). */
  name: string;
  source: ProfileSource;
  baseUrl: string;
  siteId?: string;
  /** The profile's own site (stored, or the emulator's default), before SITECTL_SITE_ID; sessions are keyed by it. */
  homeSiteId?: string;
  /** The API key when there is one; never printed. */
  apiKey?: string;
  /** The app instance of the client-credentials grant (`instance_id`): SITECTL_INSTANCE_ID, else the stored one. */
  instanceId?: string;
  /** The account of the key (account-level calls): the emulator's, or SITECTL_ACCOUNT_ID. */
  accountId?: string;
  /** Where the secret is kept, in words: `env SITECTL_API_KEY`, `<config path>`, `<dataDir>/admin-key.json`. */
  secretLocation?: string;
  /** Set for the local profile: the emulator data dir. */
  dataDir?: string;
  /** Set for the local profile: the emulated account's sites. */
  sites?: SiteRef[];
}

/**
 * Resolves the target profile (docs/architecture.md "Profiles and auth"): flags, then environment, then stored profiles.
 *
 * - `--profile NAME` picks a stored profile (or `local`) and wins over everything in the environment.
 * - Otherwise `SITECTL_PROFILE` or the stored current profile or `local` is the base, and `SITECTL_BASE_URL`,
 *   `SITECTL_SITE_ID`, `SITECTL_API_KEY` override its fields one by one. An environment key without a base URL
 *   targets the real platform (`https://www.wixapis.com`), not the emulator.
 * - `local` (unless a stored profile has that name) targets the emulator in `defaultDataDir(env)`; with
 *   `startEmulator` it is started in the background when not running, and a notice says so on stderr.
 *
 * @throws UserError (exit 2) when a named profile does not exist; AuthError never (the caller checks keys).
 */
export async function resolveProfile(
  ctx: ProfileCallContext,
  opts: { startEmulator: boolean },
): Promise<ResolvedProfile> {
  const { readConfig, checkProfileName, DEFAULT_BASE_URL, LOCAL_PROFILE } = await loadDeps();
  const env = ctx.env;
  const read = readConfig(env);
  if (read.problem) warn(ctx.io, `ignoring the profiles file: ${read.problem}`);
  const { config } = read;

  const fromFlag = ctx.flags.profile;
  const fromEnv = fromFlag === undefined ? env.SITECTL_PROFILE || undefined : undefined;
  const name = fromFlag ?? fromEnv ?? config.currentProfile ?? LOCAL_PROFILE;
  // A name from the config file was validated with it; one from a flag or the environment is checked here.
  if (name !== LOCAL_PROFILE && (fromFlag ?? fromEnv) !== undefined) checkProfileName(name, fromFlag !== undefined ? '--profile' : 'SITECTL_PROFILE');
  // Own properties only: `constructor` is a valid name and must not find Object.prototype.constructor.
  const stored = Object.hasOwn(config.profiles, name) ? config.profiles[name] : undefined;
  if (!stored && name !== LOCAL_PROFILE) {
    const known = Object.keys(config.profiles);
    throw new UserError(
      `no profile named '${name}'`,
      known.length
        ? `known profiles: ${known.join(', ')} ('${ctx.bin} profile list')`
        : `add one with '${ctx.bin} profile add ${name} --base-url URL --site-id ID --api-key-stdin'`,
    );
  }
  const envUrl = fromFlag ? undefined : env.SITECTL_BASE_URL || undefined;
  const envSite = fromFlag ? undefined : env.SITECTL_SITE_ID || undefined;
  const envKey = fromFlag ? undefined : env.SITECTL_API_KEY || undefined;
  const envAccount = env.SITECTL_ACCOUNT_ID || undefined;
  const envInstance = env.SITECTL_INSTANCE_ID || undefined;
  const source: ProfileSource = fromFlag ? 'flag' : envUrl || envKey ? 'env' : fromEnv ? 'env-profile' : stored ? 'stored' : 'local';

  if (stored) {
    const apiKey = envKey ?? (stored.credential?.type === 'apiKey' ? stored.credential.apiKey : undefined);
    return {
      name,
      source,
      baseUrl: trimSlash(envUrl ?? stored.baseUrl),
      siteId: envSite ?? stored.siteId,
      homeSiteId: stored.siteId,
      apiKey,
      ...(envInstance ?? stored.instanceId ? { instanceId: envInstance ?? stored.instanceId } : {}),
      accountId: envAccount,
      secretLocation: envKey ? 'env SITECTL_API_KEY' : apiKey ? read.path : undefined,
    };
  }
  if (envUrl || envKey) {
    return {
      name: env.SITECTL_PROFILE || 'env',
      source: 'env',
      baseUrl: trimSlash(envUrl ?? DEFAULT_BASE_URL),
      siteId: envSite,
      homeSiteId: envSite,
      apiKey: envKey,
      ...(envInstance ? { instanceId: envInstance } : {}),
      accountId: envAccount,
      secretLocation: envKey ? 'env SITECTL_API_KEY' : undefined,
    };
  }
  const local = { ...(await resolveLocalProfile(ctx, opts.startEmulator, source)), ...(envInstance ? { instanceId: envInstance } : {}) };
  // SITECTL_SITE_ID picks a site of the emulated account too (an id or a name: --site's rules).
  return envSite && !ctx.flags.site ? { ...local, siteId: local.sites?.find((s) => s.id === envSite || s.name.toLowerCase() === envSite.toLowerCase())?.id ?? envSite } : local;
}

/**
 * The built-in `local` profile: the emulator in `defaultDataDir(env)` with the admin key from its
 * admin-key.json. With `start`, starts the emulator when it is not running (and says so on stderr); without,
 * reports it as it is (base URL `(local emulator, not running)`, no key before the first start).
 */
export async function resolveLocalProfile(
  ctx: Omit<ProfileCallContext, 'flags'>,
  start: boolean,
  source: ProfileSource = 'local',
): Promise<ResolvedProfile> {
  const { daemon } = await loadDeps();
  const dataDir = daemon.defaultDataDir(ctx.env);
  const secretLocation = join(dataDir, 'admin-key.json');
  if (!start) {
    const running = daemon.readRunning(dataDir);
    const key = daemon.readAdminKey(dataDir);
    return {
      name: 'local',
      source,
      baseUrl: running?.url ?? '(local emulator, not running)',
      siteId: key?.siteId,
      homeSiteId: key?.siteId,
      apiKey: key?.apiKey,
      accountId: key?.accountId,
      sites: key?.sites,
      secretLocation: key ? secretLocation : undefined,
      dataDir,
    };
  }
  const emu = await daemon.ensureEmulator(dataDir);
  if (emu.started) {
    notice(
      ctx.io,
      `Started the local emulator at ${emu.url} (data in ${dataDir}); stop it with: ${ctx.bin} emulator stop`,
    );
  }
  return {
    name: 'local',
    source,
    baseUrl: emu.url,
    siteId: emu.siteId,
    homeSiteId: emu.siteId,
    apiKey: emu.apiKey,
    accountId: emu.accountId,
    sites: emu.sites,
    secretLocation,
    dataDir,
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
