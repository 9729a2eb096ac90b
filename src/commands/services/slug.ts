/**
 * `sitectl services slug set ID SLUG` and `sitectl services slug validate SLUG [--service-id ID]`
 * (spec 000 sections 5, 7, 8: custom slugs, SLUG_CONTAINS_ILLEGAL_CHARACTERS, SLUG_ALREADY_EXISTS).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';

export function register(parent: Command, ctx: Context): void {
  const slug = parent.command('slug').description("Set or validate a service's custom slug");
  slug
    .command('set')
    .description('Set the custom slug of a service (it becomes its main slug)')
    .argument('<id>', 'service id')
    .argument('<slug>', 'new slug, e.g. yoga-basics')
    .option('--json', 'print {slug, service}')
    .action(async (id: string, value: string, o: { json?: boolean }) => {
      await runSet({ id, slug: value, json: Boolean(o.json) }, ctx);
    });
  slug
    .command('validate')
    .description('Check whether a slug could be used (exit 1 when it cannot)')
    .argument('<slug>', 'slug to check')
    .option('--service-id <id>', 'the service that would get it (its own current slug counts as free)')
    .option('--json', 'print {valid, slugName, errors}')
    .action(async (value: string, o: { serviceId?: string; json?: boolean }) => {
      await runValidate({ slug: value, serviceId: o.serviceId, json: Boolean(o.json) }, ctx);
    });
}

/** Sets the slug; prints the new main slug (or `{slug, service}` with --json). */
export async function runSet(opts: { id: string; slug: string; json: boolean }, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const { setCustomSlug } = await import('../../api/services.js');
  const reply = await setCustomSlug(api, opts.id, opts.slug, { signal: ctx.signal });
  if (opts.json) {
    ctx.io.stdout.write(JSON.stringify(reply, null, 2) + '\n');
    return;
  }
  success(ctx.io, `Service ${opts.id} now has the slug '${reply.slug.name}' (revision ${reply.service.revision ?? '?'})`);
  ctx.io.stdout.write(`${reply.slug.name}\n`);
}

/**
 * Prints `valid` or `invalid<TAB>ERROR,...` (or the reply with --json).
 * @throws UserError with exit 1 when the slug is not valid, so scripts can branch on the exit code.
 */
export async function runValidate(opts: { slug: string; serviceId?: string; json: boolean }, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const { validateSlug } = await import('../../api/services.js');
  const reply = await validateSlug(api, opts.serviceId ?? '', opts.slug, { signal: ctx.signal });
  const errors = reply.errors ?? [];
  if (opts.json) ctx.io.stdout.write(JSON.stringify(reply, null, 2) + '\n');
  else ctx.io.stdout.write(reply.valid ? 'valid\n' : `invalid\t${errors.join(',')}\n`);
  if (!reply.valid) {
    throw new UserError(
      `slug '${opts.slug}' cannot be used: ${errors.join(', ') || 'rejected'}`,
      errors.includes('SLUG_CONTAINS_ILLEGAL_CHARACTERS') ? 'use lower-case letters, digits and hyphens' : undefined,
      ExitCode.Failure,
    );
  }
}
