/** `sitectl plans primary PLAN`: highlight a plan on the site (the one primary plan; not archived, not hidden). */
import { planOps } from '../../api/plans.js';
import { eachSender } from '../../bulk/actions.js';
import { planAction } from './shared/action.js';

export const { register, run } = planAction({
  verb: 'primary',
  description: 'Make a plan the primary (highlighted) one; the previous primary plan stops being primary',
  examples: ['sitectl plans primary "Silver 12 Months"', 'sitectl plans primary 3f2a --json'],
  options: () => ({}),
  destructive: false,
  reached: (p) => (p.primary ? 'primary' : undefined),
  blocked: (p) => (p.archived ? 'it is archived' : p.public === false ? "it is hidden (show it first: 'plans visibility PLAN public')" : undefined),
  send: (api) => eachSender(api, planOps.makePlanPrimary, (item) => ({ id: item.id })),
  title: 'Making primary',
  done: 'made primary',
});
