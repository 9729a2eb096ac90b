/**
 * `sitectl members <verb>`: the site's members directory (docs/wire.md §13, docs/members.md "State table", docs/wire.md §18; docs/members.md "The CLI's bulk runs"). list,
 * get, count and export come from the shared verb factories over the members query (FULL fieldset; export
 * streams every member as NDJSON, CSV or JSON); approve, block, disconnect, mute and unmute are shared
 * transition verbs (one member by its own call, or many through the entity bulk engine: approve and block as the
 * platform's by-filter jobs); delete is the shared delete verb. `me` is the signed-in member (member tokens,
 * `sitectl login`), with its own slug, community and delete as `me slug|join|leave|delete`.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type Invocation, madeBy, nounExamples, readsVerb, registerVerbs, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['list', 'ls'], load: () => import('./list.js') },
  { names: ['get', 'view'], load: () => import('./get.js') },
  { names: ['count'], load: readsVerb('count', async () => (await import('./shared/reads.js')).MEMBER_READS) },
  { names: ['me'], load: () => import('./me.js') },
  { names: ['create'], load: () => import('./create.js') },
  { names: ['update'], load: () => import('./update.js') },
  { names: ['delete'], load: () => import('./delete.js') },
  { names: ['approve'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.memberTransition('approve')) },
  { names: ['block'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.memberTransition('block')) },
  { names: ['mute'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.memberTransition('mute')) },
  { names: ['unmute'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.memberTransition('unmute')) },
  { names: ['disconnect'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.memberTransition('disconnect')) },
  { names: ['slug'], load: () => import('./slug.js') },
  { names: ['clear-contact'], load: () => import('./clear-contact.js') },
  { names: ['export'], load: readsVerb('export', async () => (await import('./shared/reads.js')).MEMBER_READS) },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const members = nounExamples(
    cmd,
    [
      'sitectl members list --status PENDING',
      'sitectl members approve --where status=PENDING --dry-run',
      'sitectl members export --csv --status APPROVED',
    ],
  );
  await registerVerbs(members, ctx, VERBS, inv);
}

/** How `sitectl undo` takes back this noun's changes (commands/shared/inverses.ts). */
export const undo = async () => (await import('./shared/undo.js')).UNDO;

/** The noun's panes on the dashboard (commands/shared/work-lists.ts). */
export const workLists = async () => (await import('./shared/work-lists.js')).workLists;
