/** `sitectl emulator stop`: stops the background emulator of a data dir (SIGTERM, SIGKILL after 5 s). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { notice, success } from '../../core/log.js';
import { readRunning, stopEmulator } from '../../local/daemon.js';
import { dataDirOf } from './shared.js';

export function register(parent: Command, ctx: Context): void {
  parent
    .command('stop')
    .description('Stop the emulator running in the background')
    .option('--data-dir <dir>', 'data dir of the emulator to stop')
    .action(async (flags: { dataDir?: string }) => {
      await run({ dataDir: dataDirOf(flags, ctx) }, ctx);
    });
}

/** Stops it; stopping when none runs is not an error (a notice says so). */
export async function run(opts: { dataDir: string }, ctx: Context): Promise<void> {
  const running = readRunning(opts.dataDir);
  if (!(await stopEmulator(opts.dataDir)) || !running) {
    notice(ctx.io, `No emulator is running for ${opts.dataDir}.`);
    return;
  }
  success(ctx.io, `Stopped the emulator at ${running.url} (pid ${running.pid}).`);
}
