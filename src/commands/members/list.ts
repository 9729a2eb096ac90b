/**
 * `sitectl members list [--status S[,S]] [--search TEXT] [--fieldset F] [--filter JSON] [--where f=v]...
 * [--sort f[:asc|desc]] [--limit N | --all]`: the members query with offset paging, `metadata` and `sorting`
 * (docs/wire.md §18 "POST /v1/members/query"; docs/wire.md §6).
 */
import type { Command } from 'commander';
import { FieldsetValues, MemberStatusValues } from '../../api/schemas/member.js';
import { UserError } from '../../core/errors.js';
import { choicesOf } from '../shared/choices.js';
import { listVerb, type ListOptions } from '../shared/verbs.js';
import { MEMBER_VIEW } from './shared/view.js';

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

export const { register, run } = listVerb({
  keys: async () => (await import('./shared/transitions.js')).memberKeys(),
  view: MEMBER_VIEW,
  description: 'List members (status, search, filter, sort, limit or all)',
  examples: [
    'sitectl members list --status PENDING',
    'sitectl members list --search ada --json id,loginEmail,status',
    `sitectl members list --filter '{"createdDate":{"$gte":"2026-01-01T00:00:00Z"}}' --sort createdDate:desc --all --ndjson`,
    'sitectl members list --fieldset PUBLIC --limit 5 --json',
  ],
  flags: (cmd: Command) =>
    cmd
      .option('--status <statuses>', `only these statuses, comma-separated (${MemberStatusValues.filter((s) => s !== 'UNKNOWN').join(', ')})`)
      .option('--search <text>', 'free-text search over names, nickname and login e-mail')
      .option('--fieldset <fieldset>', `how much of each member the platform returns (${FieldsetValues.join(', ')}; default FULL)`),
  extra: (opts: ListOptions) => ({
    filter: statusFilter(opts.status),
    params: { ...searchParam(opts.search), ...fieldsetParam(opts.fieldset) },
  }),
});
