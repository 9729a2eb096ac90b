/**
 * `sitectl members create --email E [--first-name F] [--last-name L] [--nickname N] [--slug S] [--phone P]...
 * [--public|--private]`, or `--file member.json` / `--file -`, flags overriding the file's fields (docs/wire.md §18 "POST /v1/members"). The new member is APPROVED; its slug is made from the nickname or e-mail
 * unless `--slug` names one (a taken slug is refused, SLUG_ALREADY_EXISTS).
 */
import type { Command } from 'commander';
import { type Member, memberInputs, type MemberCreate } from '../../api/schemas/member.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { success } from '../../core/log.js';
import { addFormatFlags, type FormatFlags, printRecord, printValue } from '../../core/output.js';
import { formatOf } from '../shared/verbs.js';
import { addMemberFieldFlags, checkMember, memberFields, type MemberFieldFlags } from './shared/input.js';
import { MEMBER_VIEW } from './shared/view.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';

export type CreateOptions = MemberFieldFlags & FormatFlags;

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('create')
    .description('Create a member from flags or a JSON file')
    .addHelpText(
      'after',
      `\nExamples:\n  sitectl members create --email ada@example.com --first-name Ada --last-name Lovelace --phone "+1 415 555 0101"\n` +
        `  sitectl members get 3f2a --json | jq '.loginEmail="copy@example.com"|del(.profile.slug)' | sitectl members create --file -`,
    );
  declareRule(addFormatFlags(addMemberFieldFlags(cmd)), REVERSIBLE).action(async (o: CreateOptions) => {
    await run(o, ctx);
  });
}

/**
 * Builds the member from the file and flags, checks it against the create request's schema, then creates it as
 * a one-item change (in `sitectl history`; `sitectl undo` deletes it, as `members delete` does, if unchanged since).
 * Prints its id alone when stdout is piped (`id=$(sitectl members create ...)`), the readable view on a
 * terminal, the member with --json.
 * @throws UserError (exit 2) for bad flags, file or fields, a field name of the file the member schemas do not
 *   know (nothing is sent); ApplicationError 409
 *   EMAIL_ALREADY_EXISTS / SLUG_ALREADY_EXISTS from the platform
 */
export async function run(opts: CreateOptions, ctx: Context): Promise<void> {
  const format = formatOf(ctx, MEMBER_VIEW, opts);
  const member = await memberFields(opts, ctx.io.stdin, { request: memberInputs().MemberCreate, allowUnknown: ctx.flags.allowUnknownFields });
  if (member.loginEmail === undefined) throw new UserError('a new member needs --email (or a --file with loginEmail)', `e.g. ${ctx.bin} members create --email ada@example.com --first-name Ada`);
  checkMember(memberInputs().MemberCreate, member);
  // A one-item create through the engine: journaled, so `sitectl history` lists it and `sitectl undo` deletes it.
  const [{ runCreateOne }, { MEMBER_WRITES }] = await Promise.all([import('../shared/one.js'), import('./shared/writes.js')]);
  const created = (await runCreateOne(ctx, MEMBER_WRITES, member as MemberCreate as Record<string, unknown>, String(member.loginEmail))) as Member;
  success(ctx.io, `Created member ${created.id} (${created.loginEmail ?? ''}, slug ${created.profile?.slug ?? '?'})`);
  if (format.kind === 'table' && !ctx.io.isStdoutTTY) {
    await printValue(ctx.io, format, created, { text: created.id });
    return;
  }
  await printRecord(ctx.io, format, created, { rows: MEMBER_VIEW.rows(created), columns: MEMBER_VIEW.columns, now: ctx.now() });
}
