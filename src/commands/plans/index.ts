/**
 * `sitectl plans <verb>`: the site's pricing plans (docs/wire.md §13, docs/plans-orders.md "Plans", docs/wire.md §19): list, get, create,
 * update, archive, make primary or clear it, show or hide, count; `public list|query` what visitors see.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type Invocation, nounExamples, readsVerb, registerVerbs, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['list', 'ls'], load: () => import('./list.js') },
  { names: ['get', 'view'], load: () => import('./get.js') },
  { names: ['count'], load: readsVerb('count', async () => (await import('./shared/reads.js')).PLAN_READS) },
  { names: ['export'], load: readsVerb('export', async () => (await import('./shared/reads.js')).PLAN_READS) },
  { names: ['create'], load: () => import('./create.js') },
  { names: ['update'], load: () => import('./update.js') },
  { names: ['archive'], load: () => import('./archive.js') },
  { names: ['primary'], load: () => import('./primary.js') },
  { names: ['clear-primary'], load: () => import('./clear-primary.js') },
  { names: ['visibility'], load: () => import('./visibility.js') },
  { names: ['stats'], load: () => import('./stats.js') },
  { names: ['public'], load: () => import('./public.js') },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const plans = nounExamples(
    cmd,
    [
      'sitectl plans list --state all',
      'sitectl plans stats',
      'sitectl plans create --name \'Gold Weekly\' --price 15 --every \'1 WEEK\'',
    ],
  );
  await registerVerbs(plans, ctx, VERBS, inv);
}

/** How `sitectl undo` takes back this noun's changes (commands/shared/inverses.ts). */
export const undo = async () => (await import('./shared/undo.js')).UNDO;
