/**
 * `sitectl msb <verb>`: multi-service bookings, several services booked together and changed as one (docs/bookings.md "Statuses", docs/wire.md §16; docs/bookings.md "The CLI").
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { nounExamples, registerVerbs, type Invocation, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['create'], load: () => import('./create.js') },
  { names: ['get'], load: async () => (await import('./group-actions.js')).get },
  { names: ['confirm'], load: async () => (await import('./group-actions.js')).confirm },
  { names: ['decline'], load: async () => (await import('./group-actions.js')).decline },
  { names: ['cancel'], load: async () => (await import('./group-actions.js')).cancel },
  { names: ['pending'], load: async () => (await import('./group-actions.js')).pending },
  { names: ['reschedule'], load: async () => (await import('./group-actions.js')).reschedule },
  { names: ['availability'], load: async () => (await import('./group-actions.js')).availability },
  { names: ['add'], load: async () => (await import('./group-actions.js')).add },
  { names: ['remove'], load: async () => (await import('./group-actions.js')).remove },
  { names: ['actions'], load: async () => (await import('./group-actions.js')).actions },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const msb = nounExamples(
    cmd,
    [
      'sitectl availability multislot --service "Women\'s Haircut" --service \'Blow-Dry & Style\' --days 3 --bookable',
      'sitectl msb create --help   # then book a chain it lists: --booking "Women\'s Haircut@START" --booking \'Blow-Dry & Style\'',
    ],
  );
  await registerVerbs(msb, ctx, VERBS, inv);
}

/** How `sitectl undo` takes back this noun's changes (commands/shared/inverses.ts). */
export const undo = async () => (await import('./shared/undo.js')).UNDO;
