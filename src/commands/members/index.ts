/**
 * `sitectl members <verb>`: the site's members directory (spec 001 sections 3-4, 7; issue 7 section 3). list
 * and get come from the shared verb factories over the members query (FULL fieldset); approve, block,
 * disconnect, mute and unmute are shared transition verbs (one member, or many through the entity bulk engine:
 * approve and block as the platform's by-filter jobs); delete is the shared delete verb; export streams every
 * member as NDJSON or CSV. `me` is the signed-in member (member tokens, `sitectl login`).
 */
import '../../startup.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as approve from './approve.js';
import * as block from './block.js';
import * as clearContact from './clear-contact.js';
import * as create from './create.js';
import * as del from './delete.js';
import * as disconnect from './disconnect.js';
import * as exportVerb from './export.js';
import * as get from './get.js';
import * as list from './list.js';
import * as me from './me.js';
import * as mute from './mute.js';
import * as slug from './slug.js';
import * as unmute from './unmute.js';
import * as update from './update.js';

export function register(program: Command, ctx: Context): void {
  const members = program.command('members').alias('member').description('List, approve, block, mute, update, delete and export site members');
  for (const verb of [list, get, me, create, update, del, approve, block, mute, unmute, disconnect, slug, clearContact, exportVerb]) verb.register(members, ctx);
}
