/**
 * The group verbs of `sitectl msb`: get, confirm, decline, cancel, pending, reschedule, availability, add,
 * remove, actions. Each reads the group first (the actions pass every booking at its current revision, so a
 * booking changed meanwhile is refused with BOOKING_REVISION_MISMATCH and nothing changes).
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { multiServiceBookings as calls } from '../../api/multi-service-bookings.js';
import { MAX_MSB_ALLOWED_ACTIONS, type MultiServiceBooking } from '../../api/schemas/booking.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { notice, success } from '../../core/log.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, printRecords, printValue, resolveFormat } from '../../core/output.js';
import { failIfMissing, resolveAll } from '../shared/ids.js';
import { confirmChange, declareRule, DESTRUCTIVE, requireConfirmable, REVERSIBLE, type VerbRule } from '../shared/confirm.js';
import { idOf } from '../shared/verbs.js';
import { needsZone, parseWhen, tzFlag } from '../shared/time.js';
import { BOOKING_VIEW } from '../bookings/shared/view.js';
import { groupFormat, infosOf, printGroup, readGroup } from './shared/group.js';

/** What a group verb does; `ask` puts the verb's confirmation question (a no-op when its rule does not ask). */
type Action = (ctx: Context, api: ApiClient, group: MultiServiceBooking & { id: string }, opts: Record<string, unknown>, ask: () => Promise<void>) => Promise<MultiServiceBooking | undefined>;

/**
 * A verb `msb NAME ID` that acts on the group and prints it as it is afterwards. `rule` is its confirmation
 * (commands/shared/confirm.ts): a destructive one asks before `act` sends anything; `get` (a read) has none.
 */
function groupVerb(name: string, description: string, act: Action, extra?: (cmd: Command) => void, example?: string, rule?: VerbRule) {
  return {
    register(parent: Command, ctx: Context) {
      const cmd = parent.command(name).description(description).argument('<id>', 'the multi-service booking id');
      extra?.(cmd);
      if (example) cmd.addHelpText('after', `\nExample:\n  ${example}`);
      if (rule) declareRule(cmd, rule);
      addFormatFlags(cmd).action(async (id: string, o: FormatFlags & { yes?: boolean } & Record<string, unknown>) => {
        const format = groupFormat(o);
        const what = `msb ${name} of multi-service booking ${id}`;
        if (rule) requireConfirmable(ctx, o, rule, 'one', what);
        const api = await ctx.api();
        const group = await readGroup(ctx, api, id);
        const ask = rule ? () => confirmChange(ctx, o, rule, 'one', `${name[0]!.toUpperCase()}${name.slice(1)} multi-service booking ${group.id} (${(group.bookings ?? []).length} bookings)?`, what) : async () => {};
        const after = await act(ctx, api, group, o, ask);
        await printGroup(ctx, format, after ?? (await readGroup(ctx, api, id)));
      });
    },
  };
}

const statusOf = (g: MultiServiceBooking) => (g.bookings ?? []).map((e) => e.booking?.status);

/**
 * True (after saying so on stderr) when every booking of the group is in `status` already: the verb then changes
 * nothing, sends nothing and exits 0, as `bookings confirm` does for one booking.
 */
function already(ctx: Context, g: MultiServiceBooking & { id: string }, status: string, done: string): boolean {
  const statuses = statusOf(g);
  if (statuses.length === 0 || !statuses.every((s) => s === status)) return false;
  notice(ctx.io, `multi-service booking ${g.id} is already ${done}; nothing changed`);
  return true;
}

export const get = groupVerb('get', 'Show a multi-service booking and its bookings', async (_ctx, _api, g) => g, undefined, 'sitectl msb get 5a0d...');

export const confirm = groupVerb(
  'confirm',
  'Confirm every booking of the group',
  async (ctx, api, g, _o, ask) => {
  if (already(ctx, g, 'CONFIRMED', 'confirmed')) return g;
  await ask();
  const { multiServiceBooking } = await calls.confirmMultiServiceBooking(api, { multiServiceBookingId: g.id, confirmBookingsInfo: infosOf(g), returnFullEntity: true }, { signal: ctx.signal });
  success(ctx.io, `Confirmed multi-service booking ${g.id}`);
  return multiServiceBooking;
  },
  undefined,
  undefined,
  REVERSIBLE,
);

export const decline = groupVerb(
  'decline',
  'Decline every booking of the group',
  async (ctx, api, g, _o, ask) => {
  if (already(ctx, g, 'DECLINED', 'declined')) return g;
  await ask();
  const { multiServiceBooking } = await calls.declineMultiServiceBooking(api, { multiServiceBookingId: g.id, declineBookingsInfo: infosOf(g), returnFullEntity: true }, { signal: ctx.signal });
  success(ctx.io, `Declined multi-service booking ${g.id}`);
  return multiServiceBooking;
  },
  undefined,
  undefined,
  DESTRUCTIVE,
);

export const pending = groupVerb(
  'pending',
  'Mark every booking of the group as pending approval',
  async (ctx, api, g, o, ask) => {
    if (already(ctx, g, 'PENDING', 'pending')) return g;
    await ask();
    const { multiServiceBooking } = await calls.markMultiServiceBookingAsPending(
      api,
      { multiServiceBookingId: g.id, markAsPendingBookingsInfo: infosOf(g), returnFullEntity: true, ...(o.skipApprovalCheck ? { flowControlSettings: { skipPendingApprovalServiceValidation: true } } : {}) },
      { signal: ctx.signal },
    );
    success(ctx.io, `Marked multi-service booking ${g.id} as pending`);
    return multiServiceBooking;
  },
  (cmd) => cmd.option('--skip-approval-check', 'also for services that do not require manual approval'),
  undefined,
  // Not named when the rule was set (docs/architecture.md "The confirmation rule"): takes the rule of `bookings pending` (and `msb confirm`): acts at once.
  REVERSIBLE,
);

export const cancel = groupVerb(
  'cancel',
  'Cancel every booking of the group',
  async (ctx, api, g, o, ask) => {
    if (already(ctx, g, 'CANCELED', 'cancelled')) return g;
    await ask();
    const { multiServiceBooking } = await calls.cancelMultiServiceBooking(
      api,
      { multiServiceBookingId: g.id, returnFullEntity: true, ...(o.ignorePolicy ? { flowControlSettings: { ignoreCancellationPolicy: true } } : {}) },
      { signal: ctx.signal },
    );
    success(ctx.io, `Cancelled multi-service booking ${g.id}`);
    return multiServiceBooking;
  },
  (cmd) => cmd.option('--ignore-policy', "cancel even inside the services' cancellation windows"),
  'sitectl msb cancel 5a0d... --yes',
  DESTRUCTIVE,
);

export const reschedule = groupVerb(
  'reschedule',
  'Move the whole group: the first booking to --start, the others keeping their offsets',
  async (ctx, api, g, o, ask) => {
    const bookings = (g.bookings ?? []).map((e) => e.booking!).filter(Boolean);
    if (bookings.length === 0) throw new UserError(`multi-service booking ${g.id} has no bookings`, undefined, ExitCode.Failure);
    const first = bookings[0]!;
    const zone = tzFlag(o.tz as string | undefined) ?? first.bookedEntity?.slot?.timezone ?? 'UTC';
    const text = String(o.start ?? '');
    const start = parseWhen(text, needsZone(text) ? zone : 'UTC', '--start', ctx.now().getTime());
    const shift = start - (first.startDate?.getTime() ?? start);
    await ask();
    const { multiServiceBooking } = await calls.rescheduleMultiServiceBooking(
      api,
      {
        multiServiceBookingId: g.id,
        rescheduleBookingsInfo: bookings.map((b) => ({
          bookingId: b.id,
          revision: b.revision ?? '',
          slot: {
            serviceId: b.bookedEntity?.slot?.serviceId ?? '',
            startDate: new Date((b.startDate?.getTime() ?? 0) + shift).toISOString(),
            timezone: b.bookedEntity?.slot?.timezone ?? zone,
          },
        })),
        returnFullEntity: true,
        ...(o.ignorePolicy ? { flowControlSettings: { ignoreReschedulePolicy: true } } : {}),
      },
      { signal: ctx.signal },
    );
    success(ctx.io, `Rescheduled multi-service booking ${g.id}`);
    return multiServiceBooking;
  },
  (cmd) =>
    cmd
      .requiredOption('--start <when>', "the first booking's new start (the others follow at the same offsets)")
      .option('--ignore-policy', "move it even inside the services' reschedule windows")
      .option('--tz <zone>', 'read --start in this IANA zone'),
  'sitectl msb reschedule 5a0d... --start 2026-11-26T14:00',
  // Not named when the rule was set (docs/architecture.md "The confirmation rule"): takes the rule of `bookings reschedule`: acts at once.
  REVERSIBLE,
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

/** The group's state as its bookings tell it: `canceled` or `declined` when every booking is. */
function finalStateOf(g: MultiServiceBooking): string | undefined {
  const statuses = statusOf(g);
  if (statuses.length === 0) return undefined;
  if (statuses.every((s) => s === 'CANCELED')) return 'canceled';
  if (statuses.every((s) => s === 'DECLINED' || s === 'CANCELED')) return 'declined';
  return undefined;
}

/**
 * The rules of `msb add` and `msb remove` checked before anything is sent (the emulator applies the same): no
 * booking is added to a canceled or declined group, and a removal never leaves a group without bookings.
 * @throws UserError (exit 1) naming what to do instead
 */
function checkMembership(name: 'add' | 'remove', group: MultiServiceBooking & { id: string }, ids: readonly string[], bin: string): void {
  const state = finalStateOf(group);
  if (name === 'add' && state) {
    throw new UserError(`multi-service booking ${group.id} is ${state}: bookings cannot be added to it`, `book the services as a new group: ${bin} msb create ...`, ExitCode.Failure);
  }
  if (name === 'remove') {
    const members = new Set((group.bookings ?? []).map((e) => e.bookingId ?? e.booking?.id));
    const outside = ids.filter((i) => !members.has(i));
    if (outside.length > 0) throw new UserError(`not in multi-service booking ${group.id}: ${outside.join(', ')}`, `'${bin} msb get ${group.id}' lists its bookings`, ExitCode.Failure);
    if (members.size > 0 && [...members].every((m) => ids.includes(m!))) {
      throw new UserError(`removing ${ids.length === 1 ? 'its last booking' : 'every booking'} would leave multi-service booking ${group.id} empty: cancel the group instead`, `${bin} msb cancel ${group.id}`, ExitCode.Failure);
    }
  }
}

/** `msb add|remove ID BOOKING...`: bookings joined to or taken out of a group (each at its current revision). */
function membership(name: 'add' | 'remove') {
  return {
    register(parent: Command, ctx: Context) {
      const cmd = parent
        .command(name)
        .description(name === 'add' ? 'Add single bookings to a group' : 'Take bookings out of a group (they stay as single bookings)')
        .argument('<id>', 'the multi-service booking id')
        .argument('<bookings...>', 'bookings (ids or unique prefixes)');
      declareRule(cmd, REVERSIBLE);
      addFormatFlags(cmd).action(async (id: string, given: string[], o: FormatFlags) => {
        const format = groupFormat(o);
        const api = await ctx.api();
        const group = await readGroup(ctx, api, id);
        const { fetchBooking } = await import('../bookings/shared/read.js');
        // Every booking is read before the first write: the missing ones are listed together (exit 2).
        const items = await resolveAll(
          given,
          async (g) => {
            const bid = await idOf(ctx, api, BOOKING_VIEW, g);
            const b = await fetchBooking(api, bid, ctx.signal);
            return { bookingId: bid, revision: b.revision ?? '' };
          },
          BOOKING_VIEW.noun,
        );
        checkMembership(name, group, items.map((i) => i.bookingId), ctx.bin);
        const call = name === 'add' ? calls.addBookingsToMultiServiceBooking : calls.removeBookingsFromMultiServiceBooking;
        await call(api, { multiServiceBookingId: id, bookings: items }, { signal: ctx.signal });
        success(ctx.io, `${name === 'add' ? 'Added' : 'Removed'} ${items.length} booking${items.length === 1 ? '' : 's'} ${name === 'add' ? 'to' : 'from'} ${id}`);
        await printGroup(ctx, format, await readGroup(ctx, api, id));
      });
    },
  };
}

export const add = membership('add');
export const remove = membership('remove');

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
