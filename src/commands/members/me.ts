/**
 * `sitectl members me`: the signed-in member (docs/wire.md §18; `GET /v1/members/my`
 * with the member's access token, FULL fieldset). Exit 4 when the profile is not signed in as a member.
 */
import type { Command } from 'commander';
import { members } from '../../api/members.js';
import type { Context } from '../../context.js';
import { addFormatFlags, printRecord, type FormatFlags } from '../../core/output.js';
import { memberApi } from '../auth/shared/session.js';
import { formatOf } from '../shared/verbs.js';
import { type EntityView } from '../shared/entity-view.js';
import { MEMBER_VIEW } from './shared/view.js';

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(parent.command('me').description('Show the signed-in member (sitectl login first)'))
    .addHelpText('after', '\nExamples:\n  sitectl members me\n  sitectl members me --json id,loginEmail,status')
    .action(async (o: FormatFlags) => {
      await run(o, ctx);
    });
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
