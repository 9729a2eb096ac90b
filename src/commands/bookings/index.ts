/**
 * `sitectl bookings <verb>`: bookings of the site (spec 000 sections 4 and 7; issue 6 section 3). list, get
 * and count come from the shared verb factories over the extended bookings query; confirm, decline, cancel and
 * pending are shared transition verbs (one booking, or many through the entity bulk engine).
 */
import '../../startup.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as actions from './actions.js';
import * as cancel from './cancel.js';
import * as confirm from './confirm.js';
import * as count from './count.js';
import * as create from './create.js';
import * as decline from './decline.js';
import * as fields from './fields.js';
import * as get from './get.js';
import * as list from './list.js';
import * as participants from './participants.js';
import * as pending from './pending.js';
import * as reschedule from './reschedule.js';

export function register(program: Command, ctx: Context): void {
  const bookings = program.command('bookings').alias('booking').description('List, create and confirm, decline, cancel or move bookings');
  for (const verb of [list, get, count, create, confirm, decline, cancel, pending, reschedule, participants, fields, actions]) verb.register(bookings, ctx);
}
