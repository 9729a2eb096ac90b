/**
 * `sitectl emulator start`: runs the local emulator in the foreground (Ctrl-C or SIGTERM stops it cleanly), or
 * with `--detach` in the background with its output in `<dataDir>/emulator.log`. The pid file
 * `<dataDir>/emulator.pid.json` is written once it listens and removed on a clean stop.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { notice, style } from '../../core/log.js';
import { ensureDataDir, readRunning, removePidFile, spawnEmulator, writePidFile } from '../../local/daemon.js';
import type { Faults } from '../../emulator/faults.js';
import { dataDirOf, numberFlag, seedFlag } from './shared.js';

export interface StartFlags {
  detach?: boolean;
  port?: string;
  dataDir?: string;
  seed?: string;
  size?: string;
  bookings?: string;
  window?: string;
  busyWeek?: boolean;
  staff?: string;
  members?: string;
  latency?: string;
  errorRate?: string;
  errorPhase?: string;
  dropRate?: string;
  rateLimit?: string;
  rateLimitScope?: string;
  retryAfter?: string;
  faultSeed?: string;
}

export interface StartOptions {
  detach: boolean;
  port: number;
  dataDir: string;
  seed?: 'demo' | 'empty';
  size?: number;
  bookings?: number;
  window?: number;
  busyWeek?: boolean;
  staff?: number;
  members?: number;
  faults: Partial<Faults>;
  /** The flags as given, passed on to a detached child. */
  argv: string[];
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command('start')
    .description('Start the local emulator (foreground; --detach for background)')
    .option('--detach', 'run in the background; output goes to <data-dir>/emulator.log')
    .option('--port <port>', 'port on 127.0.0.1; 0 picks a free one (default 0)')
    .option('--data-dir <dir>', 'where the store and admin key live (default $SITECTL_DATA_DIR/emulator or ~/.local/share/sitectl/emulator)')
    .option('--seed <kind>', 'demo data or an empty site, used on first start (demo|empty; default demo)')
    .option('--size <n>', 'services in the demo seed (default 60)')
    .option('--bookings <n>', 'bookings in the demo seed, over --window days either side of now (default 500)')
    .option('--window <days>', 'days either side of now the seeded bookings cover, 1-365 (default 30, wider for large --bookings: 35 a day, up to 365)')
    .option('--busy-week', 'also fill the next 7 days: 90% of every staff member\'s appointment time booked, every class session full')
    .option('--staff <n>', 'staff members in the demo seed (default and at least 8)')
    .option('--members <n>', 'members in the demo seed, every status (default 300, at most 1000000)')
    .option('--latency <ms>', 'fault: milliseconds added to every API reply')
    .option('--error-rate <r>', 'fault: share (0..1) of API requests answered 500/503')
    .option('--error-phase <phase>', "fault: 'before' the change, 'after' it is committed, or 'random' (default before)")
    .option('--drop-rate <r>', 'fault: share (0..1) of connections dropped without a reply')
    .option('--rate-limit <n>', 'fault: requests per second above which 429 is returned (0 = off)')
    .option('--rate-limit-scope <scope>', "fault: what --rate-limit counts: 'all' requests together (default) or each 'site' apart, as the platform does")
    .option('--retry-after <s>', 'fault: Retry-After seconds sent with a 429 (default 1)')
    .option('--fault-seed <n>', 'fault: PRNG seed, so a failing run replays (default 1)')
    .addHelpText(
      'after',
      '\nExamples:\n  sitectl emulator start\n  sitectl emulator start --detach --port 7700\n  sitectl emulator start --staff 200 --busy-week --detach\n  sitectl emulator start --bookings 100000 --staff 200 --window 365\n' +
        '  sitectl emulator start --seed empty --error-rate 0.2 --error-phase after\n' +
        '\nThe seed options apply to a new data dir (`emulator reset` seeds an existing one again). A detached start waits\nfor the seed, telling its progress on stderr; a seed that fails leaves no store behind.',
    )
    .action(async (flags: StartFlags) => {
      await run(parseFlags(flags, ctx), ctx);
    });
}

/** Flags -> StartOptions. @throws UserError (exit 2) for a malformed value. */
export function parseFlags(flags: StartFlags, ctx: Pick<Context, 'env'>): StartOptions {
  const faults: Partial<Faults> = {};
  const latency = numberFlag(flags.latency, '--latency', 0, 60_000);
  const errorRate = numberFlag(flags.errorRate, '--error-rate', 0, 1);
  const dropRate = numberFlag(flags.dropRate, '--drop-rate', 0, 1);
  const rateLimit = numberFlag(flags.rateLimit, '--rate-limit', 0, 1_000_000, true);
  const retryAfter = numberFlag(flags.retryAfter, '--retry-after', 0, 3_600, true);
  const faultSeed = numberFlag(flags.faultSeed, '--fault-seed', 0, 2 ** 32 - 1, true);
  if (latency !== undefined) faults.latencyMs = latency;
  if (errorRate !== undefined) faults.errorRate = errorRate;
  if (dropRate !== undefined) faults.dropRate = dropRate;
  if (rateLimit !== undefined) faults.rateLimitPerSec = rateLimit;
  if (retryAfter !== undefined) faults.retryAfterSec = retryAfter;
  if (faultSeed !== undefined) faults.seed = faultSeed;
  if (flags.rateLimitScope !== undefined) {
    if (!['all', 'site'].includes(flags.rateLimitScope)) throw new UserError(`--rate-limit-scope must be all or site, got '${flags.rateLimitScope}'`);
    faults.rateLimitScope = flags.rateLimitScope as Faults['rateLimitScope'];
  }
  if (flags.errorPhase !== undefined) {
    if (!['before', 'after', 'random'].includes(flags.errorPhase)) {
      throw new UserError(`--error-phase must be before, after or random, got '${flags.errorPhase}'`);
    }
    faults.errorPhase = flags.errorPhase as Faults['errorPhase'];
  }
  const argv: string[] = [];
  const pass: Array<[keyof StartFlags, string]> = [
    ['port', '--port'], ['seed', '--seed'], ['size', '--size'], ['bookings', '--bookings'], ['window', '--window'], ['staff', '--staff'], ['members', '--members'], ['latency', '--latency'], ['errorRate', '--error-rate'],
    ['errorPhase', '--error-phase'], ['dropRate', '--drop-rate'], ['rateLimit', '--rate-limit'], ['rateLimitScope', '--rate-limit-scope'],
    ['retryAfter', '--retry-after'], ['faultSeed', '--fault-seed'],
  ];
  for (const [key, flag] of pass) if (typeof flags[key] === 'string') argv.push(flag, flags[key] as string);
  if (flags.busyWeek) argv.push('--busy-week');
  return {
    detach: Boolean(flags.detach),
    port: numberFlag(flags.port, '--port', 0, 65_535, true) ?? 0,
    dataDir: dataDirOf(flags, ctx),
    seed: seedFlag(flags.seed),
    size: numberFlag(flags.size, '--size', 0, 100_000, true),
    bookings: numberFlag(flags.bookings, '--bookings', 0, 100_000, true),
    window: numberFlag(flags.window, '--window', 1, 365, true),
    ...(flags.busyWeek ? { busyWeek: true } : {}),
    staff: numberFlag(flags.staff, '--staff', 8, 200, true),
    members: numberFlag(flags.members, '--members', 0, 1_000_000, true),
    faults,
    argv,
  };
}

function howToUse(ctx: Context, url: string, dataDir: string): void {
  const keyFile = join(dataDir, 'admin-key.json');
  notice(ctx.io, `${style(ctx.io, 'green', 'Emulator listening on')} ${url}`);
  notice(ctx.io, `  data dir:  ${dataDir}`);
  notice(ctx.io, `  admin key: ${keyFile} (apiKey and siteId)`);
  notice(ctx.io, `  ${ctx.bin} uses it through the default profile \`local\`; from a script or another tool:`);
  notice(
    ctx.io,
    `    SITECTL_BASE_URL=${url} SITECTL_SITE_ID=$(jq -r .siteId ${keyFile}) SITECTL_API_KEY=$(jq -r .apiKey ${keyFile}) ${ctx.bin} services list`,
  );
}

/**
 * Starts the emulator. Foreground: resolves after SIGINT/SIGTERM once the server is closed and the pid file
 * removed. Detached: resolves once the background emulator listens, telling the first start's seed progress on
 * stderr as it comes (however long the seed takes; a background emulator silent for 30 s is given up on).
 * @throws UserError (exit 1) when an emulator already runs for the data dir, or a detached one does not start
 *   (with its cause: the end of its log).
 */
export async function run(opts: StartOptions, ctx: Context): Promise<void> {
  ensureDataDir(opts.dataDir);
  const running = readRunning(opts.dataDir);
  if (running) {
    throw new UserError(
      `an emulator is already running for ${opts.dataDir} at ${running.url} (pid ${running.pid})`,
      `stop it with: ${ctx.bin} emulator stop`,
      ExitCode.Failure,
    );
  }
  const hadData = existsSync(join(opts.dataDir, 'store.sqlite'));
  const seedFlags = [opts.seed, opts.size, opts.bookings, opts.window, opts.busyWeek, opts.staff, opts.members];
  if (hadData && seedFlags.some((v) => v !== undefined)) {
    notice(ctx.io, `Keeping the existing data in ${opts.dataDir}; --seed/--size/--bookings/--window/--busy-week/--staff/--members apply to a new store (use: ${ctx.bin} emulator reset).`);
  }
  if (opts.detach) {
    const info = await spawnEmulator(opts.dataDir, opts.argv, ctx.env, { progress: (line) => notice(ctx.io, `  seed: ${line}`) }).catch((err: unknown) => {
      throw new UserError(err instanceof Error ? err.message : String(err), undefined, ExitCode.Failure);
    });
    howToUse(ctx, info.url, opts.dataDir);
    notice(ctx.io, `  running in the background (pid ${info.pid}); log: ${join(opts.dataDir, 'emulator.log')}; stop with: ${ctx.bin} emulator stop`);
    return;
  }
  const { startEmulator } = await import('../../emulator/index.js');
  const emu = await startEmulator({
    dataDir: opts.dataDir,
    port: opts.port,
    seed: opts.seed,
    size: opts.size,
    bookings: opts.bookings,
    window: opts.window,
    busyWeek: opts.busyWeek,
    staff: opts.staff,
    members: opts.members,
    faults: opts.faults,
  }).catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UserError(`port ${opts.port} is already in use`, 'pick another --port, or 0 for any free port', ExitCode.Failure);
    throw err;
  });
  writePidFile(opts.dataDir, { pid: process.pid, url: emu.url, port: emu.port });
  // A server runs for hours: what its requests leave behind is collected once a second when the heap grew, not
  // left to pile up (docs/architecture.md "Runtime and memory"; a fan-out to 500 sites peaked at 311 MiB).
  const memory = (await import('../../core/memory.js')).flatMemory({ holdYoungGeneration: false });
  const collector = setInterval(() => memory.collectIfGrown(), 1000).unref();
  howToUse(ctx, emu.url, opts.dataDir);
  if (Object.keys(opts.faults).length > 0) notice(ctx.io, `  faults: ${JSON.stringify(opts.faults)}`);
  // In the background (`--detach`) this goes to emulator.log, where Ctrl-C means nothing.
  notice(ctx.io, ctx.io.isStderrTTY ? '  press Ctrl-C to stop' : `  stop with: ${ctx.bin} emulator stop`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      ctx.signal.removeEventListener('abort', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    ctx.signal.addEventListener('abort', stop);
  });
  clearInterval(collector);
  await emu.close();
  removePidFile(opts.dataDir);
  notice(ctx.io, 'Emulator stopped.');
}
