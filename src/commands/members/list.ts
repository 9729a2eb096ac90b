/**
 * `sitectl members list [--status S[,S]] [--search TEXT] [--fieldset F] [--filter JSON] [--where f=v]...
 * [--sort f[:asc|desc]] [--limit N | --all]`: the members query with offset paging, `metadata` and `sorting`
 * (docs/wire.md §18 "POST /v1/members/query"; docs/wire.md §6).
 */
import { listVerb } from '../shared/verbs.js';
import { MEMBER_READS } from './shared/reads.js';

export const { register, run } = listVerb({
  ...MEMBER_READS,
  keys: async () => (await import('./shared/transitions.js')).memberKeys(),
  description: 'List members (status, search, filter, sort, limit or all)',
  examples: [
    'sitectl members list --status PENDING',
    'sitectl members list --search ada --json id,loginEmail,status',
    `sitectl members list --filter '{"createdDate":{"$gte":"2026-01-01T00:00:00Z"}}' --sort createdDate:desc --all --ndjson`,
    'sitectl members list --fieldset PUBLIC --limit 5 --json',
  ],
});
