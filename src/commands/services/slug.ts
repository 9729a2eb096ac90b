/**
 * `sitectl services slug set ID SLUG` and `sitectl services slug validate SLUG [--service-id ID]`
 * (docs/wire.md §14: custom slugs, SLUG_CONTAINS_ILLEGAL_CHARACTERS, SLUG_ALREADY_EXISTS).
 */
import type { Command } from 'commander';
import { services } from '../../api/services.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
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

/** Sets the slug; prints the new main slug (or `{slug, service}` with --json). */
export async function runSet(opts: FormatFlags & { id: string; slug: string }, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(['slug', 'service']));
  const api = await ctx.api();
  const serviceId = await idOf(ctx, api, SERVICE_VIEW, opts.id);
  const reply = await services.setCustomSlug(api, { serviceId, slug: opts.slug }, { signal: ctx.signal });
  if (format.kind === 'table') success(ctx.io, `Service ${serviceId} now has the slug '${reply.slug.name}' (revision ${reply.service.revision ?? '?'})`);
  await printValue(ctx.io, format, reply, { text: reply.slug.name });
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
