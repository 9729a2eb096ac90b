/**
 * The terminal side of a verb's single form (`bookings cancel 7c1e`, `services update ID --set ...`, `staff
 * create ...`): the one item is a one-item plan of the bulk engine (bulk/one.ts), confirmed by the 'one' scope of
 * the verb's rule, executed and journaled (so in `sitectl history`, and undone by `sitectl undo` where its table
 * allows), and printed as the verb always printed it (docs/architecture.md "Bulk runs, the journal, history and
 * undo"). The plan, preview and report of many items are bulk.ts's; this module reuses its hints and history.
 */
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { DeclinedError, ExitCode, UserError } from '../../core/errors.js';
import { shellWord } from '../../core/invocation.js';
import { notice, success } from '../../core/log.js';
import { fieldsChecker, type FormatFlags, printRecord, printValue, resolveFormat, type OutputFormat } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import type { EntityAction } from '../../bulk/actions.js';
import { changeOne, createOne } from '../../bulk/one.js';
import type { ChangeSet } from '../../bulk/changes.js';
import { isRetryable, type ItemResult } from '../../bulk/execute.js';
import { type Entity, type EntityPort, fetchByIds } from '../../bulk/port.js';
import type { JournalState, RunOrigin } from '../../bulk/journal.js';
import { runBulk } from '../../bulk/run.js';
import { rmSync } from 'node:fs';
import { type BulkFlags, DRY_RUN_FIELDS } from './bulk-flags.js';
import { dryRunItems, keepHistory, printItems, resumeLine, runOrigin, short } from './bulk.js';
import { asksFirst, confirmChange, requireConfirmable, REVERSIBLE, type VerbRule } from './confirm.js';
import { formatOf, idOf, type EntityView, type OneNoun } from './entity-view.js';
import { valueSteps, type ValueVerb } from './values.js';
import { writeCreate, writeCreateMany, writeUpdate, type WriteSpec } from './writes.js';
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
  question?(entity: Entity, label: string): string | undefined;
  /** What is true of it already (default: `<noun> ID (label) is already <done>`); "; nothing changed" follows. */
  already?(entity: Entity, label: string): string | undefined;
  /** For one the state machine refuses: the command that does what was meant (`msb cancel ID`), as the hint. */
  instead?(entity: Entity): string | undefined;
  /** The line once it changed, given the entity as it is now (default: `<done> ID (label), revision N`). */
  outcome?(after: unknown, label: string, before: Entity): string | undefined;
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
      origin: await runOrigin(ctx, run.command),
      undoOf: run.undoOf,
      revision: one.revision,
    },
    {
      onJournal: (path) => ctx.setInterruptHint(`resume with: ${resumeCommand(path)}`),
      async confirm(entity) {
        const label = labelOf(entity);
        const question = one.question?.(entity, label) ?? `${verb[0]!.toUpperCase()}${verb.slice(1)} ${noun.one} ${id} (${label})?`;
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
  const already = () => one.already?.(r.entity, label) ?? `${noun.one} ${id} (${label}) is already ${action.done}`;
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
        r.lift ? `pass ${r.lift} to ${verb} it anyway` : one.instead?.(r.entity),
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
      success(ctx.io, one.outcome?.(after, label, r.entity) ?? `${action.done} ${id} (${label})${revision ? `, revision ${revision}` : ''}`);
      await show(after);
      return;
    }
  }
}


/**
 * A create made for another run of the same change, on the site that run writes to (`services apply
 * --create-missing`: a category or policy the site lacks): that site's client, the change's origin with the site,
 * and the change's id (journaled as a part that prepares it, HeaderLine.prepares).
 */
export interface CreatePart {
  api: ApiClient;
  origin: RunOrigin;
  partOf: string;
}

/**
 * The single create of a noun (`services create`, `plans create`, `staff create`, `members create`, `services
 * booking-policies create`) through the bulk engine: a one-item planned create of `body` (commands/shared/writes.ts),
 * executed without a question (a create is taken back by `sitectl undo`, which deletes it if unchanged since) and
 * journaled with the new id and the version it left, so `sitectl history` lists it. The command checks its flags
 * and builds `body` first, and prints the entity returned.
 * @returns the new entity as the platform answered
 * @throws whatever the platform threw when it refused the create (nothing was created, no change is recorded:
 *   a 400 stays bad input, exit 2); UserError (exit 1) saying it was not created for a 429 the retries did not get
 *   past (no change recorded), or, when the create failed in a way that may have created it all the same (a
 *   timeout, a dropped connection, a 5xx), saying so (the change stays in the history); CancelError (130)
 */
export async function runCreateOne(ctx: Context, spec: WriteSpec, body: Record<string, unknown>, label?: string, part?: CreatePart): Promise<Entity> {
  const api = part?.api ?? (await ctx.api());
  const { port, action, created, refusal } = writeCreate(spec, api, body, label);
  const r = await createOne(port, action, {
    dryRun: false,
    signal: ctx.signal,
    env: ctx.env,
    now: ctx.now(),
    // A create is never resumed: it is made again, or taken back by `sitectl undo`.
    resumeCommand: () => '',
    origin: part?.origin ?? (await runOrigin(ctx)),
    ...(part ? { partOf: part.partOf, prepares: true } : {}),
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
  if ((err as { status?: unknown } | undefined)?.status === 429) {
    // A 429 is the platform's refusal before it acts on the request (the client resent the create only on 429s and
    // on failures before a connection was made): nothing was created, so nothing is in the history.
    rmSync(r.journal, { force: true });
    throw new UserError(
      `the ${spec.view.noun.one} was not created: ${oneLine(res.error ?? res.outcome)}`,
      'the platform refused it before acting on it (rate limit), so nothing was created: run the command again later',
      ExitCode.Failure,
    );
  }
  // A timeout, a dropped connection or a 5xx may come after the platform made it: the outcome is unknown.
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
  /**
   * The command that resumes the run (`sitectl bookings create --resume JOURNAL`) when the noun's creates can be
   * told apart afterwards (WriteSpec.createMany.find); undefined otherwise.
   */
  resumeCommand?: string;
}

/** How {@link runCreateMany} is run: the command words (`bookings create`) and, to continue a run, its journal. */
export interface CreateManyRun {
  command: string;
  /** `--resume`: the journal read back (bulk/run.ts readRunJournal); `bodies` are then its planned items' bodies. */
  resume?: JournalState;
}

/**
 * The create of many entities of a noun from `bodies` (keyed by item id; `bookings create --file`) through its
 * bulk create call (commands/shared/writes.ts writeCreateMany): planned, executed chunk by chunk and journaled as
 * one change, each create's intent on disk before it is sent, so `sitectl history` lists it once and `sitectl
 * undo` takes back what it created (each only if unchanged since). The command asks first (the 'many' scope of
 * its rule) before it reads anything; this runs without a further question. A run in which nothing was created
 * and every item was refused (a 4xx) leaves no change in the history. Resumed (`how.resume`), the items with a
 * result are not sent again (a refusal included), and an item sent without one, or failed on the way, first
 * adopts the entity its create made if the noun can find it (WriteSpec.createMany.find); the others are sent.
 * @returns every item's result (created with `createdId`, or failed with the platform's reason) and the entities
 * @throws CancelError (130) on Ctrl-C; whatever the journal's creation throws
 */
export async function runCreateMany(
  ctx: Context,
  spec: WriteSpec,
  bodies: ReadonlyMap<string, Record<string, unknown>>,
  label: ((body: Record<string, unknown>) => string | undefined) | undefined,
  how: CreateManyRun,
): Promise<CreateManyResult> {
  const api = await ctx.api();
  const { port, action, created } = writeCreateMany(spec, api, bodies, label, how.resume?.header.createdAt);
  const resumable = spec.createMany?.find !== undefined;
  const resumeCommand = (journal: string) => (resumable ? resumeLine(ctx, how.command, journal) : '');
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
      ...(how.resume ? { resume: how.resume } : {}),
      resumeCommand,
      origin: await runOrigin(ctx, resumable ? how.command : undefined),
      // Each body's result is mapped back to it below (the bodies are held already).
      keepResults: true,
    },
    { confirm: async () => true },
  );
  if (result.kind !== 'done') throw new TypeError(`a create of many came to '${result.kind}'`);
  const byId = new Map((result.results ?? []).map((r) => [r.id, r]));
  const results = [...bodies.keys()].map((id): ItemResult => byId.get(id) ?? { id, outcome: 'failed', error: 'no result was recorded' });
  const made = results.filter((r) => r.outcome === 'created').length;
  // A resumed run's journal is a change already (its lost creates may exist): it stays.
  if (!how.resume && made === 0 && results.every((r) => r.permanent)) rmSync(result.journal, { force: true });
  else keepHistory(ctx, {}, result.journal, made < results.length);
  return { results, created, ...(resumable ? { resumeCommand: resumeCommand(result.journal) } : {}) };
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

/** What {@link runValueVerb} needs: the value verb, the item as typed, its value, how the verb speaks. */
export interface ValueVerbRun<E extends Entity, T> {
  verb: ValueVerb<E, T>;
  /** The item as typed (id, unique prefix, or what `find` reads). */
  given: string;
  /** The id `given` names (default: the id, or the entity of the verb's view whose id it is a unique prefix of). */
  find?(api: ApiClient): Promise<string>;
  /** The value the item is given, once it is named. */
  to(id: string): T;
  /** How the item prints (default: the verb's view). */
  view?: OneVerbRun['view'];
  /** The progress title (default: the verb's). */
  title?: string;
  flags: BulkFlags;
  /** The command words after the program name (`services slug set`). */
  command: string;
  /** The rest of the single form (rule, messages), given the resolved id for its messages. */
  one(id: () => string): Omit<OneItem, 'given'>;
}

/**
 * The single form of a value verb (`services slug set`, `members slug`, `bookings fields`, ...): the item named
 * once, before anything is read, then given `to(id)` as a one-item plan of the verb (commands/shared/values.ts
 * valueSteps) through {@link runOneVerb}.
 * @throws as runOneVerb
 */
export async function runValueVerb<E extends Entity, T>(ctx: Context, run: ValueVerbRun<E, T>): Promise<void> {
  const value = valueSteps(run.verb, run.find ?? ((api) => idOf(ctx, api, run.verb.view, run.given)), run.to);
  await runOneVerb(ctx, {
    view: run.view ?? run.verb.view,
    title: run.title ?? run.verb.title,
    ...value.steps,
    flags: run.flags,
    command: run.command,
    one: { given: run.given, ...run.one(value.id) },
  });
}
