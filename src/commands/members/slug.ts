/**
 * `sitectl members slug ID SLUG`: change a member's profile slug (docs/wire.md §18 "POST
 * /v1/members/{id}/slug"); a slug another member holds is refused (409 SLUG_ALREADY_EXISTS).
 */
import type { Command } from 'commander';
import { type Member, MEMBER_SLUG, MEMBER_SLUG_MAX } from '../../api/schemas/member.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { fetchMember } from './shared/read.js';

export function register(parent: Command, ctx: Context): void {
  // A change to one member's profile, as `members update` is: acts at once.
  declareRule(
    addFormatFlags(
      parent
        .command('slug')
        .description("Change a member's profile slug (unique on the site)")
        .argument('<id>', 'member id (or a unique prefix)')
        .argument('<slug>', 'new slug: lowercase letters, digits and hyphens')
        .addHelpText('after', '\nExamples:\n  sitectl members slug 3f2a ada-lovelace'),
    ),
    REVERSIBLE,
  ).action(async (id: string, slug: string, o: FormatFlags) => {
    await run({ ...o, id, slug }, ctx);
  });
}

/**
 * Sets the slug as a one-item plan of the bulk engine (commands/shared/values.ts): nothing is sent when the
 * member has it already; journaled with the former slug, so `sitectl undo` sets it back if the member is
 * unchanged since. Prints the member.
 * @throws UserError (exit 2) for a malformed slug; NotFoundError (exit 1) for an unknown id; UserError (exit 1)
 *   when the platform refuses it (409 SLUG_ALREADY_EXISTS)
 */
export async function run(opts: FormatFlags & { id: string; slug: string }, ctx: Context): Promise<void> {
  if (opts.slug.length > MEMBER_SLUG_MAX || !MEMBER_SLUG.test(opts.slug)) {
    throw new UserError(`slug '${opts.slug}' is not valid`, `use 1-${MEMBER_SLUG_MAX} lowercase letters, digits and hyphens, not starting or ending with a hyphen`);
  }
  const [{ runValueVerb }, { MEMBER_SLUG_VERB }] = await Promise.all([import('../shared/one.js'), import('./shared/values.js')]);
  await runValueVerb(ctx, {
    verb: MEMBER_SLUG_VERB,
    given: opts.id,
    to: () => opts.slug,
    flags: opts,
    command: 'members slug',
    one: (id) => ({
      rule: REVERSIBLE,
      already: () => `member ${id()} already has the slug '${opts.slug}'`,
      outcome: (after: Member) => `member ${id()} now has the slug '${after.profile?.slug ?? opts.slug}'`,
      read: async (mid: string) => fetchMember(await ctx.api(), mid, ctx.signal),
    }),
  });
}
