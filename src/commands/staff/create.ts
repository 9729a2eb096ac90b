/**
 * `sitectl staff create --name N [--email E] [--phone P] [--description D]`: a new staff member (Staff Members
 * v1 createStaffMember). It works the business's default hours until `staff hours set` gives it its own, and
 * gives no service until a service lists it (`services update ID --set staffMemberIds=...`).
 */
import type { Command } from 'commander';
import type { StaffMemberRecord } from '../../api/schemas/staff.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { addFormatFlags, printRecord, printValue, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { formatOf } from '../shared/verbs.js';
import { addStaffFlags, staffFieldsOf, type StaffFlags } from './shared/fields.js';
import { STAFF_VIEW } from './shared/view.js';

export function register(parent: Command, ctx: Context): void {
  const cmd = addStaffFlags(parent.command('create').description("Create a staff member (it works the business's default hours)")).addHelpText(
    'after',
    "\nExamples:\n  sitectl staff create --name 'Ana Lima' --email ana@example.com --phone '+1 415 555 0100'\n  sitectl staff create --name 'Ben Ode' --description 'Sports massage' --json id",
  );
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (o: StaffFlags & FormatFlags) => {
    await run(o, ctx);
  });
}

/**
 * Creates the staff member as a one-item change (in `sitectl history`; `sitectl undo` deletes it if unchanged
 * since); prints its id alone when stdout is piped, the readable view on a terminal, the
 * staff member with --json.
 * @throws UserError (exit 2) for bad flags; ValidationError (exit 2) when the platform refuses a field
 */
export async function run(opts: StaffFlags & FormatFlags, ctx: Context): Promise<void> {
  const format = formatOf(ctx, STAFF_VIEW, opts);
  if (opts.name === undefined) throw new UserError('a new staff member needs --name', `e.g. ${ctx.bin} staff create --name 'Ana Lima' --email ana@example.com`);
  const fields = Object.fromEntries(Object.entries(staffFieldsOf(opts)).filter(([, v]) => v !== null)) as { name: string };
  // A one-item create through the engine: journaled, so `sitectl history` lists it and `sitectl undo` deletes it.
  const [{ runCreateOne }, { STAFF_WRITES }] = await Promise.all([import('../shared/one.js'), import('./shared/writes.js')]);
  const staffMember = (await runCreateOne(ctx, STAFF_WRITES, fields, fields.name)) as StaffMemberRecord;
  success(ctx.io, `Created staff member ${staffMember.id} (${oneLine(staffMember.name ?? '')}); it works the business's default hours`);
  if (format.kind === 'table' && !ctx.io.isStdoutTTY) {
    await printValue(ctx.io, format, staffMember, { text: staffMember.id });
    return;
  }
  await printRecord(ctx.io, format, staffMember, { rows: STAFF_VIEW.rows(staffMember), columns: STAFF_VIEW.columns, now: ctx.now() });
}
