/**
 * `--mine` on `orders list`, `orders get ID` and `orders cancel ID`: the signed-in member's own orders through
 * the member order calls (docs/wire.md §20: list own orders, get own order, request
 * cancellation), made with the member's access token (`sitectl login`; exit 4 when not signed in). A member
 * sees only its own orders: another member's id answers 404. An id may be a unique prefix (looked up among the
 * member's orders); the cancel asks first as the owner's does (`--yes` off a terminal).
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../../api/client.js';
import { memberOrderOps, memberOrders } from '../../../api/orders.js';
import type { Order } from '../../../api/schemas/order.js';
import type { Context } from '../../../context.js';
import { ExitCode, UserError } from '../../../core/errors.js';
import { choiceOf } from '../../shared/choices.js';
import { choicesOf } from '../../shared/choices.js';
import { notice, success } from '../../../core/log.js';
import { printRecord, printRecords, type FormatFlags } from '../../../core/output.js';
import { oneLine } from '../../../core/text.js';
import { memberApi } from '../../auth/shared/session.js';
import { confirmChange, DESTRUCTIVE, requireConfirmable } from '../../shared/confirm.js';
import { resolveId } from '../../shared/ids.js';
import { formatOf } from '../../shared/verbs.js';
import { type EntityView } from '../../shared/entity-view.js';
import { cancelOutcome, ORDER_VIEW } from './view.js';

const MINE = "the signed-in member's own orders (member tokens: sitectl login)";
const STATUSES = ['DRAFT', 'PENDING', 'ACTIVE', 'PAUSED', 'ENDED', 'CANCELED'] as const;
/**
 * Flags of the owner's verbs that `--mine` does not take (a member selects its own orders by status only, and
 * acts on one order at a time). `--yes` is not among them: the member's cancel asks first, as the owner's does.
 */
const OWNER_ONLY = ['plan', 'buyer', 'paymentStatus', 'filter', 'where', 'ids', 'idsFile', 'dryRun', 'resume', 'journal', 'all', 'limit', 'sort'];
/** What each verb does with `--mine`, for the hint when an owner's flag was given. */
const MINE_USAGE: Record<string, string> = {
  list: 'a member lists its own orders, optionally by --status',
  get: 'a member shows one of its own orders by id (or a unique prefix)',
  cancel: 'a member cancels one of its own orders by id: --at now|next-payment, --yes to skip the question',
};
const NOUN = { one: 'order', many: 'orders' };

/** @throws UserError (exit 2) when the command line gave one of the owner's selection flags */
function refuseOwnerFlags(cmd: Command): void {
  const given = OWNER_ONLY.filter((k) => cmd.getOptionValueSource(k) === 'cli');
  if (given.length) throw new UserError(`--mine does not take --${given[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, MINE_USAGE[cmd.name()]);
}

async function withMember<T>(ctx: Context, fn: (api: Awaited<ReturnType<typeof memberApi>>) => Promise<T>): Promise<T> {
  const api = await memberApi(ctx);
  try {
    return await fn(api);
  } finally {
    await api.close();
  }
}

/**
 * The full id of one of the member's orders from what was typed: a full id as it is, a unique prefix looked up
 * among its orders (as the owner's verbs look one up among the site's).
 * @throws UserError exit 1 when none of the member's orders matches, exit 2 when several do
 */
async function mineId(ctx: Context, api: ApiClient, given: string): Promise<string> {
  try {
    return await resolveId(api, memberOrderOps.memberListOrders, given, NOUN, { signal: ctx.signal, label: (e) => ORDER_VIEW.label(e as Order), bin: ctx.bin });
  } catch (err) {
    if (err instanceof UserError && err.exitCode === ExitCode.Failure) throw new UserError(`none of your orders has an id starting with '${given}'`, `'${ctx.bin} orders list --mine' shows their ids`, ExitCode.Failure);
    throw err;
  }
}

/** `orders list --mine [--status S,...]`: every page of the member's orders. */
export async function listMine(o: FormatFlags & { status?: string } & Record<string, unknown>, ctx: Context): Promise<void> {
  const format = formatOf(ctx, ORDER_VIEW as EntityView<unknown>, o);
  const statuses = o.status ? choicesOf(o.status, STATUSES, '--status') : undefined;
  const all: Order[] = await withMember(ctx, async (api) => {
    const out: Order[] = [];
    for (let offset = 0; ; offset += 50) {
      const page = await memberOrders.memberListOrders(api, { limit: 50, offset, fieldSet: 'FULL', ...(statuses ? { orderStatuses: statuses as (typeof STATUSES)[number][] } : {}) }, { signal: ctx.signal });
      out.push(...page.orders);
      if (page.orders.length < 50) return out;
    }
  });
  await printRecords(ctx.io, format, all, ORDER_VIEW.columns, { now: ctx.now(), empty: 'No orders of yours match.' });
}

/** `orders get ID --mine`: one of the member's own orders (its id or a unique prefix of it). */
export async function getMine(o: FormatFlags & { id: string }, ctx: Context): Promise<void> {
  const format = formatOf(ctx, ORDER_VIEW as EntityView<unknown>, o);
  const order = await withMember(ctx, async (api) => {
    const id = await mineId(ctx, api, o.id);
    return (await memberOrders.memberGetOrder(api, { id, fieldSet: 'FULL' }, { signal: ctx.signal })).order;
  });
  await printRecord(ctx.io, format, order, { rows: ORDER_VIEW.rows(order), columns: ORDER_VIEW.columns, now: ctx.now() });
}

/**
 * `orders cancel ID --mine [--at now|next-payment] [--yes]`: the member's cancellation request (the plan must
 * allow it). Like the owner's `orders cancel ID` (destructive): it asks first on a terminal; off one it needs
 * `--yes` (exit 2 before anything is sent). Every flag is checked before the order is read.
 * An order already CANCELED is left alone ("nothing changed", exit 0), as the owner's form does.
 * @throws UserError (exit 2) for a bad flag or a missing `--yes` off a terminal; UserError (exit 1) for an ENDED
 *   order; DeclinedError (exit 1); ApiError 404 (not the member's order), 428 BUYER_CANNOT_CANCEL
 */
export async function cancelMine(o: { id?: string; at?: string; yes?: boolean } & Record<string, unknown>, ctx: Context): Promise<void> {
  if (!o.id) throw new UserError('orders cancel --mine needs the order id');
  const at = choiceOf((o.at ?? 'now').replace(/_/g, '-'), ['now', 'immediately', 'next-payment', 'next-payment-date'], '--at', { fold: (v) => v.trim().toLowerCase() });
  const effectiveAt = at === 'now' || at === 'immediately' ? 'IMMEDIATELY' : 'NEXT_PAYMENT_DATE';
  // The owner's rule (orders cancel is destructive): asked about, now or at the next payment date.
  requireConfirmable(ctx, o, DESTRUCTIVE, 'one', `cancelling order ${o.id}`);
  const { id, after } = await withMember(ctx, async (api) => {
    const id = await mineId(ctx, api, o.id!);
    const order = (await memberOrders.memberGetOrder(api, { id, fieldSet: 'FULL' }, { signal: ctx.signal })).order;
    if (order.status === 'CANCELED') return { id, after: undefined };
    if (order.status === 'ENDED') throw new UserError(`order ${id} cannot be canceled: it has ENDED`, undefined, ExitCode.Failure);
    const label = oneLine(ORDER_VIEW.label(order) ?? id);
    const question = effectiveAt === 'IMMEDIATELY' ? `Cancel your order ${id} (${label}) now? You lose the plan at once.` : `Cancel your order ${id} (${label}) at its next payment date? It does not renew.`;
    await confirmChange(ctx, o, DESTRUCTIVE, 'one', question, `cancelling order ${id}`);
    await memberOrders.requestCancellation(api, { id, effectiveAt }, { signal: ctx.signal });
    return { id, after: (await memberOrders.memberGetOrder(api, { id, fieldSet: 'FULL' }, { signal: ctx.signal })).order };
  });
  if (after) success(ctx.io, cancelOutcome(after, effectiveAt));
  else notice(ctx.io, `order ${id} is already canceled; nothing changed`);
}

/**
 * Adds `--mine` to a registered owner verb: with it the member variant runs, without it the owner's.
 * @param action the original action, called with Commander's arguments when `--mine` is absent
 */
export function addMine(cmd: Command, mine: (args: unknown[], opts: Record<string, unknown>) => Promise<void>, owner: (...args: unknown[]) => Promise<void>): void {
  cmd.option('--mine', MINE);
  cmd.action(async (...args: unknown[]) => {
    const opts = cmd.opts<Record<string, unknown>>();
    if (opts.mine) {
      refuseOwnerFlags(cmd);
      await mine(args, opts);
    }
    else await owner(...args);
  });
}
