/**
 * `sitectl staff disconnect STAFF`: disconnects a staff member from its site user (Staff Members v1
 * disconnectStaffMemberFromUser); the staff member stays. Reversible (`staff connect`): it acts at once, and
 * says so when there is nothing to disconnect (nothing sent).
 */
import type { Command } from 'commander';
import { staffMembers } from '../../api/staff-members.js';
import type { Context } from '../../context.js';
import { notice, success } from '../../core/log.js';
import { addFormatFlags, printRecord, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { formatOf } from '../shared/verbs.js';
import { STAFF_VIEW, staffOf } from './shared/view.js';

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

/** Disconnects and prints the staff member. @throws UserError (exit 2) for an unknown staff member; ApiError */
export async function run(opts: FormatFlags & { staff: string }, ctx: Context): Promise<void> {
  const format = formatOf(ctx, STAFF_VIEW, opts);
  const api = await ctx.api();
  const current = await staffOf(ctx, api, opts.staff);
  const label = `staff member ${current.id} (${oneLine(current.name ?? '')})`;
  if (!current.associatedWixIdentity) {
    notice(ctx.io, `${label} is connected to no user already; nothing changed`);
    await printRecord(ctx.io, format, current, { rows: STAFF_VIEW.rows(current), columns: STAFF_VIEW.columns, now: ctx.now() });
    return;
  }
  const { staffMember } = await staffMembers.disconnectStaffMemberFromUser(api, { staffMemberId: current.id, fields: ['RESOURCE_DETAILS', 'ASSOCIATED_IDENTITY_STATUS'] }, { signal: ctx.signal });
  success(ctx.io, `Disconnected ${label} from its user`);
  await printRecord(ctx.io, format, staffMember, { rows: STAFF_VIEW.rows(staffMember), columns: STAFF_VIEW.columns, now: ctx.now() });
}
