/**
 * `sitectl staff <verb>`: the site's staff members (Staff Members v1; docs/wire.md §13 "Staff member"):
 * list, get, search, count, create, update, delete (to the trash bin), restore, the trash bin itself, connect to
 * or disconnect from a site user, and their working hours.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type Invocation, nounExamples, readsVerb, registerVerbs, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['list', 'ls'], load: () => import('./list.js') },
  { names: ['get', 'view'], load: () => import('./get.js') },
  { names: ['search'], load: () => import('./search.js') },
  { names: ['count'], load: readsVerb('count', async () => (await import('./shared/reads.js')).STAFF_READS) },
  { names: ['export'], load: readsVerb('export', async () => (await import('./shared/reads.js')).STAFF_READS) },
  { names: ['create'], load: () => import('./create.js') },
  { names: ['update'], load: () => import('./update.js') },
  { names: ['delete'], load: () => import('./delete.js') },
  { names: ['restore'], load: () => import('./restore.js') },
  { names: ['deleted'], load: () => import('./deleted.js') },
  { names: ['connect'], load: () => import('./connect.js') },
  { names: ['disconnect'], load: () => import('./disconnect.js') },
  { names: ['hours'], load: () => import('./hours.js') },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const staff = nounExamples(cmd, [
    'sitectl staff list',
    "sitectl staff create --name 'Ana Lima' --email ana@example.com",
    "sitectl staff hours set 'Ana Lima' --day mon --day wed --from 09:00 --to 17:00",
  ]);
  await registerVerbs(staff, ctx, VERBS, inv);
}

/** How `sitectl undo` takes back this noun's changes (commands/shared/inverses.ts). */
export const undo = async () => (await import('./shared/undo.js')).UNDO;
