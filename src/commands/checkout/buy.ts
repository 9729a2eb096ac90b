/**
 * `checkout online` and `checkout offline`: one order bought for a member. Every flag, the plan and the member
 * e-mail are checked before the order is created, and creating is never repeated automatically (a repeat would
 * buy twice), so a refused command buys nothing. The order is a journaled one-item create (commands/shared/
 * writes.ts, a noun without `remove`): in `sitectl history`, listed by `sitectl undo` as cannot be undone.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import type { Order } from '../../api/schemas/order.js';
import type { Context } from '../../context.js';
import { success } from '../../core/log.js';
import { addFormatFlags, printValue, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { ORDER_VIEW } from '../orders/shared/view.js';
import type { Entity } from '../../bulk/port.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import type { EntityView } from '../shared/entity-view.js';
import type { WriteSpec } from '../shared/writes.js';
import { formatOf } from '../shared/verbs.js';
import { addCheckoutFlags, checkoutInput, printOrder, type CheckoutFlags } from './shared.js';

export interface BuySpec<F> {
  verb: 'online' | 'offline';
  description: string;
  examples: string[];
  flags(cmd: Command): void;
  /** Checks the verb's own flags before anything is read or written. @throws UserError (exit 2) */
  check?(flags: F): void;
  create(api: ApiClient, input: { planId: string; memberId: string; couponCode?: string; startDate?: string }, flags: F & CheckoutFlags, signal: AbortSignal): Promise<Order>;
  /** Said on stderr after the order is created (never on stdout: it carries the order). */
  after?(ctx: Context, api: ApiClient, order: Order): Promise<void>;
}

/** Builds the verb: prints the new order's id when stdout is piped, the order on a terminal or with --json. */
export function buyVerb<F>(spec: BuySpec<F>) {
  const run = async (opts: F & CheckoutFlags & FormatFlags & { plan: string }, ctx: Context): Promise<void> => {
    const format = formatOf(ctx, ORDER_VIEW, opts);
    spec.check?.(opts);
    const { api, plan, memberId, couponCode, startDate } = await checkoutInput(ctx, opts.plan, opts, true);
    const input = { planId: plan.id, memberId: memberId!, ...(couponCode ? { couponCode } : {}), ...(startDate ? { startDate } : {}) };
    // A one-item create through the engine: journaled, so `sitectl history` lists it (an order is not undone).
    const { runCreateOne } = await import('../shared/one.js');
    const writes: WriteSpec = { view: ORDER_VIEW as EntityView<unknown>, list: 'orders list', create: async (_api, body, signal) => (await spec.create(api, body as typeof input, opts, signal ?? ctx.signal)) as Entity };
    const order = (await runCreateOne(ctx, writes, input, oneLine(plan.name ?? plan.id))) as Order;
    success(ctx.io, `Created ${spec.verb} order ${order.id} of plan "${oneLine(plan.name ?? plan.id)}" for member ${memberId}: ${order.status}, payment ${order.lastPaymentStatus}`);
    await spec.after?.(ctx, api, order);
    if (format.kind === 'table' && !ctx.io.isStdoutTTY) {
      await printValue(ctx.io, format, order, { text: order.id });
      return;
    }
    await printOrder(ctx, api, format, order);
  };
  return {
    run,
    register(parent: Command, ctx: Context) {
      const cmd = addCheckoutFlags(parent.command(spec.verb).description(spec.description).argument('<plan>', 'plan id, unique id prefix, or exact name'), { start: true, member: true });
      spec.flags(cmd);
      cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`);
      // An order created, as every create: acts at once.
      declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (plan: string, o: F & CheckoutFlags & FormatFlags) => {
        await run({ ...o, plan }, ctx);
      });
    },
  };
}
