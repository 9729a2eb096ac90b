/**
 * `sitectl emulator start|stop|status|reset|clock|sites|mail|pay`: the local, persistent emulator of the platform
 * (docs/architecture.md "The emulator").
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { nounExamples, registerVerbs, type Invocation, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['start'], load: () => import('./start.js') },
  { names: ['stop'], load: () => import('./stop.js') },
  { names: ['status'], load: () => import('./status.js') },
  { names: ['reset'], load: () => import('./reset.js') },
  { names: ['clock'], load: () => import('./clock.js') },
  { names: ['sites'], load: () => import('./sites.js') },
  { names: ['mail'], load: () => import('./mail.js') },
  { names: ['pay'], load: () => import('./pay.js') },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const emulator = nounExamples(
    cmd
    .addHelpText('after', '\nData lives in --data-dir (default $SITECTL_DATA_DIR/emulator, else ~/.local/share/sitectl/emulator).'),
    [
      'sitectl emulator status',
      'sitectl emulator clock',
      'sitectl emulator mail --json',
    ],
  );
  await registerVerbs(emulator, ctx, VERBS, inv);
}
