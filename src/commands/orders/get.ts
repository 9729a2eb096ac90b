/**
 * `sitectl orders get ID`: one order with every field (cycles, pauses, prices, cancellation). With `--mine`,
 * one of the signed-in member's own orders (shared/mine.ts).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { FormatFlags } from '../../core/output.js';
import { getVerb } from '../shared/verbs.js';
import { addMine, getMine } from './shared/mine.js';
import { fetchOrder, ORDER_VIEW } from './shared/view.js';

const owner = getVerb({
  view: ORDER_VIEW,
  description: 'Show one order: its plan, buyer, status, payment, cycles, pauses and cancellation; --mine: your own',
  fetch: (api, id, signal) => fetchOrder(api, id, signal),
});

export const run = owner.run;

export function register(parent: Command, ctx: Context): void {
  owner.register(parent, ctx);
  const cmd = parent.commands.find((c) => c.name() === 'get')!;
  addMine(
    cmd,
    (args, opts) => getMine({ ...(opts as FormatFlags), id: String(args[0]) }, ctx),
    (id, o) => owner.run({ id: id as string, ...(o as FormatFlags) }, ctx),
  );
}
