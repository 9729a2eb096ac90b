/**
 * `sitectl bookings fields ID --namespace NS --data JSON`: replaces one namespace of a booking's extended fields
 * (an app's own data on the booking) as a one-item plan, journaled (undone by setting the former data back), and
 * prints what is stored under it.
 */
import type { Command } from 'commander';
import { NAMESPACE_MAX } from '../../api/schemas/booking.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { readJsonSource } from '../../core/input.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';
import { findForbiddenKey } from '../../api/paths.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';

export interface FieldsOptions extends FormatFlags {
  id: string;
  namespace?: string;
  data?: string;
  dataFile?: string;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('fields')
    .description("Replace one namespace of a booking's extended fields")
    .argument('<id>', 'the booking (or a unique id prefix)')
    .requiredOption('--namespace <ns>', 'the namespace (an app’s, e.g. @acme/crm)')
    .option('--data <json>', 'the namespace’s data, a JSON object')
    .option('--data-file <path>', "the data from a file; '-' reads stdin")
    .addHelpText('after', `\nExample:\n  sitectl bookings fields 7c1e --namespace @acme/crm --data '{"vip":true,"notes":"window seat"}'`);
  // A change to one booking's data, as `bookings reschedule` and `participants` are: acts at once.
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (id: string, o: Omit<FieldsOptions, 'id'>) => {
    await run({ ...o, id }, ctx);
  });
}

/**
 * Replaces the namespace's data as a one-item plan of the bulk engine (commands/shared/values.ts): nothing is sent
 * when the booking holds that data already; journaled with the namespace's former data, so `sitectl undo` sets it
 * back if the booking is unchanged since. Prints `{namespace, namespaceData}` with `--json`.
 * @throws UserError (exit 2) for a missing or malformed namespace or data; NotFoundError (exit 1) for an unknown
 *   booking; UserError (exit 1) when the platform refuses it
 */
export async function run(opts: FieldsOptions, ctx: Context): Promise<void> {
  const namespace = opts.namespace ?? '';
  if (namespace === '' || namespace.length > NAMESPACE_MAX) throw new UserError(`--namespace must be 1 to ${NAMESPACE_MAX} characters`);
  if ((opts.data === undefined) === (opts.dataFile === undefined)) throw new UserError('give the data with either --data JSON or --data-file PATH');
  let data: unknown;
  if (opts.data !== undefined) {
    try {
      data = JSON.parse(opts.data);
    } catch (err) {
      throw new UserError(`--data is not valid JSON: ${(err as Error).message}`);
    }
  } else data = await readJsonSource('--data-file', opts.dataFile!, ctx.io.stdin);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UserError('the data must be a JSON object');
  const forbidden = findForbiddenKey(data);
  if (forbidden) throw new UserError(`the data: "${forbidden}" is not an allowed field name`);
  const value = { namespace, data: data as Record<string, unknown> };
  const [{ runValueVerb }, { FIELDS_VERB }] = await Promise.all([import('../shared/one.js'), import('./shared/values.js')]);
  await runValueVerb(ctx, {
    verb: FIELDS_VERB,
    given: opts.id,
    to: () => value,
    flags: opts,
    command: 'bookings fields',
    one: (id) => ({
      rule: REVERSIBLE,
      already: () => `booking ${id()} already holds this data under ${namespace}`,
      outcome: () => `Stored ${namespace} on booking ${id()}`,
      result: { fields: ['namespace', 'namespaceData'], value: () => ({ namespace, namespaceData: value.data }) },
    }),
  });
}
