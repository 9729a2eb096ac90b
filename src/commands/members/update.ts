/**
 * `sitectl members update ID [--email E] [--first-name F] [--last-name L] [--nickname N] [--title T]
 * [--phone P]... [--contact-email E]... [--public|--private] [--file member.json]` (docs/wire.md §18 "PATCH /v1/members/{member.id}"): the fields given are changed, the others kept (the official client sends
 * no field mask); a list flag replaces the whole list. The slug has its own verb (`members slug`).
 */
import type { Command } from 'commander';
import { type Member, memberInputs } from '../../api/schemas/member.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';
import { formatOf } from '../shared/verbs.js';
import { addMemberFieldFlags, checkMember, memberFields, type MemberFieldFlags } from './shared/input.js';
import { MEMBER_VIEW } from './shared/view.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';

export type UpdateOptions = MemberFieldFlags & FormatFlags & { id: string };

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('update')
    .description("Change a member's e-mail, contact or profile fields")
    .argument('<id>', 'member id (or a unique prefix)')
    .addHelpText('after', `\nExamples:\n  sitectl members update 3f2a --last-name Byron --phone "+1 415 555 0199"\n  sitectl members update 3f2a --public --title "Early riser"`);
  declareRule(addFormatFlags(addMemberFieldFlags(cmd, { slug: false })), REVERSIBLE).action(async (id: string, o: Omit<UpdateOptions, 'id'>) => {
    await run({ ...o, id }, ctx);
  });
}

/**
 * Checks the change against the update request's schema, then sends it as a one-item plan (fields already as
 * asked: nothing sent, "already has these values"); journaled, so `sitectl undo` sets them back if the member is
 * unchanged since. Prints the member as it is now.
 * @throws UserError (exit 2) for no change, `--slug` (not in the help: see `members slug`), a field of the
 *   file the member schemas do not know, or a bad field (nothing is sent);
 *   ApiError 404 for an unknown id, 409 EMAIL_ALREADY_EXISTS
 */
export async function run(opts: UpdateOptions, ctx: Context): Promise<void> {
  formatOf(ctx, MEMBER_VIEW, opts);
  if (opts.slug !== undefined) throw new UserError('the slug has its own verb', `${ctx.bin} members slug ${opts.id} ${opts.slug}`);
  const change = await memberFields(opts, ctx.io.stdin, { request: memberInputs().MemberPatch, allowUnknown: ctx.flags.allowUnknownFields });
  if (Object.keys(change).length === 0) throw new UserError('nothing to change', 'pass a field flag such as --last-name, --phone or --public (or --file)');
  checkMember(memberInputs().MemberPatch, { ...change, id: opts.id });
  // A one-item plan: `contact` and `profile` fields are merged one by one by the platform, so they are the paths.
  const [{ runUpdateOne }, { changeOfFields }, { MEMBER_WRITES }] = await Promise.all([import('../shared/one.js'), import('../shared/writes.js'), import('./shared/writes.js')]);
  await runUpdateOne(ctx, {
    spec: MEMBER_WRITES,
    given: opts.id,
    change: changeOfFields(change, 2),
    flags: opts,
    command: 'members update',
    outcome: (after: Member) => `Updated member ${after.id}`,
  });
}
