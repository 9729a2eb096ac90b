/** `sitectl profile list`: the stored profiles plus the built-in `local`; secrets are never printed. */
import type { Command } from 'commander';
import { resolveLocalProfile, type Context } from '../../context.js';
import { LOCAL_PROFILE, readConfig } from '../../core/config.js';
import { warn } from '../../core/log.js';
import { addFormatFlags, fieldsChecker, printRecords, resolveFormat, type FormatFlags } from '../../core/output.js';
import { credentialOf, PROFILE_COLUMNS, PROFILE_FIELDS, type ProfileView } from './shared.js';

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(parent.command('list').alias('ls').description('List profiles (* marks the current one)')).action(
    async (o: FormatFlags) => {
      await run(o, ctx);
    },
  );
}

/** Prints one row per profile. The current profile is the stored `currentProfile`, else `local`. */
export async function run(opts: FormatFlags, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(PROFILE_FIELDS));
  const read = readConfig(ctx.env);
  if (read.problem) warn(ctx.io, `ignoring the profiles file: ${read.problem}`);
  const current = read.config.currentProfile ?? LOCAL_PROFILE;
  const rows: ProfileView[] = Object.values(read.config.profiles)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((p) => ({
      name: p.name,
      current: p.name === current,
      baseUrl: p.baseUrl,
      siteId: p.siteId ?? null,
      instanceId: p.instanceId ?? null,
      ...credentialOf(ctx.env, p.name, !!p.credential, read.path),
    }));
  if (!Object.hasOwn(read.config.profiles, LOCAL_PROFILE)) {
    const local = await resolveLocalProfile(ctx, false);
    rows.push({
      name: LOCAL_PROFILE,
      current: current === LOCAL_PROFILE,
      baseUrl: local.baseUrl,
      siteId: local.siteId ?? null,
      instanceId: null,
      ...credentialOf(ctx.env, LOCAL_PROFILE, !!local.apiKey, local.secretLocation),
    });
  }
  await printRecords(ctx.io, format, rows, PROFILE_COLUMNS);
}
