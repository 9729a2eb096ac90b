/**
 * `sitectl emulator reset [--seed demo|empty] [--size N] [--yes]`: deletes every record and seeds again,
 * through the control plane when the emulator runs, directly on the store otherwise. Destructive, so it asks
 * on a TTY and needs `--yes` without one (docs/architecture.md "Output and interaction").
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { notice, success } from '../../core/log.js';
import { emulatorRequest, readAdminKey, readRunning } from '../../local/daemon.js';
import { dataDirOf, numberFlag, seedFlag } from './shared.js';

export interface ResetOptions {
  dataDir: string;
  seed?: 'demo' | 'empty';
  size?: number;
  bookings?: number;
  window?: number;
  busyWeek?: boolean;
  staff?: number;
  members?: number;
  yes: boolean;
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command('reset')
    .description('Delete all emulator data and seed it again (as it was seeded last, unless flags say otherwise)')
    .option('--data-dir <dir>', 'data dir of the emulator')
    .option('--seed <kind>', 'demo or empty (default: what it was seeded with)')
    .option('--size <n>', 'services in the demo seed (default: as seeded last; 60 at first)')
    .option('--bookings <n>', 'bookings in the demo seed, over --window days either side of now (default: as seeded last; 500 at first)')
    .option('--window <days>', 'days either side of now the seeded bookings cover, 1-365 (default: as seeded last; at first 30, wider for large --bookings: 35 a day, up to 365)')
    .option('--busy-week', 'also fill the next 7 days: 90% of every staff member\'s appointment time booked, every class session full')
    .option('--no-busy-week', 'no busy week (when the last seed had one)')
    .option('--staff <n>', 'staff members in the demo seed, at least 8 (default: as seeded last; 8 at first)')
    .option('--members <n>', 'members in the demo seed, up to 1000000 (default: as seeded last; 300 at first)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (flags: { dataDir?: string; seed?: string; size?: string; bookings?: string; window?: string; busyWeek?: boolean; staff?: string; members?: string; yes?: boolean }) => {
      await run(
        {
          dataDir: dataDirOf(flags, ctx),
          seed: seedFlag(flags.seed),
          size: numberFlag(flags.size, '--size', 0, 100_000, true),
          bookings: numberFlag(flags.bookings, '--bookings', 0, 100_000, true),
          window: numberFlag(flags.window, '--window', 1, 365, true),
          ...(flags.busyWeek !== undefined ? { busyWeek: flags.busyWeek } : {}),
          staff: numberFlag(flags.staff, '--staff', 8, 200, true),
          members: numberFlag(flags.members, '--members', 0, 1_000_000, true),
          yes: Boolean(flags.yes),
        },
        ctx,
      );
    });
}

/** Longest wait for a running emulator's reset: its seed of the largest site the flags allow takes minutes. */
const RESET_TIMEOUT_MS = 20 * 60_000;

/**
 * @throws UserError (exit 2) without --yes when no prompt is possible; DeclinedError (exit 1) when declined;
 *   UserError (exit 1) when the running emulator refuses the reset.
 */
export async function run(opts: ResetOptions, ctx: Context): Promise<void> {
  if (!opts.yes) await ctx.prompter.require(`Delete every record in ${opts.dataDir} and seed it again?`, { what: `resetting deletes every record in ${opts.dataDir}; it` });
  const body = {
    ...(opts.seed ? { seed: opts.seed } : {}),
    ...(opts.size !== undefined ? { size: opts.size } : {}),
    ...(opts.bookings !== undefined ? { bookings: opts.bookings } : {}),
    ...(opts.window !== undefined ? { window: opts.window } : {}),
    ...(opts.busyWeek !== undefined ? { busyWeek: opts.busyWeek } : {}),
    ...(opts.staff !== undefined ? { staff: opts.staff } : {}),
    ...(opts.members !== undefined ? { members: opts.members } : {}),
  };
  const running = readRunning(opts.dataDir);
  const key = readAdminKey(opts.dataDir);
  let counts: Record<string, number>;
  if (running && key) {
    // The running emulator seeds before it answers: minutes for a large site (100,000 services), said at once.
    notice(ctx.io, `Resetting the emulator at ${running.url}: it answers once its seed is done (Ctrl-C stops waiting; the reset goes on).`);
    const state = (await emulatorRequest(running.url, key, 'POST', '/__emulator/reset', body, { timeoutMs: RESET_TIMEOUT_MS, signal: ctx.signal }).catch((err: unknown) => {
      ctx.signal.throwIfAborted();
      throw new UserError(`reset failed: ${err instanceof Error ? err.message : String(err)}`, undefined, ExitCode.Failure);
    })) as { sites: Array<{ id: string; counts: Record<string, number> }> };
    counts = state.sites.find((s) => s.id === key.siteId)?.counts ?? {};
  } else {
    const { resetDataDir } = await import('../../emulator/index.js');
    // A data dir never started has its key file written by the reset itself: read it afterwards.
    const sites = await resetDataDir(opts.dataDir, body, (line) => notice(ctx.io, `  seed: ${line}`));
    counts = sites[(key ?? readAdminKey(opts.dataDir))?.siteId ?? ''] ?? {};
  }
  success(ctx.io, `Reset ${opts.dataDir}: ${counts.services ?? 0} services, ${counts.bookings ?? 0} bookings, ${counts.businessLocations ?? 0} business locations, ${counts.staffMembers ?? 0} staff members, ${counts.members ?? 0} members.`);
}
