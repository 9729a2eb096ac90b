/**
 * `sitectl auth <verb>`: the sign-in state of a profile and the identity calls around sign-in (docs/sign-in.md):
 * `status` (who is signed in, until when, where the tokens are kept), `token` (a fresh access token for
 * scripts), `register`, `recover`, `verify`, `resend-code` and `change-password`. Signing in and out are `sitectl login` and
 * `sitectl logout`.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { nounExamples, registerVerbs, type Invocation, type VerbEntry } from '../manifest.js';

/** The verbs, in help's order; only the one invoked is loaded (commands/manifest.ts). */
const VERBS: readonly VerbEntry[] = [
  { names: ['status'], load: () => import('./status.js') },
  { names: ['token'], load: () => import('./token.js') },
  { names: ['register'], load: () => import('./register.js') },
  { names: ['recover'], load: () => import('./recover.js') },
  { names: ['verify'], load: () => import('./verify.js') },
  { names: ['resend-code'], load: () => import('./resend-code.js') },
  { names: ['change-password'], load: () => import('./change-password.js') },
];

export async function register(cmd: Command, ctx: Context, inv: Invocation): Promise<void> {
  const auth = nounExamples(
    cmd,
    [
      'sitectl auth status',
      'sitectl auth status --json role,member',
    ],
  );
  await registerVerbs(auth, ctx, VERBS, inv);
}
