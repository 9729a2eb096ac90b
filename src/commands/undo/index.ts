/**
 * `sitectl undo [CHANGE_ID | --last] [--dry-run] [--yes]` (docs/architecture.md "Bulk runs, the journal, history and undo"): previews the inverse of a change
 * from its journal (bulk/history.ts) and applies it as a change of its own, through the bulk engine: previewed,
 * confirmed (`--yes` off a terminal), journaled, resumable, and itself in the history (so it can be undone).
 *
 * The inverse of each kind of change, as each noun declares it (its module's `undo()`, commands/shared/inverses.ts;
 * the creates, updates and deletes from its writes-table entry, commands/shared/writes.ts WriteSpec):
 * - update (services `--set`, one or many; plans, members, staff, booking policies): each item's changed fields
 *   set back to their old values, if it still has the version the change left (its revision; for members and
 *   plans, which have none, its `updatedDate`); else it was changed since and is skipped.
 * - create (services create and clone, plans, staff, members, booking policies; an undo that re-created items):
 *   what was created removed, if unchanged since: deleted, except a plan, which the platform cannot delete:
 *   archived (said so).
 * - bookings create (one booking, or each booking of a --file), msb create: the booking, or every booking of the
 *   group, cancelled if unchanged since (the revision the create left); the service's cancellation policy is
 *   lifted only where it would refuse the cancel (commands/bookings/shared/writes.ts, msb/shared/engine.ts GROUP_WRITES).
 * - delete of services, staff members, booking policies: each created again from its before-image (a new id, said
 *   so; references to the old id, such as bookings, are not restored).
 * - services apply and clone --to-site, on each site they changed (one change of several sites, bulk/history.ts):
 *   on every site, with that site's client, services updated set back, services created deleted and services
 *   pruned re-created, each on the same terms as above; one preview and one confirmation, a report per site.
 * - members block / approve, mute / unmute; orders pause / resume; msb add / remove: the opposite verb, for the
 *   items it brings back where they were: a member blocked or approved from PENDING is left as it is, named (the platform has no way back to PENDING); staff connect: disconnect.
 * - bookings reschedule: moved back to the former slot if the booking still has the revision the move left and
 *   the slot is still free; else skipped ("changed since" / "slot taken"). bookings participants: the former
 *   number set back, unless changed since. staff hours set: the days' former hours set back, unless changed since.
 * - services slug set, members slug, services locations set, services pricing-plans add / remove, bookings fields,
 *   services booking-policies set-default (the value verbs of commands/shared/values.ts): the before-image set
 *   back (the former slug, locations or namespace data; the plans linked unlinked and the other way round; the
 *   former default policy made the default), if the item still has the revision the change left; else skipped.
 * - everything else (bookings confirm, decline, cancel; msb confirm, decline, pending, cancel, reschedule; orders
 *   cancel, mark-paid, postpone; checkout online and offline (an order bought); members delete, disconnect, clear-contact; staff disconnect; plans actions and
 *   clear-primary)
 *   cannot be undone: the platform has no way back, or none without loss, or sitectl does not take one yet.
 *   Listed as such: exit 1 "nothing to undo".
 *
 * Exit codes: 0 when everything that could be undone was; 3 when an item was skipped as changed since, or
 * failed; 1 when nothing of the change can be undone; 2 for an unknown change id or a missing --yes.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { type ChangePart, type ChangeSummary, findChange, readHistory, shortId } from '../../bulk/history.js';
import { holdLock } from '../../core/lock.js';
import { defaultJournalDir, type JournalState } from '../../bulk/journal.js';
import { readJournal } from '../../bulk/journal-read.js';
import type { Context } from '../../context.js';
import { ExitCode, PartialFailureError, UserError } from '../../core/errors.js';
import { shellWord } from '../../core/invocation.js';
import { notice, warn } from '../../core/log.js';
import { addBulkFlags, type BulkFlags } from '../shared/bulk-flags.js';
import { asksFirst, declareRule, DESTRUCTIVE, REVERSIBLE, requireConfirmable } from '../shared/confirm.js';
import { checkOrigin, warnDamaged } from '../shared/bulk.js';
import { done, type Inverse, type UndoRequest, writeInverse } from '../shared/inverses.js';
import type { Invocation, LoadableNoun } from '../noun-list.js';
import type { SitePlan } from '../services/shared/site-plans.js';
import type { PlannedItem } from '../../bulk/actions.js';

interface UndoOptions extends BulkFlags {
  last?: boolean;
  /** The nouns, whose declarations say how each change is undone (the program's list, through the Invocation). */
  nouns: readonly LoadableNoun[];
}

export function register(noun: Command, ctx: Context, inv: Invocation): void {
  const cmd = noun
    .argument('[change]', 'the change id from sitectl history (a unique prefix is enough)')
    .option('--last', 'the newest change that is not undone yet')
    .addHelpText(
      'after',
      [
        '',
        'Undone: updates of services, plans, members, staff and booking policies (fields set back, unless changed',
        'since); creates of those and services clone (deleted, unless changed since; a plan is archived); bookings',
        'create (one, or each of a --file) and msb create (cancelled, unless changed since; inside a cancellation',
        'window too); services, staff and booking policies delete (re-created with new ids); services apply and',
        'clone --to-site (on every site they changed); members block and approve (where that brings the member',
        'back: never from PENDING, which the platform cannot restore), mute/unmute, orders pause/resume,',
        'msb add/remove, staff connect (disconnected), bookings reschedule (moved back if the former slot is free),',
        'bookings participants, staff hours set, services slug set, members slug, services locations set, services',
        'pricing-plans add/remove, bookings fields (the former data), services booking-policies set-default (the',
        'former default).',
        'Not undoable: bookings confirm/decline/cancel, msb confirm/decline/pending/cancel/reschedule,',
        'orders cancel/mark-paid/postpone, checkout online/offline (an order bought), members',
        'delete/disconnect/clear-contact, staff disconnect, plans actions.',
        'Items deleted or changed since are skipped and named (exit 3). An undo that stopped (killed, failed) goes',
        'on where it stopped when run again; a second undo of the same change waits for the first.',
        '',
        'Examples:',
        '  sitectl history',
        '  sitectl undo --last --dry-run',
        '  sitectl undo 744db7 --yes',
      ].join('\n'),
    );
  // The rule of the change it makes, as `services apply` (declared not destructive, destructive with --prune):
  // an undo of one item acts at once unless its inverse deletes, blocks or pauses; then it asks first.
  declareRule(addBulkFlags(cmd), REVERSIBLE).addHelpText('after', 'An undo whose inverse deletes, blocks or pauses asks even for one item.');
  cmd.action(async (change: string | undefined, o: Omit<UndoOptions, 'nouns'>) => {
    await run(change, { ...o, nouns: inv.nouns ?? [] }, ctx);
  });
}


/**
 * Runs `sitectl undo`: the change named (or `--last`, or the one an undo's journal given to `--resume` undoes),
 * checked against where the command points now (profile, site, platform), then its inverse, one process at a time
 * per change (a second undo of the same change waits, then says what it found done). An undo of it that did not
 * finish (killed, failed on the way) is continued rather than started again; items deleted or changed since are
 * skipped with the reason.
 * @throws UserError (exit 2) for an unknown change, a change made elsewhere, a damaged journal, a missing --yes;
 *   UserError (exit 1) "nothing to undo", or a change that did not finish; PartialFailureError (exit 3) when items
 *   were skipped or failed
 */
export async function run(given: string | undefined, opts: UndoOptions, ctx: Context): Promise<void> {
  if (given !== undefined && opts.last) throw new UserError('pass a change id or --last, not both');
  if (opts.resume !== undefined) {
    if (given !== undefined || opts.last) throw new UserError('--resume names the undo to continue by its journal: give no change id or --last with it');
    const journal = readJournal(opts.resume);
    if (!journal.header.undoOf) {
      const verb = journal.header.origin?.verb;
      throw new UserError(
        `${opts.resume} is the journal of a ${journal.header.entity} ${journal.header.action} run, not of an undo`,
        verb ? `resume it with: ${ctx.bin} ${verb} --resume ${shellWord(opts.resume)}` : 'resume it with the command that made it (sitectl history shows it)',
      );
    }
    given = journal.header.undoOf;
  }
  if (given === undefined && !opts.last) throw new UserError('which change?', "pass a change id from 'sitectl history', or --last");
  const dir = defaultJournalDir(ctx.env);
  const history = readHistory(dir, ctx.now());
  warnDamaged(ctx, history.damaged);
  const named = findChange(history.changes, opts.last ? 'last' : given!);
  if (!named.ended) throw unfinished(ctx, named);
  let waited = false;
  const release = await holdLock(join(dir, `${named.id}.undo.lock`), {
    signal: ctx.signal,
    onWait: (pid) => {
      waited = true;
      notice(ctx.io, `change ${named.short} is being undone by another sitectl (process ${pid}); waiting for it to finish (Ctrl-C stops waiting)`);
    },
  });
  try {
    // Read again under the lock: another undo may have finished it, or stopped half-way, meanwhile.
    const change = waited ? findChange(readHistory(dir, ctx.now()).changes, named.id) : named;
    if (change.undoneBy) {
      const by = readHistory(dir, ctx.now()).changes.find((c) => c.id === change.undoneBy);
      if (waited) {
        notice(ctx.io, `change ${change.short} was undone meanwhile by change ${shortId(change.undoneBy)} (${by?.changed ?? 0} changed, ${by?.failed ?? 0} failed there); nothing left to undo here`);
        return;
      }
      throw new UserError(`change ${change.short} was undone already (by ${shortId(change.undoneBy)})`, `undo that one instead: ${ctx.bin} undo ${shortId(change.undoneBy)}`, ExitCode.Failure);
    }
    await undoChange(change, change.undoing ? findChange(readHistory(dir, ctx.now()).changes, change.undoing) : undefined, opts, ctx);
  } finally {
    release();
  }
}

/**
 * The error for a change that did not finish: an undo is continued by undoing its change again; any other run
 * by its own command with `--resume` (the words its journal recorded).
 */
function unfinished(ctx: Context, change: ChangeSummary): UserError {
  if (change.undoOf) {
    return new UserError(`change ${change.short} is an undo of change ${shortId(change.undoOf)} that did not finish`, `continue it with: ${ctx.bin} undo ${shortId(change.undoOf)}`, ExitCode.Failure);
  }
  const open = change.parts.find((p) => !p.ended) ?? change;
  const verb = readJournal(open.journal).header.origin?.verb;
  return new UserError(
    `change ${change.short} did not finish`,
    verb ? `finish it first: ${ctx.bin} ${verb} --resume ${shellWord(open.journal)}${ctx.io.canPrompt() ? '' : ' --yes'}` : `finish it first: its command with --resume ${open.journal}`,
    ExitCode.Failure,
  );
}

/** Undoes `change`, or continues `resuming` (an undo of it that did not finish). */
async function undoChange(change: ChangeSummary, resuming: ChangeSummary | undefined, opts: UndoOptions, ctx: Context): Promise<void> {
  const retry = (globals: string) => [ctx.bin, globals, 'undo', change.short].filter(Boolean).join(' ');
  // An apply, or what an apply made before it found nothing else to change (its parts all prepare it).
  if ((change.entity === 'services' && change.action === 'apply') || change.parts.some((p) => p.prepares)) {
    await checkOrigin(ctx, readJournal(change.journal), 'undo', retry, { site: false });
    return undoApply(change, opts, ctx);
  }
  const state = readJournal(change.journal);
  await checkOrigin(ctx, state, 'undo', retry);
  // The undo's own journal, checked before anything is read of the platform.
  const resume = resuming ? readJournal(resuming.journal) : undefined;
  const inverse = await inverseOf(change, state, ctx, opts.nouns);
  if ('cannot' in inverse || inverse.ids.length === 0) {
    throw new UserError(
      `nothing to undo in change ${change.short} (${change.entity} ${change.action}): ${'cannot' in inverse ? inverse.cannot : (inverse.none ?? 'none of its items changed anything')}`,
      undefined,
      ExitCode.Failure,
    );
  }
  // The confirmation rule of every change (shared/confirm.ts): many items ask; one asks when its inverse is destructive.
  const rule = inverse.destructive ? DESTRUCTIVE : REVERSIBLE;
  const scope = inverse.ids.length > 1 ? 'many' : 'one';
  requireConfirmable(ctx, opts, rule, scope, `undoing change ${change.short}`);
  if (resume) notice(ctx.io, `continuing the undo of change ${change.short} that did not finish (change ${resuming!.short})`);
  if (inverse.note) notice(ctx.io, inverse.note);
  const { runBulkVerb } = await import('../shared/bulk.js');
  const result = await runBulkVerb(ctx, {
    view: inverse.view,
    port: inverse.port,
    action: inverse.action,
    ...(resume ? { resume } : { selection: { kind: 'ids', ids: inverse.ids } }),
    // The engine's prompt asks whenever it is reached: an undo the rule lets act at once does not reach it.
    flags: asksFirst(rule, scope) ? { ...opts, resume: undefined } : { ...opts, resume: undefined, yes: true },
    command: 'undo',
    question: (n) => `Undo change ${change.short} (${change.entity} ${change.action}) on ${n} ${n === 1 ? inverse.view.noun.one : inverse.view.noun.many}?`,
    undoOf: change.id,
    skipMissing: `deleted since change ${change.short}`,
  });
  const left = inverse.left ?? new Map<string, string>();
  for (const [id, why] of left) warn(ctx.io, `left as it is: ${id}: ${why}`);
  if (result.kind === 'done') {
    const skipped = result.report.counts.skipped ?? 0;
    if (skipped) {
      const why = inverse.skippedWhy ?? `were changed or deleted since change ${change.short}`;
      throw new PartialFailureError(`${skipped} of ${result.report.total} ${inverse.view.noun.many} ${why} and were left as they are`, 'sitectl history shows what changed them');
    }
  }
  if (left.size) throw new PartialFailureError(`${left.size} ${left.size === 1 ? inverse.view.noun.one : inverse.view.noun.many} of change ${change.short} cannot be brought back where ${left.size === 1 ? 'it was' : 'they were'} and ${left.size === 1 ? 'was' : 'were'} left as ${left.size === 1 ? 'it is' : 'they are'}`);
}

/**
 * The undo of `services apply` and `services clone --to-site`, on one site or several (docs/architecture.md,
 * history and undo): each site's part of the change is planned back from its journal against that site as it is
 * now (read and written with that site's client, services/shared/apply-undo.ts), then every site's inverse is
 * previewed at once, confirmed once, run as an apply on each site (one journal per site, all naming this undo
 * as one change), and reported per site.
 * @throws UserError (exit 2) for another profile than the change's, a site the account no longer has, a missing
 *   --yes; (exit 1) "nothing to undo"; PartialFailureError (exit 3) when items were skipped as changed since, or
 *   failed
 */
async function undoApply(change: ChangeSummary, opts: UndoOptions, ctx: Context): Promise<void> {
  const [{ applyPlans, reportSites }, { sitePlan }, { applyInverse, mergeInverses, planApplyUndo }, { runOrigin }, { POLICY_WRITES }, { CATEGORY_WRITES }, { runBulk }, { newRunId }] = await Promise.all([
    import('../services/apply.js'),
    import('../services/shared/site-plans.js'),
    import('../services/shared/apply-undo.js'),
    import('../shared/bulk.js'),
    import('../services/shared/policy-writes.js'),
    import('../services/shared/category-writes.js'),
    import('../../bulk/run.js'),
    import('../../bulk/journal.js'),
  ]);
  const profile = (await runOrigin(ctx)).profile;
  if (change.profile && profile && change.profile !== profile) {
    throw new UserError(`change ${change.short} was made with profile ${change.profile}, not the one in use (${profile})`, `run it with that profile: sitectl undo ${change.short} --profile ${change.profile}`);
  }
  const siteOf = (part: ChangePart) => {
    if (!part.siteId) throw new UserError(`change ${change.short}: ${part.journal} records no site`, undefined, ExitCode.Failure);
    return part.siteId;
  };
  // What each site's journal says can be undone, and the rule that follows, before anything is read.
  // One inverse per site: its services run and its add-on group run, as one (apply-undo.ts mergeInverses).
  const bySite = new Map<string, ReturnType<typeof applyInverse>[]>();
  for (const part of change.parts.filter((p) => !p.prepares)) bySite.set(siteOf(part), [...(bySite.get(siteOf(part)) ?? []), applyInverse(readJournal(part.journal))]);
  const parts = [...bySite].map(([siteId, list]) => ({ siteId, inverse: mergeInverses(list) }));
  // What `--create-missing` made for the services: its booking policies and categories are deleted after them.
  const prepared = change.parts.filter((p) => p.prepares).map((part) => ({ siteId: siteOf(part), entity: part.entity, state: readJournal(part.journal) }));
  const made = (entity: string) => prepared.filter((p) => p.entity === entity && done(p.state, ['created']).length > 0);
  // Each made thing with its writes and the stem of its name (`booking polic` + y/ies, `categor` + y/ies).
  const furniture = [
    ...made('booking policies').map((p) => ({ ...p, writes: POLICY_WRITES, stem: 'booking polic' })),
    ...made('categories').map((p) => ({ ...p, writes: CATEGORY_WRITES, stem: 'categor' })),
  ];
  const lost = parts.reduce((n, p) => n + p.inverse.lost, 0);
  if (lost) warn(ctx.io, `${lost} item${lost === 1 ? '' : 's'} of change ${change.short} cannot be undone: ${lost === 1 ? 'its journal keeps' : 'their journals keep'} no before-image (written by an older sitectl)`);
  // Add-ons `--create-missing` made are kept: the Add-ons API has no delete (services/shared/add-on-writes.ts).
  const addOnsMade = made('add-ons').reduce((n, p) => n + done(p.state, ['created']).length, 0);
  if (addOnsMade) notice(ctx.io, `the ${addOnsMade} add-on${addOnsMade === 1 ? '' : 's'} change ${change.short} created ${addOnsMade === 1 ? 'is' : 'are'} kept: the Add-ons API has no delete`);
  const undoable = parts.reduce((n, p) => n + p.inverse.updated.length + p.inverse.created.length + p.inverse.deleted.length + p.inverse.groups.length, 0) + furniture.length;
  const nothing = (why: string) => new UserError(`nothing to undo in change ${change.short} (${change.entity} ${change.action}): ${why}`, undefined, ExitCode.Failure);
  if (undoable === 0) throw nothing(lost ? 'what it changed was not journaled with its before-image' : 'none of its items changed anything');
  // The confirmation rule (shared/confirm.ts): many items ask; one asks when the inverse deletes (what was created).
  const rule = parts.some((p) => p.inverse.created.length) || furniture.length ? DESTRUCTIVE : REVERSIBLE;
  const scope = undoable > 1 ? 'many' : 'one';
  requireConfirmable(ctx, opts, rule, scope, `undoing change ${change.short}`);
  const plans: SitePlan[] = [];
  const all: PlannedItem[] = [];
  for (const { siteId, inverse } of parts) {
    const { api, site } = await ctx.siteApi(siteId);
    const { items, groups, plannedAt } = await planApplyUndo(api, inverse, ctx.signal);
    all.push(...items, ...groups);
    const setBack = groups.filter((i) => !i.unchanged && i.skip === undefined);
    const phase = groups.length ? { rows: setBack.map((i) => ({ site: site.name, action: 'set add-on groups back', slug: (i.after as { slug: string }).slug, fields: String(i.changes[0]?.after ?? '') })), changes: setBack.length, items: async () => groups } : undefined;
    plans.push(sitePlan(site, api, items, { missing: [], create: [], plannedAt, groups: phase }));
  }
  const items = all.filter((i) => !i.unchanged);
  if (items.length === 0 && furniture.length === 0) throw nothing('what it changed is as the undo would leave it already');
  const steps = items.filter((i) => i.skip === undefined).map((i) => (i.after as { op: string }).op);
  if (steps.includes('create')) notice(ctx.io, 're-created services get new ids; bookings and other references to the deleted ids are not restored');
  for (const stem of new Set(furniture.map((p) => p.stem))) {
    const count = furniture.filter((p) => p.stem === stem).reduce((n, p) => n + done(p.state, ['created']).length, 0);
    notice(ctx.io, `${opts.dryRun ? 'would delete' : 'then deletes'} the ${count} ${stem}${count === 1 ? 'y' : 'ies'} the change created, on each site where its services were all undone`);
  }
  const partOf = newRunId(ctx.now());
  const outcomes = await applyPlans(ctx, plans, { ...opts, verb: 'services apply' }, { rule, scope, question: `Undo change ${change.short} (${change.entity} ${change.action})`, what: `undoing change ${change.short}`, undoOf: change.id, partOf });
  if (opts.dryRun) return;
  for (const { siteId, state, writes, stem } of furniture) {
    const outcome = outcomes.find((o) => o.siteId === siteId);
    if (outcome && outcome.status !== 'applied' && outcome.status !== 'unchanged') {
      warn(ctx.io, `site ${outcome.siteName}: the ${stem}ies change ${change.short} created are left, as its services were not all undone`);
      continue;
    }
    const { api, site } = await ctx.siteApi(siteId);
    const inverse = (await writeInverse(writes, { api, state, action: 'create', now: ctx.now() }))!;
    const result = await runBulk(
      inverse.port,
      inverse.action,
      {
        selection: { kind: 'ids', ids: inverse.ids },
        dryRun: false,
        concurrency: 1,
        previewLimit: 0,
        signal: ctx.signal,
        env: ctx.env,
        now: ctx.now(),
        resumeCommand: () => `${ctx.bin} undo ${change.short}`,
        origin: { ...(await runOrigin(ctx)), siteId: site.id, siteName: site.name },
        undoOf: change.id,
        partOf,
        skipMissing: `deleted since change ${change.short}`,
        // Each left one is named below.
        keepResults: true,
      },
      { confirm: async () => true },
    );
    const left = result.kind === 'done' ? (result.results ?? []).filter((r) => r.outcome !== 'deleted') : [];
    if (left.length) warn(ctx.io, `site ${site.name}: ${left.length} ${stem}${left.length === 1 ? 'y' : 'ies'} of change ${change.short} left as ${left.length === 1 ? 'it is' : 'they are'}: ${left.map((r) => `${r.id} (${r.error ?? r.outcome})`).join(', ')}`);
    const deleted = result.kind === 'done' ? (result.results ?? []).length - left.length : 0;
    if (deleted) notice(ctx.io, `site ${site.name}: deleted ${deleted} ${stem}${deleted === 1 ? 'y' : 'ies'} change ${change.short} created`);
  }
  await reportSites(ctx, outcomes, opts.json, 'services apply');
}

/**
 * The inverse of `change` as its noun declares it (NounModule.undo, commands/shared/inverses.ts): the action's
 * own rule, else the writes table's inverse of a create, update or delete.
 * @returns the inverse, or why the change cannot be undone
 */
async function inverseOf(change: ChangeSummary, state: JournalState, ctx: Context, nouns: readonly LoadableNoun[]): Promise<Inverse | { cannot: string }> {
  const { entity, action } = change;
  const noun = nouns.find((n) => n.entities?.includes(entity));
  const declared = (await (await noun?.load())?.undo?.())?.[entity];
  const rule = declared?.actions?.[action];
  if (rule && 'cannot' in rule) return rule;
  const req: UndoRequest = { api: await ctx.api(), state, action, now: ctx.now() };
  const inverse = rule ? await rule.inverse(req) : declared?.writes ? await writeInverse(await declared.writes(), req) : undefined;
  return inverse ?? { cannot: declared?.otherwise?.(action) ?? `${entity} ${action} cannot be undone` };
}
