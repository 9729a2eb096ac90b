/** `sitectl services get ID`: one service (spec 000 section 7 "GET /v2/services/{serviceId}"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { addFormatFlags, printRecord, resolveFormat, type FormatFlags } from '../../core/output.js';
import { SERVICE_COLUMNS, serviceRows } from './shared/columns.js';

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(parent.command('get').alias('view').description('Show one service').argument('<id>', 'service id')).action(
    async (id: string, o: FormatFlags) => {
      await run({ id, ...o }, ctx);
    },
  );
}

/**
 * Prints the service: a readable key/value view on a TTY, `key<TAB>value` lines when piped, the full entity with
 * `--json`. @throws ApplicationError NOT_FOUND (exit 1) for an unknown id.
 */
export async function run(opts: FormatFlags & { id: string }, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, ctx.io);
  const api = await ctx.api();
  const { getService } = await import('../../api/services.js');
  const service = await getService(api, opts.id, { signal: ctx.signal });
  await printRecord(ctx.io, format, service, { rows: serviceRows(service), columns: SERVICE_COLUMNS, now: ctx.now() });
}
