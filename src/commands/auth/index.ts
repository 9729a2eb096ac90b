/**
 * `sitectl auth <verb>`: the sign-in state of a profile and the identity calls around sign-in (docs/sign-in.md):
 * `status` (who is signed in, until when, where the tokens are kept), `token` (a fresh access token for
 * scripts), `register`, `recover` and `verify`. Signing in and out are `sitectl login` and `sitectl logout`.
 */
import '../../startup.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as recover from './recover.js';
import * as registerVerb from './register.js';
import * as status from './status.js';
import * as token from './token.js';
import * as verify from './verify.js';

export function register(program: Command, ctx: Context): void {
  const auth = program.command('auth').description('Sign-in state, access tokens, registration, password recovery, e-mail verification');
  for (const verb of [status, token, registerVerb, recover, verify]) verb.register(auth, ctx);
}
