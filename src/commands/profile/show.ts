/**
 * `sitectl profile show [NAME]`: the profile a command would use right now (flags and environment applied), or
 * the stored profile NAME. Never prints the secret, only where it is kept. Does not start the emulator.
 */
import type { Command } from 'commander';
import { resolveProfile, type Context } from '../../context.js';
import { LOCAL_PROFILE, readConfig } from '../../core/config.js';
import { addFormatFlags, fieldsChecker, printRecord, resolveFormat, type FormatFlags } from '../../core/output.js';
import { PROFILE_COLUMNS, PROFILE_FIELDS, viewOf } from './shared.js';

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(
    parent
      .command('show')
      .description('Show the active profile (or NAME): base URL, site id and where the secret is kept')
      .argument('[name]', 'profile name (default: the one commands would use now)'),
  ).action(async (name: string | undefined, o: FormatFlags) => {
    await run({ name, ...o }, ctx);
  });
}

export async function run(opts: FormatFlags & { name?: string }, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(PROFILE_FIELDS));
  const flags = opts.name ? { ...ctx.flags, profile: opts.name } : ctx.flags;
  const resolved = await resolveProfile({ env: ctx.env, io: ctx.io, flags, bin: ctx.bin }, { startEmulator: false });
  const current = (readConfig(ctx.env).config.currentProfile ?? LOCAL_PROFILE) === resolved.name;
  const view = viewOf(resolved, current, ctx.env);
  await printRecord(ctx.io, format, view, {
    columns: [...PROFILE_COLUMNS.slice(1), { key: 'source' }],
    rows: [
      ['name', view.name],
      ['selected by', describeSource(view.source)],
      ['base URL', view.baseUrl],
      ['site id', view.siteId ?? '(none)'],
      ...(view.instanceId ? [['instance id', view.instanceId] as [string, string]] : []),
      ['credential', view.credential],
      ['secret stored in', view.secretStoredIn ?? '(nowhere)'],
    ],
  });
}

function describeSource(source: string | undefined): string {
  switch (source) {
    case 'flag':
      return '--profile';
    case 'env':
      return 'environment (SITECTL_BASE_URL / SITECTL_API_KEY)';
    case 'env-profile':
      return 'SITECTL_PROFILE';
    case 'stored':
      return 'current profile in the config file';
    default:
      return 'default (nothing configured)';
  }
}
