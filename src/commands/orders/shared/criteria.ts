/**
 * The selection flags of `orders list` and of the bulk order actions: `--status`, `--plan` (id, prefix or exact
 * name), `--buyer` (member id or login e-mail), `--payment-status`. They become one filter in the order's
 * fields, sent as the list's parameters (view.ts).
 */
import type { Command } from 'commander';
import { members } from '../../../api/members.js';
import type { Filter } from '../../../api/schemas/common.js';
import { OrderStatusValues, PaymentStatusValues } from '../../../api/schemas/order.js';
import type { Context } from '../../../context.js';
import { UserError } from '../../../core/errors.js';
import { choicesOf } from '../../shared/choices.js';
import { fetchMember } from '../../members/shared/read.js';
import { planOf } from '../../plans/shared/view.js';
import { enumOption } from '../../../core/flag-values.js';

export interface CriteriaFlags {
  status?: string;
  plan?: string;
  buyer?: string;
  paymentStatus?: string;
}

/** Declares the selection flags. */
export function addCriteriaFlags(cmd: Command): Command {
  enumOption(cmd, '--status <list>', `orders in these statuses, comma-separated (${OrderStatusValues.join(', ')})`, OrderStatusValues)
    .option('--plan <plan>', 'orders of this plan (id, id prefix or exact name)')
    .option('--buyer <member>', "orders bought by this member (member id or login e-mail)");
  return enumOption(cmd, '--payment-status <list>', `orders whose last payment is in these statuses (${PaymentStatusValues.join(', ')})`, PaymentStatusValues);
}

/** Whether any selection flag was given. */
export function hasCriteria(o: CriteriaFlags): boolean {
  return [o.status, o.plan, o.buyer, o.paymentStatus].some((v) => v !== undefined);
}

/** The values of a comma list flag, each one of `allowed`. @throws UserError (exit 2) */
function listOf(text: string, allowed: readonly string[], flag: string): string[] {
  return choicesOf(text, allowed, flag);
}

const cond = (values: string[]) => (values.length === 1 ? values[0] : { $in: values });

/**
 * The filter the selection flags describe, or undefined when none was given. Statuses are checked first;
 * `--plan` reads the plans and `--buyer` an e-mail's member.
 * @throws UserError (exit 2) for an unknown status, plan or member
 */
export async function criteriaFilter(o: CriteriaFlags, ctx: Context): Promise<Filter | undefined> {
  const parts: Filter[] = [];
  if (o.status !== undefined) parts.push({ status: cond(listOf(o.status, OrderStatusValues, '--status')) });
  if (o.paymentStatus !== undefined) parts.push({ lastPaymentStatus: cond(listOf(o.paymentStatus, PaymentStatusValues, '--payment-status')) });
  if (o.plan !== undefined) parts.push({ planId: (await planOf(ctx, await ctx.api(), o.plan, '--plan')).id });
  if (o.buyer !== undefined) parts.push({ 'buyer.memberId': await memberIdOf(ctx, o.buyer) });
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { $and: parts };
}

/**
 * A member id from `--buyer`/`--member`: the member whose login e-mail it is, or an id or unique id prefix of a
 * member that exists (a typo would otherwise select nothing, silently).
 * @throws UserError (exit 2) for an unknown e-mail or id, (exit 1/2) for a prefix matching none or several
 */
export async function memberIdOf(ctx: Context, given: string, flag = '--buyer'): Promise<string> {
  const api = await ctx.api();
  if (!given.includes('@')) {
    const [{ idOf }, { MEMBER_VIEW }] = await Promise.all([import('../../shared/verbs.js'), import('../../members/shared/view.js')]);
    const id = await idOf(ctx, api, MEMBER_VIEW, given);
    try {
      await fetchMember(api, id, ctx.signal);
    } catch (err) {
      if ((err as { status?: unknown }).status === 404) throw new UserError(`${flag}: no member has the id ${id}`, `'${ctx.bin} members list' shows the members`);
      throw err;
    }
    return id;
  }
  const { members: found } = await members.queryMembers(api, { query: { filter: { loginEmail: given.toLowerCase() }, paging: { limit: 2 } } }, { signal: ctx.signal });
  if (found.length !== 1) throw new UserError(`${flag}: no member signs in as ${given}`, `'${ctx.bin} members list' shows the members`);
  return found[0]!.id;
}
