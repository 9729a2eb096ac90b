/**
 * `sitectl services list [--filter JSON] [--where f=v]... [--sort f[:asc|desc]] [--limit N | --all]`: the
 * services query with offset paging (docs/wire.md §14 "POST /v2/services/query", §12).
 */
import { listVerb } from '../shared/verbs.js';
import { SERVICE_READS } from './shared/reads.js';

export const { register, run } = listVerb({
  ...SERVICE_READS,
  description: 'List services (filter, sort, limit or all)',
  examples: [
    'sitectl services list --where type=CLASS --sort name',
    `sitectl services list --filter '{"payment.rateType":{"$in":["FIXED","VARIED"]}}' --all --ndjson`,
  ],
});
