/**
 * `sitectl checkout <verb>`: buying plans (spec 001 section 7 "Checkout"): the price of a plan with a coupon,
 * the preview of an order for a member (nothing is stored; says whether the member reached the plan's purchase
 * limit), an online order bought on a member's behalf (DRAFT until paid) and an offline order recorded for
 * a member (PENDING until its start date, ACTIVE from it; paid or not).
 */
import '../../startup.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as offline from './offline.js';
import * as online from './online.js';
import * as preview from './preview.js';
import * as price from './price.js';

export function register(program: Command, ctx: Context): void {
  const checkout = program.command('checkout').description('Price, preview and buy pricing plans for members');
  for (const verb of [price, preview, online, offline]) verb.register(checkout, ctx);
}
