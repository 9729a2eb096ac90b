/** `sitectl services count [--filter JSON] [--where f=v]...` (spec 000 section 7 "POST /v2/services/count"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { addFilterFlags, parseFilterFlags, type FilterFlags } from './shared/query.js';

export function register(parent: Command, ctx: Context): void {
  addFilterFlags(parent.command('count').description('Count services matching a filter'))
    .option('--json', 'print {"count": N}')
    .action(async (o: FilterFlags & { json?: boolean }) => {
      await run(o, ctx);
    });
}

/** Prints the number (or `{"count": N}` with --json). @throws UserError (exit 2) on a bad filter. */
export async function run(opts: FilterFlags & { json?: boolean }, ctx: Context): Promise<void> {
  const filter = parseFilterFlags(opts);
  const api = await ctx.api();
  const { countServices } = await import('../../api/services.js');
  const count = await countServices(api, filter ?? {}, { signal: ctx.signal });
  ctx.io.stdout.write(opts.json ? `${JSON.stringify({ count })}\n` : `${count}\n`);
}
