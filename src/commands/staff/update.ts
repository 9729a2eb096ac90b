/**
 * `sitectl staff update STAFF [--name] [--email] [--phone] [--description]`: changes the fields given (Staff
 * Members v1 updateStaffMember at the staff member's current revision; a concurrent change is refused, 409).
 */
import type { Command } from 'commander';
import { staffMembers } from '../../api/staff-members.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { addFormatFlags, printRecord, type FormatFlags } from '../../core/output.js';
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
 * Sends the changed fields and prints the staff member as it is now.
 * @throws UserError (exit 2) for bad flags, nothing to change or an unknown staff member; ApplicationError 409 on a concurrent change
 */
export async function run(opts: StaffFlags & FormatFlags & { staff: string }, ctx: Context): Promise<void> {
  const format = formatOf(ctx, STAFF_VIEW, opts);
  const fields = staffFieldsOf(opts);
  if (Object.keys(fields).length === 0) throw new UserError('nothing to change', 'give the fields to change, e.g. --phone or --description');
  const api = await ctx.api();
  const current = await staffOf(ctx, api, opts.staff);
  const { staffMember } = await staffMembers.updateStaffMember(
    api,
    { staffMember: { id: current.id, revision: current.revision ?? '0', ...fields }, fields: ['RESOURCE_DETAILS', 'ASSOCIATED_IDENTITY_STATUS'] },
    { signal: ctx.signal },
  );
  success(ctx.io, `Updated staff member ${staffMember.id} (${oneLine(staffMember.name ?? '')}): ${Object.keys(fields).join(', ')}`);
  await printRecord(ctx.io, format, staffMember, { rows: STAFF_VIEW.rows(staffMember), columns: STAFF_VIEW.columns, now: ctx.now() });
}
