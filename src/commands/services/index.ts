/**
 * `sitectl services <verb>`: the services catalogue (docs/wire.md §13, §14). One file per verb; list, get
 * and count come from the shared verb factories, the bulk verbs (update, delete, clone) run through the entity
 * bulk engine.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type Invocation, nounExamples, readsVerb, registerVerbs, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['list', 'ls'], load: () => import('./list.js') },
  { names: ['get', 'view'], load: () => import('./get.js') },
  { names: ['search'], load: () => import('./search.js') },
  { names: ['count'], load: readsVerb('count', async () => (await import('./shared/reads.js')).SERVICE_READS) },
  { names: ['create'], load: () => import('./create.js') },
  { names: ['update'], load: () => import('./update.js') },
  { names: ['delete'], load: () => import('./delete.js') },
  { names: ['clone'], load: () => import('./clone.js') },
  { names: ['export'], load: () => import('./export.js') },
  { names: ['diff'], load: () => import('./diff.js') },
  { names: ['apply'], load: () => import('./apply.js') },
  { names: ['slug'], load: () => import('./slug.js') },
  { names: ['locations'], load: () => import('./locations.js') },
  { names: ['pricing-plans'], load: () => import('./pricing-plans.js') },
  { names: ['add-on-groups'], load: () => import('./add-on-groups.js') },
  { names: ['booking-policies', 'booking-forms', 'categories', 'business-locations'], load: () => import('./lists.js') },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const services = nounExamples(
    cmd,
    [
      'sitectl services list --where type=CLASS --sort name',
      'sitectl services search yoga --agg VALUE:type',
      'sitectl services update --where type=CLASS --set payment.fixed.price.value=25 --dry-run',
      'sitectl services export --where type=CLASS --format yaml',
    ],
  );
  await registerVerbs(services, ctx, VERBS, inv);
}

/** How `sitectl undo` takes back this noun's changes (commands/shared/inverses.ts). */
export const undo = async () => (await import('./shared/undo.js')).UNDO;
