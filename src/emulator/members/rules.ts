/**
 * The rules of members (docs/wire.md §13, docs/members.md "State table"; docs/wire.md §8; docs/members.md for the
 * choices where the spec says "not shown"): what a reply of each fieldset carries, the status, activity and
 * privacy tables, slugs (unique on the site, made from the nickname or the login e-mail), creation and update,
 * clearing contact lists, and who may be named to receive a deleted member's content.
 *
 * Codes (HTTP status in brackets): MEMBER_NOT_FOUND [404]; INVALID_MEMBER_STATUS [428] (a transition the
 * member's status forbids: data `{id, status, action, allowedFrom}`); SLUG_ALREADY_EXISTS and
 * EMAIL_ALREADY_EXISTS [409]; CONTENT_ASSIGNEE_NOT_FOUND and CONTENT_ASSIGNEE_IS_DELETED [400];
 * UNAUTHENTICATED [401] for the "my" calls without a member token.
 */
import type { MemberCreate, MemberPatch } from '../../api/schemas/member.js';
import { MEMBER_ACTIVITY_FROM, MEMBER_PRIVACY_FROM, MEMBER_SLUG_MAX, MEMBER_STATUS_TABLE, type MemberStatusAction } from '../../api/schemas/member.js';
import { getPath } from '../../api/paths.js';
import { ApplicationFailure } from '../errors.js';
import type { RequestContext } from '../serve.js';
import type { SiteCollection } from '../store/collection.js';
import { type ActivityStatusDoc, type MemberDoc, type MemberStatusDoc, membersOf, type PrivacyStatusDoc } from './model.js';

/** The fieldsets, least to most. */
const FIELDSET_ORDER = ['PUBLIC', 'EXTENDED', 'FULL'] as const;
export type FieldsetName = (typeof FIELDSET_ORDER)[number];

/** The widest fieldset asked (the platform's default is PUBLIC). */
export function fieldsetOf(fieldsets: readonly string[] | undefined): FieldsetName {
  let best = 0;
  for (const f of fieldsets ?? []) best = Math.max(best, FIELDSET_ORDER.indexOf(f as FieldsetName));
  return FIELDSET_ORDER[best]!;
}

/**
 * The member as a reply of `fieldset` carries it (docs/wire.md §8): PUBLIC `id` and `profile`, with the three
 * statuses as UNKNOWN; EXTENDED adds `loginEmail`, `loginEmailVerified`, `contactId` and the real statuses;
 * FULL is the whole document (contact, dates). Returns the stored document itself for FULL (do not mutate it).
 */
export function project(doc: MemberDoc, fieldset: FieldsetName): Record<string, unknown> {
  if (fieldset === 'FULL') return doc as unknown as Record<string, unknown>;
  if (fieldset === 'PUBLIC') return { id: doc.id, profile: doc.profile, status: 'UNKNOWN', privacyStatus: 'UNKNOWN', activityStatus: 'UNKNOWN' };
  return {
    id: doc.id,
    ...(doc.loginEmail !== undefined ? { loginEmail: doc.loginEmail } : {}),
    ...(doc.loginEmailVerified !== undefined ? { loginEmailVerified: doc.loginEmailVerified } : {}),
    status: doc.status,
    contactId: doc.contactId,
    profile: doc.profile,
    privacyStatus: doc.privacyStatus,
    activityStatus: doc.activityStatus,
  };
}

/** A status action of the state table. */
export type StatusAction = MemberStatusAction;

/**
 * The member status table of src/api/schemas/member.ts (docs/members.md "State table") with the event each
 * action records. An action from the status it leads to changes nothing (a repeat is answered with the member
 * as it is, no event); any other status refuses it with INVALID_MEMBER_STATUS.
 */
export const STATUS_TABLE: Readonly<Record<StatusAction, { from: readonly MemberStatusDoc[]; to: MemberStatusDoc; event: string }>> = {
  approve: { ...MEMBER_STATUS_TABLE.approve, event: 'member.approved' },
  block: { ...MEMBER_STATUS_TABLE.block, event: 'member.blocked' },
  disconnect: { ...MEMBER_STATUS_TABLE.disconnect, event: 'member.disconnected' },
} as Readonly<Record<StatusAction, { from: readonly MemberStatusDoc[]; to: MemberStatusDoc; event: string }>>;

/** Activity actions: mute and unmute, allowed for every status but OFFLINE (a disconnected member is gone from the community). */
export const ACTIVITY_TABLE: Readonly<Record<'mute' | 'unmute', { to: ActivityStatusDoc; event: string }>> = {
  mute: { to: 'MUTED', event: 'member.muted' },
  unmute: { to: 'ACTIVE', event: 'member.unmuted' },
};

/** Privacy actions of the signed-in member: join (PUBLIC) and leave (PRIVATE) the community; APPROVED members only. */
export const PRIVACY_TABLE: Readonly<Record<'join' | 'leave', { to: PrivacyStatusDoc; event: string }>> = {
  join: { to: 'PUBLIC', event: 'member.joined_community' },
  leave: { to: 'PRIVATE', event: 'member.left_community' },
};

const ACTIVITY_FROM = MEMBER_ACTIVITY_FROM as readonly MemberStatusDoc[];
const PRIVACY_FROM = MEMBER_PRIVACY_FROM as readonly MemberStatusDoc[];

function refused(m: MemberDoc, action: string, allowedFrom: readonly string[]): ApplicationFailure {
  return new ApplicationFailure(428, 'INVALID_MEMBER_STATUS', `member ${m.id} is ${m.status}: it cannot be ${action} (allowed from ${allowedFrom.join(', ')})`, {
    id: m.id,
    status: m.status,
    action,
    allowedFrom,
  });
}

/** Why `m` cannot take a status action, or undefined when it can (or is there already). */
export function statusRefusal(m: MemberDoc, action: StatusAction): string | undefined {
  const rule = STATUS_TABLE[action];
  if (m.status === rule.to || rule.from.includes(m.status)) return undefined;
  return `it is ${m.status} (${action} takes ${rule.from.join(' or ')})`;
}

const PAST: Record<string, string> = { approve: 'approved', block: 'blocked', disconnect: 'disconnected', mute: 'muted', unmute: 'unmuted', join: 'made public', leave: 'made private' };

/**
 * Applies a status action to one member (approve, block, disconnect) in the request's transaction.
 * @returns the member as stored after the action (unchanged when it was in the target status already)
 * @throws ApplicationFailure 404 MEMBER_NOT_FOUND, 428 INVALID_MEMBER_STATUS
 */
export function applyStatus(members: SiteCollection<MemberDoc>, id: string, action: StatusAction, now: string): MemberDoc {
  const m = members.require(id);
  const rule = STATUS_TABLE[action];
  if (m.status === rule.to) return m;
  if (!rule.from.includes(m.status)) throw refused(m, PAST[action]!, rule.from);
  return members.update({ ...m, status: rule.to, updatedDate: now }, { event: rule.event });
}

/**
 * Mutes or unmutes one member.
 * @throws ApplicationFailure 404 MEMBER_NOT_FOUND, 428 INVALID_MEMBER_STATUS (an OFFLINE member)
 */
export function applyActivity(members: SiteCollection<MemberDoc>, id: string, action: 'mute' | 'unmute', now: string): MemberDoc {
  const m = members.require(id);
  const rule = ACTIVITY_TABLE[action];
  if (m.activityStatus === rule.to) return m;
  if (!ACTIVITY_FROM.includes(m.status)) throw refused(m, PAST[action]!, ACTIVITY_FROM);
  return members.update({ ...m, activityStatus: rule.to, updatedDate: now }, { event: rule.event });
}

/**
 * The signed-in member joins or leaves the community (privacy PUBLIC / PRIVATE).
 * @throws ApplicationFailure 428 INVALID_MEMBER_STATUS unless the member is APPROVED
 */
export function applyPrivacy(members: SiteCollection<MemberDoc>, m: MemberDoc, action: 'join' | 'leave', now: string): MemberDoc {
  const rule = PRIVACY_TABLE[action];
  if (m.privacyStatus === rule.to) return m;
  if (!PRIVACY_FROM.includes(m.status)) throw refused(m, PAST[action]!, PRIVACY_FROM);
  return members.update({ ...m, privacyStatus: rule.to, updatedDate: now }, { event: rule.event });
}

/**
 * The member of the request's member token ("my" calls, docs/wire.md §18; tokens from `sitectl login`,
 * docs/sign-in.md). API keys have no member: every "my" call made with one answers 401.
 * @throws ApplicationFailure 401 UNAUTHENTICATED without a member; 404 MEMBER_NOT_FOUND when it was deleted
 */
export function currentMember(ctx: Pick<RequestContext<unknown>, 'principal' | 'db'>): MemberDoc {
  const memberId = (ctx.principal as { memberId?: unknown }).memberId;
  if (typeof memberId !== 'string') {
    throw new ApplicationFailure(401, 'UNAUTHENTICATED', 'this call acts on the signed-in member: it needs a member token, not an API key', {}, 'Unauthenticated');
  }
  return membersOf(ctx).require(memberId);
}

/** `"Ada Lovelace!"` -> `ada-lovelace` (lowercase letters, digits and hyphens; at most 100 characters). */
export function slugify(text: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MEMBER_SLUG_MAX)
    .replace(/-+$/, '');
  return s || 'member';
}

/** A slug from `base` no other member holds: `base`, else `base-2`, `base-3`, ... (the platform's way). */
export function freeSlug(members: SiteCollection<MemberDoc>, base: string): string {
  const stem = slugify(base);
  if (members.owner('slug', stem) === undefined) return stem;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = stem.slice(0, MEMBER_SLUG_MAX - suffix.length).replace(/-+$/, '') + suffix;
    if (members.owner('slug', candidate) === undefined) return candidate;
  }
}

/** A contact's fields as sent (undefined ones dropped, lists copied). */
function contactFields(contact: MemberCreate['contact']): Partial<MemberDoc['contact']> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(contact ?? {})) if (v !== undefined) out[k] = Array.isArray(v) ? [...v] : v;
  return out as Partial<MemberDoc['contact']>;
}

/**
 * A new member from a create request: APPROVED, activity ACTIVE, privacy as given or PRIVATE, a new contact id,
 * the slug given (409 SLUG_ALREADY_EXISTS when taken, on insert) or made from the nickname, the names or the
 * login e-mail (then unique by a number suffix). The nickname defaults to the names, else the e-mail's local part.
 */
export function buildMember(members: SiteCollection<MemberDoc>, input: MemberCreate, ids: { id: string; contactId: string }, now: string): MemberDoc {
  const contact = contactFields(input.contact);
  const names = [contact.firstName, contact.lastName].filter((s): s is string => typeof s === 'string' && s.trim() !== '').join(' ');
  const local = input.loginEmail.split('@')[0]!;
  const nickname = input.profile?.nickname ?? (names || local);
  const profile: MemberDoc['profile'] = {
    nickname,
    slug: input.profile?.slug ?? freeSlug(members, nickname || local),
    ...(input.profile?.photo ? { photo: input.profile.photo } : {}),
    ...(input.profile?.cover ? { cover: input.profile.cover } : {}),
    ...(input.profile?.title ? { title: input.profile.title } : {}),
  };
  return {
    id: ids.id,
    loginEmail: input.loginEmail,
    loginEmailVerified: false,
    status: 'APPROVED',
    contactId: ids.contactId,
    contact: { contactId: ids.contactId, phones: [], emails: [input.loginEmail], addresses: [], customFields: {}, ...contact } as MemberDoc['contact'],
    profile,
    privacyStatus: input.privacyStatus ?? 'PRIVATE',
    activityStatus: 'ACTIVE',
    createdDate: now,
    updatedDate: now,
  };
}

/**
 * `m` with the fields of an update request applied (the official client sends no field mask: what is sent is
 * changed): `loginEmail` and `privacyStatus` replaced; each contact and profile field sent replaces the stored
 * one (lists as a whole); custom fields merge by key. Server-owned fields (id, status, dates) are ignored.
 */
export function patchMember(m: MemberDoc, patch: MemberPatch, now: string): MemberDoc {
  const contact = contactFields(patch.contact);
  const customFields = contact.customFields ? { ...m.contact.customFields, ...contact.customFields } : m.contact.customFields;
  const profile: Record<string, unknown> = { ...m.profile };
  for (const [k, v] of Object.entries(patch.profile ?? {})) {
    if (v === null) delete profile[k];
    else if (v !== undefined) profile[k] = v;
  }
  return {
    ...m,
    ...(patch.loginEmail !== undefined ? { loginEmail: patch.loginEmail } : {}),
    ...(patch.privacyStatus !== undefined ? { privacyStatus: patch.privacyStatus } : {}),
    contact: { ...m.contact, ...contact, customFields },
    profile: profile as MemberDoc['profile'],
    updatedDate: now,
  };
}

/** `m` with one contact list emptied (`DELETE /v1/members/{id}/phones|emails|addresses`). */
export function clearContactList(m: MemberDoc, list: 'phones' | 'emails' | 'addresses', now: string): MemberDoc {
  return { ...m, contact: { ...m.contact, [list]: [] }, updatedDate: now };
}

/**
 * Checks the member named to receive deleted members' content.
 * @param deleting whether a member is among those deleted (refused as the assignee)
 * @throws ApplicationFailure 400 CONTENT_ASSIGNEE_NOT_FOUND (no such member), CONTENT_ASSIGNEE_IS_DELETED
 */
export function checkContentAssignee(members: SiteCollection<MemberDoc>, assigneeId: string | undefined, deleting: (id: string) => boolean): void {
  if (assigneeId === undefined) return;
  if (!members.get(assigneeId)) {
    throw new ApplicationFailure(400, 'CONTENT_ASSIGNEE_NOT_FOUND', `contentAssigneeId ${assigneeId} is not a member of this site`, { contentAssigneeId: assigneeId });
  }
  if (deleting(assigneeId)) {
    throw new ApplicationFailure(400, 'CONTENT_ASSIGNEE_IS_DELETED', `contentAssigneeId ${assigneeId} is one of the members being deleted`, { contentAssigneeId: assigneeId });
  }
}

/** Fields the free-text search of the members query looks at unless it names others. */
export const SEARCH_FIELDS = ['profile.nickname', 'contact.firstName', 'contact.lastName', 'loginEmail'] as const;

/**
 * A predicate for `search: {expression, fields}`: every word of the expression appears (case-insensitively) in
 * one of the fields. No expression matches everything.
 */
export function searchPredicate(search: { expression?: string; fields?: string[] } | undefined): ((m: MemberDoc) => boolean) | undefined {
  const words = (search?.expression ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  const fields = search?.fields?.length ? search.fields : SEARCH_FIELDS;
  return (m) => {
    const text = fields.map((f) => String(getPath(m, f) ?? '')).join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  };
}
