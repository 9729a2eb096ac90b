/**
 * What the checkout verbs share: the plan, member, coupon and start date flags, checked (and the plan and
 * member named) before anything is bought, and how an order is shown.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import type { Order } from '../../api/schemas/order.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { printRecord, type OutputFormat } from '../../core/output.js';
import { memberIdOf } from '../orders/shared/criteria.js';
import { ORDER_VIEW } from '../orders/shared/view.js';
import { planOf } from '../plans/shared/view.js';
import { parseWhen, siteZone } from '../shared/time.js';

export interface CheckoutFlags {
  member?: string;
  coupon?: string;
  start?: string;
}

/** Declares `--member` (required unless `memberOptional`), `--coupon`, and `--start` when `start`. */
export function addCheckoutFlags(cmd: Command, opts: { start: boolean; member: boolean }): Command {
  if (opts.member) cmd.option('--member <member>', 'the buyer: member id or login e-mail');
  cmd.option('--coupon <code>', 'a coupon code (e.g. WELCOME10)');
  if (opts.start) cmd.option('--start <when>', "when the order starts (default now; a later date only for plans that allow it): 2027-01-01, 'tomorrow 09:00', an ISO instant");
  return cmd;
}

/** A coupon code as sent: trimmed, at most 50 characters. @throws UserError (exit 2) */
export function couponOf(code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  const c = code.trim();
  if (c === '' || c.length > 50) throw new UserError('--coupon must be 1 to 50 characters');
  return c;
}

/**
 * The plan, member, coupon and start of a checkout verb, checked and named.
 * @throws UserError (exit 2) for a missing member, an unknown plan or e-mail, a bad coupon or date
 */
export async function checkoutInput(ctx: Context, planGiven: string, o: CheckoutFlags, needMember: boolean) {
  if (needMember && o.member === undefined) throw new UserError('the buyer is needed: --member ID|EMAIL', `'${ctx.bin} members list' shows the members`);
  const couponCode = couponOf(o.coupon);
  const api = await ctx.api();
  const plan = await planOf(ctx, api, planGiven);
  const memberId = o.member !== undefined ? await memberIdOf(ctx, o.member, '--member') : undefined;
  let startDate: string | undefined;
  if (o.start !== undefined) {
    const zone = /[zZ]|[+-]\d{2}:?\d{2}$/.test(o.start) ? 'UTC' : await siteZone(ctx, api);
    startDate = new Date(parseWhen(o.start, zone, '--start', ctx.now().getTime())).toISOString();
  }
  return { api, plan, memberId, couponCode, startDate };
}

/**
 * Shows an order: the readable view on a terminal, its times on the site's clock (as `orders get` shows them),
 * TSV off it, JSON with --json.
 */
export async function printOrder(ctx: Context, api: ApiClient, format: OutputFormat, order: Order): Promise<void> {
  const zone = format.kind === 'table' && ctx.io.isStdoutTTY ? await siteZone(ctx, api) : undefined;
  await printRecord(ctx.io, format, order, { rows: ORDER_VIEW.rows(order), columns: ORDER_VIEW.columns, now: ctx.now(), zone });
}
