/**
 * `sitectl members slug ID SLUG`: change a member's profile slug (docs/wire.md §18 "POST
 * /v1/members/{id}/slug"); a slug another member holds is refused (409 SLUG_ALREADY_EXISTS).
 */
import type { Command } from 'commander';
import { members } from '../../api/members.js';
import { MEMBER_SLUG, MEMBER_SLUG_MAX } from '../../api/schemas/member.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { notice, success } from '../../core/log.js';
import { addFormatFlags, type FormatFlags, printRecord } from '../../core/output.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import { formatOf, idOf } from '../shared/verbs.js';
import { fetchMember } from './shared/read.js';
import { MEMBER_VIEW } from './shared/view.js';

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
 * Sets the slug (nothing is sent when the member has it already); prints the member.
 * @throws UserError (exit 2) for a malformed slug; ApiError 404 unknown id, 409 SLUG_ALREADY_EXISTS
 */
export async function run(opts: FormatFlags & { id: string; slug: string }, ctx: Context): Promise<void> {
  const format = formatOf(ctx, MEMBER_VIEW, opts);
  if (opts.slug.length > MEMBER_SLUG_MAX || !MEMBER_SLUG.test(opts.slug)) {
    throw new UserError(`slug '${opts.slug}' is not valid`, `use 1-${MEMBER_SLUG_MAX} lowercase letters, digits and hyphens, not starting or ending with a hyphen`);
  }
  const api = await ctx.api();
  const id = await idOf(ctx, api, MEMBER_VIEW, opts.id);
  const current = await fetchMember(api, id, ctx.signal);
  if (current.profile?.slug === opts.slug) {
    notice(ctx.io, `member ${id} already has the slug '${opts.slug}'; nothing changed`);
    await printRecord(ctx.io, format, current, { rows: MEMBER_VIEW.rows(current), columns: MEMBER_VIEW.columns, now: ctx.now() });
    return;
  }
  const { member } = await members.updateMemberSlug(api, { id, slug: opts.slug }, { signal: ctx.signal });
  success(ctx.io, `member ${id} now has the slug '${member.profile?.slug ?? opts.slug}'`);
  await printRecord(ctx.io, format, member, { rows: MEMBER_VIEW.rows(member), columns: MEMBER_VIEW.columns, now: ctx.now() });
}
