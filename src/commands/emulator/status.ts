/**
 * `sitectl emulator status [--json]`: whether an emulator runs for the data dir, its url, pid and record
 * counts (from `GET /__emulator/state`). Exit 0 either way; `running` says which.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { emulatorRequest, readAdminKey, readRunning } from '../../local/daemon.js';
import { dataDirOf } from './shared.js';

export interface StatusReport {
  running: boolean;
  dataDir: string;
  url?: string;
  pid?: number;
  port?: number;
  counts?: Record<string, number>;
  faults?: Record<string, unknown>;
  seed?: { kind: string | null; size: number };
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command('status')
    .description('Show whether the emulator is running, its URL and record counts')
    .option('--data-dir <dir>', 'data dir of the emulator')
    .option('--json', 'print the status as JSON')
    .action(async (flags: { dataDir?: string; json?: boolean }) => {
      await run({ dataDir: dataDirOf(flags, ctx), json: Boolean(flags.json) }, ctx);
    });
}

/** Collects the status. @throws UserError (exit 1) when the emulator runs but does not answer. */
export async function status(dataDir: string): Promise<StatusReport> {
  const running = readRunning(dataDir);
  const key = readAdminKey(dataDir);
  if (!running || !key) return { running: false, dataDir };
  const state = (await emulatorRequest(running.url, key, 'GET', '/__emulator/state').catch((err: unknown) => {
    throw new UserError(`the emulator (pid ${running.pid}) did not answer: ${err instanceof Error ? err.message : String(err)}`, 'restart it: sitectl emulator stop && sitectl emulator start --detach', ExitCode.Failure);
  })) as { counts: Record<string, number>; faults: Record<string, unknown>; seed: { kind: string | null; size: number } };
  return { running: true, dataDir, url: running.url, pid: running.pid, port: running.port, counts: state.counts, faults: state.faults, seed: state.seed };
}

export async function run(opts: { dataDir: string; json: boolean }, ctx: Context): Promise<void> {
  const report = await status(opts.dataDir);
  if (opts.json) {
    ctx.io.stdout.write(JSON.stringify(report, null, 2) + '\n');
    return;
  }
  const rows: Array<[string, string]> = [
    ['running', report.running ? 'yes' : 'no'],
    ['data dir', report.dataDir],
  ];
  if (report.running) {
    rows.push(['url', report.url ?? ''], ['pid', String(report.pid)]);
    for (const [k, v] of Object.entries(report.counts ?? {})) rows.push([k, String(v)]);
    const active = Object.entries(report.faults ?? {}).filter(([k, v]) => k !== 'seed' && k !== 'retryAfterSec' && k !== 'errorPhase' && v !== 0);
    rows.push(['faults', active.length ? active.map(([k, v]) => `${k}=${String(v)}`).join(' ') : 'none']);
  }
  const sep = ctx.io.isStdoutTTY ? undefined : '\t';
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) ctx.io.stdout.write(sep ? `${k}${sep}${v}\n` : `${k.padEnd(width)}  ${v}\n`);
}
