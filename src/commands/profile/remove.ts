/** `sitectl profile remove NAME [--yes]`: deletes a stored profile and its stored secret. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { checkProfileName, readConfig, updateConfig } from '../../core/config.js';
import { CancelError, ExitCode, UserError } from '../../core/errors.js';
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
  if (!read.problem && !(name in read.config.profiles)) {
    throw new UserError(`no profile named '${name}'`, `'sitectl profile list' shows the stored profiles`);
  }
  if (!opts.yes) {
    if (!ctx.io.canPrompt()) {
      throw new UserError(`removing profile '${name}' needs confirmation`, 'pass --yes to remove it without a prompt');
    }
    const { renderConfirm } = await import('../../ui/index.js');
    const ok = await renderConfirm({ message: `Remove profile '${name}' and its stored API key?`, defaultValue: false });
    if (!ok) throw new CancelError('Kept the profile', ExitCode.Failure);
  }
  let wasCurrent = false;
  await updateConfig(ctx.env, (config) => {
    if (!(name in config.profiles)) throw new UserError(`no profile named '${name}'`);
    delete config.profiles[name];
    if (config.currentProfile === name) {
      wasCurrent = true;
      delete config.currentProfile;
    }
    return config;
  });
  success(ctx.io, `Removed profile '${name}'${wasCurrent ? '; commands now use the local emulator unless another profile is chosen' : ''}`);
}
