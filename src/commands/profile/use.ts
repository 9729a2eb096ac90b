/** `sitectl profile use NAME`: makes NAME the current profile (`local` returns to the emulator). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { checkProfileName, LOCAL_PROFILE, updateConfig } from '../../core/config.js';
import { UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';

export function register(parent: Command, ctx: Context): void {
  parent
    .command('use')
    .description('Make a profile the current one')
    .argument('<name>', 'profile name, or local for the emulator')
    .action(async (name: string) => {
      await run({ name }, ctx);
    });
}

/** @throws UserError (exit 2) when no such profile is stored. */
export async function run(opts: { name: string }, ctx: Context): Promise<void> {
  const name = checkProfileName(opts.name);
  await updateConfig(ctx.env, (config) => {
    if (!Object.hasOwn(config.profiles, name) && name !== LOCAL_PROFILE) {
      const known = [...Object.keys(config.profiles), LOCAL_PROFILE];
      throw new UserError(`no profile named '${name}'`, `known profiles: ${known.join(', ')}`);
    }
    config.currentProfile = name;
    return config;
  });
  success(ctx.io, `Now using profile '${name}'`);
}
