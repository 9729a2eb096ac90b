/**
 * `sitectl plans list`: the site's plans through listPlans (offset pages of up to 100), by state (`--state
 * active|archived|all`, default active) and visibility (`--visibility public|hidden|all`, default all);
 * `--filter`/`--where` select by id.
 */
import { listVerb } from '../shared/verbs.js';
import { PLAN_READS } from './shared/reads.js';

export const { register, run } = listVerb({
  ...PLAN_READS,
  description: 'List pricing plans (active ones unless --state says otherwise)',
  examples: ['sitectl plans list', 'sitectl plans list --state all --visibility hidden', 'sitectl plans list --state archived --json id,name,pricing'],
});
