/**
 * `sitectl staff connect STAFF [--email E]`: connects a staff member to the site user with that e-mail (default:
 * the staff member's own), so the person can sign in to manage their own calendar (Staff Members v1
 * connectStaffMemberToUser). Reversible (`staff disconnect`, or `sitectl undo`): it acts at once.
 */
import type { Command } from 'commander';
import type { StaffMemberRecord } from '../../api/schemas/staff.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import type { EntityView } from '../shared/entity-view.js';
import { staffRun } from './shared/connect.js';
import { connectionOf, STAFF_VIEW, staffIdOf, staffOf } from './shared/view.js';

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

/**
 * Connects the staff member as a one-item plan of the bulk engine (commands/shared/one.ts runOneVerb), journaled
 * (so `sitectl history` lists it and `sitectl undo` disconnects it again), and prints it.
 * @throws UserError (exit 2) for a bad e-mail or an unknown staff member; (exit 1) when it is connected already,
 *   has no e-mail of its own and none is given, or the platform refuses it
 */
export async function run(opts: FormatFlags & { staff: string; email?: string }, ctx: Context): Promise<void> {
  if (opts.email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(opts.email)) throw new UserError(`--email: '${opts.email}' is not an e-mail address`);
  const { runOneVerb } = await import('../shared/one.js');
  const label = (s: StaffMemberRecord) => `staff member ${s.id} (${oneLine(s.name ?? '')})`;
  await runOneVerb(ctx, {
    view: STAFF_VIEW as EntityView<unknown>,
    title: 'Connecting',
    build: (api) => staffRun('connect', api, { options: opts.email !== undefined ? { email: opts.email } : {} }),
    resolve: (api) => staffIdOf(ctx, api, opts.staff),
    flags: opts,
    command: 'staff connect',
    one: {
      given: opts.staff,
      rule: REVERSIBLE,
      question: (s: StaffMemberRecord) => `Connect ${label(s)}?`,
      outcome: (after: StaffMemberRecord, _l: string, before: StaffMemberRecord) => `Connected ${label(after)} to ${opts.email ?? before.email}: ${connectionOf(after)}`,
      read: async (id: string) => (await staffOf(ctx, await ctx.api(), id)),
    },
  });
}
