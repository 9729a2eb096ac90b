/**
 * `sitectl orders <verb>`: the site's pricing plan orders, as the owner manages them (docs/plans-orders.md "Orders: the state table", docs/wire.md §20): list and get; pause, resume, cancel, mark-paid and postpone, one order or many
 * through the entity bulk engine. `list --mine`, `get ID --mine` and `cancel ID --mine` act on the signed-in
 * member's own orders with its tokens (shared/mine.ts).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { nounExamples, registerVerbs, type Invocation, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['list', 'ls'], load: () => import('./list.js') },
  { names: ['get', 'view'], load: () => import('./get.js') },
  { names: ['count'], load: () => import('./count.js') },
  { names: ['export'], load: () => import('./export.js') },
  { names: ['pause'], load: () => import('./pause.js') },
  { names: ['resume'], load: () => import('./resume.js') },
  { names: ['cancel'], load: () => import('./cancel.js') },
  { names: ['mark-paid'], load: () => import('./mark-paid.js') },
  { names: ['postpone'], load: () => import('./postpone.js') },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const orders = nounExamples(
    cmd,
    [
      'sitectl orders list --status ACTIVE,PAUSED',
      'sitectl orders pause --status ACTIVE --dry-run',
      'sitectl orders mark-paid --payment-status UNPAID --status ACTIVE --dry-run',
    ],
  );
  await registerVerbs(orders, ctx, VERBS, inv);
}

/** How `sitectl undo` takes back this noun's changes (commands/shared/inverses.ts). */
export const undo = async () => (await import('./shared/undo.js')).UNDO;
