/**
 * `sitectl emulator status [--json]`: whether an emulator runs for the data dir, its url, pid and record
 * counts (from `GET /__emulator/state`). Exit 0 either way; `running` says which.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { fieldsChecker, printRecord, resolveFormat, type FormatFlags } from '../../core/output.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { emulatorRequest, readAdminKey, readRunning } from '../../local/daemon.js';
import { dataDirOf } from './shared.js';

export interface StatusReport {
  running: boolean;
  dataDir: string;
  url?: string;
  pid?: number;
  port?: number;
  /** The account-level admin key file (apiKey, accountId, siteId, sites). */
  keyFile: string;
  accountId?: string;
  /** The default site. */
  siteId?: string;
  /** The default site's OAuth app client id (sign-in: `sitectl login`). */
  clientId?: string;
  /** The account's sites with their default OAuth app and their document counts per collection. */
  sites?: Array<{ id: string; name: string; clientId?: string; counts?: Record<string, number> }>;
  clock?: { now: string; offsetMs: number; frozen: boolean };
  faults?: Record<string, unknown>;
  seed?: { kind: string | null; size: number };
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command('status')
    .description('Show whether the emulator is running, its URL and record counts')
    .option('--data-dir <dir>', 'data dir of the emulator')
    .option('--json [fields]', 'print the status as JSON (url, pid, keyFile, accountId, siteId, clientId, sites, clock, faults, seed)')
    .action(async (flags: { dataDir?: string } & FormatFlags) => {
      await run({ ...flags, dataDir: dataDirOf(flags, ctx) }, ctx);
    });
}

/** Collects the status. @throws UserError (exit 1) when the emulator runs but does not answer. */
export async function status(dataDir: string, bin = 'sitectl'): Promise<StatusReport> {
  const running = readRunning(dataDir);
  const key = readAdminKey(dataDir);
  const keyFile = join(dataDir, 'admin-key.json');
  if (!running || !key) return { running: false, dataDir, keyFile, accountId: key?.accountId, siteId: key?.siteId, clientId: key?.clientId, sites: key?.sites };
  const state = (await emulatorRequest(running.url, key, 'GET', '/__emulator/state').catch((err: unknown) => {
    throw new UserError(`the emulator (pid ${running.pid}) did not answer: ${err instanceof Error ? err.message : String(err)}`, `restart it: ${bin} emulator stop && ${bin} emulator start --detach`, ExitCode.Failure);
  })) as Pick<StatusReport, 'sites' | 'faults' | 'seed' | 'clock' | 'accountId' | 'siteId'>;
  return {
    running: true,
    dataDir,
    url: running.url,
    pid: running.pid,
    port: running.port,
    keyFile,
    accountId: state.accountId,
    siteId: state.siteId,
    clientId: key.clientId,
    sites: state.sites?.map((s) => ({ ...s, clientId: key.sites.find((k) => k.id === s.id)?.clientId })),
    clock: state.clock,
    faults: state.faults,
    seed: state.seed,
  };
}

/** Prints the status: a key/value view, TSV when piped, everything with `--json [fields]`. */
export async function run(opts: { dataDir: string } & FormatFlags, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['running', 'dataDir', 'url', 'pid', 'port', 'keyFile', 'accountId', 'siteId', 'clientId', 'sites', 'clock', 'faults', 'seed']));
  const report = await status(opts.dataDir, ctx.bin);
  const rows: Array<[string, unknown]> = [
    ['running', report.running ? 'yes' : 'no'],
    ['data dir', report.dataDir],
    ['admin key', report.keyFile],
  ];
  if (report.running) {
    rows.push(['url', report.url], ['pid', report.pid]);
    if (report.clock) rows.push(['clock', `${report.clock.now}${report.clock.frozen ? ' (frozen)' : report.clock.offsetMs ? ` (${Math.round(report.clock.offsetMs / 1000)} s from real time)` : ''}`]);
  }
  for (const site of report.sites ?? []) {
    const counts = Object.entries(site.counts ?? {}).map(([k, v]) => `${v} ${k}`).join(', ');
    rows.push([`site ${site.name}`, `${site.id}${site.id === report.siteId ? ' (default)' : ''}${site.clientId ? `, OAuth client ${site.clientId}` : ''}${counts ? `: ${counts}` : ''}`]);
  }
  if (report.running) {
    const active = Object.entries(report.faults ?? {}).filter(([k, v]) => k !== 'seed' && k !== 'retryAfterSec' && k !== 'errorPhase' && (k !== 'rateLimitScope' || v === 'site') && v !== 0 && v !== null && !(Array.isArray(v) && v.length === 0));
    rows.push(['faults', active.length ? active.map(([k, v]) => `${k}=${String(v)}`).join(' ') : 'none']);
  }
  await printRecord(ctx.io, format, report, { rows });
}
