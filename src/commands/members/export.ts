/**
 * `sitectl members export --ndjson|--csv [--status S] [--search TEXT] [--filter JSON] [--where f=v]...`: every
 * matching member, FULL fieldset, streamed in constant memory: the members query is paged 100 at a time (one
 * page read ahead) and each member is written as soon as its page arrives, so 100,000 members take no more
 * memory than 1,000 (issue 7 section 3; bench/run.js measures it). A summary goes to stderr; stdout is data.
 */
import type { Command } from 'commander';
import { listPages } from '../../api/paging.js';
import { MAX_MEMBERS_PAGE, type Member } from '../../api/schemas/member.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { notice } from '../../core/log.js';
import { type Column, printRecords } from '../../core/output.js';
import { type FilterFlags, addFilterFlags, filterOf, type Verb } from '../shared/verbs.js';
import { searchParam, statusFilter } from './list.js';
import { MEMBER_VIEW } from './shared/view.js';

export interface ExportOptions extends FilterFlags {
  ndjson?: boolean;
  csv?: boolean;
  status?: string;
  search?: string;
}

/** CSV columns of the export: the member flattened (lists joined with `; `). */
export const EXPORT_COLUMNS: Column<Member>[] = [
  { key: 'id' },
  { key: 'loginEmail' },
  { key: 'status' },
  { key: 'privacyStatus' },
  { key: 'activityStatus' },
  { key: 'nickname', get: (m) => m.profile?.nickname },
  { key: 'slug', get: (m) => m.profile?.slug },
  { key: 'title', get: (m) => m.profile?.title },
  { key: 'contactId' },
  { key: 'firstName', get: (m) => m.contact?.firstName },
  { key: 'lastName', get: (m) => m.contact?.lastName },
  { key: 'phones', get: (m) => m.contact?.phones?.join('; ') },
  { key: 'emails', get: (m) => m.contact?.emails?.join('; ') },
  { key: 'company', get: (m) => m.contact?.company },
  { key: 'jobTitle', get: (m) => m.contact?.jobTitle },
  { key: 'createdDate' },
  { key: 'lastLoginDate' },
];

/**
 * Streams the export to stdout.
 * @throws UserError (exit 2) unless exactly one of --ndjson and --csv is given, or for a bad filter, status or
 *   search; ApiError from the platform
 */
export async function run(opts: ExportOptions, ctx: Context): Promise<void> {
  if (Boolean(opts.ndjson) === Boolean(opts.csv)) throw new UserError('choose one of --ndjson and --csv', 'e.g. sitectl members export --ndjson > members.ndjson');
  const given = filterOf(ctx, MEMBER_VIEW, opts);
  const status = statusFilter(opts.status);
  const filter = given && status ? { $and: [given, status] } : (given ?? status);
  const params = { ...MEMBER_VIEW.params, ...searchParam(opts.search) };
  const api = await ctx.api();
  let count = 0;
  async function* members(): AsyncGenerator<Member> {
    for await (const page of listPages(api, MEMBER_VIEW.query, { filter, params, pageSize: MAX_MEMBERS_PAGE, signal: ctx.signal })) {
      count += page.items.length;
      yield* page.items as Member[];
    }
  }
  await printRecords(ctx.io, opts.ndjson ? { kind: 'ndjson' } : { kind: 'csv' }, members(), EXPORT_COLUMNS);
  notice(ctx.io, `Exported ${count} member${count === 1 ? '' : 's'}.`);
}

export const verb: Verb<ExportOptions> = {
  run,
  register(parent: Command, ctx: Context) {
    const cmd = parent
      .command('export')
      .description('Write every member (or those matching) as NDJSON or CSV, streaming in constant memory')
      .option('--ndjson', 'one JSON member per line (FULL fieldset)')
      .option('--csv', 'CSV with a header row')
      .option('--status <statuses>', 'only these statuses, comma-separated')
      .option('--search <text>', 'free-text search over names, nickname and login e-mail')
      .addHelpText('after', `\nExamples:\n  sitectl members export --ndjson > members.ndjson\n  sitectl members export --csv --status APPROVED,PENDING > members.csv`);
    addFilterFlags(cmd, MEMBER_VIEW.filterExample).action(async (o: ExportOptions) => {
      await run(o, ctx);
    });
  },
};

export const { register } = verb;
