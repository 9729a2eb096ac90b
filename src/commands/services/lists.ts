/**
 * The site's lists that services refer to: `booking-forms list`, `business-locations list` (docs/wire.md §14:
 * the booking-forms and locations queries), the `booking-policies` group, whose verbs (list, count, strictest and
 * the writes) are declared in policies.ts, and the `categories` group (list, count, get and the writes;
 * categories.ts).
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { listPages } from '../../api/paging.js';
import type { Filter } from '../../api/schemas/common.js';
import { serviceOps, services } from '../../api/services.js';
import type { Context } from '../../context.js';
import { parseFilterFlags } from '../../core/filters.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, printRecords, resolveFormat } from '../../core/output.js';
import { addFilterFlags } from '../shared/verbs.js';
import { type FilterFlags } from '../shared/entity-view.js';
import { registerCategoryVerbs } from './categories.js';
import { registerPolicyVerbs } from './policies.js';

type Opts = FilterFlags & FormatFlags;
type Row = Record<string, unknown>;

interface SiteList {
  noun: string;
  description: string;
  columns: Column<Row>[];
  rows(api: ApiClient, filter: Filter | undefined, signal: AbortSignal): AsyncIterable<Row> | Promise<Row[]>;
}

const LISTS: SiteList[] = [
  {
    noun: 'booking-forms',
    description: 'Booking forms and how many services use each',
    columns: [{ key: 'id', id: true, noTruncate: true }, { key: 'name' }, { key: 'services', align: 'right' }],
    async *rows(api, filter, signal) {
      for await (const page of listPages(api, serviceOps.queryBookingForms, { filter, signal })) {
        for (const f of page.items) {
          yield { id: f.form.id, name: f.form.name, services: f.totalServiceCount ?? f.connectedServices?.length ?? 0, form: f.form, connectedServices: f.connectedServices };
        }
      }
    },
  },
  {
    noun: 'business-locations',
    description: "The business's locations (for 'services locations set --business')",
    columns: [
      { key: 'id', id: true, noTruncate: true },
      { key: 'name' },
      { key: 'default', priority: 2 },
      { key: 'status', priority: 3 },
      { key: 'address', get: (l) => (l.address as { formatted?: string } | undefined)?.formatted ?? '', priority: 1 },
      { key: 'timeZone', header: 'TIME ZONE', priority: 4 },
    ],
    rows: async (api, filter, signal) => (await services.queryLocations(api, { filter: filter ?? {} }, { signal })).businessLocations.locations,
  },
];

export function register(parent: Command, ctx: Context): void {
  registerPolicyVerbs(parent.command('booking-policies').description('Booking policies: list, count, the strictest of several, create, update, delete, set the default'), ctx);
  registerCategoryVerbs(parent.command('categories').description('Service categories: list, count, get, rename, delete, move'), ctx);
  for (const list of LISTS) {
    const group = parent.command(list.noun).description(list.description);
    addFormatFlags(addFilterFlags(group.command('list').alias('ls').description(`List ${list.noun.replace('-', ' ')}`))).action(async (o: Opts) => {
      await run(list, o, ctx);
    });
  }
}

/** Prints one row per entry; `--json` fields are the columns plus the platform's own objects. */
export async function run(list: SiteList, opts: Opts, ctx: Context): Promise<void> {
  const known = [...list.columns.map((c) => c.key), 'form', 'connectedServices', 'address', 'description', 'email', 'phone', 'revision', 'updatedDate'];
  const format = resolveFormat(opts, ctx.flags.allowUnknownFields ? undefined : fieldsChecker(known));
  const filter = parseFilterFlags(opts);
  const api = await ctx.api();
  await printRecords(ctx.io, format, await list.rows(api, filter, ctx.signal), list.columns, { now: ctx.now(), empty: `No ${list.noun.replace(/-/g, ' ')} match.` });
}
