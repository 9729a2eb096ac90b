/**
 * `sitectl members export --ndjson|--csv [--status S] [--search TEXT] [--filter JSON] [--where f=v]...`: every
 * matching member, FULL fieldset, streamed in constant memory: the members query is paged 50 at a time (one
 * page read ahead) and each page is written as soon as it arrives, so 100,000 members take about the memory of
 * 10,000 (docs/members.md "The CLI's bulk runs"; bench/run.js measures it; see {@link keepYoungGenerationSmall}). A summary goes to
 * stderr; stdout is data.
 */
import v8 from 'node:v8';
import type { Command } from 'commander';
import { listPages } from '../../api/paging.js';
import { type Member } from '../../api/schemas/member.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { notice } from '../../core/log.js';
import { type Column, csvCell, plain, writeOut } from '../../core/output.js';
import { addFilterFlags, type Verb } from '../shared/verbs.js';
import { type FilterFlags, filterOf } from '../shared/entity-view.js';
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
  const line = opts.ndjson ? (m: Member) => JSON.stringify(m) : (m: Member) => EXPORT_COLUMNS.map((c) => csvCell(plain(c.get ? c.get(m) : (m as Record<string, unknown>)[c.key]))).join(',');
  if (opts.csv) await writeOut(ctx.io, EXPORT_COLUMNS.map((c) => csvCell(c.key)).join(',') + '\n');
  keepYoungGenerationSmall();
  let count = 0;
  // One write per page: a page's members are garbage as soon as it is written.
  for await (const page of listPages(api, MEMBER_VIEW.query, { filter, params, pageSize: EXPORT_PAGE, signal: ctx.signal })) {
    if (page.items.length === 0) continue;
    count += page.items.length;
    await writeOut(ctx.io, (page.items as Member[]).map(line).join('\n') + '\n');
  }
  notice(ctx.io, `Exported ${count} member${count === 1 ? '' : 's'}.`);
}

/**
 * Members per request of the export: 50 (the platform's default page) keeps each reply and each burst of
 * parsing small, so few objects survive a scavenge.
 */
export const EXPORT_PAGE = 50;

/**
 * Keeps V8's young generation at its starting size for the rest of this process. An export parses and writes
 * page after page in short bursts; V8 answers a long run of them by growing the young generation (up to 16 MB
 * per semi-space), which was the only part of the memory that grew with the member count (bench/run.js
 * section 7: 100,000 members peaked ~30 % above 10,000 without it, within ~12 % with it; the live heap stays
 * 10-25 MB either way). `--semi-space-growth-factor` is read whenever V8 considers growing, so setting it once
 * the process runs takes effect.
 */
function keepYoungGenerationSmall(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
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
