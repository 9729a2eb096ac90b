/**
 * `sitectl services list [--filter JSON] [--where f=v]... [--sort f[:asc|desc]] [--limit N | --all]`: the
 * services query with offset paging (spec 000 section 7 "POST /v2/services/query", section 9).
 */
import type { Command } from 'commander';
import type { Service } from '../../api/schemas/service.js';
// Static, not import(): the list path is the start-up benchmark (issue 2 section 7); in the bundle this module
// is already loaded with the services noun, and a dynamic import would add one more file.
import { servicePages } from '../../api/services.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { notice } from '../../core/log.js';
import { addFormatFlags, printRecords, resolveFormat, type FormatFlags } from '../../core/output.js';
import { SERVICE_COLUMNS } from './shared/columns.js';
import { addFilterFlags, parseFilterFlags, parseIntFlag, parseSort, type FilterFlags } from './shared/query.js';

export const DEFAULT_LIMIT = 50;

export interface ListOptions extends FilterFlags, FormatFlags {
  sort?: string;
  limit?: string;
  all?: boolean;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('list')
    .alias('ls')
    .description('List services (filter, sort, limit or all)')
    .option('--sort <field[:asc|desc]>', 'sort keys, comma-separated, e.g. name or createdDate:desc')
    .option('--limit <n>', `at most this many services (default ${DEFAULT_LIMIT})`)
    .option('--all', 'every matching service (pages through all of them)')
    .addHelpText(
      'after',
      `\nExamples:\n  sitectl services list --where type=CLASS --sort name\n` +
        `  sitectl services list --filter '{"payment.rateType":{"$in":["FIXED","VARIED"]}}' --all --ndjson`,
    );
  addFormatFlags(addFilterFlags(cmd)).action(async (o: ListOptions) => {
    await run(o, ctx);
  });
}

/**
 * Streams the matching services to stdout (NDJSON, TSV and CSV stream; JSON and the TTY table collect).
 * On a TTY, says on stderr when more services match than were shown.
 * @throws UserError (exit 2) on bad flags, before any request.
 */
export async function run(opts: ListOptions, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, ctx.io);
  const filter = parseFilterFlags(opts);
  const sort = opts.sort ? parseSort(opts.sort) : undefined;
  if (opts.all && opts.limit !== undefined) throw new UserError('use either --limit or --all');
  const limit = opts.all ? undefined : opts.limit !== undefined ? parseIntFlag(opts.limit, '--limit') : DEFAULT_LIMIT;

  const api = await ctx.api();
  let total: number | undefined;
  let shown = 0;
  async function* services(): AsyncGenerator<Service> {
    for await (const page of servicePages(api, { filter, sort, limit, pageSize: limit, signal: ctx.signal })) {
      if (total === undefined && page.pagingMetadata && !page.pagingMetadata.tooManyToCount) {
        total = page.pagingMetadata.total;
      }
      shown += page.items.length;
      yield* page.items;
    }
  }
  await printRecords(ctx.io, format, services(), SERVICE_COLUMNS, { now: ctx.now() });
  if (ctx.io.isStdoutTTY && format.kind === 'table') {
    if (shown === 0) notice(ctx.io, 'No services match.');
    else if (total !== undefined && total > shown) {
      notice(ctx.io, `Showing ${shown} of ${total} services; use --limit N or --all for more.`);
    }
  }
}
