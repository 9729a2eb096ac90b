/**
 * Members on the wire (docs/wire.md §13, §18, §12, §5, §6, §8 and §11;
 * the official SDK's typings where the spec says "not shown").
 *
 * A member reply carries what its fieldset allows (docs/wire.md §8; docs/members.md): PUBLIC (the default) `id`
 * and `profile`, with `status`, `privacyStatus` and `activityStatus` as UNKNOWN; EXTENDED adds `loginEmail`,
 * `loginEmailVerified`, `contactId` and the real statuses; FULL adds `contact` and the dates. So every field but
 * `id` is optional here.
 *
 * Dates the official client turns into `Date` are `isoDate` (`createdDate`, `lastLoginDate`, docs/wire.md §11);
 * `updatedDate` stays a string as the SDK leaves it. Enumerations the platform may extend are open.
 */
import * as z from 'zod/mini';
import { Address, bounded, bulkResult, Image, isoDate, lazySchema, once, openEnum, requestShapes, SortOrder } from './common.js';

/** Member status (docs/wire.md §13). UNKNOWN is what the PUBLIC fieldset shows. */
export const MemberStatusValues = ['UNKNOWN', 'PENDING', 'APPROVED', 'BLOCKED', 'OFFLINE'] as const;
export type MemberStatus = (typeof MemberStatusValues)[number];
/** Privacy status: PUBLIC members are in the community, PRIVATE ones are not. */
export const PrivacyStatusValues = ['UNKNOWN', 'PRIVATE', 'PUBLIC'] as const;
export type PrivacyStatus = (typeof PrivacyStatusValues)[number];
/** Activity status: MUTED members may not act socially. */
export const ActivityStatusValues = ['UNKNOWN', 'ACTIVE', 'MUTED'] as const;
export type ActivityStatus = (typeof ActivityStatusValues)[number];
/** How much of a member a reply carries. */
export const FieldsetValues = ['PUBLIC', 'EXTENDED', 'FULL'] as const;
export type Fieldset = (typeof FieldsetValues)[number];
/** Older enumerations still in the platform's typings (docs/wire.md §13). */
export const LegacyRoleValues = ['UNDEFINED_ROLE', 'MEMBER', 'OWNER', 'CONTRIBUTOR'] as const;
export const LegacyPrivacyValues = ['UNDEFINED', 'PUBLIC', 'PRIVATE', 'COMMUNITY'] as const;
export const LegacyStatusValues = ['UNDEFINED_STATUS', 'APPLICANT', 'ACTIVE', 'INACTIVE', 'BLOCKED', 'OFFLINE_ONLY'] as const;
/** Custom field types, kinds, groups and visibility of the members' profile fields. */
export const CustomFieldTypeValues = ['TEXT', 'NUMBER', 'DATE', 'URL', 'SOCIAL'] as const;
export const SocialTypeValues = [
  'FACEBOOK', 'INSTAGRAM', 'LINKEDIN', 'TWITTER', 'YOUTUBE', 'PINTEREST', 'TIKTOK', 'DEVIANTART', 'SOUNDCLOUD', 'TUMBLR', 'VIMEO', 'VKONTAKTE', 'ODNOKLASSNIKI', 'OTHER',
] as const;
export const CustomFieldKindValues = ['CUSTOM', 'CONTACT', 'SYSTEM'] as const;
export const FieldGroupValues = ['GENERAL', 'SOCIAL', 'DISPLAY_INFO', 'ADDRESS'] as const;
export const FieldVisibilityValues = ['ALL_MEMBERS', 'SELECTED_MEMBERS'] as const;
/** Why a member is reported; block status and follow events of the social modules. */
export const ReportReasonValues = ['SPAM', 'IMPERSONATION', 'HARASSMENT', 'OTHER'] as const;
export const BlockStatusValues = ['BLOCKING', 'BLOCKED'] as const;
export const FollowEventValues = ['followed', 'unfollowed'] as const;
/** The contact lists a member's contact can have cleared (`DELETE /v1/members/{id}/<list>`). */
export const ClearableContactListValues = ['phones', 'emails', 'addresses'] as const;
export type ClearableContactList = (typeof ClearableContactListValues)[number];

/** A member action the status table governs. */
export type MemberStatusAction = 'approve' | 'block' | 'disconnect';

/**
 * The member status table (docs/members.md "State table" says which source states allow each action is "not shown": this
 * is the choice docs/members.md records, after the platform's docs): each action, the statuses it is allowed
 * from and the status it leads to. An action from the status it leads to changes nothing; any other status
 * refuses it (INVALID_MEMBER_STATUS). The emulator enforces it; the CLI checks it before sending.
 */
export const MEMBER_STATUS_TABLE: Readonly<Record<MemberStatusAction, { from: readonly MemberStatus[]; to: MemberStatus }>> = {
  // Approve a pending applicant, or unblock a blocked member (the platform's approveMember does both).
  approve: { from: ['PENDING', 'BLOCKED'], to: 'APPROVED' },
  // Block an applicant or an approved member: neither can log in afterwards.
  block: { from: ['PENDING', 'APPROVED'], to: 'BLOCKED' },
  // Disconnect is for good (the platform: "to connect the same member again, create a member with a new slug").
  disconnect: { from: ['PENDING', 'APPROVED', 'BLOCKED'], to: 'OFFLINE' },
};

/** The statuses mute and unmute are allowed from (a disconnected, OFFLINE member is out of the community). */
export const MEMBER_ACTIVITY_FROM: readonly MemberStatus[] = ['PENDING', 'APPROVED', 'BLOCKED'];
/** The statuses a member may join or leave the community from. */
export const MEMBER_PRIVACY_FROM: readonly MemberStatus[] = ['APPROVED'];

/** Most members one bulk delete may name (docs/wire.md §7: `memberIds` 1-100). */
export const MAX_BULK_DELETE_MEMBERS = 100;
/** Largest page of the members query and list (docs/wire.md §6: max 100), and the default (docs/wire.md §12). */
export const MAX_MEMBERS_PAGE = 100;
export const DEFAULT_MEMBERS_PAGE = 50;
/** Longest member slug; a slug is lowercase letters, digits and hyphens (docs/members.md). */
export const MEMBER_SLUG_MAX = 100;
export const MEMBER_SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** Bounds of a member's contact lists and texts (the emulator enforces them; docs/members.md). */
export const MAX_CONTACT_ITEMS = 50;
export const MAX_CUSTOM_FIELDS = 100;

/** A custom field value of a member's contact: `{name, value: {text | number | date | ...}}`. */
export const CustomField = lazySchema(() =>
  z.looseObject({
    name: z.optional(z.nullable(z.string())),
    value: z.optional(z.nullable(z.looseObject({ text: z.optional(z.string()), number: z.optional(z.number()), date: z.optional(z.string()) }))),
  }),
);

/** A member's contact (FULL fieldset): names, phones, e-mails, addresses, custom fields. */
export const MemberContact = lazySchema(() =>
  z.looseObject({
    contactId: z.optional(z.nullable(z.string())),
    firstName: z.optional(z.nullable(z.string())),
    lastName: z.optional(z.nullable(z.string())),
    phones: z.optional(z.array(z.string())),
    emails: z.optional(z.array(z.string())),
    addresses: z.optional(z.array(z.extend(Address, { id: z.optional(z.nullable(z.string())) }))),
    birthdate: z.optional(z.nullable(z.string())),
    company: z.optional(z.nullable(z.string())),
    jobTitle: z.optional(z.nullable(z.string())),
    customFields: z.optional(z.record(z.string(), CustomField)),
  }),
);

/** A member's image (photo, cover): an image with the crop offsets. */
export const MemberImage = lazySchema(() =>
  z.extend(Image, { offsetX: z.optional(z.nullable(z.number())), offsetY: z.optional(z.nullable(z.number())) }),
);

/** A member's profile (every fieldset): display name, slug, photo, cover and title. */
export const MemberProfile = lazySchema(() =>
  z.looseObject({
    nickname: z.optional(z.nullable(z.string())),
    slug: z.optional(z.nullable(z.string())),
    photo: z.optional(z.nullable(MemberImage)),
    cover: z.optional(z.nullable(MemberImage)),
    title: z.optional(z.nullable(z.string())),
  }),
);

/** A member (docs/wire.md §8), as much of it as the reply's fieldset carries. */
export const Member = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    loginEmail: z.optional(z.nullable(z.string())),
    loginEmailVerified: z.optional(z.nullable(z.boolean())),
    status: z.optional(openEnum(MemberStatusValues)),
    contactId: z.optional(z.nullable(z.string())),
    contact: z.optional(MemberContact),
    profile: z.optional(MemberProfile),
    privacyStatus: z.optional(openEnum(PrivacyStatusValues)),
    activityStatus: z.optional(openEnum(ActivityStatusValues)),
    createdDate: z.optional(z.nullable(isoDate)),
    updatedDate: z.optional(z.nullable(z.string())),
    lastLoginDate: z.optional(z.nullable(isoDate)),
  }),
);
export type Member = z.infer<typeof Member>;
export type MemberWire = z.input<typeof Member>;

/** `metadata` of the members query and list (docs/wire.md §6: not `pagingMetadata`). */
export const MembersMetadata = lazySchema(() =>
  z.looseObject({
    count: z.optional(z.int()),
    offset: z.optional(z.int()),
    total: z.optional(z.int()),
    tooManyToCount: z.optional(z.boolean()),
  }),
);

// ---- Requests (built on first use).

function buildMemberInputs() {
  const { AddressInput, FilterInput, Id, PagingInput } = requestShapes();
  const Email = z.email().check(z.maxLength(320));
  const SlugInput = z.string().check(
    z.minLength(1),
    z.maxLength(MEMBER_SLUG_MAX),
    z.regex(MEMBER_SLUG, 'must be lowercase letters, digits and hyphens, not starting or ending with a hyphen'),
  );
  const ImageInput = z.looseObject({
    id: z.optional(bounded(200)),
    url: z.optional(bounded(2000)),
    height: z.optional(z.int().check(z.nonnegative())),
    width: z.optional(z.int().check(z.nonnegative())),
    offsetX: z.optional(z.int()),
    offsetY: z.optional(z.int()),
  });
  const CustomFieldInput = z.looseObject({
    name: z.optional(bounded(200)),
    value: z.looseObject({ text: z.optional(bounded(2000)), number: z.optional(z.number()), date: z.optional(bounded(40)) }),
  });
  const ContactInput = z.looseObject({
    firstName: z.optional(z.nullable(bounded(200))),
    lastName: z.optional(z.nullable(bounded(200))),
    phones: z.optional(z.array(bounded(50).check(z.minLength(1))).check(z.maxLength(MAX_CONTACT_ITEMS))),
    emails: z.optional(z.array(Email).check(z.maxLength(MAX_CONTACT_ITEMS))),
    addresses: z.optional(z.array(AddressInput).check(z.maxLength(MAX_CONTACT_ITEMS))),
    birthdate: z.optional(z.nullable(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 1990-04-21')))),
    company: z.optional(z.nullable(bounded(200))),
    jobTitle: z.optional(z.nullable(bounded(200))),
    customFields: z.optional(z.record(bounded(200), CustomFieldInput).check(z.refine((r) => Object.keys(r).length <= MAX_CUSTOM_FIELDS, `must hold at most ${MAX_CUSTOM_FIELDS} fields`))),
  });
  const ProfileInput = z.looseObject({
    nickname: z.optional(z.nullable(bounded(255))),
    slug: z.optional(SlugInput),
    photo: z.optional(z.nullable(ImageInput)),
    cover: z.optional(z.nullable(ImageInput)),
    title: z.optional(z.nullable(bounded(255))),
  });
  /** Fields a caller may give a member (server-owned ones, such as status and dates, are ignored). */
  const memberFields = {
    contact: z.optional(ContactInput),
    profile: z.optional(ProfileInput),
    privacyStatus: z.optional(z.enum(['PRIVATE', 'PUBLIC'])),
  };
  const Fieldsets = z.array(z.enum(FieldsetValues)).check(z.maxLength(3));
  const SortingInput = z.array(z.looseObject({ fieldName: bounded(200), order: z.optional(SortOrder) })).check(z.maxLength(50));
  const MembersPaging = z.looseObject({
    limit: z.optional(z.int().check(z.gte(0), z.lte(MAX_MEMBERS_PAGE))),
    offset: PagingInput.shape.offset,
  });
  return {
    Id,
    Email,
    SlugInput,
    Fieldsets,
    FilterInput,
    SortingInput,
    MembersPaging,
    /** A new member: `loginEmail` is required. */
    MemberCreate: z.looseObject({ loginEmail: Email, ...memberFields }),
    /** A change of a member: its id and the fields sent (the official client sends no field mask). */
    MemberPatch: z.looseObject({ id: Id, loginEmail: z.optional(Email), ...memberFields }),
    /** Free-text search of the members query: `expression` over `fields` (default: names, nickname, e-mail). */
    SearchInput: z.looseObject({ expression: z.optional(bounded(200)), fields: z.optional(z.array(bounded(200)).check(z.maxLength(20))) }),
    /** `{query:{filter, sorting, paging}}` of the members query. */
    QueryInput: z.looseObject({ filter: z.optional(FilterInput), sorting: z.optional(SortingInput), paging: z.optional(MembersPaging) }),
  };
}

/** The request shapes of the members family (built on first use). */
export const memberInputs = once(buildMemberInputs);
export type MemberInputs = ReturnType<typeof buildMemberInputs>;
export type MemberCreate = z.input<MemberInputs['MemberCreate']>;
export type MemberPatch = z.input<MemberInputs['MemberPatch']>;

// ---- Replies, each built once on first use.

const MemberReply = once(() => z.looseObject({ member: Member }));
const MembersReply = once(() => z.looseObject({ members: z.array(Member), metadata: z.optional(MembersMetadata) }));
const BulkDeleteReply = once(() => bulkResult(Member));

export const memberReplies = { MemberReply, MembersReply, BulkDeleteReply };
