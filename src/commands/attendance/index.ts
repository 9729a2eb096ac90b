/**
 * `sitectl attendance <verb>`: who came to the bookings' sessions (Bookings Attendance v2; docs/bookings.md
 * "Attendance"). list, get, count and export read the attendance query; `mark` marks one booking or many
 * (attended with how many, not attended, not set) through the one engine, journaled and undone by `sitectl undo`.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type Invocation, madeBy, nounExamples, readsVerb, registerVerbs, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['list', 'ls'], load: () => import('./list.js') },
  { names: ['get', 'view'], load: () => import('./get.js') },
  { names: ['count'], load: readsVerb('count', async () => (await import('./shared/reads.js')).ATTENDANCE_READS) },
  { names: ['export'], load: readsVerb('export', async () => (await import('./shared/reads.js')).ATTENDANCE_READS) },
  { names: ['mark'], load: madeBy(() => import('./shared/mark.js'), (m) => m.markVerb()) },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const noun = nounExamples(cmd, ['sitectl attendance list --where status=NOT_ATTENDED', 'sitectl attendance mark 7c1e --attended']);
  await registerVerbs(noun, ctx, VERBS, inv);
}

/** How `sitectl undo` takes back this noun's changes (commands/shared/inverses.ts). */
export const undo = async () => (await import('./shared/undo.js')).UNDO;
