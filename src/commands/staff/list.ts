/** `sitectl staff list`: the site's staff members by name (cursor pages of up to 100), any filter. */
import { listVerb } from '../shared/verbs.js';
import { STAFF_READS } from './shared/reads.js';

export const { register, run } = listVerb({
  ...STAFF_READS,
  description: 'List staff members (by name), with their user connection and whose hours they work',
  examples: ['sitectl staff list', "sitectl staff list --where name='Maya Chen' --json id,name,resource", 'sitectl staff list --all --ndjson'],
});
