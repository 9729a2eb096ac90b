/**
 * `sitectl staff restore STAFF`: brings a deleted staff member back from the trash bin (Staff Members v2
 * restore; docs/wire.md §14 "Staff search, count and the trash bin"): the same id, fields and working hours, back
 * on the services it left. Reversible (`staff delete` again, or `sitectl undo`): it acts at once.
 */
import type { Command } from 'commander';
import type { StaffMemberRecord } from '../../api/schemas/staff.js';
import type { Context } from '../../context.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import type { EntityView } from '../shared/entity-view.js';
import { idOf } from '../shared/verbs.js';
import { DELETED_STAFF_VIEW, restoreRun } from './shared/trash.js';
import { staffOf } from './shared/view.js';

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('restore')
    .description('Restore a deleted staff member from the trash bin (same id, hours and services)')
    .argument('<staff>', "deleted staff member's id (or a unique prefix; 'sitectl staff deleted list' shows them)")
    .addHelpText('after', '\nExamples:\n  sitectl staff restore 3f2a\n  sitectl staff restore 3f2a9c1e-0000-4000-8000-000000000001 --json id,name');
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (staff: string, o: FormatFlags) => {
    await run({ ...o, staff }, ctx);
  });
}

/**
 * Restores the staff member as a one-item plan of the bulk engine (commands/shared/one.ts runOneVerb), journaled
 * (so `sitectl history` lists it and `sitectl undo` deletes it again), and prints it as it is now.
 * @throws UserError (exit 2) for an id that names no staff member in the trash bin, or several; (exit 1) when the
 *   platform refuses it
 */
export async function run(opts: FormatFlags & { staff: string }, ctx: Context): Promise<void> {
  const { runOneVerb } = await import('../shared/one.js');
  const label = (s: StaffMemberRecord) => `staff member ${s.id} (${oneLine(s.name ?? '')})`;
  await runOneVerb(ctx, {
    view: DELETED_STAFF_VIEW as EntityView<unknown>,
    title: 'Restoring',
    build: (api) => restoreRun(api, {}),
    resolve: (api) => idOf(ctx, api, DELETED_STAFF_VIEW as EntityView<unknown>, opts.staff),
    flags: opts,
    command: 'staff restore',
    one: {
      given: opts.staff,
      rule: REVERSIBLE,
      question: (s: StaffMemberRecord) => `Restore ${label(s)}?`,
      outcome: (after: StaffMemberRecord) => `Restored ${label(after)} from the trash bin`,
      read: async (id: string) => staffOf(ctx, await ctx.api(), id),
    },
  });
}
