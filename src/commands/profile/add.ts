/**
 * `sitectl profile add NAME [--base-url URL] [--site-id ID] [--instance-id ID] [--api-key-stdin] [--use]`.
 * `--instance-id` is the app instance a client-credentials sign-in names (`instance_id`, the SDK's AppStrategy).
 * The API key is read from stdin (piped, or typed on a terminal without echo, ending at Enter), never from argv (docs/architecture.md "Profiles and auth": argv is visible to every
 * user of the machine through ps and lands in shell history), so there is deliberately no `--api-key` flag.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { checkProfileName, DEFAULT_BASE_URL, LOCAL_PROFILE, profileSchema, updateConfig, type Profile } from '../../core/config.js';
import { UserError } from '../../core/errors.js';
import { readSecret } from '../../core/input.js';
import { notice, success } from '../../core/log.js';

export interface AddOptions {
  name: string;
  baseUrl: string;
  siteId?: string;
  instanceId?: string;
  apiKeyStdin: boolean;
  use: boolean;
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command('add')
    .description('Add or replace a profile (the API key is read from stdin, or typed hidden on a terminal)')
    .argument('<name>', 'profile name')
    .option('--base-url <url>', 'API base URL', DEFAULT_BASE_URL)
    .option('--site-id <id>', 'site id sent as wix-site-id with the API key')
    .option('--instance-id <id>', "the app instance sent as instance_id when signing in an app's client credentials (else SITECTL_INSTANCE_ID)")
    .option('--api-key-stdin', 'read the API key from stdin (e.g. printf %s "$KEY" | sitectl profile add ...)', false)
    .option('--use', 'make it the current profile', false)
    .addHelpText('after', '\nExample:\n  printf %s "$SITE_API_KEY" | sitectl profile add prod --site-id 1a2b... --api-key-stdin --use')
    .action(async (name: string, o: { baseUrl: string; siteId?: string; instanceId?: string; apiKeyStdin: boolean; use: boolean }) => {
      await run({ name, ...o }, ctx);
    });
}

/**
 * Stores the profile in the config file (mode 0600). The first profile added also becomes the current one.
 * @throws UserError (exit 2) on a bad name or URL, an empty key on stdin, or the reserved name `local`.
 */
export async function run(opts: AddOptions, ctx: Context): Promise<void> {
  const name = checkProfileName(opts.name);
  if (name === LOCAL_PROFILE) {
    throw new UserError(`'${LOCAL_PROFILE}' is reserved for the local emulator`, 'choose another name');
  }
  let apiKey: string | undefined;
  const pipeHint = `pipe it in: printf %s "$KEY" | ${ctx.bin} profile add ${name} --api-key-stdin`;
  if (ctx.io.isStdinTTY && ctx.io.canPrompt() && (opts.apiKeyStdin || opts.siteId !== undefined)) {
    // On a terminal the key is typed or pasted without echo and Enter ends it; with --site-id but without
    // --api-key-stdin, Enter alone skips it (the key can come from SITECTL_API_KEY instead).
    apiKey = await ctx.prompter.secret(opts.apiKeyStdin ? 'API key:' : 'API key (Enter to skip):', { what: 'typing the API key', flag: '--api-key-stdin with the key piped in' });
    if (!apiKey && opts.apiKeyStdin) throw new UserError('no API key entered', pipeHint);
  } else if (opts.apiKeyStdin) {
    apiKey = (await readSecret('--api-key-stdin', ctx.io.stdin)).trim();
    if (!apiKey) throw new UserError('no API key on stdin', pipeHint);
  }
  if (apiKey && /\s/.test(apiKey)) throw new UserError('the API key contains whitespace', 'pass exactly one key');
  apiKey ||= undefined;
  const candidate = {
    name,
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    ...(opts.siteId ? { siteId: opts.siteId } : {}),
    ...(opts.instanceId ? { instanceId: opts.instanceId } : {}),
    ...(apiKey ? { credential: { type: 'apiKey' as const, apiKey } } : {}),
  };
  const parsed = profileSchema().safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`invalid ${issue?.path.join('.') || 'profile'}: ${issue?.message}`, 'the base URL must be http(s)://host[:port]');
  }
  const profile: Profile = parsed.data;
  let replaced = false;
  let madeCurrent = false;
  await updateConfig(ctx.env, (config) => {
    replaced = Object.hasOwn(config.profiles, name);
    config.profiles[name] = profile;
    if (opts.use || !config.currentProfile) {
      config.currentProfile = name;
      madeCurrent = true;
    }
    return config;
  });
  success(ctx.io, `${replaced ? 'Replaced' : 'Added'} profile '${name}' (${profile.baseUrl})${madeCurrent ? ', now the current profile' : ''}`);
  if (!apiKey) notice(ctx.io, `No API key stored: set SITECTL_API_KEY, or re-run with --api-key-stdin`);
}
