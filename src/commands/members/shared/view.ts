/**
 * How a member looks on the command line: table columns, the readable `get` view, the checks of its fields.
 * Members are always read in the FULL fieldset (docs/wire.md §8): an owner's tool shows the status,
 * contact and dates that the default PUBLIC fieldset hides.
 */
import { memberOps } from '../../../api/members.js';
import { Member, MEMBER_STATUS_TABLE, type MemberStatusAction } from '../../../api/schemas/member.js';
import type { Column } from '../../../core/output.js';
import type { EntityView } from '../../shared/entity-view.js';

/** `first last`, else the nickname. */
export function memberName(m: Member): string {
  const names = [m.contact?.firstName, m.contact?.lastName].filter((s) => typeof s === 'string' && s !== '').join(' ');
  return names || m.profile?.nickname || '';
}

/** One line per address: `addressLine, city, postalCode, country`. */
function addressText(a: NonNullable<NonNullable<Member['contact']>['addresses']>[number]): string {
  const street = a.addressLine ?? a.formatted ?? a.formattedAddress ?? [a.streetAddress?.number, a.streetAddress?.name].filter(Boolean).join(' ');
  return [street, a.city, a.postalCode, a.country].filter((p) => typeof p === 'string' && p !== '').join(', ');
}

/**
 * Columns of `members list` and `members export --csv`: id, e-mail, name, status, privacy, activity, slug,
 * created. On a narrow terminal created, slug, privacy and activity go first, so the id (short), name, e-mail
 * and status stay whole at 80 columns.
 */
export const MEMBER_COLUMNS: Column<Member>[] = [
  { key: 'id', id: true, noTruncate: true },
  { key: 'loginEmail', header: 'EMAIL', min: 20 },
  { key: 'name', get: memberName, min: 12 },
  { key: 'status', fit: 'whole' },
  { key: 'privacyStatus', header: 'PRIVACY', priority: 3 },
  { key: 'activityStatus', header: 'ACTIVITY', priority: 2 },
  { key: 'profile.slug', header: 'SLUG', priority: 4 },
  { key: 'createdDate', header: 'CREATED', priority: 5 },
];

/** Rows of the readable `members get` view on a terminal. */
export function memberRows(m: Member): Array<[string, unknown]> {
  const c = m.contact;
  const custom = Object.entries(c?.customFields ?? {}).map(([k, f]) => `${f.name ?? k}: ${f.value?.text ?? f.value?.number ?? f.value?.date ?? ''}`);
  const rows: Array<[string, unknown]> = [
    ['id', m.id],
    ['login e-mail', m.loginEmail],
    ['status', m.status],
    ['privacy', m.privacyStatus],
    ['activity', m.activityStatus],
    ['nickname', m.profile?.nickname],
    ['name', [c?.firstName, c?.lastName].filter(Boolean).join(' ') || undefined],
    ['slug', m.profile?.slug],
    ['title', m.profile?.title],
    ['contact id', m.contactId],
    ['phones', c?.phones?.join(', ') || undefined],
    ['e-mails', c?.emails?.join(', ') || undefined],
    ['addresses', c?.addresses?.map(addressText).join('; ') || undefined],
    ['company', c?.company],
    ['job title', c?.jobTitle],
    ['birthdate', c?.birthdate],
    ['custom fields', custom.join('; ') || undefined],
    ['photo', m.profile?.photo?.url],
    ['created', m.createdDate],
    ['updated', m.updatedDate],
    ['last login', m.lastLoginDate],
  ];
  return rows.filter(([, v]) => v !== undefined && v !== null && v !== '');
}

/** The members entity for the shared verbs (list, get, delete, the transitions, bulk). */
export const MEMBER_VIEW: EntityView<Member> = {
  noun: { one: 'member', many: 'members' },
  schema: Member,
  columns: MEMBER_COLUMNS,
  // name is a first and last name, else the nickname.
  sortFields: {
    id: 'id',
    loginEmail: 'loginEmail',
    status: 'status',
    privacyStatus: 'privacyStatus',
    activityStatus: 'activityStatus',
    'profile.slug': 'profile.slug',
    createdDate: 'createdDate',
  },
  rows: memberRows,
  readOnly: ['id', 'contactId', 'status', 'activityStatus', 'loginEmailVerified', 'createdDate', 'updatedDate', 'lastLoginDate'],
  query: memberOps.queryMembers,
  label: (m) => memberName(m) || m.loginEmail || undefined,
  filterExample: '{"status":"PENDING"}',
  params: { fieldsets: ['FULL'] },
  // The query's free-text search, as `members list --search` sends it (every word, any of these fields).
  textSearch: { what: 'names, nickname and login e-mail', query: (text) => ({ params: { search: { expression: text } } }) },
};

/** Why the status table refuses `action` for `m` (undefined when it allows it or `m` is there already). */
export function statusBlocked(m: Member, action: MemberStatusAction): string | undefined {
  const rule = MEMBER_STATUS_TABLE[action];
  if (m.status === rule.to || rule.from.some((s) => s === m.status)) return undefined;
  return `it is ${m.status} (${action} takes ${rule.from.join(' or ')})`;
}
