/**
 * The members family's wiring of the entity bulk engine (docs/members.md "The CLI's bulk runs"): the port over `queryMembers`
 * (FULL fieldset, pages of 100 by id), approve and block through the platform's by-filter jobs restricted to
 * each chunk's planned ids (`{"filter":{"id":{"$in":[...]}}}`, exactly what the official client sends, docs/wire.md
 * §11), delete through the delete-by-filter job (with `contentAssigneeId` when given), and disconnect,
 * mute and unmute one call per member (no bulk call exists). Every chunk is settled by reading its members
 * back: that read is how the CLI waits for a job's outcome.
 */
import type { ApiClient } from '../../../api/client.js';
import { memberOps } from '../../../api/members.js';
import { MAX_BULK_DELETE_MEMBERS, MAX_MEMBERS_PAGE } from '../../../api/schemas/member.js';
import { deleteAction, eachSender, filterJobSender, type EntityAction } from '../../../bulk/actions.js';
import type { ChunkRunner } from '../../../bulk/execute.js';
import type { JournalArgs } from '../../../bulk/journal.js';
import { type Entity, type EntityPort, queryPort } from '../../../bulk/port.js';
import { MEMBER_VIEW } from './view.js';

/** Members as the bulk engine reads them: FULL members in pages of 100 by id, labelled by name or e-mail. */
export function membersPort(api: ApiClient): EntityPort {
  return queryPort(api, {
    query: memberOps.queryMembers,
    noun: MEMBER_VIEW.noun,
    params: MEMBER_VIEW.params,
    label: (m) => MEMBER_VIEW.label(m as never),
  });
}

/** Members per by-filter job: one page of planned ids. */
export const JOB_CHUNK = MAX_MEMBERS_PAGE;
/** Members per chunk of the per-member actions (the engine runs several chunks at once). */
export const EACH_CHUNK = 10;

/** Approve each chunk through the approve-by-filter job over its ids. */
export function approveSender(api: ApiClient): ChunkRunner['send'] {
  return filterJobSender(api, memberOps.bulkApproveMembers, (filter) => ({ filter }));
}

/** Block each chunk through the block-by-filter job over its ids. */
export function blockSender(api: ApiClient): ChunkRunner['send'] {
  return filterJobSender(api, memberOps.bulkBlockMembers, (filter) => ({ filter }));
}

/** One member action per member (disconnect, mute, unmute): no bulk call exists for them. */
export function eachMemberSender(api: ApiClient, op: 'disconnectMember' | 'muteMember' | 'unmuteMember'): ChunkRunner['send'] {
  return eachSender(api, memberOps[op], (item) => ({ id: item.id }));
}

/** `members delete` over a selection: delete-by-filter jobs of 100 ids, content to `options.contentAssigneeId`. */
export function deleteMembers(api: ApiClient, args: JournalArgs): EntityAction<Entity> {
  const assignee = typeof args.options?.contentAssigneeId === 'string' ? args.options.contentAssigneeId : undefined;
  return deleteAction({
    args,
    chunkSize: MAX_BULK_DELETE_MEMBERS,
    send: filterJobSender(api, memberOps.bulkDeleteMembersByFilter, (filter) => ({ filter, ...(assignee ? { contentAssigneeId: assignee } : {}) })),
  });
}
