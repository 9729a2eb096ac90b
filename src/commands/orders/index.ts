/**
 * `sitectl orders <verb>`: the site's pricing plan orders, as the owner manages them (spec 001 sections 4, 6
 * and 7 "Orders, owner"): list and get; pause, resume, cancel, mark-paid and postpone, one order or many
 * through the entity bulk engine. `list --mine`, `get ID --mine` and `cancel ID --mine` act on the signed-in
 * member's own orders with its tokens (shared/mine.ts).
 */
import '../../startup.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as cancel from './cancel.js';
import * as get from './get.js';
import * as list from './list.js';
import * as markPaid from './mark-paid.js';
import * as pause from './pause.js';
import * as postpone from './postpone.js';
import * as resume from './resume.js';

export function register(program: Command, ctx: Context): void {
  const orders = program.command('orders').alias('order').description('List pricing plan orders and pause, resume, cancel, mark paid or postpone them');
  for (const verb of [list, get, pause, resume, cancel, markPaid, postpone]) verb.register(orders, ctx);
}
