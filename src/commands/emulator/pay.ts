/**
 * `sitectl emulator pay ORDER [--outcome paid|failed]`: pays a DRAFT online order on the local emulator as its
 * hosted checkout page would, without a browser (`POST /__emulator/orders/{id}/pay`; docs/plans-orders.md "The
 * hosted checkout page"). Paid: ACTIVE (or PENDING until a later start date), payment PAID. Failed: still DRAFT,
 * payment FAILED. The order is looked up in every site of the account unless `--site` names one.
 */
import type { Command } from 'commander';
import type { Order } from '../../api/schemas/order.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { choiceOf } from '../shared/choices.js';
import { success, warn } from '../../core/log.js';
import { addFormatFlags, printValue, type FormatFlags } from '../../core/output.js';
import { emulatorRequest, readAdminKey, readRunning } from '../../local/daemon.js';
import { printOrder } from '../checkout/shared.js';
import { ORDER_VIEW } from '../orders/shared/view.js';
import { formatOf } from '../shared/verbs.js';
import { dataDirOf } from './shared.js';

export interface PayOptions extends FormatFlags {
  dataDir?: string;
  outcome?: string;
}

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(
    parent
      .command('pay')
      .description("Pay a DRAFT online order as the emulator's checkout page would (or make its payment fail)")
      .argument('<order>', 'the order id')
      .option('--outcome <outcome>', 'paid (default) or failed (a declined card: the order stays DRAFT)')
      .option('--data-dir <dir>', 'data dir of the emulator')
      .addHelpText('after', '\nExamples:\n  sitectl emulator pay 3f1c9a2e-5b7d-4e0a-9c61-2d8f4b6a1e03\n  sitectl emulator pay 3f1c9a2e-5b7d-4e0a-9c61-2d8f4b6a1e03 --outcome failed\n  ORDER=$(sitectl checkout online \'Gold Monthly\' --member ada.abbott@example.com) && sitectl emulator pay "$ORDER"'),
  ).action(async (order: string, o: PayOptions) => {
    await run({ ...o, order }, ctx);
  });
}

/**
 * Prints the order after the payment (its id when piped, the order on a terminal or with --json).
 * @throws UserError (exit 2) for a bad --outcome; UserError (exit 1) when no emulator runs or it refuses (an
 *   unknown order, one that is not a DRAFT online order)
 */
export async function run(opts: PayOptions & { order: string }, ctx: Context): Promise<void> {
  const format = formatOf(ctx, ORDER_VIEW, opts);
  const outcome = choiceOf(opts.outcome ?? 'paid', ['PAID', 'FAILED'], '--outcome');
  const id = opts.order.trim();
  if (!id) throw new UserError('the order id is needed', `'${ctx.bin} orders list --status DRAFT' shows the orders waiting for a payment`);
  const dataDir = dataDirOf(opts, ctx);
  const running = readRunning(dataDir);
  const key = readAdminKey(dataDir);
  if (!running || !key) throw new UserError(`no emulator is running for ${dataDir}`, `start it with: ${ctx.bin} emulator start --detach`, ExitCode.Failure);
  const body = { outcome, ...(ctx.flags.site ? { site: ctx.flags.site } : {}) };
  const reply = (await emulatorRequest(running.url, key, 'POST', `/__emulator/orders/${encodeURIComponent(id)}/pay`, body).catch((err: unknown) => {
    // "emulator replied 428: order ... is ACTIVE (payment PAID): it is paid already (request id ...)" -> the message.
    const text = err instanceof Error ? err.message.replace(/^emulator replied \d+: /, '') : String(err);
    throw new UserError(text, undefined, ExitCode.Failure);
  })) as { order: Order };
  const order = reply.order;
  if (order.lastPaymentStatus === 'FAILED') warn(ctx.io, `The payment of order ${order.id} failed: it stays ${order.status}, payment FAILED`);
  else success(ctx.io, `Paid order ${order.id} of "${order.planName ?? order.planId}": ${order.status}, payment ${order.lastPaymentStatus}`);
  if (format.kind === 'table' && !ctx.io.isStdoutTTY) {
    await printValue(ctx.io, format, order, { text: order.id ?? id });
    return;
  }
  await printOrder(ctx, await ctx.api(), format, order);
}
