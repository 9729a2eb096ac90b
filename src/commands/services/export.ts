/**
 * `sitectl services export [--filter JSON | --where k=v] [--format json|yaml] [-o FILE]`: the site's services as
 * a portable catalogue (docs/catalogue.md "The catalogue file"; shapes in `shared/catalogue.ts`): references by name, no ids,
 * revisions or dates, stable order. On stdout unless `-o` names a file (core/output-file.ts: a regular file
 * replaced atomically, a new one 0600; a device or FIFO written in place).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { choiceOf } from '../shared/choices.js';
import { collect } from '../../core/filters.js';
import { success } from '../../core/log.js';
import { writeOutput } from '../../core/output-file.js';
import { filterOf, wireFilter } from '../shared/entity-view.js';
import { SERVICE_VIEW } from './shared/view.js';

export interface ExportOptions {
  filter?: string;
  where?: string[];
  format?: string;
  output?: string;
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command('export')
    .description('Write the services as a portable catalogue (references by name; for diff and apply on other sites)')
    .option('--filter <json>', 'only the services matching this filter, e.g. \'{"type":"CLASS"}\'')
    .option('--where <field=value>', 'only services where field=value (repeatable)', collect)
    .option('--format <format>', 'json or yaml (default: from the -o file name, else json)')
    .option('-o, --output <file>', "write to this file instead of stdout (replaced atomically; a symbolic link is followed, the file it points to named; a device or FIFO is written in place; '-' = stdout)")
    .addHelpText('after', '\nExamples:\n  sitectl services export -o catalogue.yaml\n  sitectl services export --where type=CLASS --format yaml\n  sitectl services diff -f catalogue.yaml --site Uptown')
    .action(async (o: ExportOptions) => {
      await run(o, ctx);
    });
}

/** `json` or `yaml`, from `--format`, else the file's extension, else json. @throws UserError (exit 2) */
export function formatOfFile(format: string | undefined, file: string | undefined): 'json' | 'yaml' {
  if (format !== undefined) {
    const f = choiceOf(format, ['json', 'yaml', 'yml'], '--format', { fold: (v) => v.trim().toLowerCase() });
    return f === 'json' ? 'json' : 'yaml';
  }
  return file && /\.ya?ml$/i.test(file) ? 'yaml' : 'json';
}

/**
 * Writes the catalogue. @throws UserError (exit 2) for bad flags or filter fields; ApiError from the reads; the
 *   file-system error when `-o` cannot be written
 */
export async function run(opts: ExportOptions, ctx: Context): Promise<void> {
  const format = formatOfFile(opts.format, opts.output);
  const filter = filterOf(ctx, SERVICE_VIEW, opts);
  const api = await ctx.api();
  // The catalogue code (and the YAML library) loads only for this verb, not for every services command.
  const [{ readCatalogue }, { serializeCatalogue }] = await Promise.all([import('./shared/catalogue.js'), import('./shared/catalogue-file.js')]);
  const { catalogue } = await readCatalogue(api, wireFilter(SERVICE_VIEW, filter), ctx.signal);
  const text = serializeCatalogue(catalogue, format);
  const wrote = await writeOutput(opts.output ?? '-', text, ctx.io.stdout);
  success(ctx.io, `Exported ${catalogue.services.length} services${wrote.kind === 'stdout' ? '' : ` to ${opts.output}`}${wrote.linked ? ` (a link: written to ${wrote.linked})` : ''}`);
}
