/**
 * `sitectl members delete`: one member (`delete ID`, read first and confirmed) or many (`--filter | --where |
 * --ids | --ids-file`, or `--resume JOURNAL`) through the entity bulk engine, each form by the platform's own call
 * (docs/wire.md §18, "Operations and their verbs"): one member by `DELETE /v1/members/{id}` (deleteMember), ids by
 * `POST /v1/members/bulk/delete` (bulkDeleteMembers, 100 per request, each reported on its own), a filter by the
 * delete-by-filter job over the planned ids (100 per job, settled by reading them back). `--content-assignee ID`
 * names the member who receives the deleted members' content: only the by-filter call carries
 * `contentAssigneeId`, so with it every form sends that job.
 */
import { memberOps } from '../../api/members.js';
import { MAX_BULK_DELETE_MEMBERS } from '../../api/schemas/member.js';
import { bulkSender, eachSender, filterJobSender } from '../../bulk/actions.js';
import { isSingle } from '../../bulk/journal.js';
import { UserError } from '../../core/errors.js';
import { deleteVerb } from '../shared/delete.js';
import { MEMBER_VIEW } from './shared/view.js';
import { fetchMember } from './shared/read.js';

export type { DeleteOptions } from '../shared/delete.js';

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const { register, run } = deleteVerb({
  view: MEMBER_VIEW,
  command: 'members delete',
  examples: [
    'sitectl members delete 3f2a --yes',
    'sitectl members delete --where status=BLOCKED --dry-run',
    "sitectl members delete --filter '{\"status\":\"OFFLINE\"}' --content-assignee 9c1b0e4d-... --yes --json",
  ],
  flags: (cmd) => cmd.option('--content-assignee <member-id>', "the member (full id) who receives the deleted members' content"),
  options: (opts) => {
    const assignee = opts.contentAssignee;
    if (assignee === undefined) return {};
    if (typeof assignee !== 'string' || !FULL_ID.test(assignee)) throw new UserError(`--content-assignee takes a member's full id, got '${String(assignee)}'`);
    return { contentAssigneeId: assignee };
  },
  async verify(api, options, signal) {
    const assignee = options.contentAssigneeId as string | undefined;
    if (assignee === undefined) return;
    try {
      await fetchMember(api, assignee, signal);
    } catch (err) {
      if ((err as { status?: unknown }).status === 404) throw new UserError(`--content-assignee: no member has the id ${assignee}`, "'sitectl members list' shows the members");
      throw err;
    }
  },
  // Content to an assignee: the delete-by-filter job over each chunk's planned ids (only that call carries it),
  // settled by reading the members back. Otherwise one member by its own delete, ids by the bulk delete.
  send: (api, options, args) => {
    const assignee = typeof options.contentAssigneeId === 'string' ? options.contentAssigneeId : undefined;
    if (!assignee && isSingle(args)) return eachSender(api, memberOps.deleteMember, (item) => ({ id: item.id }));
    if (!assignee && args.ids !== undefined) return bulkSender(api, memberOps.bulkDeleteMembers, (chunk) => ({ memberIds: chunk.map((i) => i.id) }));
    return filterJobSender(api, memberOps.bulkDeleteMembersByFilter, (filter) => ({ filter, ...(assignee ? { contentAssigneeId: assignee } : {}) }));
  },
  chunkSize: MAX_BULK_DELETE_MEMBERS,
});
