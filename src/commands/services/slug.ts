/**
 * `sitectl services slug set ID SLUG` and `sitectl services slug validate SLUG [--service-id ID]`
 * (docs/wire.md §14: custom slugs, SLUG_CONTAINS_ILLEGAL_CHARACTERS, SLUG_ALREADY_EXISTS).
 */
import type { Command } from 'commander';
import type { Service } from '../../api/schemas/service.js';
import { services } from '../../api/services.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { addFormatFlags, fieldsChecker, printValue, resolveFormat, type FormatFlags } from '../../core/output.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { idOf } from '../shared/verbs.js';
import { SERVICE_VIEW } from './shared/view.js';

export function register(parent: Command, ctx: Context): void {
  const slug = parent.command('slug').description("Set or validate a service's custom slug");
  // A change to one service, as `services update` is: acts at once.
  declareRule(
    addFormatFlags(
      slug
        .command('set')
        .description('Set the custom slug of a service (it becomes its main slug)')
        .argument('<id>', 'service id (or a unique prefix)')
        .argument('<slug>', 'new slug, e.g. yoga-basics'),
    ),
    REVERSIBLE,
  ).action(async (id: string, value: string, o: FormatFlags) => {
    await runSet({ id, slug: value, ...o }, ctx);
  });
  addFormatFlags(
    slug
      .command('validate')
      .description('Check whether a slug could be used (exit 1 when it cannot)')
      .argument('<slug>', 'slug to check')
      .option('--service-id <id>', 'the service that would get it (its own current slug counts as free)'),
  ).action(async (value: string, o: FormatFlags & { serviceId?: string }) => {
    await runValidate({ slug: value, ...o }, ctx);
  });
}

/**
 * Sets the slug as a one-item plan of the bulk engine (commands/shared/values.ts): nothing is sent when the
 * service has it as its main slug already; journaled with the former slug, so `sitectl undo` sets it back if the
 * service is unchanged since. Prints the new main slug (or `{slug, service}` with --json).
 * @throws UserError (exit 2) for an unknown --json field; NotFoundError (exit 1); UserError (exit 1) when the
 *   platform refuses the slug (SLUG_CONTAINS_ILLEGAL_CHARACTERS, SLUG_ALREADY_EXISTS)
 */
export async function runSet(opts: FormatFlags & { id: string; slug: string }, ctx: Context): Promise<void> {
  const [{ runValueVerb }, { SLUG_VERB }] = await Promise.all([import('../shared/one.js'), import('./shared/values.js')]);
  const slugOf = (s: Service) => ({ slug: s.mainSlug, service: s });
  await runValueVerb(ctx, {
    verb: SLUG_VERB,
    given: opts.id,
    to: () => opts.slug,
    view: {
      noun: SERVICE_VIEW.noun,
      label: (s) => SERVICE_VIEW.label(s as Service),
      format: (flags) => resolveFormat(flags, fieldsChecker(['slug', 'service'])),
      print: (c, format, s) => printValue(c.io, format, slugOf(s as Service), { text: (s as Service).mainSlug?.name ?? '' }),
    },
    flags: opts,
    command: 'services slug set',
    one: (id) => ({
      rule: REVERSIBLE,
      already: () => `service ${id()} has the slug '${opts.slug}' already`,
      outcome: (after: Service) => `Service ${id()} now has the slug '${after.mainSlug?.name ?? opts.slug}' (revision ${after.revision ?? '?'})`,
    }),
  });
}

/**
 * Prints `valid` or `invalid<TAB>ERROR,...` (or the reply with --json).
 * @throws UserError with exit 1 when the slug is not valid, so scripts can branch on the exit code.
 */
export async function runValidate(opts: FormatFlags & { slug: string; serviceId?: string }, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['valid', 'slug', 'errors']));
  const api = await ctx.api();
  const serviceId = opts.serviceId === undefined ? undefined : await idOf(ctx, api, SERVICE_VIEW, opts.serviceId);
  const reply = await services.validateSlug(api, { slug: opts.slug, ...(serviceId ? { serviceId } : {}) }, { signal: ctx.signal });
  const errors = reply.errors ?? [];
  await printValue(ctx.io, format, reply, { text: reply.valid ? 'valid' : `invalid\t${errors.join(',')}` });
  if (!reply.valid) {
    throw new UserError(
      `slug '${opts.slug}' cannot be used: ${errors.join(', ') || 'rejected'}`,
      errors.includes('SLUG_CONTAINS_ILLEGAL_CHARACTERS') ? 'use lower-case letters, digits and hyphens' : undefined,
      ExitCode.Failure,
    );
  }
}
