/**
 * `sitectl staff deleted list|get`: the staff trash bin (Staff Members v2 listDeletedStaffMembers and
 * getDeletedStaffMember; docs/wire.md §14 "Staff search, count and the trash bin"): the deleted staff members
 * that `staff restore` can bring back, most recently deleted first. The list selects by id only (`--where
 * id=...`, `--filter '{"id":{"$in":[...]}}'`).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getVerb, listVerb } from '../shared/verbs.js';
import { DELETED_STAFF_VIEW } from './shared/trash.js';

const LIST = listVerb({
  view: DELETED_STAFF_VIEW,
  description: 'List deleted staff members in the trash bin (restorable), most recently deleted first',
  examples: ['sitectl staff deleted list', 'sitectl staff deleted list --all --json id,name', "sitectl staff deleted list --where id=3f2a9c1e-0000-4000-8000-000000000001"],
});

const GET = getVerb({
  view: DELETED_STAFF_VIEW,
  description: 'Show one deleted staff member in the trash bin',
  fetch: async (api, id, signal) => (await DELETED_STAFF_VIEW.getOne!(api, id, signal)),
});

export function register(parent: Command, ctx: Context): void {
  const group = parent.command('deleted').description('Deleted staff members in the trash bin: list, get (restore with `staff restore`)');
  LIST.register(group, ctx);
  GET.register(group, ctx);
}
