/**
 * `sitectl msb <verb>`: multi-service bookings, several services booked together and changed as one (spec 000
 * sections 4 and 7; issue 6 section 3).
 */
import '../../startup.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as create from './create.js';
import { actions, add, availability, cancel, confirm, decline, get, pending, remove, reschedule } from './group-actions.js';

export function register(program: Command, ctx: Context): void {
  const msb = program.command('msb').description('Multi-service bookings: several services booked together');
  for (const verb of [create, get, confirm, decline, cancel, pending, reschedule, availability, add, remove, actions]) verb.register(msb, ctx);
}
