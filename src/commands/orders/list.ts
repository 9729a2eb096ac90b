/**
 * `sitectl orders list`: the site's orders through the owner's list (offset pages of up to 50, newest first),
 * by `--status`, `--plan`, `--buyer`, `--payment-status` and/or `--filter`/`--where` on those fields. With
 * `--mine`, the signed-in member's own orders (shared/mine.ts).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listVerb, type ListOptions } from '../shared/verbs.js';
import { addMine, listMine } from './shared/mine.js';
import { ORDER_READS } from './shared/reads.js';

const owner = listVerb({
  ...ORDER_READS,
  keys: async () => (await import('./shared/transitions.js')).orderKeys(),
  description: 'List orders (by status, plan, buyer, payment status), newest first; --mine: your own',
  examples: [
    'sitectl orders list --status ACTIVE,PAUSED',
    "sitectl orders list --plan 'Gold Monthly' --payment-status UNPAID --json id,status,buyer",
    'sitectl orders list --buyer ada.abbott@example.com --all --ndjson',
    'sitectl orders list --mine',
  ],
});

export const run = owner.run;

export function register(parent: Command, ctx: Context): void {
  owner.register(parent, ctx);
  const cmd = parent.commands.find((c) => c.name() === 'list')!;
  addMine(
    cmd,
    (_args, opts) => listMine(opts, ctx),
    (o) => owner.run(o as ListOptions, ctx),
  );
}
