/**
 * `sitectl orders <verb>`: the site's pricing plan orders, as the owner manages them (docs/plans-orders.md "Orders: the state table", docs/wire.md §20): list and get; pause, resume, cancel, mark-paid and postpone, one order or many
 * through the entity bulk engine. `list --mine`, `get ID --mine` and `cancel ID --mine` act on the signed-in
 * member's own orders with its tokens (shared/mine.ts).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type Invocation, madeBy, nounExamples, readsVerb, registerVerbs, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['list', 'ls'], load: () => import('./list.js') },
  { names: ['get', 'view'], load: () => import('./get.js') },
  { names: ['count'], load: readsVerb('count', async () => (await import('./shared/reads.js')).ORDER_READS) },
  { names: ['export'], load: readsVerb('export', async () => (await import('./shared/reads.js')).ORDER_READS) },
  { names: ['pause'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.orderTransition('pause')) },
  { names: ['resume'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.orderTransition('resume')) },
  { names: ['cancel'], load: () => import('./cancel.js') },
  { names: ['mark-paid'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.orderTransition('mark-paid')) },
  { names: ['postpone'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.orderTransition('postpone')) },
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

/** The noun's panes on the dashboard (commands/shared/work-lists.ts). */
export const workLists = async () => (await import('./shared/work-lists.js')).workLists;
