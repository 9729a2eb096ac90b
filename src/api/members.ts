/**
 * The members family (docs/wire.md §18: 24 operations in 18 rows; docs/wire.md §1, §5-§8
 * and §11), declared once as an operation table and named by the official SDK's methods (`@wix/members`):
 * `getCurrentMember` is the REST docs' "Get My Member" (`GET /v1/members/my`), `updateCurrentMemberSlug` their
 * "Update My Slug" (`POST /v1/members/my/slug`).
 *
 * Every members path travels under `/members/v1/members` (docs/wire.md §1, no alias). Lists page by offset with
 * `sorting` and answer `{members, metadata}` (not `pagingMetadata`, docs/wire.md §6). `listMembers` is a GET
 * whose options go out as `.r=<base64url JSON>` (docs/wire.md §11); `getMember` repeats `id` and sends
 * `fieldsets` as plain keys. Action bodies repeat the path parameter (`{"id"}`).
 *
 * Replies where the spec says "not shown" follow the platform (docs/members.md): create, update, slug and
 * the "my" get `{member}`; the actions and clears `{member}` (the spec's "member"); deletes `{}`; bulk delete
 * `{results:[{itemMetadata}], bulkActionMetadata}`; by-filter calls `{jobId}`.
 *
 * The "my" operations (`getCurrentMember`, `updateCurrentMemberSlug`, `deleteMyMember`, `joinCommunity`,
 * `leaveCommunity`) act on the member of a member token; with an API key they answer 401 (docs/wire.md §18).
 *
 * Retries (`idempotent`): reads, the status actions (a repeat finds the member in the state and changes
 * nothing), the clears and the slug calls may be repeated; create, update, deletes and jobs are not.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { EmptyReply, JobResponse } from './schemas/common.js';
import { MAX_BULK_DELETE_MEMBERS, MAX_MEMBERS_PAGE, memberInputs as input, memberReplies as replies } from './schemas/member.js';

/** `POST /v1/members/{id}/<verb>` with `{id}`, answering `{member}`: a status or activity action (docs/members.md "State table"). */
function memberAction(verb: string, summary: string) {
  return {
    method: 'POST' as const,
    path: `/v1/members/{id}/${verb}`,
    summary,
    request: () => z.looseObject({ id: input().Id }),
    reply: replies.MemberReply,
    idempotent: true,
  };
}

/** `DELETE /v1/members/{id}/<list>`: empties one contact list of a member, answering `{member}`. */
function clearList(list: 'phones' | 'emails' | 'addresses') {
  return {
    method: 'DELETE' as const,
    path: `/v1/members/{id}/${list}`,
    summary: `Remove every ${list === 'addresses' ? 'address' : list.slice(0, -1)} of a member's contact`,
    request: () => z.looseObject({ id: input().Id }),
    reply: replies.MemberReply,
    idempotent: true,
  };
}

const fieldsets = () => ({ fieldsets: z.optional(input().Fieldsets) });

/** The members family table (docs/wire.md §18: 24 operations in 18 rows). */
export const membersFamily = defineFamily({
  name: 'members',
  prefixes: [{ proto: '/v1/members', urls: ['/members/v1/members'] }],
  operations: {
    updateCurrentMemberSlug: {
      method: 'POST',
      path: '/v1/members/my/slug',
      summary: "Change the signed-in member's slug (member token)",
      request: () => z.looseObject({ slug: input().SlugInput }),
      reply: replies.MemberReply,
      idempotent: true,
    },
    updateMemberSlug: {
      method: 'POST',
      path: '/v1/members/{id}/slug',
      summary: "Change a member's slug (unique on the site)",
      request: () => z.looseObject({ id: input().Id, slug: input().SlugInput }),
      reply: replies.MemberReply,
      idempotent: true,
    },
    joinCommunity: {
      method: 'POST',
      path: '/v1/members/join-community',
      summary: 'The signed-in member joins the community: privacy PUBLIC (member token)',
      request: () => z.looseObject({}),
      reply: replies.MemberReply,
      idempotent: true,
    },
    leaveCommunity: {
      method: 'POST',
      path: '/v1/members/leave-community',
      summary: 'The signed-in member leaves the community: privacy PRIVATE (member token)',
      request: () => z.looseObject({}),
      reply: replies.MemberReply,
      idempotent: true,
    },
    getCurrentMember: {
      method: 'GET',
      path: '/v1/members/my',
      summary: 'The signed-in member, in the fieldsets asked (member token)',
      request: () => z.looseObject({ ...fieldsets() }),
      reply: replies.MemberReply,
    },
    getMember: {
      method: 'GET',
      path: '/v1/members/{id}',
      summary: 'One member, in the fieldsets asked (default PUBLIC)',
      request: () => z.looseObject({ id: input().Id, ...fieldsets() }),
      reply: replies.MemberReply,
      complexQuery: true,
    },
    listMembers: {
      method: 'GET',
      path: '/v1/members',
      summary: 'Members sorted, with offset paging (options sent as .r=)',
      request: () => z.looseObject({ paging: z.optional(input().MembersPaging), sorting: z.optional(input().SortingInput), ...fieldsets() }),
      reply: replies.MembersReply,
      complexQuery: true,
      paging: { kind: 'offset', items: 'members', sortKey: 'sorting', meta: 'metadata', offsetIn: 'paging', maxLimit: MAX_MEMBERS_PAGE, filter: false },
    },
    queryMembers: {
      method: 'POST',
      path: '/v1/members/query',
      summary: 'Members matching a filter and a free-text search, sorted, with offset paging',
      request: () => z.looseObject({ query: z.optional(input().QueryInput), search: z.optional(input().SearchInput), ...fieldsets() }),
      reply: replies.MembersReply,
      idempotent: true,
      paging: { kind: 'offset', items: 'members', wrapper: 'query', sortKey: 'sorting', meta: 'metadata', maxLimit: MAX_MEMBERS_PAGE, filter: true },
    },
    muteMember: memberAction('mute', 'Mute a member: activity MUTED (no social actions)'),
    unmuteMember: memberAction('unmute', 'Unmute a member: activity ACTIVE'),
    approveMember: memberAction('approve', 'Approve a pending member, or unblock a blocked one: status APPROVED'),
    blockMember: memberAction('block', 'Block a member: status BLOCKED (cannot log in)'),
    disconnectMember: memberAction('disconnect', 'Disconnect a member for good: status OFFLINE'),
    deleteMember: {
      method: 'DELETE',
      path: '/v1/members/{id}',
      summary: 'Delete a member',
      request: () => z.looseObject({ id: input().Id }),
      reply: () => EmptyReply,
    },
    deleteMyMember: {
      method: 'DELETE',
      path: '/v1/members/my',
      summary: "Delete the signed-in member; its content goes to contentAssigneeId (member token)",
      request: () => z.looseObject({ contentAssigneeId: z.optional(input().Id) }),
      reply: () => EmptyReply,
    },
    bulkDeleteMembers: {
      method: 'POST',
      path: '/v1/members/bulk/delete',
      summary: 'Delete up to 100 members by id, each reported on its own',
      request: () => z.looseObject({ memberIds: z.array(input().Id).check(z.minLength(1), z.maxLength(MAX_BULK_DELETE_MEMBERS)) }),
      reply: replies.BulkDeleteReply,
      bulkLimit: MAX_BULK_DELETE_MEMBERS,
    },
    bulkDeleteMembersByFilter: {
      method: 'POST',
      path: '/v1/members/bulk/delete-by-filter',
      summary: 'Delete every member matching a filter (and search), as a job; content goes to contentAssigneeId',
      request: () => z.looseObject({ filter: input().FilterInput, contentAssigneeId: z.optional(input().Id), search: z.optional(input().SearchInput) }),
      reply: () => JobResponse,
    },
    bulkApproveMembers: {
      method: 'POST',
      path: '/v1/members/bulk/approve-by-filter',
      summary: 'Approve every member matching a filter, as a job',
      request: () => z.looseObject({ filter: input().FilterInput }),
      reply: () => JobResponse,
    },
    bulkBlockMembers: {
      method: 'POST',
      path: '/v1/members/bulk/block-by-filter',
      summary: 'Block every member matching a filter, as a job',
      request: () => z.looseObject({ filter: input().FilterInput }),
      reply: () => JobResponse,
    },
    createMember: {
      method: 'POST',
      path: '/v1/members',
      summary: 'Create a member (APPROVED, privacy as given or PRIVATE); its slug comes from the nickname or e-mail',
      request: () => z.looseObject({ member: input().MemberCreate }),
      reply: replies.MemberReply,
    },
    updateMember: {
      method: 'PATCH',
      path: '/v1/members/{member.id}',
      summary: 'Change the fields sent of a member (contact and profile fields merge; lists are replaced)',
      request: () => z.looseObject({ member: input().MemberPatch }),
      reply: replies.MemberReply,
    },
    deleteMemberPhones: clearList('phones'),
    deleteMemberEmails: clearList('emails'),
    deleteMemberAddresses: clearList('addresses'),
  },
});

/** One typed call per members operation: `members.getMember(api, {id, fieldsets: ['FULL']})`. */
export const members = callsOf(membersFamily);

/** The members operations, by SDK method name. */
export const memberOps = membersFamily.operations;
