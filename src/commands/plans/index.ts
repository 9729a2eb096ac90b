/**
 * `sitectl plans <verb>`: the site's pricing plans (spec 001 sections 3, 4 and 7 "Plans"): list, get, create,
 * update, archive, make primary or clear it, show or hide, count.
 */
import '../../startup.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as archive from './archive.js';
import * as clearPrimary from './clear-primary.js';
import * as create from './create.js';
import * as get from './get.js';
import * as list from './list.js';
import * as primary from './primary.js';
import * as stats from './stats.js';
import * as update from './update.js';
import * as visibility from './visibility.js';

export function register(program: Command, ctx: Context): void {
  const plans = program.command('plans').alias('plan').description('List, create and change pricing plans');
  for (const verb of [list, get, create, update, archive, primary, clearPrimary, visibility, stats]) verb.register(plans, ctx);
}
