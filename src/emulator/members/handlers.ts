/**
 * The members family served from its table (docs/wire.md §18, every row; docs/wire.md §6, §8 and §11): one handler per operation of `membersFamily`, each receiving a request the table's schema has
 * already validated. Replies carry the fieldset asked (reads; default PUBLIC) or the FULL member (writes, which
 * only an owner's key reaches); lists answer `{members, metadata}`. Rules and codes: rules.ts.
 *
 * By-filter calls (approve, block, delete) apply the change to every matching member in the request's
 * transaction and answer `{jobId}`: the job is done when the reply arrives, so a caller that reads the
 * members back (the CLI's settle step) sees its outcome. Approve and block by filter leave alone the members
 * the status table does not allow (the job skips them, as the platform's asynchronous jobs do).
 */
import { membersFamily } from '../../api/members.js';
import { DEFAULT_MEMBERS_PAGE } from '../../api/schemas/member.js';
import { bulkReply } from '../bulk.js';
import { ApplicationFailure } from '../errors.js';
import { checkQuery, compileFilter } from '../query/index.js';
import { RawJson, serve, type RequestContext } from '../serve.js';
import type { PageRequest, SiteCollection, SortSpec } from '../store/collection.js';
import { type MemberDoc, membersOf } from './model.js';
import {
  applyActivity,
  applyPrivacy,
  applyStatus,
  buildMember,
  checkContentAssignee,
  clearContactList,
  currentMember,
  type FieldsetName,
  fieldsetOf,
  patchMember,
  project,
  SEARCH_FIELDS,
  searchPredicate,
  STATUS_TABLE,
  type StatusAction,
} from './rules.js';

/** The JSON text of one member in `fieldset` (FULL: the stored text, not serialised again). */
function memberJson(members: SiteCollection<MemberDoc>, doc: MemberDoc, fieldset: FieldsetName): string {
  return fieldset === 'FULL' ? members.json(doc) : JSON.stringify(project(doc, fieldset));
}

/** `{"member": ...}` in `fieldset` (writes answer FULL). */
function memberReply(members: SiteCollection<MemberDoc>, doc: MemberDoc, fieldset: FieldsetName = 'FULL'): RawJson {
  return new RawJson(`{"member":${memberJson(members, doc, fieldset)}}`);
}

/** The free-text search of a members request as a page's `search` (undefined: no words, no search). */
function searchOf(search: { expression?: string; fields?: string[] } | undefined): PageRequest<MemberDoc>['search'] {
  const test = searchPredicate(search);
  if (!test) return undefined;
  const words = (search?.expression ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return { fields: search?.fields?.length ? search.fields : SEARCH_FIELDS, test, words, key: JSON.stringify([search?.expression, search?.fields]) };
}

/**
 * One page of members and its `metadata` (docs/wire.md §6), in `fieldset`: filter and free-text search on the
 * whole member whatever the fieldset, `sorting`, offset paging (default 50, at most 100). Runs in SQLite
 * (SiteCollection.page): only the page's members are read.
 */
function membersPage(
  ctx: RequestContext<unknown>,
  query: { filter?: Record<string, unknown>; sorting?: unknown; paging?: { limit?: number; offset?: number } } | undefined,
  search: { expression?: string; fields?: string[] } | undefined,
  fieldset: FieldsetName,
): RawJson {
  const members = membersOf(ctx);
  const { limit, offset } = checkQuery({ filter: query?.filter, sort: query?.sorting, paging: { limit: query?.paging?.limit ?? DEFAULT_MEMBERS_PAGE, offset: query?.paging?.offset } });
  const sort = query?.sorting as SortSpec[] | undefined;
  const page = members.page({ filter: query?.filter, sort: sort?.length ? sort : undefined, offset, limit, search: searchOf(search) });
  let text = '{"members":[';
  for (let i = 0; i < page.items.length; i++) text += (i ? ',' : '') + memberJson(members, page.items[i]!, fieldset);
  text += `],"metadata":${JSON.stringify({ count: page.items.length, offset, total: page.total, tooManyToCount: false })}}`;
  return new RawJson(text);
}

/** The ids of every member matching a by-filter request (filter and optional search), in creation order. */
function matching(members: SiteCollection<MemberDoc>, filter: Record<string, unknown>, search?: { expression?: string; fields?: string[] }): string[] {
  compileFilter(filter, 'filter');
  return members.matchingIds(filter, searchOf(search));
}

/** A status action by filter: applied to each matching member the table allows; the others are left alone. */
function statusJob(ctx: RequestContext<{ filter: Record<string, unknown> }>, action: StatusAction) {
  const members = membersOf(ctx);
  const rule = STATUS_TABLE[action];
  for (const id of matching(members, ctx.body.filter)) {
    if (rule.from.includes(members.require(id).status)) applyStatus(members, id, action, ctx.now);
  }
  return { jobId: crypto.randomUUID() };
}

/** Every members operation, served. */
export const membersServed = serve(membersFamily, {
  updateCurrentMemberSlug(ctx) {
    const members = membersOf(ctx);
    const me = currentMember(ctx);
    if (me.profile.slug === ctx.body.slug) return memberReply(members, me);
    return memberReply(members, members.update({ ...me, profile: { ...me.profile, slug: ctx.body.slug }, updatedDate: ctx.now }));
  },

  updateMemberSlug(ctx) {
    const members = membersOf(ctx);
    const m = members.require(ctx.body.id);
    if (m.profile.slug === ctx.body.slug) return memberReply(members, m);
    return memberReply(members, members.update({ ...m, profile: { ...m.profile, slug: ctx.body.slug }, updatedDate: ctx.now }));
  },

  joinCommunity(ctx) {
    const members = membersOf(ctx);
    return memberReply(members, applyPrivacy(members, currentMember(ctx), 'join', ctx.now));
  },

  leaveCommunity(ctx) {
    const members = membersOf(ctx);
    return memberReply(members, applyPrivacy(members, currentMember(ctx), 'leave', ctx.now));
  },

  getCurrentMember(ctx) {
    return memberReply(membersOf(ctx), currentMember(ctx), fieldsetOf(ctx.body.fieldsets));
  },

  getMember(ctx) {
    const members = membersOf(ctx);
    const doc = members.require(ctx.body.id);
    // A visitor's or member's token reads other members as the platform shows them to everyone: a public
    // member's PUBLIC fieldset, a private member not at all (its data is for itself and the site owner).
    if (ctx.principal.kind !== 'admin' && !(ctx.principal.kind === 'member' && ctx.principal.memberId === doc.id)) {
      if (doc.privacyStatus !== 'PUBLIC') throw new ApplicationFailure(404, 'MEMBER_NOT_FOUND', `member ${doc.id} was not found`, { id: doc.id });
      return memberReply(members, doc, 'PUBLIC');
    }
    return memberReply(members, doc, fieldsetOf(ctx.body.fieldsets));
  },

  listMembers(ctx) {
    return membersPage(ctx, { sorting: ctx.body.sorting, paging: ctx.body.paging }, undefined, fieldsetOf(ctx.body.fieldsets));
  },

  queryMembers(ctx) {
    return membersPage(ctx, ctx.body.query, ctx.body.search, fieldsetOf(ctx.body.fieldsets));
  },

  muteMember(ctx) {
    const members = membersOf(ctx);
    return memberReply(members, applyActivity(members, ctx.body.id, 'mute', ctx.now));
  },

  unmuteMember(ctx) {
    const members = membersOf(ctx);
    return memberReply(members, applyActivity(members, ctx.body.id, 'unmute', ctx.now));
  },

  approveMember(ctx) {
    const members = membersOf(ctx);
    return memberReply(members, applyStatus(members, ctx.body.id, 'approve', ctx.now));
  },

  blockMember(ctx) {
    const members = membersOf(ctx);
    return memberReply(members, applyStatus(members, ctx.body.id, 'block', ctx.now));
  },

  disconnectMember(ctx) {
    const members = membersOf(ctx);
    return memberReply(members, applyStatus(members, ctx.body.id, 'disconnect', ctx.now));
  },

  deleteMember(ctx) {
    membersOf(ctx).delete(ctx.body.id);
    return {};
  },

  deleteMyMember(ctx) {
    const members = membersOf(ctx);
    const me = currentMember(ctx);
    checkContentAssignee(members, ctx.body.contentAssigneeId, (id) => id === me.id);
    members.delete(me.id);
    return {};
  },

  bulkDeleteMembers(ctx) {
    const members = membersOf(ctx);
    // A deleted member is never returned as the item.
    return bulkReply(ctx.store, ctx.body.memberIds, false, (id) => id, (id) => members.delete(id));
  },

  bulkDeleteMembersByFilter(ctx) {
    const members = membersOf(ctx);
    const targets = matching(members, ctx.body.filter, ctx.body.search);
    const ids = new Set(targets);
    checkContentAssignee(members, ctx.body.contentAssigneeId, (id) => ids.has(id));
    for (const id of targets) members.delete(id);
    return { jobId: crypto.randomUUID() };
  },

  bulkApproveMembers(ctx) {
    return statusJob(ctx, 'approve');
  },

  bulkBlockMembers(ctx) {
    return statusJob(ctx, 'block');
  },

  createMember(ctx) {
    const members = membersOf(ctx);
    const doc = buildMember(members, ctx.body.member, { id: crypto.randomUUID(), contactId: crypto.randomUUID() }, ctx.now);
    return memberReply(members, members.insert(doc));
  },

  updateMember(ctx) {
    const members = membersOf(ctx);
    const m = members.require(ctx.body.member.id);
    return memberReply(members, members.update(patchMember(m, ctx.body.member, ctx.now)));
  },

  deleteMemberPhones(ctx) {
    const members = membersOf(ctx);
    return memberReply(members, members.update(clearContactList(members.require(ctx.body.id), 'phones', ctx.now)));
  },

  deleteMemberEmails(ctx) {
    const members = membersOf(ctx);
    return memberReply(members, members.update(clearContactList(members.require(ctx.body.id), 'emails', ctx.now)));
  },

  deleteMemberAddresses(ctx) {
    const members = membersOf(ctx);
    return memberReply(members, members.update(clearContactList(members.require(ctx.body.id), 'addresses', ctx.now)));
  },
}, { member: ['getCurrentMember', 'updateCurrentMemberSlug', 'joinCommunity', 'leaveCommunity', 'deleteMyMember', 'getMember'] });
