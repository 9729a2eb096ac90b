/**
 * What the members family stores (docs/wire.md §8 "Member"; docs/wire.md §13): one
 * collection of members per site, kept in wire form (ISO date strings, string revisions) with every field the
 * FULL fieldset shows; replies narrow it to the requested fieldset (rules.ts).
 *
 * Members have no revisions (the platform's member has none); createdDate and updatedDate are set by the rules.
 *
 * Other families read members through {@link membersOf}: the orders seed picks its buyers (`id` as the
 * order's `buyer.memberId`, `contactId` as `buyer.contactId`) from this collection.
 */
import type { RequestContext } from '../serve.js';
import { defineCollection, type SiteCollection } from '../store/collection.js';
import { Store } from '../store/store.js';

/** Member status (docs/wire.md §13). */
export type MemberStatusDoc = 'UNKNOWN' | 'PENDING' | 'APPROVED' | 'BLOCKED' | 'OFFLINE';
/** Privacy status: PUBLIC members are in the community (join), PRIVATE ones are not (leave). */
export type PrivacyStatusDoc = 'UNKNOWN' | 'PRIVATE' | 'PUBLIC';
/** Activity status: MUTED members may not act socially (mute / unmute). */
export type ActivityStatusDoc = 'UNKNOWN' | 'ACTIVE' | 'MUTED';

/** A postal address of a member's contact. */
export type MemberAddressDoc = {
  id?: string;
  addressLine?: string;
  addressLine2?: string;
  streetAddress?: { number?: string; name?: string };
  city?: string;
  subdivision?: string;
  country?: string;
  postalCode?: string;
};

/** A custom field value of a member's contact (`contact.customFields[key]`). */
export type CustomFieldDoc = {
  name?: string;
  value?: { text?: string; number?: number; date?: string; [k: string]: unknown };
};

/** An image (profile photo or cover). */
export type MemberImageDoc = {
  id?: string;
  url?: string;
  height?: number;
  width?: number;
  offsetX?: number;
  offsetY?: number;
};

/** A member document: every field of the FULL fieldset (wire form). */
export type MemberDoc = {
  id: string;
  revision?: string;
  loginEmail?: string;
  loginEmailVerified?: boolean;
  status: MemberStatusDoc;
  contactId: string;
  contact: {
    contactId?: string;
    firstName?: string;
    lastName?: string;
    phones: string[];
    emails: string[];
    addresses: MemberAddressDoc[];
    birthdate?: string;
    company?: string;
    jobTitle?: string;
    customFields: Record<string, CustomFieldDoc>;
  };
  profile: {
    nickname?: string;
    slug: string;
    photo?: MemberImageDoc;
    cover?: MemberImageDoc;
    title?: string;
  };
  privacyStatus: PrivacyStatusDoc;
  activityStatus: ActivityStatusDoc;
  createdDate?: string;
  updatedDate?: string;
  lastLoginDate?: string;
};

/** Members; a profile slug and a login e-mail each belong to one member of the site. */
export const MEMBERS = defineCollection<MemberDoc>({
  kind: 'members',
  entity: 'member',
  notFound: 'MEMBER_NOT_FOUND',
  // Members carry no revision on the wire (docs/wire.md §8): the rules stamp createdDate and updatedDate.
  revisioned: false,
  // A site may hold a million members: they are queried in SQLite, not kept in memory (store/collection.ts).
  queryable: {
    fields: [
      'id', 'loginEmail', 'loginEmailVerified', 'status', 'privacyStatus', 'activityStatus', 'contactId',
      'contact.firstName', 'contact.lastName', 'contact.company', 'contact.jobTitle', 'contact.birthdate',
      'profile.nickname', 'profile.slug', 'profile.title', 'createdDate', 'updatedDate', 'lastLoginDate',
    ],
    indexed: ['id', 'loginEmail', 'status', 'contact.lastName', 'profile.nickname', 'createdDate'],
  },
  uniques: [
    { name: 'slug', values: (m) => (m.profile?.slug ? [m.profile.slug] : []), code: 'SLUG_ALREADY_EXISTS', what: 'slug' },
    { name: 'loginEmail', values: (m) => (m.loginEmail ? [m.loginEmail.toLowerCase()] : []), code: 'EMAIL_ALREADY_EXISTS', what: 'login e-mail' },
  ],
});

/** Every collection of the members family. */
export const MEMBER_COLLECTIONS = [MEMBERS];

/**
 * The members of one site: from a request's context (`membersOf(ctx)`, its site) or from the store
 * (`membersOf(store, siteId)`, as a seed does).
 * @throws Error when a store is given without a site id
 */
export function membersOf(source: Pick<RequestContext<unknown>, 'db'> | Store, site?: string): SiteCollection<MemberDoc> {
  if (!(source instanceof Store)) return source.db(MEMBERS);
  if (site === undefined) throw new Error('membersOf(store, site): a site id is required');
  return source.collection(MEMBERS).at(site);
}
