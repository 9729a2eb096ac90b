/**
 * The terminal side of every bulk verb (`services update|delete|clone`, and the bookings, members and orders
 * actions by filter): flag declarations, the selection, the confirm rule, the preview, the progress display and
 * the report (docs/architecture.md "Bulk runs, the journal, history and undo", docs/architecture.md "Layout and dependency direction"; docs/architecture.md "Output and interaction"). The engine in
 * src/bulk stays terminal-free; this module decides between Ink on a terminal (loaded with a dynamic import)
 * and plain lines on stderr, keeps stdout data-only, and names the command in hints as the user typed it. A verb's single form (one item) is one.ts's, over the same hints and history.
 */
import type { Context } from '../../context.js';
import { DeclinedError, UserError } from '../../core/errors.js';
import { shellWord } from '../../core/invocation.js';
import { notice, style, warn } from '../../core/log.js';
import { keepHeapFlat } from '../../core/memory.js';
import { fieldsChecker, pickFields, printValue, resolveFormat, type OutputFormat } from '../../core/output.js';
import { oneLine, shortId } from '../../core/text.js';
import type { EntityAction } from '../../bulk/actions.js';
import type { FieldDiff } from '../../bulk/changes.js';
import type { BulkProgress } from '../../bulk/execute.js';
import { defaultJournalDir, type JournalState, type PlannedLine, type RunOrigin } from '../../bulk/journal.js';
import { JournalDamagedError } from '../../bulk/journal-read.js';
import { type DamagedJournal, pruneHistory } from '../../bulk/history.js';
import { rmSync } from 'node:fs';
import type { Plan, PreviewRow } from '../../bulk/plan.js';
import type { EntityPort } from '../../bulk/port.js';
import { assertComplete, REPORT_FIELDS, type BulkReport, summaryLine, summaryRows } from '../../bulk/report.js';
import { type BulkRunHooks, type BulkRunResult, type ConfirmInfo, readRunJournal, runBulk } from '../../bulk/run.js';
import { parseIdList, readIdsFile, type Selection } from '../../bulk/select.js';
import { type BulkFlags, DRY_RUN_FIELDS, type DryRunItem, parseConcurrency, PLAN_FIELDS, PREVIEW_ROWS, type SelectionFlags } from './bulk-flags.js';
import { confirmChange, REVERSIBLE } from './confirm.js';
import { filterOf, type EntityView } from './entity-view.js';

export type { OneNoun } from './entity-view.js';

/** What a run's messages need of its noun: how it is named (`{one: 'service', many: 'services'}`). */
export type Named = Pick<EntityView<unknown>, 'noun'>;

/**
 * The selection the flags describe: a filter (`--filter` and `--where`, its fields checked against the entity
 * schema) or ids (`--ids`, `--ids-file`); not both kinds.
 * @throws UserError when nothing or both kinds are given, the filter is malformed or names an unknown field, or
 *   the ids file is unreadable
 */
export async function selectionFromFlags(ctx: Context, view: EntityView<unknown>, flags: SelectionFlags): Promise<Selection> {
  const filter = filterOf(ctx, view, flags);
  const byIds = Boolean(flags.ids?.length) || flags.idsFile !== undefined;
  if (filter && byIds) throw new UserError('choose either --filter/--where or --ids/--ids-file, not both');
  if (filter) return { kind: 'filter', filter };
  if (!byIds) throw new UserError(`no ${view.noun.many} selected`, "pass --filter JSON (e.g. --filter '{}' for all), --where field=value, --ids or --ids-file");
  const fromFile = flags.idsFile !== undefined ? await readIdsFile(flags.idsFile, ctx.io.stdin) : [];
  const ids = parseIdList([...(flags.ids ?? []), ...fromFile]);
  if (ids.length === 0) throw new UserError('the id list is empty');
  return { kind: 'ids', ids };
}

/** `--json [fields]` of a bulk verb: fields of the report or of the dry-run plan. @throws UserError (exit 2) */
export function bulkFormat(flags: BulkFlags): OutputFormat {
  return resolveFormat({ json: flags.json }, fieldsChecker([...new Set([...REPORT_FIELDS, ...PLAN_FIELDS, ...DRY_RUN_FIELDS])]));
}

export function short(value: unknown, width: number): string {
  if (value === undefined) return '(none)';
  const text = oneLine(typeof value === 'string' ? value : JSON.stringify(value));
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** `old -> new`, each side cut on its own so a long old value never hides the new one. */
function changeText(d: FieldDiff): string {
  return `${short(d.before, 24)} -> ${short(d.after, 32)}`;
}

/**
 * Preview table columns and rows: id, name, then one `old -> new` column per changed path. On a terminal the ids
 * are short (8 characters), so the name (a booking's contact, service and time) keeps the width at 80 columns.
 */
function previewTable(plan: Plan, columns: string[], limit: number, terminal: boolean) {
  const head = [
    { key: 'id', header: 'ID', minWidth: 8 },
    // A label may end in what matters most (a booking's time): it takes the room the terminal has.
    { key: 'name', header: 'NAME', minWidth: 8, widest: 120 },
    ...columns.map((path) => ({ key: `change:${path}`, header: path, minWidth: 10 })),
  ];
  const rows = plan.preview.slice(0, limit).map((r) => {
    const row: Record<string, unknown> = { id: terminal ? shortId(r.id) : r.id, name: oneLine(r.name ?? '') };
    for (const path of columns) {
      const d = r.changes.find((c) => c.path === path);
      row[`change:${path}`] = d ? changeText(d) : '';
    }
    return row;
  });
  return { columns: head, rows };
}

/** Prints the plan summary and preview on stderr (a table on a terminal, plain lines otherwise). */
export async function showPlan(ctx: Context, view: Named, action: EntityAction, plan: Plan, info?: ConfirmInfo): Promise<void> {
  const io = ctx.io;
  const pending = info?.pending ?? plan.items.length;
  const columns = info?.columns ?? action.columns;
  const slots = action.items.kind === 'slots';
  const parts = [slots ? `${pending} cop${pending === 1 ? 'y' : 'ies'} to create` : `${pending} ${pending === 1 ? view.noun.one : view.noun.many} to ${action.name}`];
  if (plan.unchanged) parts.push(`${plan.unchanged} already as asked`);
  if (plan.skipped.length) parts.push(`${plan.skipped.length} skipped`);
  if (info?.alreadyDone) parts.push(`${info.alreadyDone} finished by the earlier run`);
  notice(io, `${style(io, 'bold', 'Plan:')} ${parts.join(', ')}`);
  if (columns.length) notice(io, `field mask: ${columns.join(',')}`);
  for (const s of plan.skipped.slice(0, 5)) notice(io, `  skipped ${s.id}: ${oneLine(s.reason)}${s.lift ? ` (${s.lift} lifts it)` : ''}`);
  if (plan.skipped.length > 5) notice(io, `  … and ${plan.skipped.length - 5} more skipped`);
  const withValues = plan.preview.some((r) => r.changes.length > 0) || columns.length === 0;
  if (pending === 0 || !withValues) return;
  const { columns: head, rows } = previewTable(plan, columns, PREVIEW_ROWS, io.isStderrTTY);
  if (io.isStderrTTY) {
    const { renderTable } = await import('../../ui/index.js');
    renderTable({ columns: head, rows, stdout: io.stderr, width: io.columns });
  } else {
    for (const row of rows) notice(io, head.map((c) => String(row[c.key] ?? '')).join('\t'));
  }
  const more = pending - rows.length;
  if (!slots && more > 0 && rows.length > 0) notice(io, `… and ${more} more`);
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
 * The hooks the engine calls: journal path on stderr (and as the hint of a forced second Ctrl-C), preview +
 * confirm through the Prompter, progress (Ink bar on a terminal stderr, plain periodic lines otherwise).
 */
function bulkHooks(ctx: Context, view: Named, action: EntityAction, flags: BulkFlags, question: (n: number) => string, resumeCommand: (journal: string) => string): BulkRunHooks {
  return {
    onJournal(path, resumed) {
      notice(ctx.io, `${resumed ? 'resuming journal' : 'journal'}: ${path}`);
      ctx.setInterruptHint(`resume with: ${resumeCommand(path)}`);
    },
    async onPlan(info) {
      await showPlan(ctx, view, action, info.plan, info);
    },
    async confirm(info) {
      try {
        await confirmChange(ctx, flags, REVERSIBLE, 'many', question(info.pending), `${action.title.toLowerCase()} ${view.noun.many}`);
        return true;
      } catch (err) {
        if (err instanceof DeclinedError) return false;
        throw err;
      }
    },
    progress(total) {
      if (!ctx.io.isStderrTTY) return plainProgress(ctx, action.title, total);
      let handle: { update(p: BulkProgress): void; done(): Promise<void> } | undefined;
      const pendingUpdates: BulkProgress[] = [];
      const ready = import('../../ui/index.js').then((ui) => {
        handle = ui.renderProgress({ title: action.title, total, stdout: ctx.io.stderr as NodeJS.WriteStream });
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

/** Writes the outcome table and the problems: on stdout on a terminal, on stderr otherwise (stdout stays data). */
async function printHumanReport(ctx: Context, view: Named, report: BulkReport): Promise<void> {
  const io = ctx.io;
  const out = io.isStdoutTTY ? io.stdout : io.stderr;
  if (io.isStdoutTTY) {
    const { renderTable } = await import('../../ui/index.js');
    renderTable({ columns: [{ key: 'outcome', header: 'OUTCOME' }, { key: 'count', header: 'COUNT' }], rows: [...summaryRows(report), ...(report.partial?.length ? [{ outcome: `${report.partial[0]!.outcome} partly`, count: report.partial.length }] : [])], stdout: out, width: io.columns });
  }
  out.write(`${summaryLine(report, view.noun)}\n`);
  if (report.createdIds?.length) out.write(`created: ${report.createdIds.join(', ')}\n`);
  if (report.partial?.length) {
    out.write(`${style(io, 'bold', 'partly done:')}\n`);
    for (const p of report.partial.slice(0, 20)) out.write(`  ${p.id}${p.createdId ? ` -> ${p.createdId}` : ''}\t${short(p.note, 240)}\n`);
    if (report.partial.length > 20) out.write(`  … and ${report.partial.length - 20} more (see --json or the journal)\n`);
  }
  const shown = report.problems.slice(0, 20);
  if (shown.length) {
    out.write(`${style(io, 'bold', 'not done:')}\n`);
    for (const p of shown) out.write(`  ${p.id}\t${p.outcome}\t${short(p.error ?? '', 240)}\n`);
    if (report.problems.length > shown.length) out.write(`  … and ${report.problems.length - shown.length} more (see --json or the journal)\n`);
  }
}

/**
 * A dry run's plan as its `--json` lists it (docs/architecture.md "The confirmation rule"): one entry per target,
 * `change` (with the changed values before and after), `unchanged` (with `already`, the reason, when given) or
 * `refused` (with the reason and the flag that lifts it).
 */
export function dryRunItems(plan: Plan, already?: string): DryRunItem[] {
  const side = (r: PreviewRow, key: 'before' | 'after') => (r.changes.length ? Object.fromEntries(r.changes.map((c) => [c.path, c[key]])) : undefined);
  return [
    ...plan.preview.map((r): DryRunItem => ({ id: r.id, outcome: 'change', ...(r.changes.length ? { before: side(r, 'before'), after: side(r, 'after') } : {}) })),
    ...(plan.unchangedIds ?? []).map((id): DryRunItem => ({ id, outcome: 'unchanged', ...(already ? { reason: already } : {}) })),
    ...plan.skipped.map((s): DryRunItem => ({ id: s.id, outcome: 'refused', reason: s.reason, ...(s.lift ? { lift: s.lift } : {}) })),
    // Every id given is in the preview: one the platform does not have is refused, as the real run refuses it.
    ...plan.missing.map((id): DryRunItem => ({ id, outcome: 'refused', reason: 'not found' })),
  ];
}

/** A dry run's items as a JSON array, each with the `--json` fields asked for. */
export async function printItems(ctx: Context, format: OutputFormat, items: DryRunItem[]): Promise<void> {
  const fields = format.kind === 'json' ? format.fields : undefined;
  await printValue(ctx.io, { kind: 'json' }, fields ? items.map((i) => pickFields(i, fields)) : items);
}

/** The whole plan of a dry run on stdout: JSON with `--json`, else one TSV line per change (piped output). */
async function printPlan(ctx: Context, view: Named, action: EntityAction, plan: Plan, format: OutputFormat): Promise<void> {
  if (format.kind === 'json') {
    await printItems(ctx, format, dryRunItems(plan));
    return;
  }
  const lines: string[] = [];
  for (const r of plan.preview) {
    if (r.changes.length === 0) lines.push(`${r.id}\t${oneLine(r.name ?? '')}`);
    for (const c of r.changes) lines.push(`${r.id}\t${oneLine(r.name ?? '')}\t${c.path}\t${short(c.before, 200)}\t${short(c.after, 200)}`);
  }
  await printValue(ctx.io, format, undefined, { text: lines.join('\n') });
}

/** What {@link runBulkVerb} needs: the entity, the port and action, how the targets were chosen, the flags. */
export interface BulkVerbRun {
  view: Named;
  port: EntityPort;
  action: EntityAction;
  /** A new run's targets (undefined for create actions and on resume). */
  selection?: Selection;
  resume?: JournalState;
  flags: BulkFlags;
  /** The command words after the program name, e.g. `services update`, for the resume hint. */
  command: string;
  /** The confirm question for N items. */
  question(n: number): string;
  /** The run id of the change this run undoes (`sitectl undo`). */
  undoOf?: string;
  /** Ids of the selection gone meanwhile are skipped with this reason, not refused (BulkRunRequest.skipMissing). */
  skipMissing?: string;
}

/**
 * Where a change is made and by which command, for its journal's header (`sitectl history`): the profile's name,
 * the site, the platform's base URL, the command line as typed (argv never holds a secret: they come from stdin
 * or the environment) and, when the run can be resumed, the words of the command that resumes it (`verb`).
 */
export async function runOrigin(ctx: Context, verb?: string): Promise<RunOrigin> {
  const [{ resolveProfile }, api] = await Promise.all([import('../../context.js'), ctx.api()]);
  const profile = await resolveProfile(ctx, { startEmulator: false }).then(
    (p) => p.name,
    () => undefined,
  );
  return { profile, siteId: api.siteId, baseUrl: api.baseUrl, command: [ctx.bin, ...(ctx.argv ?? [])].map(shellWord).join(' '), ...(verb ? { verb } : {}) };
}

/** A host this machine itself serves on (the local emulator's port changes after a restart: not compared). */
function loopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/**
 * Refuses to act on a journal recorded somewhere else than where the command is pointed now (docs/architecture.md
 * "Bulk runs, the journal, history and undo"): another profile, another site (unless `site` is false: a run that
 * names its own site, `services apply`), or another platform (base URLs compared unless both are this machine's).
 * A journal of an older sitectl that did not record one of them is not refused for it.
 * @param what the command in words, for the message (`resume`, `undo`)
 * @param retry the command to run instead, given the `--profile`/`--site` words that would make it match
 * @throws UserError (exit 2), nothing sent
 */
export async function checkOrigin(ctx: Context, journal: { path: string; header: { origin?: RunOrigin } }, what: string, retry: (globals: string) => string, opts: { site?: boolean } = {}): Promise<void> {
  const recorded = journal.header.origin;
  if (!recorded) return;
  const now = await runOrigin(ctx);
  const globals = [...(recorded.profile ? ['--profile', shellWord(recorded.profile)] : []), ...(recorded.siteId && opts.site !== false ? ['--site', shellWord(recorded.siteId)] : [])].join(' ');
  const refuse = (made: string, inUse: string) =>
    new UserError(`${what}: ${journal.path} was made ${made}, not ${inUse}; nothing was sent`, `to ${what} it there: ${retry(globals)}`);
  if (recorded.profile && now.profile && recorded.profile !== now.profile) throw refuse(`with profile ${recorded.profile}`, `the one in use (${now.profile})`);
  if (opts.site !== false && recorded.siteId && now.siteId && recorded.siteId !== now.siteId) {
    throw refuse(`on site ${recorded.siteName ? `${recorded.siteName} (${recorded.siteId})` : recorded.siteId}`, `the site in use (${now.siteId})`);
  }
  if (recorded.baseUrl && now.baseUrl && recorded.baseUrl !== now.baseUrl && !(loopback(recorded.baseUrl) && loopback(now.baseUrl))) {
    throw new UserError(`${what}: ${journal.path} was made against ${recorded.baseUrl}, not ${now.baseUrl}; nothing was sent`, `point the profile at ${recorded.baseUrl} (or pass the profile that is) and run it again`);
  }
}

/**
 * A bulk run from the terminal: plan -> preview -> confirm -> execute -> report, through src/bulk.
 * @returns what the run came to (the report of a finished one)
 * @throws UserError (exit 2) for bad flags, unknown ids or missing --yes off a terminal; DeclinedError (exit 1)
 *   when the prompt is answered no; CancelError (130) on Ctrl-C; PartialFailureError (exit 3) when items failed
 */
export async function runBulkVerb(ctx: Context, run: BulkVerbRun): Promise<BulkRunResult> {
  const { view, action, flags } = run;
  const format = bulkFormat(flags);
  const concurrency = parseConcurrency(flags.concurrency);
  const resumeCommand = (journal: string) => resumeLine(ctx, run.command, journal);
  const pipedPlan = Boolean(flags.dryRun) && (format.kind === 'json' || !ctx.io.isStdoutTTY);
  // A plan read page by page and a run of chunk after chunk: the heap kept near its live size, as a list --all's.
  keepHeapFlat();
  const result: BulkRunResult = await runBulk(
    run.port,
    action,
    {
      selection: run.selection,
      resume: run.resume,
      journalPath: flags.journal,
      dryRun: Boolean(flags.dryRun),
      concurrency,
      previewLimit: PREVIEW_ROWS,
      allRows: pipedPlan,
      signal: ctx.signal,
      env: ctx.env,
      now: ctx.now(),
      resumeCommand,
      origin: run.resume ? undefined : await runOrigin(ctx, run.command),
      undoOf: run.undoOf,
      skipMissing: run.skipMissing,
    },
    bulkHooks(ctx, view, action, flags, run.question, resumeCommand),
  );
  if (result.kind === 'done') keepHistory(ctx, flags, result.journal, (result.report.counts.failed ?? 0) + (result.report.counts.conflict ?? 0) > 0);
  ctx.setInterruptHint(undefined);
  if (result.kind === 'dry-run') {
    if (pipedPlan) await printPlan(ctx, view, action, result.plan, format);
    else await showPlan(ctx, view, action, result.plan);
    if (result.plan.missing.length) {
      throw new UserError(`${result.plan.missing.length} of the given ids do not exist: ${result.plan.missing.slice(0, 5).join(', ')}`);
    }
    // The count on stderr too: a CI log shows it whatever stdout was piped to.
    const p = result.plan;
    notice(ctx.io, `dry run: ${p.items.length} of ${p.targets} ${view.noun.many} would change (${p.unchanged} unchanged, ${p.skipped.length} skipped); nothing was changed`);
    return result;
  }
  if (result.kind === 'empty' || result.kind === 'idle') {
    if (format.kind === 'json') await printValue(ctx.io, format, { entity: view.noun.many, action: action.name, total: 0, counts: {}, problems: [] });
    notice(ctx.io, `No ${view.noun.many} match; nothing to do.`);
    return result;
  }
  if (result.kind === 'declined') throw new DeclinedError();
  if (format.kind === 'json') await printValue(ctx.io, format, result.report);
  else await printHumanReport(ctx, view, result.report);
  assertComplete(result.report, resumeCommand(result.journal));
  return result;
}

/**
 * The command that resumes a run, as it works where it is printed: the same `--profile` and `--site` as this run,
 * and `--yes` when there is no terminal to confirm on (off a terminal a resume without it exits 2).
 */
export function resumeLine(ctx: Context, command: string, journal: string): string {
  const globals = [...(ctx.flags.profile ? ['--profile', ctx.flags.profile] : []), ...(ctx.flags.site ? ['--site', ctx.flags.site] : [])];
  return [ctx.bin, ...globals.map(shellWord), command, '--resume', shellWord(journal), ...(ctx.io.canPrompt() ? [] : ['--yes'])].join(' ');
}

/**
 * After a finished run: with `--no-history`, its journal goes once nothing is left to resume (a run with failures
 * keeps it, or `--resume` would have nothing to read); otherwise the history is trimmed to its bounds (bulk/
 * history.ts). Only journals in the default directory are trimmed; a `--journal PATH` is the user's.
 */
export function keepHistory(ctx: Context, flags: BulkFlags, journal: string, unfinished: boolean): void {
  if (flags.history === false) {
    if (!unfinished) rmSync(journal, { force: true });
    return;
  }
  pruneHistory(defaultJournalDir(ctx.env), ctx.now());
}

/**
 * Says, one line each on stderr, which files of the journals folder the history left out and why (the file, the
 * line and the field): `history` and `undo` go on with the rest.
 */
export function warnDamaged(ctx: Context, damaged: readonly DamagedJournal[]): void {
  for (const d of damaged) warn(ctx.io, `left out of the history: ${d.journal}: ${d.problem}`);
}

/** What `--resume JOURNAL` of one verb takes (resumeJournal). */
export interface ResumeSpec {
  view: EntityView<unknown>;
  /** The journal's path, as given. */
  path: string;
  /** The action the journal must record (`update`, `confirm`, `create`...). */
  action: string;
  /** The command that resumes it, as typed (`services update`), for the hints. */
  command: string;
  /** False for a run that names its own site in its journal (`services apply`): the site in use is not compared. */
  site?: boolean;
  /**
   * Checks what each planned item holds for this verb (a create's body): returns the problem (`booking: expected
   * object`) of a bad one, refused naming the item before anything is sent.
   */
  planned?(line: PlannedLine): string | undefined;
}

/**
 * Reads `--resume JOURNAL` for a verb, before anything is sent: every line checked (bulk/journal-read.ts), the run
 * one of this verb's, each planned item as the verb needs it, and the journal made where the command points now
 * (checkOrigin: profile, site, platform).
 * @throws UserError (exit 2) naming the file and what is wrong in it, or where it was made and how to resume there
 */
export async function resumeJournal(ctx: Context, spec: ResumeSpec): Promise<JournalState> {
  const { view, path, action, command } = spec;
  const state = readRunJournal(path, view.noun.many);
  if (state.header.action !== action) {
    throw new UserError(`${path} is the journal of a ${view.noun.many} ${state.header.action} run`, `pass it to the --resume of the ${view.noun.many} ${state.header.action} command`);
  }
  for (const line of state.planned) {
    const problem = spec.planned?.(line);
    if (problem) throw new JournalDamagedError(path, `planned item ${line.id}: ${problem}`);
  }
  const yes = ctx.io.canPrompt() ? '' : ' --yes';
  await checkOrigin(ctx, state, 'resume', (globals) => `${[ctx.bin, globals, command].filter(Boolean).join(' ')} --resume ${shellWord(path)}${yes}`, { site: spec.site });
  return state;
}
