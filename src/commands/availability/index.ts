/**
 * `sitectl availability`: when services can be booked (docs/wire.md §15; docs/bookings.md "The CLI").
 * `availability SERVICE` lists slots (the default verb, `slots`); `schedule ID` shows a course's places;
 * `multislot` finds back-to-back slots for several services; `time-slots`/`time-slot` read the Time Slots API.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { nounExamples, registerVerbs, type Invocation, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['slots'], load: () => import('./slots.js') },
  { names: ['schedule'], load: () => import('./schedule.js') },
  { names: ['multislot'], load: () => import('./multislot.js') },
  { names: ['time-slots', 'time-slot'], load: () => import('./time-slots.js') },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const availability = nounExamples(
    cmd,
    [
      'sitectl availability \'Swedish Massage\' --days 3 --bookable',
      'sitectl availability \'Vinyasa Flow Yoga\' --days 7 --json',
      'sitectl availability time-slots \'Swedish Massage\' --days 7',
    ],
  );
  await registerVerbs(availability, ctx, VERBS, inv);
}
