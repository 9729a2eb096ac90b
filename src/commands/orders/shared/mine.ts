/**
 * `--mine` on `orders list`, `orders get ID` and `orders cancel ID`: the signed-in member's own orders through
 * the member order calls (spec 001 section 7 "Orders, member": list own orders, get own order, request
 * cancellation), made with the member's access token (`sitectl login`; exit 4 when not signed in). A member
 * sees only its own orders: another member's id answers 404.
 */
import type { Command } from 'commander';
import { memberOrders } from '../../../api/orders.js';
import type { Order } from '../../../api/schemas/order.js';
import type { Context } from '../../../context.js';
import { UserError } from '../../../core/errors.js';
import { success } from '../../../core/log.js';
import { printRecord, printRecords, type FormatFlags } from '../../../core/output.js';
import { memberApi } from '../../auth/shared/session.js';
import { formatOf } from '../../shared/verbs.js';
import { type EntityView } from '../../shared/entity-view.js';
import { ORDER_VIEW } from './view.js';

const MINE = "the signed-in member's own orders (member tokens: sitectl login)";
const STATUSES = ['DRAFT', 'PENDING', 'ACTIVE', 'PAUSED', 'ENDED', 'CANCELED'] as const;
/** Flags of the owner's verbs that `--mine` does not take (a member filters its own orders by status only). */
const OWNER_ONLY = ['plan', 'buyer', 'paymentStatus', 'filter', 'where', 'ids', 'idsFile', 'yes', 'dryRun', 'resume', 'journal', 'all', 'limit', 'sort'];

/** @throws UserError (exit 2) when the command line gave one of the owner's selection flags */
function refuseOwnerFlags(cmd: Command): void {
  const given = OWNER_ONLY.filter((k) => cmd.getOptionValueSource(k) === 'cli');
  if (given.length) throw new UserError(`--mine does not take --${given[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, 'a member lists its own orders, optionally by --status');
}

async function withMember<T>(ctx: Context, fn: (api: Awaited<ReturnType<typeof memberApi>>) => Promise<T>): Promise<T> {
  const api = await memberApi(ctx);
  try {
    return await fn(api);
  } finally {
    await api.close();
  }
}

/** `orders list --mine [--status S,...]`: every page of the member's orders. */
export async function listMine(o: FormatFlags & { status?: string } & Record<string, unknown>, ctx: Context): Promise<void> {
  const format = formatOf(ctx, ORDER_VIEW as EntityView<unknown>, o);
  const statuses = o.status ? o.status.split(',').map((s) => s.trim().toUpperCase()) : undefined;
  const bad = statuses?.find((s) => !(STATUSES as readonly string[]).includes(s));
  if (bad) throw new UserError(`--status: unknown status '${bad}'`, `one or more of ${STATUSES.join(', ')}`);
  const all: Order[] = await withMember(ctx, async (api) => {
    const out: Order[] = [];
    for (let offset = 0; ; offset += 50) {
      const page = await memberOrders.memberListOrders(api, { limit: 50, offset, fieldSet: 'FULL', ...(statuses ? { orderStatuses: statuses as (typeof STATUSES)[number][] } : {}) }, { signal: ctx.signal });
      out.push(...page.orders);
      if (page.orders.length < 50) return out;
    }
  });
  await printRecords(ctx.io, format, all, ORDER_VIEW.columns, { now: ctx.now() });
}

/** `orders get ID --mine`: one of the member's own orders (the full id). */
export async function getMine(o: FormatFlags & { id: string }, ctx: Context): Promise<void> {
  const format = formatOf(ctx, ORDER_VIEW as EntityView<unknown>, o);
  const order = await withMember(ctx, async (api) => (await memberOrders.memberGetOrder(api, { id: o.id, fieldSet: 'FULL' }, { signal: ctx.signal })).order);
  await printRecord(ctx.io, format, order, { rows: ORDER_VIEW.rows(order), columns: ORDER_VIEW.columns, now: ctx.now() });
}

/** `orders cancel ID --mine [--at now|next-payment]`: the member's cancellation request (the plan must allow it). */
export async function cancelMine(o: { id?: string; at?: string } & Record<string, unknown>, ctx: Context): Promise<void> {
  if (!o.id) throw new UserError('orders cancel --mine needs the order id');
  const at = (o.at ?? 'now').toLowerCase().replace(/_/g, '-');
  if (at !== 'now' && at !== 'next-payment' && at !== 'next-payment-date') throw new UserError(`--at must be now or next-payment, got '${o.at}'`);
  const effectiveAt = at === 'now' ? 'IMMEDIATELY' : 'NEXT_PAYMENT_DATE';
  await withMember(ctx, (api) => memberOrders.requestCancellation(api, { id: o.id!, effectiveAt }, { signal: ctx.signal }));
  success(ctx.io, `Asked to cancel order ${o.id} (${effectiveAt === 'IMMEDIATELY' ? 'now' : 'at the next payment date'})`);
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
