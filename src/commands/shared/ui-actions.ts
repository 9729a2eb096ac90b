/**
 * The single-key actions of the interactive browser and the dashboard (docs/architecture.md "Interactive views"),
 * built from the nouns' own transition declarations (the keys live with them: bookingKeys, memberKeys,
 * orderKeys), so every key press is the change the CLI verb makes, through the same engine: one row is a one-item
 * plan (`bookings confirm ID`), marked rows a plan over their ids (`bookings confirm --ids ...`), each confirmed
 * by the verb's rule inside the UI, journaled (in `sitectl history`, undone by `sitectl undo` where the undo table
 * allows) and reported as one line.
 */
import type { ApiClient } from '../../api/client.js';
import { pruneHistory } from '../../bulk/history.js';
import { defaultJournalDir } from '../../bulk/journal.js';
import type { RunOrigin } from '../../bulk/journal.js';
import type { Context } from '../../context.js';
import { CANCELED_TEXT } from '../../core/errors.js';
import { shellWord } from '../../core/invocation.js';
import { oneLine, shortId } from '../../core/text.js';
import type { ActionIO, UiAction } from '../../ui/index.js';
import { PREVIEW_ROWS } from './bulk-flags.js';
import { asksFirst } from './confirm.js';
import type { EntityView, KeyedVerb } from './entity-view.js';
import { transitionRun } from './transition.js';


/**
 * Where a key's change is made, for its journal: the profile and site of this session, and as its command the
 * CLI verb that makes the same change (`sitectl bookings confirm ID`), which is what `sitectl history` shows.
 */
async function keyOrigin(ctx: Context, verb: KeyedVerb, ids: readonly string[]): Promise<RunOrigin> {
  const { runOrigin } = await import('./bulk.js');
  const words = [ctx.bin, ...verb.spec.command.split(' '), ...(ids.length === 1 ? ids : ['--ids', ids.join(',')])];
  return { ...(await runOrigin(ctx, verb.spec.command)), command: words.map(shellWord).join(' ') };
}

/** The command that resumes a key's run. */
function resumeCommand(ctx: Context, verb: KeyedVerb, journal: string): string {
  return `${ctx.bin} ${verb.spec.command} --resume ${shellWord(journal)}`;
}

/**
 * One row: a one-item plan (bulk/one.ts). Says "already ..." when it is there, refuses with the state machine's
 * reason, asks first when the verb's declaration says so (the rule of the CLI, commands/shared/confirm.ts), then
 * changes it at the revision the plan read (a concurrent change is reported, never overwritten).
 * @returns the line the UI shows
 * @throws Error (shown inline) when the entity cannot make the change or the change failed; ApiError from reads
 */
async function applyOne(ctx: Context, api: ApiClient, verb: KeyedVerb, id: string, io: ActionIO): Promise<string> {
  const { spec } = verb;
  const { changeOne } = await import('../../bulk/one.js');
  const { port, action } = transitionRun(spec, api, { options: {} });
  const noun = spec.view.noun.one;
  const view: EntityView<unknown> = spec.view;
  const labelOf = (e: unknown) => oneLine(view.label(e) ?? id);
  const r = await changeOne(
    port,
    action,
    id,
    { dryRun: false, signal: ctx.signal, env: ctx.env, now: ctx.now(), resumeCommand: (j) => resumeCommand(ctx, verb, j), origin: await keyOrigin(ctx, verb, [id]) },
    { confirm: async (e) => !asksFirst(spec, 'one') || io.confirm(`${verb.label} ${noun} ${shortId(id)} (${labelOf(e)})?`) },
  );
  const label = labelOf(r.entity);
  switch (r.kind) {
    case 'unchanged':
    case 'dry-run':
      return `${noun} ${shortId(id)} (${label}) is already ${spec.done}; nothing changed`;
    case 'refused':
      throw new Error(`${noun} ${shortId(id)} cannot be ${spec.done}: ${r.reason}`);
    case 'declined':
      return CANCELED_TEXT;
    case 'sent': {
      pruneHistory(defaultJournalDir(ctx.env), ctx.now());
      const res = r.result;
      if (res.outcome !== spec.done) throw new Error(`${noun} ${shortId(id)} was not ${spec.done}: ${oneLine(res.error ?? res.outcome)} (journal ${r.journal})`);
      return `${spec.done} ${shortId(id)} (${label})${res.revision ? `, revision ${res.revision}` : ''}`;
    }
  }
}

/**
 * Marked rows: the entity bulk engine over the ids (plan -> confirm in the UI -> chunks -> journal -> report),
 * exactly what `NOUN VERB --ids ...` runs.
 * @returns the report's summary line
 */
async function applyMany(ctx: Context, api: ApiClient, verb: KeyedVerb, ids: string[], io: ActionIO): Promise<string> {
  const { spec } = verb;
  const [{ runBulk }, { summaryLine }] = await Promise.all([import('../../bulk/run.js'), import('../../bulk/report.js')]);
  const { port, action } = transitionRun(spec, api, { ids, options: {} });
  let journalPath = '';
  const result = await runBulk(
    port,
    action,
    {
      selection: { kind: 'ids', ids },
      dryRun: false,
      concurrency: 4,
      previewLimit: PREVIEW_ROWS,
      signal: ctx.signal,
      env: ctx.env,
      now: ctx.now(),
      resumeCommand: (journal) => resumeCommand(ctx, verb, journal),
      origin: await keyOrigin(ctx, verb, ids),
    },
    {
      onJournal(path) {
        journalPath = path;
      },
      confirm(info) {
        const lines = [
          `Plan: ${info.pending} to ${spec.verb}${info.plan.unchanged ? `, ${info.plan.unchanged} already ${spec.done}` : ''}${info.plan.skipped.length ? `, ${info.plan.skipped.length} skipped` : ''}`,
          ...info.plan.skipped.slice(0, 5).map((s) => `  skipped ${shortId(s.id)}: ${oneLine(s.reason)}`),
          ...info.plan.preview.map((r) => `  ${shortId(r.id)}  ${oneLine(r.name ?? '')}`),
        ];
        return io.confirm(spec.question(info.pending), lines);
      },
      progress(total) {
        io.progress(spec.title, 0, total, 0);
        return {
          update: (p) => io.progress(spec.title, p.done, p.total, p.failed),
          done: async () => {},
        };
      },
    },
  );
  switch (result.kind) {
    case 'declined':
      return CANCELED_TEXT;
    case 'empty':
    case 'idle':
    case 'dry-run':
      return `no ${spec.view.noun.many} to ${spec.verb}: ${result.plan.unchanged} already ${spec.done}, ${result.plan.skipped.length} skipped`;
    case 'done': {
      pruneHistory(defaultJournalDir(ctx.env), ctx.now());
      const line = summaryLine(result.report, spec.view.noun);
      const failed = result.report.problems.length;
      if (failed) throw new Error(`${line}; first problem: ${result.report.problems[0]!.id} ${oneLine(result.report.problems[0]!.error ?? '')} (journal ${journalPath})`);
      return line;
    }
  }
}

/**
 * The UI actions of a noun, bound to a client: one row as a one-item plan, marked rows as a plan over their ids,
 * both through the bulk engine.
 */
export function uiActions(ctx: Context, api: ApiClient, verbs: readonly KeyedVerb[]): UiAction[] {
  return verbs.map((verb) => ({
    key: verb.key,
    label: verb.label,
    destructive: verb.spec.destructive,
    run: (ids, io) => (ids.length === 1 ? applyOne(ctx, api, verb, ids[0]!, io) : applyMany(ctx, api, verb, ids, io)),
  }));
}
