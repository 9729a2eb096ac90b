/**
 * `sitectl orders cancel`: one order, or many through the entity bulk engine (see shared/transitions.ts). With
 * `--mine`, the signed-in member's request to cancel one of its own orders (shared/mine.ts).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { TransitionOptions } from '../shared/entity-view.js';
import { cancelMine, addMine } from './shared/mine.js';
import { orderTransition } from './shared/transitions.js';

const owner = orderTransition('cancel');

export const run = owner.run;

export function register(parent: Command, ctx: Context): void {
  owner.register(parent, ctx);
  const cmd = parent.commands.find((c) => c.name() === 'cancel')!;
  addMine(
    cmd,
    (args, opts) => cancelMine({ ...opts, id: args[0] as string | undefined }, ctx),
    (id, o) => owner.run({ ...(o as Omit<TransitionOptions, 'id'>), id: id as string | undefined } as TransitionOptions, ctx),
  );
}
