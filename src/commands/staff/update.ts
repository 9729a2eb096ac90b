/**
 * `sitectl staff update STAFF [--name] [--email] [--phone] [--description]`: changes the fields given (Staff
 * Members v1 updateStaffMember at the revision the one-item plan read; a concurrent change is refused, 409, and
 * not overwritten).
 */
import type { Command } from 'commander';
import type { StaffMemberRecord } from '../../api/schemas/staff.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { formatOf } from '../shared/verbs.js';
import { addStaffFlags, staffFieldsOf, type StaffFlags } from './shared/fields.js';
import { STAFF_VIEW, staffOf } from './shared/view.js';

export function register(parent: Command, ctx: Context): void {
  const cmd = addStaffFlags(parent.command('update').description("Change a staff member's name, e-mail, phone or description").argument('<staff>', 'staff member id, unique id prefix, or exact name')).addHelpText(
    'after',
    "\nExamples:\n  sitectl staff update 'Maya Chen' --phone '+1 415 555 0199'\n  sitectl staff update 3f2a --description '' --email ana.lima@example.com",
  );
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (staff: string, o: StaffFlags & FormatFlags) => {
    await run({ ...o, staff }, ctx);
  });
}

/**
 * Changes the fields given as a one-item plan at the staff member's revision (fields already as asked: nothing
 * sent, "already has these values"); journaled, so `sitectl undo` sets them back if unchanged since. Prints the
 * staff member as it is now.
 * @throws UserError (exit 2) for bad flags, nothing to change or an unknown staff member; UserError (exit 1) on a
 *   concurrent change (not overwritten)
 */
export async function run(opts: StaffFlags & FormatFlags & { staff: string }, ctx: Context): Promise<void> {
  formatOf(ctx, STAFF_VIEW, opts);
  const fields = staffFieldsOf(opts);
  if (Object.keys(fields).length === 0) throw new UserError('nothing to change', 'give the fields to change, e.g. --phone or --description');
  const [{ runUpdateOne }, { changeOfFields }, { STAFF_WRITES }] = await Promise.all([import('../shared/one.js'), import('../shared/writes.js'), import('./shared/writes.js')]);
  await runUpdateOne(ctx, {
    spec: STAFF_WRITES,
    given: opts.staff,
    change: changeOfFields(fields),
    flags: opts,
    command: 'staff update',
    resolve: async (api) => (await staffOf(ctx, api, opts.staff)).id,
    outcome: (after: StaffMemberRecord) => `Updated staff member ${after.id} (${oneLine(after.name ?? '')}): ${Object.keys(fields).join(', ')}`,
  });
}
