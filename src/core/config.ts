/**
 * Profiles: where they are stored, how they are read and written (docs/architecture.md "Profiles and auth";
 * contracts.md "Files and environment").
 *
 * The file is `<configDir>/config.json`, written by `conf` (atomic writes, mode 0600) and validated with zod.
 * Reads skip `conf` on purpose: it loads ajv and friends (~140 ms measured), which every API command would pay
 * just to learn its base URL; the file is plain JSON, so a read is `readFileSync` + zod. Writes go through
 * `conf`, loaded with a dynamic import.
 *
 * An invalid file never crashes a read: it is reported as one line (`ConfigRead.problem`) and treated as empty;
 * a write to an invalid file is refused so nothing the user had is lost.
 */
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { UserError } from './errors.js';

/** The real platform's API host (docs/wire.md §1). */
export const DEFAULT_BASE_URL = 'https://www.wixapis.com';
/** The profile that targets the local emulator when nothing else is configured. */
export const LOCAL_PROFILE = 'local';

/**
 * The file's schemas, built on first use (building zod schemas is start-up time, and a command given its
 * profile in the environment never reads the file).
 */
function buildSchemas() {
  // zod/mini (tree-shakable, see api/schemas/common.ts) has no messages of its own: without English every problem
  // this file reports would read "Invalid input".
  z.config(en());
  const profileName = z
    .string()
    .check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'letters, digits, ".", "_" and "-", at most 64 characters'));
  /** A stored credential. Only API keys so far; OAuth kinds join this union with `sitectl login`. */
  const credential = z.discriminatedUnion('type', [z.object({ type: z.literal('apiKey'), apiKey: z.string().check(z.minLength(1)) })]);
  const profile = z.object({
    name: profileName,
    /** e.g. 'https://www.wixapis.com' or 'http://127.0.0.1:PORT'; no trailing slash. */
    baseUrl: z.url({ protocol: /^https?$/ }),
    siteId: z.optional(z.string().check(z.minLength(1))),
    /**
     * The app instance (the app's installation on the site) the client-credentials grant names as `instance_id`
     * (the SDK's `AppStrategy({appId, appSecret, instanceId})`).
     */
    instanceId: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    credential: z.optional(credential),
  });
  const config = z.object({
    currentProfile: z.optional(profileName),
    profiles: z._default(z.record(z.string(), profile), {}),
  });
  return { profileName, credential, profile, config };
}

let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = () => (built ??= buildSchemas());

export type StoredCredential = z.infer<ReturnType<typeof buildSchemas>['credential']>;
export type Profile = z.infer<ReturnType<typeof buildSchemas>['profile']>;
export type Config = z.infer<ReturnType<typeof buildSchemas>['config']>;

/** The schema of one profile (`profile add` checks its candidate with it). */
export function profileSchema() {
  return schemas().profile;
}

/** What `readConfig` found. `problem` is a one-line description when the file exists but is unusable. */
export interface ConfigRead {
  path: string;
  config: Config;
  exists: boolean;
  problem?: string;
}

/**
 * The config directory: `$SITECTL_CONFIG_DIR`, else the platform's config dir for `sitectl` (what conf's
 * env-paths gives without the `-nodejs` suffix): `$XDG_CONFIG_HOME/sitectl` or `~/.config/sitectl` on Linux,
 * `~/Library/Preferences/sitectl` on macOS, `%APPDATA%\sitectl\Config` on Windows.
 */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.SITECTL_CONFIG_DIR) return env.SITECTL_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'sitectl');
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'sitectl', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'sitectl');
}

/** Absolute path of the profiles file. */
export function configPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.json');
}

/**
 * Validates a profile name; throws UserError (exit 2) naming the rule.
 * @param from where the name came from (`--profile`, `SITECTL_PROFILE`), for the message
 */
export function checkProfileName(name: string, from?: string): string {
  const r = schemas().profileName.safeParse(name);
  if (!r.success) throw new UserError(`invalid profile name '${name}'${from ? ` in ${from}` : ''}: ${r.error.issues[0]?.message}`);
  return name;
}

/** Reads and validates the profiles file. Never throws: a broken file comes back empty with `problem` set. */
export function readConfig(env: NodeJS.ProcessEnv): ConfigRead {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path, config: { profiles: {} }, exists: false };
    return { path, config: { profiles: {} }, exists: true, problem: `cannot read ${path}: ${(e as Error).message}` };
  }
  let data: unknown;
  try {
    data = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    return { path, config: { profiles: {} }, exists: true, problem: `${path} is not valid JSON (${(e as Error).message})` };
  }
  const parsed = schemas().config.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(root)';
    return { path, config: { profiles: {} }, exists: true, problem: `${path} is invalid at ${where}: ${issue?.message}` };
  }
  return { path, config: parsed.data, exists: true };
}

/**
 * Applies `change` to the stored config and writes it through conf (atomic, mode 0600).
 * @throws UserError when the file exists but is invalid (nothing is overwritten).
 */
export async function updateConfig(env: NodeJS.ProcessEnv, change: (config: Config) => Config): Promise<Config> {
  const current = readConfig(env);
  if (current.problem) {
    throw new UserError(current.problem, `fix the file or move it away, then retry`);
  }
  const next = schemas().config.parse(change(structuredClone(current.config)));
  // The directory holds secrets: owner-only whatever the umask (conf would create it with the umask's mode).
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const { default: Conf } = await import('conf');
  const store = new Conf<Config>({
    projectName: 'sitectl',
    projectSuffix: '',
    cwd: configDir(env),
    configName: 'config',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
  });
  store.store = next;
  return next;
}
