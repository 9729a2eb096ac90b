/**
 * `sitectl checkout <verb>`: buying plans (docs/wire.md §20): the price of a plan with a coupon,
 * the preview of an order for a member (nothing is stored; says whether the member reached the plan's purchase
 * limit), an online order bought on a member's behalf (DRAFT until paid) and an offline order recorded for
 * a member (PENDING until its start date, ACTIVE from it; paid or not).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { nounExamples, registerVerbs, type Invocation, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['price'], load: () => import('./price.js') },
  { names: ['preview'], load: () => import('./preview.js') },
  { names: ['online'], load: () => import('./online.js') },
  { names: ['offline'], load: () => import('./offline.js') },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const checkout = nounExamples(
    cmd,
    [
      'sitectl checkout price \'Gold Monthly\' --coupon GOLDSTART',
      'sitectl checkout preview \'Gold Monthly\' --member ada.abbott@example.com --coupon GOLDSTART',
    ],
  );
  await registerVerbs(checkout, ctx, VERBS, inv);
}
