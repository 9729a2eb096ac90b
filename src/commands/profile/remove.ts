/** `sitectl profile remove NAME [--yes]`: deletes a stored profile and its stored secret. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { checkProfileName, LOCAL_PROFILE, readConfig, updateConfig } from '../../core/config.js';
import { UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';

export function register(parent: Command, ctx: Context): void {
  parent
    .command('remove')
    .alias('rm')
    .description('Remove a profile and its stored API key')
    .argument('<name>', 'profile name')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)', false)
    .action(async (name: string, o: { yes: boolean }) => {
      await run({ name, yes: o.yes }, ctx);
    });
}

/**
 * @throws UserError (exit 2) when the profile does not exist, or without a TTY and without --yes;
 *   CancelError (exit 1) when the user answers no.
 */
export async function run(opts: { name: string; yes: boolean }, ctx: Context): Promise<void> {
  const name = checkProfileName(opts.name);
  const read = readConfig(ctx.env);
  const exists = Object.hasOwn(read.config.profiles, name);
  if (name === LOCAL_PROFILE && !exists) {
    throw new UserError(`'${LOCAL_PROFILE}' is the built-in profile of the local emulator and cannot be removed`, `stop the emulator with '${ctx.bin} emulator stop'; switch away with '${ctx.bin} profile use NAME'`);
  }
  if (!read.problem && !exists) {
    throw new UserError(`no profile named '${name}'`, `'${ctx.bin} profile list' shows the stored profiles`);
  }
  if (!opts.yes) {
    await ctx.prompter.require(`Remove profile '${name}' and its stored API key?`, { declined: 'Kept the profile', what: `removing profile '${name}'` });
  }
  let wasCurrent = false;
  await updateConfig(ctx.env, (config) => {
    if (!Object.hasOwn(config.profiles, name)) throw new UserError(`no profile named '${name}'`);
    delete config.profiles[name];
    if (config.currentProfile === name) {
      wasCurrent = true;
      delete config.currentProfile;
    }
    return config;
  });
  success(ctx.io, `Removed profile '${name}'${wasCurrent ? '; commands now use the local emulator unless another profile is chosen' : ''}`);
}
