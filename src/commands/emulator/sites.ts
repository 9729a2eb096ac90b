/**
 * `sitectl emulator sites list|create NAME|remove ID`: the sites of the emulated account (docs/catalogue.md "Sites of an account"),
 * through the control plane (`/__emulator/sites`). The admin key reaches every one of them; `--site ID|NAME`
 * picks one for any command. A new site is furnished like the demo's "Uptown": its own business locations,
 * staff, booking policies, forms and categories (same names, new ids), and no services.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { notice, success } from '../../core/log.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, printRecords, printValue, resolveFormat } from '../../core/output.js';
import { emulatorRequest, ensureEmulator } from '../../local/daemon.js';
import { dataDirOf } from './shared.js';

interface SiteRow {
  id: string;
  name: string;
  createdDate?: string;
  default?: boolean;
}

const COLUMNS: Column<SiteRow>[] = [{ key: 'id', noTruncate: true }, { key: 'name' }, { key: 'default' }, { key: 'createdDate' }];

/** The emulator of the data dir, started when it is not running; every request goes to its control plane. */
async function control(opts: { dataDir?: string }, ctx: Context) {
  const dataDir = dataDirOf(opts, ctx);
  const emu = await ensureEmulator(dataDir);
  if (emu.started) notice(ctx.io, `Started the local emulator at ${emu.url} (data in ${dataDir}); stop it with: ${ctx.bin} emulator stop`);
  return (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    emulatorRequest(emu.url, emu, method, path, body).catch((err: unknown) => {
      // "emulator replied 409: the account has a site named ..." -> the message after the status.
      const text = err instanceof Error ? err.message.replace(/^emulator replied \d+: /, '') : String(err);
      throw new UserError(text, undefined, ExitCode.Failure);
    });
}

export function register(parent: Command, ctx: Context): void {
  const sites = parent
    .command('sites')
    .description('Sites of the emulated account: list, create, remove')
    .addHelpText('after', "\nExamples:\n  sitectl emulator sites list\n  sitectl emulator sites create 'Mission Bay'\n  sitectl emulator sites remove 3f1c9a2e-...\n  sitectl services list --site Uptown");
  addFormatFlags(sites.command('list', { isDefault: true }).description('List the sites (the default one marked)').option('--data-dir <dir>', 'data dir of the emulator')).action(
    async (o: FormatFlags & { dataDir?: string }) => {
      const format = resolveFormat(o, fieldsChecker(['id', 'name', 'createdDate', 'default']));
      const send = await control(o, ctx);
      const reply = (await send('GET', '/__emulator/sites')) as { sites: SiteRow[] };
      await printRecords(ctx.io, format, reply.sites, COLUMNS, { now: ctx.now() });
    },
  );
  addFormatFlags(
    sites
      .command('create')
      .description('Add a site to the account, with its own locations, staff and policies')
      .argument('<name>', 'the site name (unique in the account)')
      .option('--data-dir <dir>', 'data dir of the emulator'),
  ).action(async (name: string, o: FormatFlags & { dataDir?: string }) => {
    const format = resolveFormat(o, fieldsChecker(['id', 'name', 'createdDate', 'default']));
    if (!name.trim()) throw new UserError('a site needs a name');
    const send = await control(o, ctx);
    const reply = (await send('POST', '/__emulator/sites', { name })) as { site: SiteRow };
    success(ctx.io, `Created site "${reply.site.name}" (${reply.site.id})`);
    await printValue(ctx.io, format, reply.site, { text: reply.site.id });
  });
  sites
    .command('remove')
    .description('Remove a site and all of its data (not the default site)')
    .argument('<site>', 'the site id or name')
    .option('--data-dir <dir>', 'data dir of the emulator')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (given: string, o: { dataDir?: string; yes?: boolean }) => {
      const send = await control(o, ctx);
      const { sites: all } = (await send('GET', '/__emulator/sites')) as { sites: SiteRow[] };
      const site = all.find((s) => s.id === given) ?? all.find((s) => s.name.toLowerCase() === given.toLowerCase());
      if (!site) throw new UserError(`the emulated account has no site '${given}'`, `its sites: ${all.map((s) => s.name).join(', ')}`);
      if (!o.yes) await ctx.prompter.require(`Remove site "${site.name}" and all of its data?`, { what: `removing site '${site.name}'` });
      await send('DELETE', `/__emulator/sites/${encodeURIComponent(site.id)}`);
      success(ctx.io, `Removed site "${site.name}" (${site.id})`);
    });
}
