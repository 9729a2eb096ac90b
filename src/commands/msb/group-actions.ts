/**
 * The group verbs of `sitectl msb`: get, confirm, decline, cancel, pending, reschedule, availability, add,
 * remove, actions. The writes (confirm, decline, pending, cancel, reschedule, add, remove) run through the entity
 * bulk engine as one-item plans (shared/engine.ts): journaled, listed by `sitectl history`; `sitectl undo` takes
 * back `add` and `remove` with the opposite verb. Each passes every booking at the revision the plan read, so a
 * booking changed meanwhile is refused (a conflict) and nothing changes.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { multiServiceBookings as calls } from '../../api/multi-service-bookings.js';
import { MAX_MSB_ALLOWED_ACTIONS, type MultiServiceBooking } from '../../api/schemas/booking.js';
import type { Context } from '../../context.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, printRecords, printValue, resolveFormat } from '../../core/output.js';
import { failIfMissing, resolveAll } from '../shared/ids.js';
import { declareRule } from '../shared/confirm.js';
import { addNotifyFlags, notifyOption } from '../shared/notify.js';
import { idOf } from '../shared/verbs.js';
import { needsZone, parseWhen, tzFlag } from '../shared/time.js';
import { BOOKING_VIEW } from '../bookings/shared/view.js';
import { GROUP_NOUN, GROUP_VERBS, groupRun, type GroupEntity, type GroupOptions, type GroupVerbSpec } from './shared/engine.js';
import { groupFormat, printGroup, readGroup } from './shared/group.js';

/** How a group verb is declared on the command line, besides its spec (shared/engine.ts). */
interface GroupCli {
  description: string;
  example?: string;
  flags?(cmd: Command): void;
  /** The outcome line (default: `<Done> multi-service booking ID`). */
  outcome?(id: string, o: GroupOptions): string;
  /** What is true already (default: `multi-service booking ID is already <done>`). */
  already?(id: string, o: GroupOptions): string;
}

/**
 * `msb VERB ID`: a group verb as a one-item plan of the bulk engine (commands/shared/one.ts runOneVerb): the group
 * is read first (an unknown id is the platform's 404), then planned (already as asked: nothing sent; refused by
 * its state: exit 1 naming what to do instead), confirmed by the verb's rule (cancel and decline ask first), sent
 * at the bookings' revisions, journaled (so in `sitectl history`) and printed as it is now.
 * @param prepare the verb's options from its flags and the group as read (reschedule reads --start on the
 *   group's clock; add and remove resolve their bookings). @throws UserError (exit 2) for bad input
 */
function groupVerb(spec: GroupVerbSpec, cli: GroupCli, prepare?: (ctx: Context, api: ApiClient, group: MultiServiceBooking & { id: string }, o: Record<string, unknown>, extra: string[]) => Promise<GroupOptions>) {
  const run = async (given: string, extra: string[], o: FormatFlags & { yes?: boolean } & Record<string, unknown>, ctx: Context): Promise<void> => {
    const { runOneVerb } = await import('../shared/one.js');
    let options: GroupOptions = {};
    let id = given;
    const Done = `${spec.done[0]!.toUpperCase()}${spec.done.slice(1)}`;
    await runOneVerb(ctx, {
      view: GROUP_NOUN,
      title: spec.title,
      async verify(api) {
        const group = await readGroup(ctx, api, given);
        id = group.id;
        options = prepare ? await prepare(ctx, api, group, o, extra) : {};
      },
      build: (api) => groupRun(spec, api, { options: options as Record<string, unknown> }),
      resolve: async () => id,
      flags: o,
      command: `msb ${spec.verb}`,
      one: {
        given,
        rule: spec,
        already: () => cli.already?.(id, options) ?? `multi-service booking ${id} is already ${spec.done}`,
        instead: (e: GroupEntity) => spec.blocked?.(e.group, options)?.instead?.(ctx.bin),
        outcome: () => cli.outcome?.(id, options) ?? `${Done} multi-service booking ${id}`,
      },
    });
  };
  return {
    run,
    register(parent: Command, ctx: Context) {
      const cmd = parent.command(spec.verb).description(cli.description).argument('<id>', 'the multi-service booking id');
      if (spec.verb === 'add' || spec.verb === 'remove') cmd.argument('<bookings...>', 'bookings (ids or unique prefixes)');
      cli.flags?.(cmd);
      if (cli.example) cmd.addHelpText('after', `\nExample:\n  ${cli.example}`);
      declareRule(cmd, spec);
      addFormatFlags(cmd).action(async (id: string, ...rest: unknown[]) => {
        const flags = rest[rest.length - 2] as FormatFlags & Record<string, unknown>;
        const extra = rest.slice(0, -2).flat() as string[];
        await run(id, extra, flags, ctx);
      });
    },
  };
}

export const get = {
  register(parent: Command, ctx: Context) {
    const cmd = parent.command('get').description('Show a multi-service booking and its bookings').argument('<id>', 'the multi-service booking id');
    cmd.addHelpText('after', '\nExample:\n  sitectl msb get 5a0d...');
    addFormatFlags(cmd).action(async (id: string, o: FormatFlags) => {
      const format = groupFormat(o);
      await printGroup(ctx, format, await readGroup(ctx, await ctx.api(), id));
    });
  },
};

/** The customer of a group is told once for the whole group (SDK: "1 unified notification"; docs/wire.md §25). */
const ONCE = 'the customer (once for the group)';

export const confirm = groupVerb(
  GROUP_VERBS.confirm,
  { description: 'Confirm every booking of the group', flags: (cmd) => addNotifyFlags(cmd, ONCE), example: 'sitectl msb confirm 5a0d... --notify "See you on Thursday"' },
  async (_ctx, _api, _g, o) => notifyOption(o),
);

export const decline = groupVerb(
  GROUP_VERBS.decline,
  { description: 'Decline every booking of the group', flags: (cmd) => addNotifyFlags(cmd, ONCE) },
  async (_ctx, _api, _g, o) => notifyOption(o),
);

export const pending = groupVerb(
  GROUP_VERBS.pending,
  {
    description: 'Mark every booking of the group as pending approval',
    flags: (cmd) => addNotifyFlags(cmd.option('--skip-approval-check', 'also for services that do not require manual approval'), ONCE),
    outcome: (id) => `Marked multi-service booking ${id} as pending`,
  },
  async (_ctx, _api, _g, o) => ({ ...(o.skipApprovalCheck ? { skipApprovalCheck: true } : {}), ...notifyOption(o) }),
);

export const cancel = groupVerb(
  GROUP_VERBS.cancel,
  {
    description: 'Cancel every booking of the group',
    flags: (cmd) => addNotifyFlags(cmd.option('--ignore-policy', "cancel even inside the services' cancellation windows"), ONCE),
    example: 'sitectl msb cancel 5a0d... --notify "The studio is closed that day" --yes',
  },
  async (_ctx, _api, _g, o) => ({ ...(o.ignorePolicy ? { ignorePolicy: true } : {}), ...notifyOption(o) }),
);

export const reschedule = groupVerb(
  GROUP_VERBS.reschedule,
  {
    description: 'Move the whole group: the first booking to --start, the others keeping their offsets',
    flags: (cmd) =>
      addNotifyFlags(
        cmd
          .requiredOption('--start <when>', "the first booking's new start (the others follow at the same offsets)")
          .option('--ignore-policy', "move it even inside the services' reschedule windows")
          .option('--tz <zone>', 'read --start in this IANA zone'),
        ONCE,
      ),
    example: "sitectl msb reschedule 5a0d... --start 'thu 14:00'",
    already: (id, o) => `multi-service booking ${id} starts at ${o.start} already`,
  },
  async (ctx, _api, g, o) => {
    const notify = notifyOption(o);
    const first = (g.bookings ?? []).map((e) => e.booking).find(Boolean);
    const zone = tzFlag(o.tz as string | undefined) ?? first?.bookedEntity?.slot?.timezone ?? 'UTC';
    const text = String(o.start ?? '');
    const start = parseWhen(text, needsZone(text) ? zone : 'UTC', '--start', ctx.now().getTime());
    return { start: new Date(start).toISOString(), zone, ...(o.ignorePolicy ? { ignorePolicy: true } : {}), ...notify };
  },
);

/** `msb add|remove ID BOOKING...`: every booking is resolved before anything is sent (the missing ones listed together, exit 2). */
async function bookingsOf(ctx: Context, api: ApiClient, given: string[]): Promise<GroupOptions> {
  const ids = await resolveAll(given, (g) => idOf(ctx, api, BOOKING_VIEW, g), BOOKING_VIEW.noun);
  return { bookings: [...new Set(ids)] };
}

const plural = (o: GroupOptions) => `${(o.bookings ?? []).length} booking${(o.bookings ?? []).length === 1 ? '' : 's'}`;
const theyAre = (o: GroupOptions) => ((o.bookings ?? []).length === 1 ? 'the booking is' : `the ${plural(o)} are`);

export const add = groupVerb(
  GROUP_VERBS.add,
  {
    description: 'Add single bookings to a group',
    outcome: (id, o) => `Added ${plural(o)} to ${id}`,
    already: (id, o) => `${theyAre(o)} in multi-service booking ${id} already`,
  },
  (ctx, api, _g, _o, extra) => bookingsOf(ctx, api, extra),
);

export const remove = groupVerb(
  GROUP_VERBS.remove,
  {
    description: 'Take bookings out of a group (they stay as single bookings)',
    outcome: (id, o) => `Removed ${plural(o)} from ${id}`,
    already: (id, o) => `${theyAre(o)} out of multi-service booking ${id} already`,
  },
  (ctx, api, _g, _o, extra) => bookingsOf(ctx, api, extra),
);

export const availability = {
  register(parent: Command, ctx: Context) {
    addFormatFlags(parent.command('availability').description('Whether every booking of the group still fits its slot').argument('<id>', 'the multi-service booking id')).action(
      async (id: string, o: FormatFlags) => {
        const format = resolveFormat(o, fieldsChecker(['bookable', 'totalCapacity', 'remainingCapacity', 'policyViolations', 'policySettings', 'multiServiceBookingInfo']));
        const api = await ctx.api();
        const reply = await calls.getMultiServiceBookingAvailability(api, { multiServiceBookingId: id }, { signal: ctx.signal });
        const v = reply.policyViolations ?? {};
        const why = [v.tooEarlyToBook && 'too early', v.tooLateToBook && 'too late', v.bookOnlineDisabled && 'online booking off'].filter(Boolean).join(', ');
        await printValue(ctx.io, format, reply, { text: `bookable\t${reply.bookable ? 'yes' : `no${why ? ` (${why})` : ''}`}\nremaining\t${reply.remainingCapacity ?? 0} of ${reply.totalCapacity ?? 0}` });
      },
    );
  },
};

interface ActionRow {
  id: string;
  cancel?: boolean;
  reschedule?: boolean;
  error?: string;
}
const ACTION_COLUMNS: Column<ActionRow>[] = [{ key: 'id', noTruncate: true }, { key: 'cancel' }, { key: 'reschedule' }, { key: 'error' }];

export const actions = {
  register(parent: Command, ctx: Context) {
    addFormatFlags(parent.command('actions').description('Whether each group may still be cancelled or rescheduled').argument('<ids...>', 'multi-service booking ids')).action(
      async (ids: string[], o: FormatFlags) => {
        const format = resolveFormat(o, fieldsChecker(['id', 'cancel', 'reschedule', 'error']));
        const api = await ctx.api();
        const rows: ActionRow[] = [];
        for (let at = 0; at < ids.length; at += MAX_MSB_ALLOWED_ACTIONS) {
          const chunk = ids.slice(at, at + MAX_MSB_ALLOWED_ACTIONS);
          const reply = await calls.bulkGetMultiServiceBookingAllowedActions(api, { multiServiceBookingIds: chunk }, { signal: ctx.signal });
          for (const r of reply.results) {
            const id = chunk[r.itemMetadata.originalIndex] ?? '';
            rows.push(r.itemMetadata.success ? { id, cancel: r.item?.cancel ?? false, reschedule: r.item?.reschedule ?? false } : { id, error: r.itemMetadata.error?.code ?? 'FAILED' });
          }
        }
        await printRecords(ctx.io, format, rows, ACTION_COLUMNS, { now: ctx.now() });
        failIfMissing(rows, 'multi-service booking');
      },
    );
  },
};
