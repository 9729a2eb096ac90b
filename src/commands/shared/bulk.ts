/**
 * The terminal side of every bulk verb (`services update|delete|clone`, and the bookings, members and orders
 * actions by filter): flag declarations, the selection, the confirm rule, the preview, the progress display and
 * the report (docs/architecture.md "Bulk runs, the journal, history and undo", docs/architecture.md "Layout and dependency direction"; docs/architecture.md "Output and interaction"). The engine in
 * src/bulk stays terminal-free; this module decides between Ink on a terminal (loaded with a dynamic import)
 * and plain lines on stderr, keeps stdout data-only, and names the command in hints as the user typed it.
 */
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { DeclinedError, ExitCode, UserError } from '../../core/errors.js';
import { shellWord } from '../../core/invocation.js';
import { notice, style, success } from '../../core/log.js';
import { fieldsChecker, type FormatFlags, pickFields, printRecord, printValue, resolveFormat, type OutputFormat } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import type { EntityAction } from '../../bulk/actions.js';
import { changeOne, createOne } from '../../bulk/one.js';
import type { ChangeSet, FieldDiff } from '../../bulk/changes.js';
import { type BulkProgress, isRetryable, type ItemResult } from '../../bulk/execute.js';
import { defaultJournalDir, type JournalState, type RunOrigin } from '../../bulk/journal.js';
import { pruneHistory } from '../../bulk/history.js';
import { rmSync } from 'node:fs';
import type { Plan, PreviewRow } from '../../bulk/plan.js';
import { type Entity, type EntityPort, fetchByIds } from '../../bulk/port.js';
import { assertComplete, REPORT_FIELDS, type BulkReport, summaryLine, summaryRows } from '../../bulk/report.js';
import { type BulkRunHooks, type BulkRunResult, type ConfirmInfo, readRunJournal, runBulk } from '../../bulk/run.js';
import { parseIdList, readIdsFile, type Selection } from '../../bulk/select.js';
import { type BulkFlags, DRY_RUN_FIELDS, type DryRunItem, parseConcurrency, PLAN_FIELDS, PREVIEW_ROWS, type SelectionFlags } from './bulk-flags.js';
import { asksFirst, confirmChange, requireConfirmable, REVERSIBLE, type VerbRule } from './confirm.js';
import { filterOf, formatOf, idOf, type EntityView, type OneNoun } from './entity-view.js';

export type { OneNoun } from './entity-view.js';
import { writeCreate, writeCreateMany, writeUpdate, type WriteSpec } from './writes.js';

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

function short(value: unknown, width: number): string {
  if (value === undefined) return '(none)';
  const text = oneLine(typeof value === 'string' ? value : JSON.stringify(value));
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** `old -> new`, each side cut on its own so a long old value never hides the new one. */
function changeText(d: FieldDiff): string {
  return `${short(d.before, 24)} -> ${short(d.after, 32)}`;
}

/** Preview table columns and rows: id, name, then one `old -> new` column per changed path. */
function previewTable(plan: Plan, columns: string[], limit: number) {
  const head = [
    { key: 'id', header: 'ID', minWidth: 8 },
    { key: 'name', header: 'NAME', minWidth: 8 },
    ...columns.map((path) => ({ key: `change:${path}`, header: path, minWidth: 10 })),
  ];
  const rows = plan.preview.slice(0, limit).map((r) => {
    const row: Record<string, unknown> = { id: r.id, name: oneLine(r.name ?? '') };
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
  for (const s of plan.skipped.slice(0, 5)) notice(io, `  skipped ${s.id}: ${oneLine(s.reason)}`);
  if (plan.skipped.length > 5) notice(io, `  … and ${plan.skipped.length - 5} more skipped`);
  const withValues = plan.preview.some((r) => r.changes.length > 0) || columns.length === 0;
  if (pending === 0 || !withValues) return;
  const { columns: head, rows } = previewTable(plan, columns, PREVIEW_ROWS);
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
    renderTable({ columns: [{ key: 'outcome', header: 'OUTCOME' }, { key: 'count', header: 'COUNT' }], rows: summaryRows(report), stdout: out, width: io.columns });
  }
  out.write(`${summaryLine(report, view.noun)}\n`);
  if (report.createdIds?.length) out.write(`created: ${report.createdIds.join(', ')}\n`);
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
function dryRunItems(plan: Plan, already?: string): DryRunItem[] {
  const side = (r: PreviewRow, key: 'before' | 'after') => (r.changes.length ? Object.fromEntries(r.changes.map((c) => [c.path, c[key]])) : undefined);
  return [
    ...plan.preview.map((r): DryRunItem => ({ id: r.id, outcome: 'change', ...(r.changes.length ? { before: side(r, 'before'), after: side(r, 'after') } : {}) })),
    ...(plan.unchangedIds ?? []).map((id): DryRunItem => ({ id, outcome: 'unchanged', ...(already ? { reason: already } : {}) })),
    ...plan.skipped.map((s): DryRunItem => ({ id: s.id, outcome: 'refused', reason: s.reason, ...(s.lift ? { lift: s.lift } : {}) })),
  ];
}

/** A dry run's items as a JSON array, each with the `--json` fields asked for. */
async function printItems(ctx: Context, format: OutputFormat, items: DryRunItem[]): Promise<void> {
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
}

/**
 * How a verb's single form speaks of its one item (`bookings cancel 7c1e`, `services update ID --set ...`). The
 * run itself is the bulk engine's over an ids selection of one (bulk/one.ts): planned, confirmed by the 'one'
 * scope of the verb's rule, executed, journaled (so in `sitectl history`, undone by `sitectl undo` where the undo
 * table allows). The entity arguments are the item as the plan read it, whole.
 */
export interface OneItem {
  /** The id as typed (a unique prefix is enough). */
  given: string;
  /** The verb's confirmation rule: a destructive verb asks first even for one item. */
  rule: VerbRule;
  /** `--revision N`: the revision to act at (default: the one the plan reads). */
  revision?: string;
  /** The question asked first (default: `<Verb> <noun> ID (label)?`). */
  question?(entity: never, label: string): string | undefined;
  /** What is true of it already (default: `<noun> ID (label) is already <done>`); "; nothing changed" follows. */
  already?(entity: never, label: string): string | undefined;
  /** For one the state machine refuses: the command that does what was meant (`msb cancel ID`), as the hint. */
  instead?(entity: never): string | undefined;
  /** The line once it changed, given the entity as it is now (default: `<done> ID (label), revision N`). */
  outcome?(after: never, label: string, before: never): string | undefined;
  /** Reads the changed entity for stdout (default: through the port). */
  read?(id: string): Promise<unknown>;
  /** What stdout gets instead of the changed entity (a delete's `{id, deleted: true}`), and its `--json` fields. */
  result?: { fields: readonly string[]; value(id: string): Record<string, unknown> };
}

/** What {@link runOneVerb} needs: the entity, how to build the port and action, the one item, the flags. */
export interface OneVerbRun {
  view: EntityView<unknown> | OneNoun;
  /** The change's progress title (`Cancelling`): `cancelling booking 7c1e` names it in messages. */
  title: string;
  /** The port and the action over the one item, given the client (built once the confirmation rule allows). */
  build(api: ApiClient): { port: EntityPort; action: EntityAction };
  /** Checks the verb's options against the platform before the item is read (a content assignee that exists). */
  verify?(api: ApiClient): Promise<void>;
  /** The id `one.given` names (default: the id, or the entity whose id it is a unique prefix of). */
  resolve?(api: ApiClient): Promise<string>;
  one: OneItem;
  flags: BulkFlags;
  /** The command words after the program name, e.g. `bookings cancel`, for the resume hint. */
  command: string;
  /** The run id of the change this run undoes (`sitectl undo`). */
  undoOf?: string;
  /**
   * The verb takes `--resume JOURNAL` (its bulk form does): a failure a retry can get past is then resumed from
   * the journal. Otherwise the hint is the command again, as typed: its one-item plan reads the item first, so a
   * change that went through is found done, not made twice. Default false.
   */
  resumable?: boolean;
}

/**
 * The command line of this run again, as typed, with `--yes` added when the verb asks first and no terminal can
 * answer (so it works where it is printed).
 */
function againLine(ctx: Context, rule: VerbRule): string {
  const argv = ctx.argv ?? [];
  const yes = asksFirst(rule, 'one') && !ctx.io.canPrompt() && !argv.includes('--yes') && !argv.includes('-y');
  return [ctx.bin, ...argv, ...(yes ? ['--yes'] : [])].map(shellWord).join(' ');
}

/**
 * `--json [fields]` of a single form: the dry run's plan item fields with `--dry-run`, the `result` fields a
 * verb declares, else the entity's (checked against its schema).
 * @throws UserError (exit 2) for an unknown field
 */
export function oneFormat(ctx: Context, view: EntityView<unknown> | OneNoun, flags: BulkFlags, one?: Pick<OneItem, 'result'>): OutputFormat {
  if (flags.dryRun) return resolveFormat({ json: flags.json }, fieldsChecker(DRY_RUN_FIELDS));
  if (one?.result) return resolveFormat({ json: flags.json }, fieldsChecker(one.result.fields));
  if ('format' in view) return view.format(flags as FormatFlags);
  // Whatever format flags the verb declares (--json everywhere; --ndjson, --csv where it has them).
  return formatOf(ctx, view, flags as FormatFlags);
}

/**
 * Where a change is made and by which command, for its journal's header (`sitectl history`): the profile's name,
 * the site, and the command line as typed (argv never holds a secret: they come from stdin or the environment).
 */
export async function runOrigin(ctx: Context): Promise<RunOrigin> {
  const [{ resolveProfile }, api] = await Promise.all([import('../../context.js'), ctx.api()]);
  const profile = await resolveProfile(ctx, { startEmulator: false }).then(
    (p) => p.name,
    () => undefined,
  );
  return { profile, siteId: api.siteId, command: [ctx.bin, ...(ctx.argv ?? [])].map(shellWord).join(' ') };
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
      origin: run.resume ? undefined : await runOrigin(ctx),
      undoOf: run.undoOf,
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
 * The single form of a verb (`NOUN VERB ID`) through the bulk engine, as a one-item plan: checks `--json` and the
 * confirmation rule ('one' scope: a destructive verb asks, off a terminal it needs `--yes`) before anything is
 * read, resolves the id, plans, asks, sends and journals. Says "already ...; nothing changed" (exit 0, the entity
 * on stdout) when there is nothing to do; on success the success line on stderr and the entity as it is now on
 * stdout through the exporter. The journal is not named unless the run failed (then the resume command is the
 * hint when a resume can get past the failure).
 * @throws UserError (exit 2) for bad flags or a missing --yes; NotFoundError (exit 1) for an unknown id;
 *   UserError (exit 1) when the state machine or a policy refuses the change (the hint names the flag that lifts
 *   a policy, or the command meant instead), or when the item failed or conflicted; DeclinedError (exit 1);
 *   CancelError (130)
 */
export async function runOneVerb(ctx: Context, run: OneVerbRun): Promise<void> {
  const { view, flags, one } = run;
  const format = oneFormat(ctx, view, flags, one);
  const { noun } = view;
  requireConfirmable(ctx, flags, one.rule, 'one', `${run.title.toLowerCase()} ${noun.one} ${one.given}`);
  const api = await ctx.api();
  await run.verify?.(api);
  const { port, action } = run.build(api);
  const verb = action.name;
  const id = run.resolve ? await run.resolve(api) : 'query' in view ? await idOf(ctx, api, view, one.given) : one.given;
  const resumeCommand = (journal: string) => resumeLine(ctx, run.command, journal);
  const labelOf = (e: unknown) => oneLine(view.label(e) ?? id);
  const r = await changeOne(
    port,
    action,
    id,
    {
      journalPath: flags.journal,
      dryRun: Boolean(flags.dryRun),
      signal: ctx.signal,
      env: ctx.env,
      now: ctx.now(),
      resumeCommand,
      origin: await runOrigin(ctx),
      undoOf: run.undoOf,
      revision: one.revision,
    },
    {
      onJournal: (path) => ctx.setInterruptHint(`resume with: ${resumeCommand(path)}`),
      async confirm(entity) {
        const label = labelOf(entity);
        const question = one.question?.(entity as never, label) ?? `${verb[0]!.toUpperCase()}${verb.slice(1)} ${noun.one} ${id} (${label})?`;
        try {
          await confirmChange(ctx, flags, one.rule, 'one', question, `${action.title.toLowerCase()} ${noun.one} ${id}`);
          return true;
        } catch (err) {
          if (err instanceof DeclinedError) return false;
          throw err;
        }
      },
    },
  );
  ctx.setInterruptHint(undefined);
  const label = labelOf(r.entity);
  const already = () => one.already?.(r.entity as never, label) ?? `${noun.one} ${id} (${label}) is already ${action.done}`;
  const show = async (entity: unknown) => {
    if (one.result) {
      if (format.kind === 'json' || format.kind === 'ndjson') await printValue(ctx.io, format, one.result.value(id));
      return;
    }
    if ('print' in view) return view.print(ctx, format, entity);
    // On a terminal, names for ids (a service's staff), as `get` shows them; piped output keeps the ids.
    if (format.kind === 'table' && ctx.io.isStdoutTTY) await view.prepare?.(api, [entity], ctx.signal);
    await printRecord(ctx.io, format, entity, { rows: view.rows(entity), columns: view.columns, now: ctx.now() });
  };
  switch (r.kind) {
    case 'dry-run': {
      const [item] = dryRunItems(r.plan, `already ${action.done}`);
      if (!item) return;
      if (format.kind === 'json') await printItems(ctx, format, [item]);
      const changes = r.plan.preview[0]?.changes.map((c) => `${c.path}: ${short(c.before, 60)} -> ${short(c.after, 60)}`) ?? [];
      const said =
        item.outcome === 'change'
          ? `would ${verb} ${id} (${label})${changes.length ? `: ${changes.join(', ')}` : ''}`
          : `${id} (${label}) ${item.outcome}: ${item.reason}${item.lift ? ` (${item.lift} lifts it)` : ''}`;
      success(ctx.io, `dry run: ${said}; nothing was changed`);
      return;
    }
    case 'unchanged':
      notice(ctx.io, `${already()}; nothing changed`);
      if (!one.result) await show(r.entity);
      return;
    case 'refused':
      throw new UserError(
        `${noun.one} ${id} cannot be ${action.done}: ${r.reason}`,
        r.lift ? `pass ${r.lift} to ${verb} it anyway` : one.instead?.(r.entity as never),
        ExitCode.Failure,
      );
    case 'declined':
      throw new DeclinedError();
    case 'sent': {
      const res = r.result;
      keepHistory(ctx, flags, r.journal, res.outcome === 'failed' || res.outcome === 'conflict');
      if (res.outcome !== action.done) {
        const hint =
          res.outcome === 'failed' && !res.permanent
            ? `retry it with: ${run.resumable ? resumeCommand(r.journal) : againLine(ctx, one.rule)}`
            : res.outcome === 'failed'
              ? 'the platform refused it for the reason shown: fix that (or pass the flag it names) and run the command again'
              : undefined;
        // A request the platform refused as wrong (400: a date, a value) is bad input, as for any command.
        throw new UserError(`${noun.one} ${id} was not ${action.done}: ${oneLine(res.error ?? res.outcome)}`, hint, res.httpStatus === 400 ? ExitCode.Usage : ExitCode.Failure);
      }
      const after = one.result ? undefined : ((await one.read?.(id)) ?? (await fetchByIds(port, [id], ctx.signal)).get(id) ?? r.entity);
      const revision = (after as Entity | undefined)?.revision ?? res.revision;
      success(ctx.io, one.outcome?.(after as never, label, r.entity as never) ?? `${action.done} ${id} (${label})${revision ? `, revision ${revision}` : ''}`);
      await show(after);
      return;
    }
  }
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
function keepHistory(ctx: Context, flags: BulkFlags, journal: string, unfinished: boolean): void {
  if (flags.history === false) {
    if (!unfinished) rmSync(journal, { force: true });
    return;
  }
  pruneHistory(defaultJournalDir(ctx.env), ctx.now());
}

/** Reads `--resume JOURNAL` for a verb of `view`'s entity. @throws UserError when it is not one of its runs */
export function resumeJournal(view: EntityView<unknown>, path: string, action: string): JournalState {
  const state = readRunJournal(path, view.noun.many);
  if (state.header.action !== action) {
    throw new UserError(`${path} is the journal of a ${view.noun.many} ${state.header.action} run`, `pass it to '${view.noun.many} ${state.header.action} --resume'`);
  }
  return state;
}


/**
 * The single create of a noun (`services create`, `plans create`, `staff create`, `members create`, `services
 * booking-policies create`) through the bulk engine: a one-item planned create of `body` (commands/shared/writes.ts),
 * executed without a question (a create is taken back by `sitectl undo`, which deletes it if unchanged since) and
 * journaled with the new id and the version it left, so `sitectl history` lists it. The command checks its flags
 * and builds `body` first, and prints the entity returned.
 * @returns the new entity as the platform answered
 * @throws whatever the platform threw when it refused the create (nothing was created, no change is recorded:
 *   a 400 stays bad input, exit 2); UserError (exit 1) when the create failed in a way that may have created it
 *   all the same (the change stays in the history); CancelError (130)
 */
export async function runCreateOne(ctx: Context, spec: WriteSpec, body: Record<string, unknown>, label?: string): Promise<Entity> {
  const api = await ctx.api();
  const { port, action, created, refusal } = writeCreate(spec, api, body, label);
  const r = await createOne(port, action, {
    dryRun: false,
    signal: ctx.signal,
    env: ctx.env,
    now: ctx.now(),
    // A create is never resumed: it is made again, or taken back by `sitectl undo`.
    resumeCommand: () => '',
    origin: await runOrigin(ctx),
  });
  if (r.kind !== 'sent') throw new TypeError('a create without --dry-run came back as a plan');
  const res = r.result;
  if (res.outcome === 'created' && res.createdId) {
    keepHistory(ctx, {}, r.journal, false);
    return created() ?? (await fetchByIds(port, [res.createdId], ctx.signal)).get(res.createdId) ?? { id: res.createdId };
  }
  const err = refusal();
  if (err !== undefined && !isRetryable(err)) {
    // Refused: nothing was created, so nothing is in the history.
    rmSync(r.journal, { force: true });
    throw err;
  }
  keepHistory(ctx, {}, r.journal, true);
  throw new UserError(
    `the ${spec.view.noun.one} was not created: ${oneLine(res.error ?? res.outcome)}`,
    `it may have been created all the same: '${ctx.bin} ${spec.list}' shows it`,
    ExitCode.Failure,
  );
}

/** What {@link runCreateMany} came to: each item's result in the order of the bodies, and each entity created. */
export interface CreateManyResult {
  results: ItemResult[];
  created: ReadonlyMap<string, Entity>;
}

/**
 * The create of many entities of a noun from `bodies` (keyed by item id; `bookings create --file`) through its
 * bulk create call (commands/shared/writes.ts writeCreateMany): planned, executed chunk by chunk and journaled as
 * one change, each create's intent on disk before it is sent, so `sitectl history` lists it once and `sitectl
 * undo` takes back what it created (each only if unchanged since). The command asks first (the 'many' scope of
 * its rule) before it reads anything; this runs without a further question. A run in which nothing was created
 * and every item was refused (a 4xx) leaves no change in the history.
 * @returns every item's result (created with `createdId`, or failed with the platform's reason) and the entities
 * @throws CancelError (130) on Ctrl-C; whatever the journal's creation throws
 */
export async function runCreateMany(
  ctx: Context,
  spec: WriteSpec,
  bodies: ReadonlyMap<string, Record<string, unknown>>,
  label?: (body: Record<string, unknown>) => string | undefined,
): Promise<CreateManyResult> {
  const api = await ctx.api();
  const { port, action, created } = writeCreateMany(spec, api, bodies, label);
  const result = await runBulk(
    port,
    action,
    {
      dryRun: false,
      concurrency: 1,
      previewLimit: 1,
      signal: ctx.signal,
      env: ctx.env,
      now: ctx.now(),
      // Not resumed: a create is made again where it failed, or taken back by `sitectl undo`.
      resumeCommand: () => '',
      origin: await runOrigin(ctx),
    },
    { confirm: async () => true },
  );
  if (result.kind !== 'done') throw new TypeError(`a create of many came to '${result.kind}'`);
  const byId = new Map(result.results.map((r) => [r.id, r]));
  const results = [...bodies.keys()].map((id): ItemResult => byId.get(id) ?? { id, outcome: 'failed', error: 'no result was recorded' });
  const made = results.filter((r) => r.outcome === 'created').length;
  if (made === 0 && results.every((r) => r.permanent)) rmSync(result.journal, { force: true });
  else keepHistory(ctx, {}, result.journal, made < results.length);
  return { results, created };
}

/** What {@link runUpdateOne} needs: the noun's writes, the one item, its change, how the verb speaks. */
export interface UpdateOneRun {
  spec: WriteSpec;
  /** The item as typed (id, unique prefix, or what `resolve` reads). */
  given: string;
  /**
   * The fields to set (commands/shared/writes.ts changeOfFields), or a function giving them once `verify` has read
   * what they depend on (a plan's pricing keeps its model).
   */
  change: ChangeSet | (() => ChangeSet);
  flags: BulkFlags;
  /** The command words after the program name (`staff update`). */
  command: string;
  /** The id `given` names (default: the id, or the entity whose id it is a unique prefix of). */
  resolve?(api: ApiClient): Promise<string>;
  /** Checks before the item is planned (a plan that is archived cannot change). */
  verify?(api: ApiClient): Promise<void>;
  /** The success line, given the entity as the platform answered and its label. */
  outcome(after: never, label: string): string;
}

/**
 * The single update of a noun (`plans update`, `members update`, `staff update`, `services booking-policies
 * update`) as a one-item plan of updateAction (commands/shared/writes.ts writeUpdate) through {@link runOneVerb}:
 * the fields already as asked say "already has these values; nothing changed" (nothing sent, no change
 * recorded); else sent at the revision the plan read and journaled with the old values, so `sitectl undo` sets
 * them back if unchanged since. Prints the entity as the platform answered.
 * @throws as runOneVerb
 */
export async function runUpdateOne(ctx: Context, u: UpdateOneRun): Promise<void> {
  let seen: Map<string, unknown> | undefined;
  const { noun } = u.spec.view;
  const changeOf = () => (typeof u.change === 'function' ? u.change() : u.change);
  return runOneVerb(ctx, {
    view: u.spec.view,
    title: 'Updating',
    build: (api) => {
      const change = changeOf();
      const r = writeUpdate(u.spec, api, change, { set: change.sets, mask: change.mask.join(',') });
      seen = r.seen;
      return r;
    },
    verify: u.verify,
    resolve: u.resolve,
    flags: u.flags,
    command: u.command,
    one: {
      given: u.given,
      rule: REVERSIBLE,
      already: (e: Entity, label: string) => `${noun.one} ${e.id} (${label}) already has ${changeOf().sets.length === 1 ? 'this value' : 'these values'}`,
      outcome: u.outcome,
      read: async (id: string) => seen?.get(id),
    },
  });
}
