/**
 * `sitectl members clear-contact ID --phones --emails --addresses`: empty contact lists of a member (docs/wire.md §18 "DELETE /v1/members/{id}/phones, /emails, /addresses"), one call per list, in that order, as a one-item plan
 * of the bulk engine, journaled (in `sitectl history`; `sitectl undo` lists it as cannot be undone).
 */
import type { Command } from 'commander';
import { members } from '../../api/members.js';
import type { Member } from '../../api/schemas/member.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { type EntityAction, readingSender, transitionAction } from '../../bulk/actions.js';
import type { EntityPort } from '../../bulk/port.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';
import { declareRule, DESTRUCTIVE } from '../shared/confirm.js';
import type { EntityView } from '../shared/entity-view.js';
import { viewPort } from '../shared/view-port.js';
import { idOf } from '../shared/verbs.js';
import { fetchMember } from './shared/read.js';
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

type MemberEntity = Member & { id: string };
type List = 'phones' | 'emails' | 'addresses';
const hasAny = (m: MemberEntity, list: List) => (m.contact?.[list]?.length ?? 0) > 0;

/**
 * The port and action of `members clear-contact` over one member (the bulk engine's state change): a member whose
 * lists asked for are empty already is unchanged; else one call per list, in the order given, and the member's
 * former contact lists journaled as the before-image (`sitectl undo` lists the change as cannot be undone).
 */
export function clearContactRun(api: ApiClient, id: string, lists: readonly List[]): { port: EntityPort; action: EntityAction } {
  const calls = { phones: members.deleteMemberPhones, emails: members.deleteMemberEmails, addresses: members.deleteMemberAddresses };
  const port = viewPort<MemberEntity>(api, MEMBER_VIEW as EntityView<unknown>);
  const action = transitionAction<MemberEntity>({
    name: 'clear-contact',
    done: 'cleared',
    title: 'Clearing the contact',
    reached: (m) => lists.every((l) => !hasAny(m, l)),
    send: readingSender(port, async (m, _item, signal) => {
      for (const list of lists) await calls[list](api, { id: m.id }, { signal });
    }),
    chunkSize: 1,
    args: { ids: [id], options: { lists: [...lists] } },
    beforeImage: (m) => Object.fromEntries(lists.map((l) => [l, m.contact?.[l] ?? []])),
  });
  return { port, action: action };
}

/**
 * Clears the lists asked for as a one-item plan of the bulk engine (destructive: asks first, `--yes` off a
 * terminal); lists empty already: nothing sent ("has no ... already; nothing changed"). Journaled with the former
 * lists, so `sitectl history` lists it; `sitectl undo` cannot take it back. Prints the member as it is afterwards.
 * @throws UserError (exit 2) when no list is named, or no terminal to confirm on without --yes;
 *   DeclinedError (exit 1); NotFoundError (exit 1) for an unknown id
 */
export async function run(opts: ClearOptions, ctx: Context): Promise<void> {
  const lists = (['phones', 'emails', 'addresses'] as const).filter((l) => opts[l]);
  if (lists.length === 0) throw new UserError('which lists?', 'pass --phones, --emails and/or --addresses');
  const { runOneVerb } = await import('../shared/one.js');
  let id = opts.id;
  await runOneVerb(ctx, {
    view: MEMBER_VIEW as EntityView<unknown>,
    title: 'Clearing the contact',
    async verify(api) {
      id = await idOf(ctx, api, MEMBER_VIEW, opts.id);
    },
    build: (api) => clearContactRun(api, id, lists),
    resolve: async () => id,
    flags: opts,
    command: 'members clear-contact',
    one: {
      given: opts.id,
      rule: DESTRUCTIVE,
      question: () => `Remove every ${lists.join(', ')} entry of member ${id}?`,
      already: () => `member ${id} has no ${lists.join(', ')} already`,
      outcome: () => `cleared the ${lists.join(', ')} of member ${id}`,
      read: async (mid: string) => fetchMember(await ctx.api(), mid, ctx.signal),
    },
  });
}
