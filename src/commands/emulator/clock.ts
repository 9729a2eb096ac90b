/**
 * `sitectl emulator clock [--set ISO] [--advance DURATION] [--freeze | --unfreeze]`: shows or moves the
 * emulator's clock (`/__emulator/clock`), which every rule that reads the time uses: order periods, booking
 * windows, token expiry. Without options it prints the emulated time.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { addFormatFlags, fieldsChecker, printValue, resolveFormat, type FormatFlags } from '../../core/output.js';
import { emulatorRequest, readAdminKey, readRunning } from '../../local/daemon.js';
import { dataDirOf } from './shared.js';

export interface ClockOptions extends FormatFlags {
  dataDir: string;
  set?: string;
  advance?: string;
  freeze?: boolean;
  unfreeze?: boolean;
}

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(
    parent
      .command('clock')
      .description("Show or move the emulator's clock (set, advance, freeze)")
      .option('--data-dir <dir>', 'data dir of the emulator')
      .option('--set <iso>', 'jump to this instant, e.g. 2026-12-01T09:00:00Z')
      .option('--advance <duration>', 'move forward (or back with a minus): 90s, 15m, 2h, 3d, 1w')
      .option('--freeze', 'stop time at the (new) instant')
      .option('--unfreeze', 'let time run again from where it stands')
      .addHelpText('after', '\nExamples:\n  sitectl emulator clock\n  sitectl emulator clock --advance 2d\n  sitectl emulator clock --set 2026-12-24T10:00:00Z --freeze'),
  ).action(async (flags: Omit<ClockOptions, 'dataDir'> & { dataDir?: string }) => {
    await run({ ...flags, dataDir: dataDirOf(flags, ctx) }, ctx);
  });
}

/**
 * Prints the clock after the change: the ISO time (TSV view when piped), `{now, offsetMs, frozen}` with --json.
 * @throws UserError (exit 2) for bad options; UserError (exit 1) when no emulator runs or it refuses the change
 */
export async function run(opts: ClockOptions, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['now', 'offsetMs', 'frozen']));
  if (opts.freeze && opts.unfreeze) throw new UserError('choose --freeze or --unfreeze, not both');
  if (opts.set !== undefined && Number.isNaN(Date.parse(opts.set))) throw new UserError(`--set must be an ISO date-time, got '${opts.set}'`, 'e.g. --set 2026-12-01T09:00:00Z');
  if (opts.advance !== undefined && !/^-?\d+(\.\d+)?(ms|s|m|h|d|w)$/.test(opts.advance)) {
    throw new UserError(`--advance must be a duration such as 90s, 15m, 2h, 3d or 1w, got '${opts.advance}'`);
  }
  const running = readRunning(opts.dataDir);
  const key = readAdminKey(opts.dataDir);
  if (!running || !key) throw new UserError(`no emulator is running for ${opts.dataDir}`, `start it with: ${ctx.bin} emulator start --detach`, ExitCode.Failure);
  const change = {
    ...(opts.set !== undefined ? { now: new Date(opts.set).toISOString() } : {}),
    ...(opts.advance !== undefined ? { advance: opts.advance } : {}),
    ...(opts.freeze ? { frozen: true } : opts.unfreeze ? { frozen: false } : {}),
  };
  const changing = Object.keys(change).length > 0;
  const reply = (await emulatorRequest(running.url, key, changing ? 'PUT' : 'GET', '/__emulator/clock', changing ? change : undefined).catch((err: unknown) => {
    throw new UserError(`the emulator refused: ${err instanceof Error ? err.message : String(err)}`, undefined, ExitCode.Failure);
  })) as { clock: { now: string; offsetMs: number; frozen: boolean } };
  await printValue(ctx.io, format, reply.clock, { text: `${reply.clock.now}${reply.clock.frozen ? ' (frozen)' : ''}` });
}
