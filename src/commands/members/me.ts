/**
 * `sitectl members me [slug [SLUG] | join | leave | delete]`: the signed-in member's own calls, sent with the
 * member's access token (docs/wire.md §18, "Operations and their verbs"; exit 4 when the profile is not signed in
 * as a member):
 *
 * - `me`: the member (`GET /v1/members/my`, FULL fieldset);
 * - `me slug`: its slug; `me slug SLUG` sets it (`POST /v1/members/my/slug`, updateCurrentMemberSlug);
 * - `me join` / `me leave`: into or out of the community (`POST /v1/members/join-community` /
 *   `leave-community`, privacy PUBLIC / PRIVATE);
 * - `me delete [--content-assignee ID]`: deletes the member (`DELETE /v1/members/my`, deleteMyMember), asked
 *   first (`--yes` off a terminal); the member's sign-in on this site is then removed here.
 *
 * Not journaled (no `sitectl history` entry, no `sitectl undo`): these act as the member, with the member's own
 * token, not on the site's directory with the operator's credentials the journal and undo run with. Each is its
 * own inverse or says how to go back: a slug change prints the former slug (`me slug OLD` sets it back), join
 * and leave undo each other, and a deleted member cannot be brought back (as `members delete` says). A change
 * already made (the slug held, the privacy already so) sends nothing.
 */
import type { Command } from 'commander';
import { members } from '../../api/members.js';
import { type Member, MEMBER_SLUG, MEMBER_SLUG_MAX } from '../../api/schemas/member.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { notice, success } from '../../core/log.js';
import { addFormatFlags, fieldsChecker, printRecord, printValue, resolveFormat, type FormatFlags } from '../../core/output.js';
import { memberApi, sessionTarget } from '../auth/shared/session.js';
import { confirmChange, declareRule, DESTRUCTIVE, requireConfirmable, REVERSIBLE } from '../shared/confirm.js';
import { formatOf } from '../shared/verbs.js';
import { type EntityView } from '../shared/entity-view.js';
import { MEMBER_VIEW } from './shared/view.js';

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function register(parent: Command, ctx: Context): void {
  const me = addFormatFlags(parent.command('me').description("Show the signed-in member (sitectl login first); its own slug, community and delete as subcommands"))
    .addHelpText(
      'after',
      '\nExamples:\n  sitectl members me\n  sitectl members me --json id,loginEmail,status\n  sitectl members me slug ada-lovelace\n  sitectl members me join\n  sitectl members me delete --yes',
    )
    .action(async (o: FormatFlags) => {
      await run(o, ctx);
    });
  addFormatFlags(
    declareRule(
      me
        .command('slug')
        .description("Show the signed-in member's slug, or set it (unique on the site)")
        .argument('[slug]', 'new slug: lowercase letters, digits and hyphens (omit to show the slug)')
        .addHelpText('after', '\nExamples:\n  sitectl members me slug\n  sitectl members me slug ada-lovelace --json id,profile'),
      REVERSIBLE,
    ),
  ).action(async (slug: string | undefined, _o: FormatFlags, cmd: Command) => {
    await runSlug({ ...withMe(cmd), slug }, ctx);
  });
  for (const way of ['join', 'leave'] as const) {
    addFormatFlags(
      declareRule(
        me
          .command(way)
          .description(way === 'join' ? 'The signed-in member joins the community (privacy PUBLIC: seen by other members)' : 'The signed-in member leaves the community (privacy PRIVATE)')
          .addHelpText('after', `\nExample:\n  sitectl members me ${way}`),
        REVERSIBLE,
      ),
    ).action(async (_o: FormatFlags, cmd: Command) => {
      await runCommunity(way, withMe(cmd), ctx);
    });
  }
  declareRule(
    me
      .command('delete')
      .description('Delete the signed-in member (cannot be undone); its sign-in here is removed')
      .option('--content-assignee <member-id>', "the member (full id) who receives the member's content")
      .option('--json', 'print {id, deleted} on stdout')
      .addHelpText('after', '\nExamples:\n  sitectl members me delete\n  sitectl members me delete --content-assignee 9c1b0e4d-... --yes --json'),
    DESTRUCTIVE,
  ).action(async (_o: DeleteMeOptions, cmd: Command) => {
    await runDelete(withMe(cmd), ctx);
  });
}

/**
 * A subcommand's options with those `me` took: Commander gives an option both declare (`--json`) to `me` when it
 * follows the subcommand's name, since the program parses options wherever they stand.
 */
function withMe<T>(cmd: Command): T {
  return { ...cmd.parent!.opts(), ...cmd.opts() } as T;
}

export async function run(o: FormatFlags, ctx: Context): Promise<void> {
  const format = formatOf(ctx, MEMBER_VIEW as EntityView<unknown>, o);
  const api = await memberApi(ctx);
  try {
    const { member } = await members.getCurrentMember(api, { fieldsets: ['FULL'] }, { signal: ctx.signal });
    await printRecord(ctx.io, format, member, { rows: MEMBER_VIEW.rows(member), columns: MEMBER_VIEW.columns, now: ctx.now() });
  } finally {
    await api.close();
  }
}

/**
 * `members me slug [SLUG]`: without SLUG prints the slug (`--json`: `{id, slug}`); with it sets it by
 * updateCurrentMemberSlug and prints the member. The slug is checked before anything is read.
 * @throws UserError (exit 2) for a malformed slug; UserError (exit 1) for a slug another member holds (409)
 */
export async function runSlug(o: FormatFlags & { slug?: string }, ctx: Context): Promise<void> {
  const { slug } = o;
  if (slug !== undefined && (slug.length > MEMBER_SLUG_MAX || !MEMBER_SLUG.test(slug))) {
    throw new UserError(`slug '${slug}' is not valid`, `use 1-${MEMBER_SLUG_MAX} lowercase letters, digits and hyphens, not starting or ending with a hyphen`);
  }
  const format = slug === undefined ? resolveFormat(o, fieldsChecker(['id', 'slug'])) : formatOf(ctx, MEMBER_VIEW as EntityView<unknown>, o);
  const api = await memberApi(ctx);
  try {
    const { member: before } = await members.getCurrentMember(api, { fieldsets: ['FULL'] }, { signal: ctx.signal });
    const was = before.profile?.slug ?? '';
    if (slug === undefined) {
      if (format.kind === 'json') await printValue(ctx.io, format, { id: before.id, slug: was });
      else ctx.io.stdout.write(`${was}\n`);
      return;
    }
    let after: Member = before;
    if (was === slug) notice(ctx.io, `member ${before.id} already has the slug '${slug}'; nothing changed`);
    else {
      try {
        after = (await members.updateCurrentMemberSlug(api, { slug }, { signal: ctx.signal })).member;
      } catch (err) {
        if ((err as { status?: unknown }).status === 409) throw new UserError(`the slug '${slug}' is taken by another member`, 'choose another slug');
        throw err;
      }
      success(ctx.io, `member ${after.id} now has the slug '${after.profile?.slug ?? slug}' (was '${was}'; 'members me slug ${was}' sets it back)`);
    }
    await printRecord(ctx.io, format, after, { rows: MEMBER_VIEW.rows(after), columns: MEMBER_VIEW.columns, now: ctx.now() });
  } finally {
    await api.close();
  }
}

/** `members me join|leave`: the community call, unless the privacy is so already; prints the member. */
export async function runCommunity(way: 'join' | 'leave', o: FormatFlags, ctx: Context): Promise<void> {
  const format = formatOf(ctx, MEMBER_VIEW as EntityView<unknown>, o);
  const target = way === 'join' ? 'PUBLIC' : 'PRIVATE';
  const api = await memberApi(ctx);
  try {
    const { member: before } = await members.getCurrentMember(api, { fieldsets: ['FULL'] }, { signal: ctx.signal });
    let after: Member = before;
    if (before.privacyStatus === target) notice(ctx.io, `member ${before.id} is already ${way === 'join' ? 'in' : 'out of'} the community (${target}); nothing changed`);
    else {
      const call = way === 'join' ? members.joinCommunity : members.leaveCommunity;
      after = (await call(api, {}, { signal: ctx.signal })).member;
      success(ctx.io, `member ${after.id} ${way === 'join' ? 'joined' : 'left'} the community (privacy ${after.privacyStatus ?? target}; 'members me ${way === 'join' ? 'leave' : 'join'}' takes it back)`);
    }
    await printRecord(ctx.io, format, after, { rows: MEMBER_VIEW.rows(after), columns: MEMBER_VIEW.columns, now: ctx.now() });
  } finally {
    await api.close();
  }
}

export interface DeleteMeOptions {
  contentAssignee?: string;
  yes?: boolean;
  json?: boolean;
}

/**
 * `members me delete`: asks first (`--yes` off a terminal, checked before anything is read), deletes the member
 * by deleteMyMember, then removes the member's sign-in on this site from the sessions file (its tokens name a
 * member that is gone).
 * @throws UserError (exit 2) for a malformed --content-assignee or a missing --yes off a terminal; DeclinedError
 */
export async function runDelete(o: DeleteMeOptions, ctx: Context): Promise<void> {
  const assignee = o.contentAssignee;
  if (assignee !== undefined && !FULL_ID.test(assignee)) throw new UserError(`--content-assignee takes a member's full id, got '${assignee}'`);
  requireConfirmable(ctx, o, DESTRUCTIVE, 'one', 'deleting the signed-in member');
  const api = await memberApi(ctx);
  let id: string;
  try {
    const { member } = await members.getCurrentMember(api, { fieldsets: ['FULL'] }, { signal: ctx.signal });
    id = member.id;
    await confirmChange(ctx, o, DESTRUCTIVE, 'one', `Delete your member ${member.loginEmail ?? id} (${id})? This cannot be undone.`, `deleting member ${id}`);
    try {
      await members.deleteMyMember(api, assignee ? { contentAssigneeId: assignee } : {}, { signal: ctx.signal });
    } catch (err) {
      if ((err as { status?: unknown }).status === 404 && assignee) throw new UserError(`--content-assignee: no member has the id ${assignee}`, "'sitectl members list' shows the members");
      throw err;
    }
  } finally {
    await api.close();
  }
  const t = await sessionTarget(ctx, { startEmulator: false });
  t.write(({ member: _gone, ...rest }) => rest);
  success(ctx.io, `deleted member ${id}; its sign-in here is removed`);
  if (o.json) ctx.io.stdout.write(`${JSON.stringify({ id, deleted: true })}\n`);
}
