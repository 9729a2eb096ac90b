/**
 * The read-only lists that services refer to: `policies list`, `forms list`, `categories list`,
 * `business-locations list` (spec 000 section 7: policies, booking-forms, categories and locations queries).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { addFormatFlags, printRecords, resolveFormat, type Column, type FormatFlags } from '../../core/output.js';
import { addFilterFlags, parseFilterFlags, type FilterFlags } from './shared/query.js';

type Opts = FilterFlags & FormatFlags;

export interface PolicyRow {
  id?: string;
  name?: string;
  default?: boolean;
  services: number;
  createdDate?: Date;
  updatedDate?: Date;
  bookingPolicy: unknown;
  connectedServices?: unknown[];
}

const POLICY_COLUMNS: Column<PolicyRow>[] = [
  { key: 'id', noTruncate: true },
  { key: 'name' },
  { key: 'default' },
  { key: 'services', align: 'right' },
  { key: 'createdDate', header: 'CREATED' },
];

export interface FormRow {
  id: string;
  name?: string;
  services: number;
  form: unknown;
  connectedServices?: unknown[];
}

const FORM_COLUMNS: Column<FormRow>[] = [{ key: 'id', noTruncate: true }, { key: 'name' }, { key: 'services', align: 'right' }];

const CATEGORY_COLUMNS: Column<{ id: string; name?: string; sortOrder?: number }>[] = [
  { key: 'id', noTruncate: true },
  { key: 'name' },
  { key: 'sortOrder', header: 'ORDER', align: 'right' },
];

const LOCATION_COLUMNS: Column<Record<string, unknown>>[] = [
  { key: 'id', noTruncate: true },
  { key: 'name' },
  { key: 'default' },
  { key: 'status' },
  { key: 'address', get: (l) => (l.address as { formatted?: string } | undefined)?.formatted ?? '' },
  { key: 'timeZone', header: 'TIME ZONE' },
];

export function register(parent: Command, ctx: Context): void {
  const lists: Array<[noun: string, description: string, run: (o: Opts, ctx: Context) => Promise<void>]> = [
    ['policies', 'Booking policies and how many services use each', runPolicies],
    ['forms', 'Booking forms and how many services use each', runForms],
    ['categories', 'Service categories', runCategories],
    ['business-locations', "The business's locations (for 'services locations set --business')", runBusinessLocations],
  ];
  for (const [noun, description, run] of lists) {
    const group = parent.command(noun).description(description);
    addFormatFlags(addFilterFlags(group.command('list').alias('ls').description(`List ${noun.replace('-', ' ')}`))).action(
      async (o: Opts) => {
        await run(o, ctx);
      },
    );
  }
}

/** Every booking policy (cursor paging), with the number of connected services. */
export async function runPolicies(opts: Opts, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, ctx.io);
  const filter = parseFilterFlags(opts);
  const api = await ctx.api();
  const { queryPolicies } = await import('../../api/services.js');
  const { cursorPages, items } = await import('../../api/paging.js');
  const pages = cursorPages(async (cursorPaging) => {
    const reply = await queryPolicies(api, cursorPaging.cursor ? { cursorPaging } : { filter, cursorPaging }, { signal: ctx.signal });
    return { items: reply.bookingPolicies, pagingMetadata: reply.pagingMetadata };
  }, { pageSize: 100 });
  async function* rows(): AsyncGenerator<PolicyRow> {
    for await (const p of items(pages)) {
      yield {
        id: p.bookingPolicy.id,
        name: p.bookingPolicy.name,
        default: p.bookingPolicy.default,
        services: p.totalServiceCount ?? p.connectedServices?.length ?? p.services?.length ?? 0,
        createdDate: p.bookingPolicy.createdDate,
        updatedDate: p.bookingPolicy.updatedDate,
        bookingPolicy: p.bookingPolicy,
        connectedServices: p.connectedServices,
      };
    }
  }
  await printRecords(ctx.io, format, rows(), POLICY_COLUMNS, { now: ctx.now() });
}

/** Every booking form (cursor paging), with the number of connected services. */
export async function runForms(opts: Opts, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, ctx.io);
  const filter = parseFilterFlags(opts);
  const api = await ctx.api();
  const { queryBookingForms } = await import('../../api/services.js');
  const { cursorPages, items } = await import('../../api/paging.js');
  const pages = cursorPages(async (cursorPaging) => {
    const reply = await queryBookingForms(api, cursorPaging.cursor ? { cursorPaging } : { filter, cursorPaging }, { signal: ctx.signal });
    return { items: reply.bookingForms, pagingMetadata: reply.pagingMetadata };
  }, { pageSize: 100 });
  async function* rows(): AsyncGenerator<FormRow> {
    for await (const f of items(pages)) {
      yield { id: f.form.id, name: f.form.name, services: f.connectedServices?.length ?? 0, form: f.form, connectedServices: f.connectedServices };
    }
  }
  await printRecords(ctx.io, format, rows(), FORM_COLUMNS, { now: ctx.now() });
}

/** The service categories. */
export async function runCategories(opts: Opts, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, ctx.io);
  const filter = parseFilterFlags(opts);
  const api = await ctx.api();
  const { queryCategories } = await import('../../api/services.js');
  const categories = await queryCategories(api, filter ?? {}, { signal: ctx.signal });
  await printRecords(ctx.io, format, categories, CATEGORY_COLUMNS, { now: ctx.now() });
}

/** The business locations. */
export async function runBusinessLocations(opts: Opts, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, ctx.io);
  const filter = parseFilterFlags(opts);
  const api = await ctx.api();
  const { queryBusinessLocations } = await import('../../api/services.js');
  const locations = await queryBusinessLocations(api, filter ?? {}, { signal: ctx.signal });
  await printRecords(ctx.io, format, locations as Array<Record<string, unknown>>, LOCATION_COLUMNS, { now: ctx.now() });
}
