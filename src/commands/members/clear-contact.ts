/**
 * `sitectl members clear-contact ID --phones --emails --addresses`: empty contact lists of a member (docs/wire.md §18 "DELETE /v1/members/{id}/phones, /emails, /addresses"), one call per list, in that order.
 */
import type { Command } from 'commander';
import { members } from '../../api/members.js';
import type { Member } from '../../api/schemas/member.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { addFormatFlags, type FormatFlags, printRecord } from '../../core/output.js';
import { confirmChange, declareRule, DESTRUCTIVE, requireConfirmable } from '../shared/confirm.js';
import { formatOf, idOf } from '../shared/verbs.js';
import { MEMBER_VIEW } from './shared/view.js';

export interface ClearOptions extends FormatFlags {
  id: string;
  phones?: boolean;
  emails?: boolean;
  addresses?: boolean;
  yes?: boolean;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = addFormatFlags(
    parent
      .command('clear-contact')
      .description("Remove every phone, e-mail and/or address of a member's contact")
      .argument('<id>', 'member id (or a unique prefix)')
      .option('--phones', 'remove the phones')
      .option('--emails', 'remove the contact e-mails (the login e-mail stays)')
      .option('--addresses', 'remove the addresses')
      .addHelpText('after', '\nExamples:\n  sitectl members clear-contact 3f2a --phones --addresses --yes'),
  );
  declareRule(cmd, DESTRUCTIVE).action(async (id: string, o: Omit<ClearOptions, 'id'>) => {
    await run({ ...o, id }, ctx);
  });
}

/**
 * Clears the lists asked for; prints the member as it is afterwards.
 * @throws UserError (exit 2) when no list is named, or no terminal to confirm on without --yes;
 *   DeclinedError (exit 1); ApiError 404 for an unknown id
 */
export async function run(opts: ClearOptions, ctx: Context): Promise<void> {
  const format = formatOf(ctx, MEMBER_VIEW, opts);
  const lists = (['phones', 'emails', 'addresses'] as const).filter((l) => opts[l]);
  if (lists.length === 0) throw new UserError('which lists?', 'pass --phones, --emails and/or --addresses');
  requireConfirmable(ctx, opts, DESTRUCTIVE, 'one', `clearing a member's ${lists.join(', ')}`);
  const api = await ctx.api();
  const id = await idOf(ctx, api, MEMBER_VIEW, opts.id);
  await confirmChange(ctx, opts, DESTRUCTIVE, 'one', `Remove every ${lists.join(', ')} entry of member ${id}?`, `clearing member ${id}'s ${lists.join(', ')}`);
  const calls = { phones: members.deleteMemberPhones, emails: members.deleteMemberEmails, addresses: members.deleteMemberAddresses };
  let member: Member | undefined;
  for (const list of lists) member = (await calls[list](api, { id }, { signal: ctx.signal })).member;
  success(ctx.io, `cleared the ${lists.join(', ')} of member ${id}`);
  await printRecord(ctx.io, format, member!, { rows: MEMBER_VIEW.rows(member!), columns: MEMBER_VIEW.columns, now: ctx.now() });
}
