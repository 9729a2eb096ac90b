/**
 * `sitectl services diff -f FILE [--prune] [--exit-code] [--json]`: what applying a catalogue (from `services
 * export`) to the site in use (`--site ID|NAME`) would do: services to create, to update (with the changed field
 * paths), unchanged, and with `--prune` to delete. Reads only. With `--exit-code` it exits 1 when there is a
 * difference, like `git diff --exit-code` (errors keep their own codes), so CI can detect drift. References the
 * site lacks (a location, staff member, category, policy or form of that name) are listed: apply would refuse
 * the site.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, ExitStatus, UserError } from '../../core/errors.js';
import { readSource } from '../../core/input.js';
import { notice, success, warn } from '../../core/log.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, printRecords, printValue, resolveFormat } from '../../core/output.js';
import type { CatalogueDiff } from './shared/catalogue.js';

export interface DiffOptions extends FormatFlags {
  file?: string;
  prune?: boolean;
  exitCode?: boolean;
}

/** One site's difference as `--json` prints it. */
export interface SiteDiff extends CatalogueDiff {
  siteId: string;
  siteName?: string;
  /** References of the file the site does not have (apply refuses the site while any is missing). */
  missing: string[];
}

interface Row {
  action: string;
  slug: string;
  fields: string;
}

const COLUMNS: Column<Row>[] = [{ key: 'action' }, { key: 'slug' }, { key: 'fields' }];

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('diff')
    .description('Show what applying a catalogue file to the site would change (reads only)')
    .option('-f, --file <file>', "the catalogue (JSON or YAML from 'services export'; '-' reads stdin)")
    .option('--prune', "list the site's services the file does not hold as deletions (within the file's selection)")
    .option('--exit-code', 'exit 1 when there is a difference (errors keep their codes)')
    .addHelpText('after', '\nExamples:\n  sitectl services diff -f catalogue.yaml --site Uptown\n  sitectl services diff -f catalogue.yaml --site Uptown --exit-code --json');
  addFormatFlags(cmd).action(async (o: DiffOptions) => {
    await run(o, ctx);
  });
}

/**
 * Prints the difference. @throws UserError (exit 2) for a missing or bad file; ApiError from the reads;
 *   ExitStatus (exit 1, nothing printed) under --exit-code when there is a difference
 */
export async function run(opts: DiffOptions, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['sites']));
  if (!opts.file) throw new UserError('which catalogue?', "pass -f FILE (written by 'services export')");
  // The catalogue code (and the YAML library) loads only for this verb, not for every services command.
  const [{ diffCatalogue, readCatalogue }, { missingReferences, parseCatalogue, refText }] = await Promise.all([import('./shared/catalogue.js'), import('./shared/catalogue-file.js')]);
  const wanted = parseCatalogue(await readSource('--file', opts.file, ctx.io.stdin, 'catalogue'), opts.file, ctx.flags.allowUnknownFields);
  const api = await ctx.api();
  const { catalogue: current, furniture } = await readCatalogue(api, undefined, ctx.signal);
  // --prune looks only among the site's services in the file's selection (as exported with --filter/--where).
  const scope = opts.prune && wanted.selection ? new Set((await readCatalogue(api, wanted.selection.filter, ctx.signal)).services.keys()) : undefined;
  const diff: SiteDiff = {
    siteId: api.siteId ?? '',
    ...diffCatalogue(wanted, current, opts.prune ?? false, scope),
    missing: missingReferences(wanted.services, furniture).map(refText),
  };
  const sites = await ctx.sites().catch(() => []);
  const name = sites.find((s) => s.id === diff.siteId)?.name;
  if (name) diff.siteName = name;
  const changes = diff.create.length + diff.update.length + diff.delete.length;
  if (format.kind === 'table' || format.kind === 'csv') {
    const rows: Row[] = [
      ...diff.create.map((slug) => ({ action: 'create', slug, fields: '' })),
      ...diff.update.map((u) => ({ action: 'update', slug: u.slug, fields: u.fields.join(', ') })),
      ...diff.delete.map((slug) => ({ action: 'delete', slug, fields: '' })),
    ];
    if (rows.length) await printRecords(ctx.io, format, rows, COLUMNS, { now: ctx.now() });
  } else {
    await printValue(ctx.io, format, { sites: [diff] });
  }
  const where = name ? `site ${name}` : `site ${diff.siteId}`;
  for (const m of diff.missing) warn(ctx.io, `${where} has no ${m}: apply would refuse the site`);
  if (changes === 0) success(ctx.io, `${where} matches the catalogue (${diff.unchanged} services unchanged)`);
  else notice(ctx.io, `${where}: ${diff.create.length} to create, ${diff.update.length} to update, ${diff.unchanged} unchanged${opts.prune ? `, ${diff.delete.length} to delete` : ''}`);
  if (opts.exitCode && changes > 0) throw new ExitStatus(ExitCode.Failure);
}
