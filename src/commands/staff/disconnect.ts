/**
 * `sitectl staff disconnect STAFF`: disconnects a staff member from its site user (Staff Members v1
 * disconnectStaffMemberFromUser); the staff member stays. Reversible (`staff connect`): it acts at once, and
 * says so when there is nothing to disconnect (nothing sent).
 */
import type { Command } from 'commander';
import type { StaffMemberRecord } from '../../api/schemas/staff.js';
import type { Context } from '../../context.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import type { EntityView } from '../shared/entity-view.js';
import { staffRun } from './shared/connect.js';
import { STAFF_VIEW, staffIdOf, staffOf } from './shared/view.js';

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('disconnect')
    .description('Disconnect a staff member from its site user')
    .argument('<staff>', 'staff member id, unique id prefix, or exact name')
    .addHelpText('after', "\nExamples:\n  sitectl staff disconnect 'Maya Chen'");
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (staff: string, o: FormatFlags) => {
    await run({ ...o, staff }, ctx);
  });
}

/**
 * Disconnects the staff member as a one-item plan of the bulk engine (commands/shared/one.ts runOneVerb),
 * journaled (in `sitectl history`; `sitectl undo` lists it as cannot be undone: connecting again needs the user's
 * e-mail), and prints it; says so when it is connected to no user (nothing sent).
 * @throws UserError (exit 2) for an unknown staff member; (exit 1) when the platform refuses it
 */
export async function run(opts: FormatFlags & { staff: string }, ctx: Context): Promise<void> {
  const { runOneVerb } = await import('../shared/one.js');
  const label = (s: StaffMemberRecord) => `staff member ${s.id} (${oneLine(s.name ?? '')})`;
  await runOneVerb(ctx, {
    view: STAFF_VIEW as EntityView<unknown>,
    title: 'Disconnecting',
    build: (api) => staffRun('disconnect', api, { options: {} }),
    resolve: (api) => staffIdOf(ctx, api, opts.staff),
    flags: opts,
    command: 'staff disconnect',
    one: {
      given: opts.staff,
      rule: REVERSIBLE,
      already: (s: StaffMemberRecord) => `${label(s)} is connected to no user already`,
      outcome: (after: StaffMemberRecord) => `Disconnected ${label(after)} from its user`,
      read: async (id: string) => staffOf(ctx, await ctx.api(), id),
    },
  });
}
