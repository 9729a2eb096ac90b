/**
 * The single-key actions of the interactive browser and the dashboard (docs/architecture.md "Interactive views"), built from the
 * nouns' own transition verbs so every key press makes the same API call as the CLI verb: one row is read, then
 * changed at the revision just read (`bookings confirm ID`); marked rows go through the entity bulk engine
 * (`bookings confirm --ids ...`) with its plan, confirmation, journal and progress shown inside the UI.
 */
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { CANCELED_TEXT } from '../../core/errors.js';
import { shellWord } from '../../core/invocation.js';
import { oneLine } from '../../core/text.js';
import type { ActionIO, UiAction } from '../../ui/index.js';
import { PREVIEW_ROWS } from './bulk-flags.js';
import { asksFirst } from './confirm.js';
import type { KeyedVerb } from './entity-view.js';

/** The keys of a noun (the dashboard's and the browser's): what its view declares, none when it declares none. */
export async function nounActions(view: { keys?(): Promise<KeyedVerb[]> }): Promise<KeyedVerb[]> {
  return (await view.keys?.()) ?? [];
}

/** An id as a terminal shows it (8 characters, like a short git hash). */
export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

/**
 * One row: read it, say "already ..." when it is there, refuse with the state machine's reason, ask first when
 * the verb's declaration says so (the rule of the CLI, commands/shared/confirm.ts), then change it at the revision just read (a concurrent change is a 409, shown inline).
 * @returns the line the UI shows
 * @throws Error (shown inline) when the entity cannot make the change; ApiError from the platform
 */
async function applyOne(ctx: Context, api: ApiClient, verb: KeyedVerb, id: string, io: ActionIO): Promise<string> {
  const { spec } = verb;
  const entity = await spec.fetch(api, id, ctx.signal);
  const label = oneLine(spec.view.label(entity as never) ?? id);
  if (spec.reached(entity, {})) return `${spec.view.noun.one} ${shortId(id)} (${label}) is already ${spec.done}; nothing changed`;
  const why = spec.blocked?.(entity);
  if (why) throw new Error(`${spec.view.noun.one} ${shortId(id)} cannot be ${spec.done}: ${why}`);
  if (asksFirst(spec, 'one') && !(await io.confirm(`${verb.label} ${spec.view.noun.one} ${shortId(id)} (${label})?`))) return CANCELED_TEXT;
  const after = await spec.apply(api, entity, entity.revision ?? undefined, {}, ctx.signal);
  return `${spec.done} ${shortId(id)} (${label})${after.revision ? `, revision ${after.revision}` : ''}`;
}

/**
 * Marked rows: the entity bulk engine over the ids (plan -> confirm in the UI -> chunks -> journal -> report),
 * exactly what `NOUN VERB --ids ...` runs.
 * @returns the report's summary line
 */
async function applyMany(ctx: Context, api: ApiClient, verb: KeyedVerb, ids: string[], io: ActionIO): Promise<string> {
  const { spec } = verb;
  const [{ transitionAction }, { runBulk }, { summaryLine }, wiring] = await Promise.all([
    import('../../bulk/actions.js'),
    import('../../bulk/run.js'),
    import('../../bulk/report.js'),
    spec.bulk(),
  ]);
  const args = { ids, options: {} };
  const action = transitionAction({
    name: spec.verb,
    done: spec.done,
    title: spec.title,
    reached: (e) => spec.reached(e as never, args.options),
    blocked: spec.blocked ? (e) => spec.blocked!(e as never) : undefined,
    send: wiring.send(api, {}),
    chunkSize: wiring.chunkSize,
    args,
  });
  let journalPath = '';
  const result = await runBulk(
    wiring.port(api),
    action as never,
    {
      selection: { kind: 'ids', ids },
      dryRun: false,
      concurrency: 4,
      previewLimit: PREVIEW_ROWS,
      signal: ctx.signal,
      env: ctx.env,
      now: ctx.now(),
      resumeCommand: (journal) => `${ctx.bin} ${spec.command} --resume ${shellWord(journal)}`,
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
    case 'dry-run':
      return `no ${spec.view.noun.many} to ${spec.verb}: ${result.plan.unchanged} already ${spec.done}, ${result.plan.skipped.length} skipped`;
    case 'done': {
      const line = summaryLine(result.report, spec.view.noun);
      const failed = result.report.problems.length;
      if (failed) throw new Error(`${line}; first problem: ${result.report.problems[0]!.id} ${oneLine(result.report.problems[0]!.error ?? '')} (journal ${journalPath})`);
      return line;
    }
  }
}

/**
 * The UI actions of a noun, bound to a client: one row through the verb's single form, marked rows through the
 * bulk engine.
 */
export function uiActions(ctx: Context, api: ApiClient, verbs: readonly KeyedVerb[]): UiAction[] {
  return verbs.map((verb) => ({
    key: verb.key,
    label: verb.label,
    destructive: verb.spec.destructive,
    run: (ids, io) => (ids.length === 1 ? applyOne(ctx, api, verb, ids[0]!, io) : applyMany(ctx, api, verb, ids, io)),
  }));
}
