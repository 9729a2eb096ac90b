/**
 * `sitectl services <verb>`: the services catalogue (spec 000 sections 3, 7, 8). One file per verb; list, get
 * and count come from the shared verb factories, the bulk verbs (update, delete, clone) run through the entity
 * bulk engine.
 */
import '../../startup.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as apply from './apply.js';
import * as clone from './clone.js';
import * as count from './count.js';
import * as create from './create.js';
import * as del from './delete.js';
import * as diff from './diff.js';
import * as exporter from './export.js';
import * as get from './get.js';
import * as list from './list.js';
import * as lists from './lists.js';
import * as locations from './locations.js';
import * as pricingPlans from './pricing-plans.js';
import * as search from './search.js';
import * as slug from './slug.js';
import * as update from './update.js';

export function register(program: Command, ctx: Context): void {
  const services = program.command('services').alias('service').description('List, inspect, create and bulk-update services');
  for (const verb of [list, get, search, count, create, update, del, clone, exporter, diff, apply, slug, locations, pricingPlans, lists]) verb.register(services, ctx);
}
