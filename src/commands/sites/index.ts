/**
 * `sitectl sites list`: the sites the profile's API key reaches (docs/catalogue.md "Sites of an account"), through the account-level
 * sites query (`POST /site-list/v2/sites/query` with `wix-account-id`). The site in use (the profile's, or
 * `--site`) is marked. On the platform the account id comes from SITECTL_ACCOUNT_ID; the emulator's is in its
 * key file.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, printRecords, resolveFormat } from '../../core/output.js';

interface Row {
  id: string;
  name: string;
  current: boolean;
}

const COLUMNS: Column<Row>[] = [{ key: 'id', noTruncate: true }, { key: 'name' }, { key: 'current' }];

export function register(cmd: Command, ctx: Context): void {
  const sites = cmd
    .addHelpText('after', '\nExamples:\n  sitectl sites list\n  sitectl sites list --json id,name\n  sitectl services list --site Uptown');
  addFormatFlags(sites.command('list', { isDefault: true }).description('List the sites (the one in use marked current)')).action(async (o: FormatFlags) => {
    await run(o, ctx);
  });
}

/** Prints `{id, name, current}` per site. @throws UserError (exit 2) without the account id on the platform */
export async function run(opts: FormatFlags, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['id', 'name', 'current']));
  const api = await ctx.api();
  const all = await ctx.sites();
  await printRecords(
    ctx.io,
    format,
    all.map((s) => ({ ...s, current: s.id === api.siteId })),
    COLUMNS,
    { now: ctx.now() },
  );
}
