/**
 * `sitectl bookings <verb>`: bookings of the site (docs/bookings.md "Statuses", docs/wire.md §16; docs/bookings.md "The CLI"). list, get
 * and count come from the shared verb factories over the extended bookings query; confirm, decline, cancel and
 * pending are shared transition verbs (one booking, or many through the entity bulk engine).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type Invocation, madeBy, nounExamples, readsVerb, registerVerbs, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['list', 'ls'], load: () => import('./list.js') },
  { names: ['get', 'view'], load: () => import('./get.js') },
  { names: ['count'], load: readsVerb('count', async () => (await import('./shared/reads.js')).BOOKING_READS) },
  { names: ['export'], load: readsVerb('export', async () => (await import('./shared/reads.js')).BOOKING_READS) },
  { names: ['create'], load: () => import('./create.js') },
  { names: ['confirm'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.bookingTransition('confirm')) },
  { names: ['decline'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.bookingTransition('decline')) },
  { names: ['cancel'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.bookingTransition('cancel')) },
  { names: ['pending'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.bookingTransition('pending')) },
  { names: ['confirm-or-decline'], load: madeBy(() => import('./shared/transitions.js'), (m) => m.bookingTransition('confirm-or-decline')) },
  { names: ['reschedule'], load: () => import('./reschedule.js') },
  { names: ['participants'], load: () => import('./participants.js') },
  { names: ['fields'], load: () => import('./fields.js') },
  { names: ['actions'], load: () => import('./actions.js') },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const bookings = nounExamples(
    cmd,
    [
      'sitectl bookings list --status CREATED --sort startDate',
      'sitectl bookings count --where status=CONFIRMED',
      'sitectl bookings confirm --status CREATED --dry-run',
    ],
  );
  await registerVerbs(bookings, ctx, VERBS, inv);
}

/** How `sitectl undo` takes back this noun's changes (commands/shared/inverses.ts). */
export const undo = async () => (await import('./shared/undo.js')).UNDO;

/** The noun's panes on the dashboard (commands/shared/work-lists.ts). */
export const workLists = async () => (await import('./shared/work-lists.js')).workLists;
