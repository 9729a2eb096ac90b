/**
 * `sitectl services booking-policies list|count|strictest|create|update|delete|set-default` (Booking Policies v1,
 * the SDK module `@wix/auto_sdk_bookings_booking-policies`): the rules a service's bookings follow. `list` and
 * `count` are the shared read verbs over the policies query and count call; `strictest` the strictest version of
 * each rule of several policies (`getStrictestBookingPolicy`). A policy is named by id, a unique id prefix or its
 * exact name. The rule flags set the platform's rule blocks (a block given in part keeps its other fields: the
 * platform merges deeply; docs/wire.md §14 "Booking policies"):
 *
 * - `--earliest-booking MIN`: book at most MIN minutes before the start (`limitEarlyBookingPolicy`)
 * - `--latest-booking MIN`: book at least MIN minutes before the start (`limitLateBookingPolicy`)
 * - `--cancel-until MIN` / `--reschedule-until MIN`: up to MIN minutes before the start (`cancellationPolicy`,
 *   `reschedulePolicy`)
 * - `--max-participants N` (`participantsPolicy.maxParticipantsPerBooking`, always applied), `--waitlist N`
 *   (`waitlistPolicy`; 0 turns it off)
 *
 * `off` lifts a limit. `delete` is destructive (asks; `--yes`) and refused for the default policy; the services
 * that used the deleted policy get the default one. `set-default` acts at once (another `set-default` undoes it).
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { collect, items, listPages } from '../../api/paging.js';
import { type BookingPolicy, BookingPolicyRuleValues } from '../../api/schemas/service.js';
import { bookingPolicies, MAX_POLICIES_PAGE } from '../../api/service-furniture.js';
import { serviceOps } from '../../api/services.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { parseCount } from '../../core/numbers.js';
import { addFormatFlags, fieldsChecker, printRecord, printValue, resolveFormat, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { declareRule, DESTRUCTIVE, REVERSIBLE } from '../shared/confirm.js';
import { deleteRun, type DeleteSpec } from '../shared/delete.js';
import type { EntityView } from '../shared/entity-view.js';
import { changeOfFields } from '../shared/writes.js';
import { POLICY_VIEW, POLICY_WRITES } from './shared/policy-writes.js';
import { POLICY_READS } from './shared/policy-reads.js';
import { countVerb, listVerb } from '../shared/verbs.js';

/** `list`: the shared list verb over the policies query (`--filter`, `--where`, `--sort`, `--limit`, `--all`, formats). */
const POLICY_LIST = listVerb({
  ...POLICY_READS,
  description: 'List booking policies (filter, sort, limit or all)',
  examples: [
    'sitectl services booking-policies list',
    'sitectl services booking-policies list --where default=true --json id,name,participantsPolicy',
    `sitectl services booking-policies list --filter '{"participantsPolicy.maxParticipantsPerBooking":{"$gt":1}}' --sort name`,
  ],
});
import { isIdPrefix } from '../shared/ids.js';

/** The flags of create and update. */
export interface PolicyFlags extends FormatFlags {
  name?: string;
  description?: string;
  earliestBooking?: string;
  latestBooking?: string;
  cancelUntil?: string;
  rescheduleUntil?: string;
  maxParticipants?: string;
  waitlist?: string;
  yes?: boolean;
}

const POLICY_FIELDS = ['id', 'name', 'default', 'revision', 'createdDate', 'updatedDate', 'customPolicyDescription', ...BookingPolicyRuleValues];

/** Minutes of a rule flag (at least 1, the SDK's `@min 1`), or `off`. @throws UserError (exit 2) */
function minutesOf(raw: string, flag: string): number | 'off' {
  return raw.trim().toLowerCase() === 'off' ? 'off' : parseCount(raw.trim(), flag, 1, 525_600);
}

/**
 * The rule blocks and fields the flags set (only those given).
 * @throws UserError (exit 2) for a blank name or a bad number
 */
export function policyFieldsOf(f: PolicyFlags): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (f.name !== undefined) {
    if (f.name.trim() === '') throw new UserError('--name: a booking policy needs a name');
    if (f.name.length > 400) throw new UserError(`--name: at most 400 characters, got ${f.name.length}`);
    out.name = f.name.trim();
  }
  if (f.description !== undefined) out.customPolicyDescription = { enabled: f.description !== '', description: f.description };
  if (f.earliestBooking !== undefined) {
    const m = minutesOf(f.earliestBooking, '--earliest-booking');
    out.limitEarlyBookingPolicy = m === 'off' ? { enabled: false } : { enabled: true, earliestBookingInMinutes: m };
  }
  if (f.latestBooking !== undefined) {
    const m = minutesOf(f.latestBooking, '--latest-booking');
    out.limitLateBookingPolicy = m === 'off' ? { enabled: false } : { enabled: true, latestBookingInMinutes: m };
  }
  if (f.cancelUntil !== undefined) {
    const m = minutesOf(f.cancelUntil, '--cancel-until');
    out.cancellationPolicy = m === 'off' ? { enabled: true, limitLatestCancellation: false } : { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: m };
  }
  if (f.rescheduleUntil !== undefined) {
    const m = minutesOf(f.rescheduleUntil, '--reschedule-until');
    out.reschedulePolicy = m === 'off' ? { enabled: true, limitLatestReschedule: false } : { enabled: true, limitLatestReschedule: true, latestRescheduleInMinutes: m };
  }
  if (f.maxParticipants !== undefined) out.participantsPolicy = { maxParticipantsPerBooking: parseCount(f.maxParticipants, '--max-participants', 1, 1000) };
  if (f.waitlist !== undefined) {
    const n = parseCount(f.waitlist, '--waitlist', 0, 1000);
    out.waitlistPolicy = n === 0 ? { enabled: false } : { enabled: true, capacity: n };
  }
  return out;
}

function addPolicyFlags(cmd: Command): Command {
  return cmd
    .option('--name <name>', 'the policy name')
    .option('--description <text>', 'the policy text customers see ("" removes it)')
    .option('--earliest-booking <minutes>', 'book at most this long before the start (or off)')
    .option('--latest-booking <minutes>', 'book at least this long before the start (or off)')
    .option('--cancel-until <minutes>', 'cancel up to this long before the start (or off: any time)')
    .option('--reschedule-until <minutes>', 'reschedule up to this long before the start (or off: any time)')
    .option('--max-participants <n>', 'participants one booking may hold')
    .option('--waitlist <n>', 'waitlist places per session (0: no waitlist)');
}

/** A policy with the services that use it, as the policies query answers. */
interface PolicyEntry {
  policy: BookingPolicy & { id: string };
  services: number;
}

/**
 * The booking policy `given` names: its id, a unique id prefix, or its exact name (case-insensitive).
 * @throws UserError exit 2 for no match (naming the list) or an ambiguous one
 */
export async function policyOf(ctx: Context, api: ApiClient, given: string): Promise<PolicyEntry> {
  const all = (await collect(items(listPages(api, serviceOps.queryPolicies, { pageSize: 100, signal: ctx.signal })))).map((p) => ({
    policy: p.bookingPolicy as BookingPolicy & { id: string },
    services: p.totalServiceCount ?? p.connectedServices?.length ?? 0,
  }));
  const exact = all.find((p) => p.policy.id === given);
  if (exact) return exact;
  const lower = given.trim().toLowerCase();
  const byPrefix = isIdPrefix(given) ? all.filter((p) => p.policy.id.toLowerCase().startsWith(lower)) : [];
  const found = byPrefix.length ? byPrefix : all.filter((p) => (p.policy.name ?? '').toLowerCase() === lower);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new UserError(`booking policy '${given}' is ambiguous: ${found.map((p) => `${p.policy.id} (${p.policy.name ?? ''})`).join(', ')}`, 'give the full id');
  throw new UserError(`no booking policy '${given}' on this site`, `'${ctx.bin} services booking-policies list' shows them`, ExitCode.Usage);
}

const label = (p: BookingPolicy & { id: string }) => `booking policy "${oneLine(p.name ?? '')}" (${p.id})`;

async function show(ctx: Context, opts: FormatFlags, policy: unknown, piped?: string): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(POLICY_FIELDS));
  if (piped !== undefined && format.kind === 'table' && !ctx.io.isStdoutTTY) {
    await printValue(ctx.io, format, policy, { text: piped });
    return;
  }
  await printRecord(ctx.io, format, policy, { now: ctx.now() });
}

/**
 * `create`: a new policy (never the default), as a one-item change (in `sitectl history`; `sitectl undo` deletes
 * it if unchanged since). @throws UserError (exit 2); the platform's refusal as thrown
 */
export async function runCreate(opts: PolicyFlags, ctx: Context): Promise<void> {
  resolveFormat(opts, fieldsChecker(POLICY_FIELDS));
  if (opts.name === undefined) throw new UserError('a new booking policy needs --name', `e.g. ${ctx.bin} services booking-policies create --name 'Strict' --cancel-until 1440`);
  const fields = policyFieldsOf(opts) as { name: string };
  const { runCreateOne } = await import('../shared/one.js');
  const bookingPolicy = (await runCreateOne(ctx, POLICY_WRITES, fields, fields.name)) as BookingPolicy & { id: string };
  success(ctx.io, `Created ${label(bookingPolicy)}`);
  await show(ctx, opts, bookingPolicy, bookingPolicy.id);
}

/**
 * `update POLICY`: the rules given, as a one-item plan at the policy's revision (rules already as asked: nothing
 * sent); journaled, so `sitectl undo` sets them back if unchanged since. @throws UserError (exit 2)
 */
export async function runUpdate(opts: PolicyFlags & { policy: string }, ctx: Context): Promise<void> {
  resolveFormat(opts, fieldsChecker(POLICY_FIELDS));
  const fields = policyFieldsOf(opts);
  if (Object.keys(fields).length === 0) throw new UserError('nothing to change', 'give the rules to change, e.g. --cancel-until 1440 or --max-participants 2');
  const { runUpdateOne } = await import('../shared/one.js');
  await runUpdateOne(ctx, {
    spec: POLICY_WRITES,
    given: opts.policy,
    change: changeOfFields(fields),
    flags: opts,
    command: 'services booking-policies update',
    resolve: async (api) => (await policyOf(ctx, api, opts.policy)).policy.id,
    outcome: (after: BookingPolicy & { id: string }) => `Updated ${label(after)}: ${Object.keys(fields).join(', ')}`,
  });
}

/**
 * `delete POLICY`: asks first; refused for the default policy. A one-item plan of the shared delete
 * (commands/shared/delete.ts deleteRun), journaled with the policy, so `sitectl undo` re-creates it (a new id).
 * @throws UserError (exit 2; exit 1 for the default), DeclinedError
 */
export async function runDelete(opts: FormatFlags & { policy: string; yes?: boolean }, ctx: Context): Promise<void> {
  let entry: PolicyEntry | undefined;
  const { runOneVerb } = await import('../shared/one.js');
  await runOneVerb(ctx, {
    view: POLICY_VIEW as EntityView<unknown>,
    title: 'Deleting',
    build: (api) => deleteRun(POLICY_DELETE, api, {}),
    async resolve(api) {
      entry = await policyOf(ctx, api, opts.policy);
      if (entry.policy.default) {
        throw new UserError(`${label(entry.policy)} is the default policy and cannot be deleted`, `make another one the default first ('${ctx.bin} services booking-policies set-default OTHER')`, ExitCode.Failure);
      }
      return entry.policy.id;
    },
    flags: opts,
    command: 'services booking-policies delete',
    one: {
      given: opts.policy,
      rule: DESTRUCTIVE,
      question: (p: BookingPolicy & { id: string }) => `Delete ${label(p)}? Its ${moved(entry?.services ?? 0)} get the default policy. This cannot be undone.`,
      outcome: (_after: never, _label: string, p: BookingPolicy & { id: string }) => `deleted ${label(p)}${entry?.services ? `; its ${moved(entry.services)} now use the default policy` : ''}`,
      result: { fields: ['id', 'deleted', 'services'], value: (id) => ({ id, deleted: true, services: entry?.services ?? 0 }) },
    },
  });
}

const moved = (services: number) => `${services} service${services === 1 ? '' : 's'}`;

/** The shared delete over booking policies, one call each (the single form's; undone by re-creating). */
const POLICY_DELETE: DeleteSpec<unknown> = {
  view: POLICY_VIEW as EntityView<unknown>,
  command: 'services booking-policies delete',
  examples: [],
  send: (api) => POLICY_WRITES.remove.send(api),
  chunkSize: 1,
};

/**
 * `set-default POLICY`: makes it the site's default, as a one-item plan of the value verb (services/shared/values.ts
 * DEFAULT_POLICY_VERB): already the default, nothing is sent ("is the default already; nothing changed");
 * else journaled with the former default, so `sitectl undo` makes that one the default again if the policy is
 * unchanged since. Prints the policy.
 * @throws UserError (exit 2) for an unknown or ambiguous policy or a bad --json field; UserError (exit 1) when
 *   the platform refuses it
 */
export async function runSetDefault(opts: FormatFlags & { policy: string }, ctx: Context): Promise<void> {
  resolveFormat(opts, fieldsChecker(POLICY_FIELDS));
  const [{ runValueVerb }, { DEFAULT_POLICY_VERB }] = await Promise.all([import('../shared/one.js'), import('./shared/values.js')]);
  let former: (BookingPolicy & { id: string }) | undefined;
  // The policy named, and the default it takes over from (journaled, so an undo makes that one the default again).
  const find = async (api: ApiClient): Promise<string> => {
    const id = (await policyOf(ctx, api, opts.policy)).policy.id;
    const all = await collect(items(listPages(api, serviceOps.queryPolicies, { pageSize: 100, signal: ctx.signal })));
    former = all.map((p) => p.bookingPolicy as BookingPolicy & { id: string }).find((p) => p.default && p.id !== id);
    return id;
  };
  await runValueVerb(ctx, {
    verb: DEFAULT_POLICY_VERB,
    given: opts.policy,
    find,
    to: (id) => ({ id, ...(former ? { former: former.id } : {}) }),
    flags: opts,
    command: 'services booking-policies set-default',
    one: () => ({
      rule: REVERSIBLE,
      already: (p: BookingPolicy & { id: string }) => `${label(p)} is the default already`,
      outcome: (after: BookingPolicy & { id: string }, _l: string, before: BookingPolicy & { id: string }) => `${label(after ?? before)} is now the default${former ? ` (was "${oneLine(former.name ?? '')}")` : ''}`,
    }),
  });
}

/**
 * `strictest POLICY...`: the strictest version of each rule of the policies named (ids, unique id prefixes or
 * exact names; 1 to 100), as the platform computes it (`getStrictestBookingPolicy`): a policy that is not stored
 * (no id). Prints it as `get` prints a policy. Reads only.
 * @throws UserError (exit 2) for no policy, more than 100, or one that names no policy or several
 */
export async function runStrictest(opts: FormatFlags & { policies: string[] }, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(POLICY_FIELDS));
  if (opts.policies.length === 0) throw new UserError('name the booking policies to combine', `e.g. ${ctx.bin} services booking-policies strictest 'Standard policy' 'Strict policy'`);
  if (opts.policies.length > MAX_POLICIES_PAGE) throw new UserError(`at most ${MAX_POLICIES_PAGE} booking policies at once, got ${opts.policies.length}`);
  const api = await ctx.api();
  const ids: string[] = [];
  for (const given of opts.policies) ids.push((await policyOf(ctx, api, given)).policy.id);
  const reply = await bookingPolicies.getStrictestBookingPolicy(api, { bookingPolicyIds: [...new Set(ids)] }, { signal: ctx.signal });
  const policy = (reply.bookingPolicy ?? {}) as BookingPolicy;
  // On a terminal the rules alone: the null id says only that the policy is not stored.
  await printRecord(ctx.io, format, policy, { now: ctx.now(), rows: POLICY_VIEW.rows(policy) });
}

/** Adds list, count, strictest, create, update, delete and set-default under `services booking-policies`. */
export function registerPolicyVerbs(group: Command, ctx: Context): void {
  const examples = (lines: string[]) => `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;
  POLICY_LIST.register(group, ctx);
  countVerb(POLICY_READS).register(group, ctx);
  const strictest = group
    .command('strictest')
    .description('The strictest version of each rule of several booking policies (computed by the platform, not stored)')
    .argument('<policies...>', 'policy ids, unique id prefixes, or exact names (up to 100)')
    .addHelpText('after', examples(["sitectl services booking-policies strictest 'Standard policy' 'Strict policy'", 'sitectl services booking-policies strictest 3f2a 9c1e --json participantsPolicy,cancellationPolicy']));
  addFormatFlags(strictest).action(async (policies: string[], o: FormatFlags) => {
    await runStrictest({ ...o, policies }, ctx);
  });
  const create = addPolicyFlags(group.command('create').description('Create a booking policy (rules not given take the platform defaults)')).addHelpText(
    'after',
    examples(["sitectl services booking-policies create --name 'Strict' --cancel-until 1440 --latest-booking 120", "sitectl services booking-policies create --name 'Groups' --max-participants 4 --waitlist 5"]),
  );
  declareRule(addFormatFlags(create), REVERSIBLE).action(async (o: PolicyFlags) => {
    await runCreate(o, ctx);
  });
  const update = addPolicyFlags(group.command('update').description("Change a booking policy's name, text or rules").argument('<policy>', 'policy id, unique id prefix, or exact name')).addHelpText(
    'after',
    examples(["sitectl services booking-policies update 'Strict policy' --cancel-until 2880", "sitectl services booking-policies update 3f2a --latest-booking off --description ''"]),
  );
  declareRule(addFormatFlags(update), REVERSIBLE).action(async (policy: string, o: PolicyFlags) => {
    await runUpdate({ ...o, policy }, ctx);
  });
  const del = group
    .command('delete')
    .description('Delete a booking policy (not the default): its services get the default policy')
    .argument('<policy>', 'policy id, unique id prefix, or exact name')
    .addHelpText('after', examples(["sitectl services booking-policies delete 'Strict policy' --yes   # its services move to the default"]));
  declareRule(addFormatFlags(del), DESTRUCTIVE).action(async (policy: string, o: FormatFlags & { yes?: boolean }) => {
    await runDelete({ ...o, policy }, ctx);
  });
  const setDefault = group
    .command('set-default')
    .description("Make a booking policy the site's default (new services and those of a deleted policy get it)")
    .argument('<policy>', 'policy id, unique id prefix, or exact name')
    .addHelpText('after', examples(["sitectl services booking-policies set-default 'Flexible policy'"]));
  declareRule(addFormatFlags(setDefault), REVERSIBLE).action(async (policy: string, o: FormatFlags) => {
    await runSetDefault({ ...o, policy }, ctx);
  });
}
