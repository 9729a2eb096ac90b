/**
 * `sitectl members update ID [--email E] [--first-name F] [--last-name L] [--nickname N] [--title T]
 * [--phone P]... [--contact-email E]... [--public|--private] [--file member.json]` (docs/wire.md §18 "PATCH /v1/members/{member.id}"): the fields given are changed, the others kept (the official client sends
 * no field mask); a list flag replaces the whole list. The slug has its own verb (`members slug`).
 */
import type { Command } from 'commander';
import { members } from '../../api/members.js';
import { memberInputs, type MemberPatch } from '../../api/schemas/member.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { addFormatFlags, type FormatFlags, printRecord } from '../../core/output.js';
import { formatOf, idOf } from '../shared/verbs.js';
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
 * Checks the change against the update request's schema, then sends it; prints the member as it is now.
 * @throws UserError (exit 2) for no change, `--slug` (not in the help: see `members slug`), a field of the
 *   file the member schemas do not know, or a bad field (nothing is sent);
 *   ApiError 404 for an unknown id, 409 EMAIL_ALREADY_EXISTS
 */
export async function run(opts: UpdateOptions, ctx: Context): Promise<void> {
  const format = formatOf(ctx, MEMBER_VIEW, opts);
  if (opts.slug !== undefined) throw new UserError('the slug has its own verb', `${ctx.bin} members slug ${opts.id} ${opts.slug}`);
  const change = await memberFields(opts, ctx.io.stdin, { request: memberInputs().MemberPatch, allowUnknown: ctx.flags.allowUnknownFields });
  if (Object.keys(change).length === 0) throw new UserError('nothing to change', 'pass a field flag such as --last-name, --phone or --public (or --file)');
  checkMember(memberInputs().MemberPatch, { ...change, id: opts.id });
  const api = await ctx.api();
  const id = await idOf(ctx, api, MEMBER_VIEW, opts.id);
  const { member } = await members.updateMember(api, { member: { ...change, id } as MemberPatch }, { signal: ctx.signal });
  success(ctx.io, `Updated member ${member.id}`);
  await printRecord(ctx.io, format, member, { rows: MEMBER_VIEW.rows(member), columns: MEMBER_VIEW.columns, now: ctx.now() });
}
