/**
 * `sitectl profile add|list|use|remove|show`: which site and credentials the CLI talks to
 * (design.md "Profiles and auth"; issue 2 section 4).
 */
import '../../startup.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as add from './add.js';
import * as list from './list.js';
import * as remove from './remove.js';
import * as show from './show.js';
import * as use from './use.js';

export function register(program: Command, ctx: Context): void {
  const profile = program
    .command('profile')
    .description('Manage profiles: which site and credentials to use');
  for (const verb of [add, list, use, show, remove]) verb.register(profile, ctx);
}
