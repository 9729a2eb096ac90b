/**
 * What the members read verbs (`list`, `count`, `export`) select and show (commands/shared/verbs.ts ReadSpec):
 * `--status`, `--search` (the query's free-text search), `--filter`/`--where`; `--fieldset` chooses how much of
 * each member the platform returns (list and export). The members query has no count call: `count` takes the
 * query's exact `metadata.total` (docs/wire.md §18 "POST /v1/members/query").
 */
import type { Command } from 'commander';
import { FieldsetValues, type Member, MemberStatusValues } from '../../../api/schemas/member.js';
import { UserError } from '../../../core/errors.js';
import type { Column } from '../../../core/output.js';
import { choicesOf } from '../../shared/choices.js';
import type { ListOptions, ReadSpec } from '../../shared/verbs.js';
import { MEMBER_VIEW } from './view.js';
import { enumOption } from '../../../core/flag-values.js';

/**
 * `--status` as a filter condition: one status or a comma-separated list, each one of the member statuses.
 * @throws UserError (exit 2) for an unknown status
 */
export function statusFilter(raw: unknown): Record<string, unknown> | undefined {
  if (typeof raw !== 'string') return undefined;
  const statuses = choicesOf(raw, MemberStatusValues, '--status');
  return { status: statuses.length === 1 ? statuses[0] : { $in: statuses } };
}

/** `--search TEXT` as the query's free-text search (names, nickname, login e-mail). @throws UserError when empty */
export function searchParam(raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw.trim() === '' || raw.length > 200) throw new UserError('--search takes 1 to 200 characters of text');
  return { search: { expression: raw.trim() } };
}

function fieldsetParam(raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  const f = String(raw).toUpperCase();
  if (!(FieldsetValues as readonly string[]).includes(f)) throw new UserError(`--fieldset takes ${FieldsetValues.join(', ')}, got '${String(raw)}'`);
  return { fieldsets: [f] };
}

/** CSV columns of `members export`: the member flattened (lists joined with `; `). */
export const EXPORT_COLUMNS: Column<Member>[] = [
  { key: 'id' },
  { key: 'loginEmail' },
  { key: 'status' },
  { key: 'privacyStatus' },
  { key: 'activityStatus' },
  { key: 'nickname', get: (m) => m.profile?.nickname },
  { key: 'slug', get: (m) => m.profile?.slug },
  { key: 'title', get: (m) => m.profile?.title },
  { key: 'contactId' },
  { key: 'firstName', get: (m) => m.contact?.firstName },
  { key: 'lastName', get: (m) => m.contact?.lastName },
  { key: 'phones', get: (m) => m.contact?.phones?.join('; ') },
  { key: 'emails', get: (m) => m.contact?.emails?.join('; ') },
  { key: 'company', get: (m) => m.contact?.company },
  { key: 'jobTitle', get: (m) => m.contact?.jobTitle },
  { key: 'createdDate' },
  { key: 'lastLoginDate' },
];

/**
 * Members per request of `export --csv`: 50 (the platform's default page) keeps each reply and each burst of
 * parsing small, so few objects survive a scavenge. JSON and NDJSON are passed on as sent, in the pages of
 * `list --all` (bench/run.js BENCH_ONLY=stream measures 1,000 to 100,000 members).
 */
export const EXPORT_PAGE = 50;

/** The statuses `--status` offers (UNKNOWN is the platform's placeholder, never a member's). */
const LISTED_STATUSES = MemberStatusValues.filter((s) => s !== 'UNKNOWN');

export const MEMBER_READS: ReadSpec<Member> = {
  view: MEMBER_VIEW,
  flags: (cmd: Command) =>
    enumOption(cmd, '--status <statuses>', `only these statuses, comma-separated (${LISTED_STATUSES.join(', ')})`, LISTED_STATUSES).option(
      '--search <text>',
      'free-text search over names, nickname and login e-mail',
    ),
  rowFlags: (cmd: Command) => enumOption(cmd, '--fieldset <fieldset>', `how much of each member the platform returns (${FieldsetValues.join(', ')}; default FULL)`, FieldsetValues, false),
  extra: (opts: ListOptions) => ({
    filter: statusFilter(opts.status),
    params: { ...searchParam(opts.search), ...fieldsetParam(opts.fieldset) },
  }),
  exportColumns: EXPORT_COLUMNS,
  exportPage: EXPORT_PAGE,
};
