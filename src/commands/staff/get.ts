/** `sitectl staff get STAFF`: one staff member by id, unique id prefix or exact name, with its resource and user. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { addFormatFlags, printRecord, type FormatFlags } from '../../core/output.js';
import { formatOf } from '../shared/verbs.js';
import { STAFF_VIEW, staffOf } from './shared/view.js';

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(
    parent
      .command('get')
      .alias('view')
      .description('Show one staff member')
      .argument('<staff>', 'staff member id, unique id prefix, or exact name')
      .addHelpText('after', "\nExamples:\n  sitectl staff get 'Maya Chen'\n  sitectl staff get 3f2a --json id,name,resource"),
  ).action(async (staff: string, o: FormatFlags) => {
    await run({ staff, ...o }, ctx);
  });
}

/** Prints the staff member: the readable view on a terminal, TSV off it, the entity with --json. @throws UserError (exit 2) for an unknown one */
export async function run(opts: FormatFlags & { staff: string }, ctx: Context): Promise<void> {
  const format = formatOf(ctx, STAFF_VIEW, opts);
  const api = await ctx.api();
  const staff = await staffOf(ctx, api, opts.staff);
  await printRecord(ctx.io, format, staff, { rows: STAFF_VIEW.rows(staff), columns: STAFF_VIEW.columns, now: ctx.now() });
}
