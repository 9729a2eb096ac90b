/**
 * `sitectl profile add|list|use|remove|show`: which site and credentials the CLI talks to
 * (docs/architecture.md "Profiles and auth").
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { nounExamples, registerVerbs, type Invocation, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['add'], load: () => import('./add.js') },
  { names: ['list', 'ls'], load: () => import('./list.js') },
  { names: ['use'], load: () => import('./use.js') },
  { names: ['show'], load: () => import('./show.js') },
  { names: ['remove', 'rm'], load: () => import('./remove.js') },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const profile = nounExamples(
    cmd,
    [
      'sitectl profile list',
      'sitectl profile show --json',
    ],
  );
  await registerVerbs(profile, ctx, VERBS, inv);
}
