/**
 * `sitectl staff search TEXT [--filter JSON] [--where f=v]... [--limit N]`: staff members whose name matches the
 * text (Staff Members v1 searchStaffMembers, `{search: {search: {expression}, filter, cursorPaging}}`; the
 * module's only searchable field is `name`), by name, in any output format. Reads only.
 */
import type { Command } from 'commander';
import { listPages } from '../../api/paging.js';
import { MAX_STAFF_PAGE, MAX_STAFF_SEARCH_EXPRESSION, staffMembersFamily } from '../../api/staff-members.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { parseCount } from '../../core/numbers.js';
import { addFormatFlags, printRecords, type FormatFlags } from '../../core/output.js';
import { filterOf, formatOf, type FilterFlags } from '../shared/entity-view.js';
import { addFilterFlags } from '../shared/verbs.js';
import { STAFF_VIEW } from './shared/view.js';

export interface StaffSearchOptions extends FilterFlags, FormatFlags {
  text: string;
  limit?: string;
  all?: boolean;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('search')
    .description('Search staff members by name (words of the text; any of them matches)')
    .argument('<text>', `words to find in staff names (at most ${MAX_STAFF_SEARCH_EXPRESSION} characters)`)
    .option('--limit <n>', 'at most this many (default 50)')
    .option('--all', 'every match')
    .addHelpText('after', "\nExamples:\n  sitectl staff search maya\n  sitectl staff search 'chen lima' --json id,name\n  sitectl staff search ana --where email=ana@example.com");
  addFormatFlags(addFilterFlags(cmd, STAFF_VIEW.filterExample)).action(async (text: string, o: Omit<StaffSearchOptions, 'text'>) => {
    await run({ ...o, text }, ctx);
  });
}

/**
 * Prints the staff members the platform's search finds, as `staff list` prints them.
 * @throws UserError (exit 2) for an empty or too long text, both --limit and --all, a bad filter or limit
 */
export async function run(opts: StaffSearchOptions, ctx: Context): Promise<void> {
  const text = opts.text.trim();
  if (text === '') throw new UserError('the search text is empty', `e.g. ${ctx.bin} staff search maya`);
  if (text.length > MAX_STAFF_SEARCH_EXPRESSION) throw new UserError(`the search text is at most ${MAX_STAFF_SEARCH_EXPRESSION} characters, got ${text.length}`);
  if (opts.all && opts.limit !== undefined) throw new UserError('use either --limit or --all');
  const limit = opts.all ? undefined : opts.limit !== undefined ? parseCount(opts.limit, '--limit') : 50;
  const format = formatOf(ctx, STAFF_VIEW, opts);
  const filter = filterOf(ctx, STAFF_VIEW, opts);
  const api = await ctx.api();
  const pages = listPages(api, staffMembersFamily.operations.searchStaffMembers, {
    filter,
    limit,
    pageSize: Math.min(limit ?? MAX_STAFF_PAGE, MAX_STAFF_PAGE) || 1,
    params: { search: { search: { expression: text } }, ...STAFF_VIEW.params },
    signal: ctx.signal,
  });
  async function* entities() {
    for await (const page of pages) yield* page.items;
  }
  await printRecords(ctx.io, format, entities(), STAFF_VIEW.columns, { now: ctx.now(), empty: `No staff member's name matches '${text}'.` });
}
