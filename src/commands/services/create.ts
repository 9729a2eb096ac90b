/**
 * `sitectl services create --name N --type T [--price P --currency C] [--capacity N] [--category-id ID]
 * [--hidden]`, or `--file service.json` / `--file -` (stdin), flags overriding the file's fields
 * (docs/wire.md §14 "POST /v2/services").
 */
import type { Command } from 'commander';
import type { Service, ServiceCreate } from '../../api/schemas/service.js';
import { serviceInputs, ServiceTypeValues } from '../../api/schemas/service.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { choiceOf, currencyOf } from '../shared/choices.js';
import { parseAmount, parseCount } from '../../core/numbers.js';
import { readJsonSource } from '../../core/input.js';
import { success } from '../../core/log.js';
import { addFormatFlags, printRecord, printValue, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { checkFileFields } from '../shared/fields.js';
import { formatOf } from '../shared/verbs.js';
import { SERVICE_VIEW } from './shared/view.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { enumOption } from '../../core/flag-values.js';

export interface CreateOptions extends FormatFlags {
  name?: string;
  type?: string;
  price?: string;
  currency?: string;
  capacity?: string;
  categoryId?: string;
  hidden?: boolean;
  description?: string;
  file?: string;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = enumOption(parent.command('create').description('Create a service from flags or a JSON file').option('--name <name>', 'service name'), '--type <type>', `${ServiceTypeValues.join(', ')}`, ServiceTypeValues, false)
    .option('--price <amount>', 'fixed price, e.g. 45 or 45.50 (rate type FIXED)')
    .option('--currency <code>', 'ISO currency of --price', 'USD')
    .option('--capacity <n>', 'default capacity (participants per session)')
    .option('--category-id <id>', "category id ('sitectl services categories list')")
    .option('--description <text>', 'description')
    .option('--hidden', 'hide it from the site')
    .option('--file <path>', "service JSON (the service object, or {\"service\": ...}); '-' reads stdin")
    .addHelpText(
      'after',
      `\nExamples:\n  sitectl services create --name "Yoga basics" --type CLASS --price 25 --capacity 12\n` +
        `  sitectl services get ID --json | jq '.name="Copy"|del(.id,.revision)' | sitectl services create --file -`,
    );
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (o: CreateOptions) => {
    await run(o, ctx);
  });
}

/**
 * Builds the service from the file (if any) and the flags, then creates it as a one-item change (in `sitectl
 * history`; `sitectl undo` deletes it if unchanged since). Every flag, the file and the
 * output format are checked first, so a refused command creates nothing (a CI retry never makes a duplicate).
 * Prints the new service: its id alone when stdout is piped (so `id=$(sitectl services create ...)` works),
 * the readable view on a terminal, the entity with --json.
 * @throws UserError (exit 2) on bad flags, file (a field name the service schemas do not know) or --json
 *   fields; ValidationError (exit 2) when the platform
 *   rejects a field
 */
export async function run(opts: CreateOptions, ctx: Context): Promise<void> {
  const format = formatOf(ctx, SERVICE_VIEW, opts);
  const service = await buildService(opts, ctx);
  // A one-item create through the engine: journaled, so `sitectl history` lists it and `sitectl undo` deletes it.
  const [{ runCreateOne }, { SERVICE_WRITES }] = await Promise.all([import('../shared/one.js'), import('./shared/writes.js')]);
  const created = (await runCreateOne(ctx, SERVICE_WRITES, service as Record<string, unknown>, service.name ?? undefined)) as Service;
  success(ctx.io, `Created service ${created.id} (${oneLine(created.name ?? '')})`);
  if (format.kind === 'table' && !ctx.io.isStdoutTTY) {
    await printValue(ctx.io, format, created, { text: created.id });
    return;
  }
  await printRecord(ctx.io, format, created, { rows: SERVICE_VIEW.rows(created), columns: SERVICE_VIEW.columns, now: ctx.now() });
}

/**
 * The wire body of the new service: file fields first, then flag fields on top. The file's field names are
 * checked against the create request's schema and the service schema (a file from `services get --json`
 * passes), unless `--allow-unknown-fields`.
 */
export async function buildService(opts: CreateOptions, ctx: Pick<Context, 'io' | 'bin' | 'flags'>): Promise<ServiceCreate> {
  let service: Record<string, unknown> = {};
  if (opts.file !== undefined) {
    const parsed = await readJsonSource('--file', opts.file, ctx.io.stdin);
    const inner = parsed && typeof parsed === 'object' && Object.hasOwn(parsed, 'service') ? (parsed as { service: unknown }).service : parsed;
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) throw new UserError(`--file ${opts.file} must hold a service object`);
    checkFileFields([serviceInputs().ServiceCreate, SERVICE_VIEW.schema], inner, `--file ${opts.file}`, ctx.flags.allowUnknownFields);
    service = { ...(inner as Record<string, unknown>) };
    // A file made from `services get --json` carries server-owned fields the create call ignores.
    for (const key of ['id', 'revision', 'createdDate', 'updatedDate']) delete service[key];
  }
  if (opts.name !== undefined) service.name = opts.name;
  if (opts.type !== undefined) {
    service.type = choiceOf(opts.type, ServiceTypeValues, '--type');
  }
  if (opts.description !== undefined) service.description = opts.description;
  if (opts.capacity !== undefined) service.defaultCapacity = parseCount(opts.capacity, '--capacity', 1, 1000);
  if (opts.categoryId !== undefined) service.category = { id: opts.categoryId };
  if (opts.hidden) service.hidden = true;
  if (opts.price !== undefined) {
    parseAmount(opts.price, '--price');
    const currency = currencyOf(opts.currency ?? 'USD', '--currency');
    const payment = (service.payment ?? {}) as Record<string, unknown>;
    service.payment = { ...payment, rateType: 'FIXED', fixed: { price: { value: opts.price, currency } } };
  }
  if (opts.file === undefined && (service.name === undefined || service.type === undefined)) {
    throw new UserError('a new service needs --name and --type (or --file)', `e.g. ${ctx.bin} services create --name "Yoga" --type CLASS --price 25`);
  }
  return service as ServiceCreate;
}
