/**
 * The terminal side of the bulk verbs (`services update|delete|clone`), shared by the three verb files:
 * flag declarations, the confirm rule, the preview, the progress display and the report (issue 2 §5;
 * design.md "Output and interaction"). The engine in src/bulk stays terminal-free; this file decides between
 * Ink on a TTY (loaded with a dynamic import) and plain lines on stderr, and keeps stdout data-only.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { CancelError, ExitCode, UserError } from '../../core/errors.js';
import { parseFilterFlags } from '../../core/filters.js';
import { notice, style } from '../../core/log.js';
import { pickFields, resolveFormat } from '../../core/output.js';
import type { ChangeSet, FieldDiff } from '../../bulk/changes.js';
import type { BulkProgress } from '../../bulk/execute.js';
import type { BulkAction } from '../../bulk/journal.js';
import type { Plan } from '../../bulk/plan.js';
import { assertComplete, type BulkReport, summaryLine, summaryRows } from '../../bulk/report.js';
import { type BulkRunHooks, type BulkRunResult, type ConfirmInfo, resumeCommand, runBulk } from '../../bulk/run.js';
import { parseIdList, readIdsFile, type Selection } from '../../bulk/select.js';

/**
 * Where a prompt is drawn: stderr keeps stdout data-only, but when stderr is redirected (`2>log`) the prompt
 * goes to the terminal on stdout so the user sees what is asked.
 */
export function promptStream(ctx: Context): NodeJS.WriteStream {
  return (ctx.io.isStderrTTY ? ctx.io.stderr : ctx.io.stdout) as NodeJS.WriteStream;
}

/** Flags that choose the targets of `update` and `delete`. */
export interface SelectionFlags {
  filter?: string;
  where?: string[];
  ids?: string[];
  idsFile?: string;
}

/** Declares `--filter`, `--where`, `--ids`, `--ids-file`. */
export function addSelectionFlags(cmd: Command, collect: (v: string, prev?: string[]) => string[]): Command {
  return cmd
    .option('--filter <json>', 'select services with a filter, e.g. \'{"type":"CLASS"}\' (\'{}\' = all)')
    .option('--where <field=value>', 'select by equality (repeatable; combined with --filter)', collect)
    .option('--ids <ids>', 'select these ids (comma-separated, repeatable)', collect)
    .option('--ids-file <file>', "select the ids listed in FILE (one per line; '-' reads stdin)");
}

/** True when any selection flag was given. */
export function hasSelection(flags: SelectionFlags): boolean {
  return flags.filter !== undefined || Boolean(flags.where?.length) || Boolean(flags.ids?.length) || flags.idsFile !== undefined;
}

/**
 * Which form of a verb that takes one service id or a bulk selection was asked for: `one` (an id), `bulk`
 * (selection flags) or `resume` (`--resume JOURNAL`).
 * @param hint what to pass, shown when neither an id nor a selection was given.
 * @param resumeConflict a flag of the verb that `--resume` also refuses (e.g. `--set`), when it was given.
 * @throws UserError (exit 2) for an id with a selection, neither, or `--resume` with other selection flags
 */
export function chooseForm(
  opts: SelectionFlags & { id?: string; resume?: string },
  hint: string,
  resumeConflict?: string,
): 'one' | 'bulk' | 'resume' {
  const selected = hasSelection(opts);
  if (opts.id !== undefined && (selected || opts.resume !== undefined)) {
    throw new UserError('give either a service id or --filter/--where/--ids/--ids-file/--resume, not both');
  }
  if (opts.resume !== undefined) {
    if (selected || resumeConflict) {
      throw new UserError(`--resume continues the recorded run; it takes no ${resumeConflict ? `${resumeConflict} or ` : ''}selection flags`);
    }
    return 'resume';
  }
  if (selected) return 'bulk';
  if (opts.id === undefined) throw new UserError('which services?', hint);
  return 'one';
}

/**
 * The selection the flags describe: a filter (`--filter` and `--where`, parsed by core/filters) or ids
 * (`--ids`, `--ids-file`); not both kinds.
 * @throws UserError when nothing or both kinds are given, the filter is malformed, or the ids file is unreadable
 */
export async function selectionFromFlags(ctx: Context, flags: SelectionFlags): Promise<Selection> {
  const filter = parseFilterFlags({ filter: flags.filter, where: flags.where });
  const byIds = Boolean(flags.ids?.length) || flags.idsFile !== undefined;
  if (filter && byIds) throw new UserError('choose either --filter/--where or --ids/--ids-file, not both');
  if (filter) return { kind: 'filter', filter };
  if (!byIds) throw new UserError('no services selected', "pass --filter JSON (e.g. --filter '{}' for all), --where field=value, --ids or --ids-file");
  const fromFile = flags.idsFile !== undefined ? await readIdsFile(flags.idsFile, ctx.io.stdin) : [];
  const ids = parseIdList([...(flags.ids ?? []), ...fromFile]);
  if (ids.length === 0) throw new UserError('the id list is empty');
  return { kind: 'ids', ids };
}

/** Flags every bulk verb shares. */
export interface BulkFlags {
  yes?: boolean;
  dryRun?: boolean;
  concurrency?: string;
  journal?: string;
  resume?: string;
  json?: string | boolean;
}

/** Rows shown in the preview table. */
export const PREVIEW_ROWS = 10;

/** Declares `--yes --concurrency --journal --resume --json --dry-run` on a bulk verb. */
export function addBulkFlags(cmd: Command): Command {
  return cmd
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .option('--concurrency <n>', 'bulk requests in flight at once (1-16)', '4')
    .option('--journal <path>', 'write the run journal here (default: <state dir>/journals/<run id>.ndjson)')
    .option('--resume <journal>', 'continue the run recorded in this journal: nothing repeated, nothing lost')
    .option('--json [fields]', 'print the plan (--dry-run) or the report as JSON on stdout')
    .option('--dry-run', 'show the plan and stop; change nothing');
}

/**
 * `--concurrency` as a number.
 * @throws UserError when it is not an integer from 1 to 16
 */
export function parseConcurrency(raw: string | undefined): number {
  const n = Number(raw ?? '4');
  if (!Number.isInteger(n) || n < 1 || n > 16) {
    throw new UserError(`--concurrency must be a whole number from 1 to 16, got "${raw}"`);
  }
  return n;
}

/**
 * The confirm rule of design.md: without `--yes`, a change needs a prompt, and a prompt needs a terminal.
 * Checked before anything is planned, so a refused run leaves no journal and changes nothing.
 * @throws UserError (exit 2) naming `--yes`
 */
export function requireConfirmable(ctx: Context, flags: BulkFlags, what: string): void {
  if (flags.yes || flags.dryRun || ctx.io.canPrompt()) return;
  throw new UserError(`${what} needs confirmation, and there is no terminal to ask on`, 'pass --yes to go ahead without a prompt');
}

const VERBS: Record<BulkAction, string> = { update: 'Update', delete: 'Delete', clone: 'Create' };

function short(value: unknown, width: number): string {
  if (value === undefined) return '(none)';
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s*\n\s*/g, ' ');
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** `old -> new`, each side cut on its own so a long old value never hides the new one. */
function changeText(d: FieldDiff): string {
  return `${short(d.before, 24)} -> ${short(d.after, 32)}`;
}

/** Preview table columns and rows: id, name, then one `old -> new` column per masked path. */
function previewTable(plan: Plan, mask: string[]) {
  const columns = [
    { key: 'id', header: 'ID', minWidth: 8 },
    { key: 'name', header: 'NAME', minWidth: 8 },
    ...mask.map((path) => ({ key: `change:${path}`, header: path, minWidth: 10 })),
  ];
  const rows = plan.preview.slice(0, PREVIEW_ROWS).map((r) => {
    const row: Record<string, unknown> = { id: r.id, name: r.name ?? '' };
    for (const path of mask) {
      const d = r.changes.find((c) => c.path === path);
      row[`change:${path}`] = d ? changeText(d) : '';
    }
    return row;
  });
  return { columns, rows };
}

/** Prints the plan summary and preview on stderr (a table on a TTY, plain lines otherwise). */
export async function showPlan(ctx: Context, action: BulkAction, plan: Plan, mask: string[], info?: ConfirmInfo): Promise<void> {
  const io = ctx.io;
  const pending = info?.pending ?? plan.items.length;
  if (info && info.mask.length) mask = info.mask;
  const parts = [
    action === 'clone'
      ? `${pending} cop${pending === 1 ? 'y' : 'ies'} to create`
      : `${pending} service${pending === 1 ? '' : 's'} to ${action}`,
  ];
  if (plan.unchanged) parts.push(`${plan.unchanged} already up to date`);
  if (info?.alreadyDone) parts.push(`${info.alreadyDone} finished by the earlier run`);
  notice(io, `${style(io, 'bold', 'Plan:')} ${parts.join(', ')}`);
  if (mask.length && action === 'update') notice(io, `field mask: ${mask.join(',')}`);
  const withValues = plan.preview.some((r) => r.changes.length > 0) || action !== 'update';
  if (pending === 0 || !withValues) return;
  const { columns, rows } = previewTable(plan, action === 'update' ? mask : []);
  if (io.isStderrTTY) {
    const { renderTable } = await import('../../ui/index.js');
    renderTable({ columns, rows, stdout: io.stderr, width: io.columns });
  } else {
    for (const row of rows) notice(io, columns.map((c) => String(row[c.key] ?? '')).join('\t'));
  }
  const more = pending - rows.length;
  if (action !== 'clone' && more > 0 && rows.length > 0) notice(io, `… and ${more} more`);
}

/** Plain progress lines for a stderr that is not a terminal: every 10 % or every 2 s, whichever comes first. */
function plainProgress(ctx: Context, title: string, total: number) {
  let lastAt = Date.now();
  let lastPct = 0;
  const line = (p: BulkProgress) =>
    `${title}: ${p.done}/${p.total} (${Math.floor((p.done / Math.max(1, p.total)) * 100)}%), ${p.ratePerSec.toFixed(1)}/s` +
    (p.failed ? `, ${p.failed} failed` : '') +
    (p.done < p.total && p.etaMs !== undefined ? `, ETA ${Math.round(p.etaMs / 1000)}s` : '');
  let last: BulkProgress | undefined;
  return {
    update(p: BulkProgress) {
      last = p;
      const pct = Math.floor((p.done / Math.max(1, total)) * 100);
      const now = Date.now();
      if (p.done > 0 && (pct >= lastPct + 10 || now - lastAt >= 2000) && p.done < p.total) {
        lastAt = now;
        lastPct = pct - (pct % 10);
        notice(ctx.io, line(p));
      }
    },
    async done() {
      if (last) notice(ctx.io, line(last));
    },
  };
}

/**
 * The hooks the engine calls: journal path on stderr, preview + confirm, progress (Ink bar on a TTY stderr,
 * plain periodic lines otherwise).
 */
export function bulkHooks(ctx: Context, action: BulkAction, flags: BulkFlags, mask: string[], question: (n: number) => string): BulkRunHooks {
  return {
    onJournal(path, resumed) {
      notice(ctx.io, `${resumed ? 'resuming journal' : 'journal'}: ${path}`);
    },
    async onPlan(info) {
      await showPlan(ctx, action, info.plan, mask, info);
    },
    async confirm(info) {
      if (flags.yes) return true;
      if (!ctx.io.canPrompt()) {
        throw new UserError(`${VERBS[action]} needs confirmation, and there is no terminal to ask on`, 'pass --yes to go ahead without a prompt');
      }
      const { renderConfirm } = await import('../../ui/index.js');
      return renderConfirm({ message: question(info.pending), defaultValue: false, stdout: promptStream(ctx) });
    },
    progress(total) {
      const title = action === 'update' ? 'Updating' : action === 'delete' ? 'Deleting' : 'Cloning';
      if (!ctx.io.isStderrTTY) return plainProgress(ctx, title, total);
      let handle: { update(p: BulkProgress): void; done(): Promise<void> } | undefined;
      const pendingUpdates: BulkProgress[] = [];
      const ready = import('../../ui/index.js').then((ui) => {
        handle = ui.renderProgress({ title, total, stdout: ctx.io.stderr as NodeJS.WriteStream });
        for (const p of pendingUpdates.splice(0)) handle.update(p);
      });
      return {
        update(p) {
          if (handle) handle.update(p);
          else pendingUpdates.push(p);
        },
        async done() {
          await ready;
          await handle?.done();
        },
      };
    },
  };
}

/** Writes the outcome table and the failed/conflicting items: on stdout on a TTY, on stderr otherwise. */
async function printHumanReport(ctx: Context, report: BulkReport): Promise<void> {
  const io = ctx.io;
  const out = io.isStdoutTTY ? io.stdout : io.stderr;
  const tty = io.isStdoutTTY;
  if (tty) {
    const { renderTable } = await import('../../ui/index.js');
    renderTable({ columns: [{ key: 'outcome', header: 'OUTCOME' }, { key: 'count', header: 'COUNT' }], rows: summaryRows(report), stdout: out, width: io.columns });
  }
  out.write(`${summaryLine(report)}\n`);
  if (report.createdIds?.length) out.write(`created: ${report.createdIds.join(', ')}\n`);
  const shown = report.problems.slice(0, 20);
  if (shown.length) {
    out.write(`${style(io, 'bold', 'not done:')}\n`);
    for (const p of shown) out.write(`  ${p.id}\t${p.outcome}\t${p.error ?? ''}\n`);
    if (report.problems.length > shown.length) out.write(`  … and ${report.problems.length - shown.length} more (see --json or the journal)\n`);
  }
}

/**
 * Prints what a run produced and sets the exit code: the plan of a dry run (`--json`: on stdout), nothing more
 * for a declined run, else the report (`--json`: the machine report on stdout).
 * @throws CancelError (exit 1) when the prompt was declined; PartialFailureError (exit 3) when items failed or
 *   conflicted; UserError (exit 2) when a dry run named ids that do not exist
 */
export async function finishRun(ctx: Context, action: BulkAction, result: BulkRunResult, flags: BulkFlags, mask: string[]): Promise<void> {
  const io = ctx.io;
  const json = flags.json !== undefined && flags.json !== false;
  if (result.kind === 'dry-run') {
    if (json) {
      const { plan } = result;
      const body = {
        action,
        dryRun: true,
        targets: plan.targets,
        toChange: plan.items.length,
        unchanged: plan.unchanged,
        missing: plan.missing,
        mask: mask.join(','),
        items: plan.preview.map((r) => ({ id: r.id, name: r.name, revision: r.revision, changes: r.changes })),
      };
      io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    } else {
      await showPlan(ctx, action, result.plan, mask);
    }
    if (result.plan.missing.length) {
      throw new UserError(`${result.plan.missing.length} of the given ids do not exist: ${result.plan.missing.slice(0, 5).join(', ')}`);
    }
    notice(io, 'dry run: nothing was changed');
    return;
  }
  if (result.kind === 'declined') {
    throw new CancelError('Nothing was changed', ExitCode.Failure, `the plan is kept in ${result.journal}; ${resumeCommand(action, result.journal)} runs it`);
  }
  if (json) {
    const fields = typeof flags.json === 'string' ? resolveFormat({ json: flags.json }) : undefined;
    const body = fields?.kind === 'json' && fields.fields ? pickFields(result.report, fields.fields) : result.report;
    io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  } else {
    await printHumanReport(ctx, result.report);
  }
  assertComplete(result.report, resumeCommand(action, result.journal));
}

/**
 * A bulk update or delete over a selection (or `--resume`): select -> plan -> preview -> confirm -> execute ->
 * report, through src/bulk with the terminal side of this module.
 * @param change the `--set` changes (update; undefined on resume, where the journal holds them).
 * @param question the confirm prompt for N services.
 * @throws UserError (exit 2) for bad flags or missing --yes off a terminal; CancelError; PartialFailureError (3)
 */
export async function runSelectionBulk(
  ctx: Context,
  action: 'update' | 'delete',
  opts: SelectionFlags & BulkFlags,
  change: ChangeSet | undefined,
  question: (n: number) => string,
): Promise<void> {
  const concurrency = parseConcurrency(opts.concurrency);
  if (typeof opts.json === 'string') resolveFormat({ json: opts.json });
  const selection = opts.resume === undefined ? await selectionFromFlags(ctx, opts) : undefined;
  requireConfirmable(ctx, opts, `${action === 'update' ? 'updating' : 'deleting'} services`);
  const { servicesPort } = await import('../../bulk/api-port.js');
  const port = servicesPort(await ctx.api());
  const mask = change?.mask ?? [];
  const json = opts.json !== undefined && opts.json !== false;
  const result = await runBulk(
    port,
    {
      action,
      selection,
      change,
      resumePath: opts.resume,
      journalPath: opts.journal,
      dryRun: Boolean(opts.dryRun),
      concurrency,
      previewLimit: PREVIEW_ROWS,
      allRows: Boolean(opts.dryRun) && json,
      signal: ctx.signal,
      env: ctx.env,
      now: ctx.now(),
    },
    bulkHooks(ctx, action, opts, mask, question),
  );
  await finishRun(ctx, action, result, opts, mask);
}
