/**
 * `sitectl staff connect STAFF [--email E]`: connects a staff member to the site user with that e-mail (default:
 * the staff member's own), so the person can sign in to manage their own calendar (Staff Members v1
 * connectStaffMemberToUser). Reversible (`staff disconnect`): it acts at once.
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
import { connectionOf, STAFF_VIEW, staffOf } from './shared/view.js';

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('connect')
    .description('Connect a staff member to a site user (by e-mail; default its own)')
    .argument('<staff>', 'staff member id, unique id prefix, or exact name')
    .option('--email <email>', "the user's e-mail (default: the staff member's)")
    .addHelpText('after', "\nExamples:\n  sitectl staff connect 'Maya Chen'\n  sitectl staff connect 3f2a --email ana@studio.example.com");
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (staff: string, o: FormatFlags & { email?: string }) => {
    await run({ ...o, staff }, ctx);
  });
}

/** Connects and prints the staff member. @throws UserError (exit 2) for a bad e-mail or an unknown staff member; ApiError */
export async function run(opts: FormatFlags & { staff: string; email?: string }, ctx: Context): Promise<void> {
  const format = formatOf(ctx, STAFF_VIEW, opts);
  if (opts.email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(opts.email)) throw new UserError(`--email: '${opts.email}' is not an e-mail address`);
  const api = await ctx.api();
  const current = await staffOf(ctx, api, opts.staff);
  if (opts.email === undefined && !current.email) throw new UserError(`staff member ${current.id} has no e-mail of its own`, 'pass --email');
  const { staffMember } = await staffMembers.connectStaffMemberToUser(
    api,
    { staffMemberId: current.id, ...(opts.email !== undefined ? { email: opts.email } : {}), fields: ['RESOURCE_DETAILS', 'ASSOCIATED_IDENTITY_STATUS'] },
    { signal: ctx.signal },
  );
  success(ctx.io, `Connected staff member ${staffMember.id} (${oneLine(staffMember.name ?? '')}) to ${opts.email ?? current.email}: ${connectionOf(staffMember)}`);
  await printRecord(ctx.io, format, staffMember, { rows: STAFF_VIEW.rows(staffMember), columns: STAFF_VIEW.columns, now: ctx.now() });
}
