/** `sitectl plans visibility PLAN public|hidden`: show a plan on the site or hide it (a hidden plan is not primary). */
import { planOps } from '../../api/plans.js';
import { eachSender } from '../../bulk/actions.js';
import { choiceOf } from '../shared/choices.js';
import { planAction } from './shared/action.js';

export const { register, run } = planAction<{ visible: boolean }>({
  verb: 'visibility',
  description: 'Show a plan on the site (public) or hide it (hidden: it is sold only offline and is no longer primary)',
  examples: ['sitectl plans visibility "Founder Lifetime" public', 'sitectl plans visibility 3f2a hidden'],
  declare: (cmd) => cmd.argument('<visibility>', 'public or hidden'),
  options: ([word]) => {
    const w = choiceOf(word ?? '', ['public', 'hidden'], '<visibility>', { fold: (v) => v.trim().toLowerCase() });
    return { visible: w === 'public' };
  },
  // Not named when the rule was set (docs/architecture.md "The confirmation rule"): takes the rule of its sibling `primary` (shown again as easily as hidden).
  destructive: false,
  reached: (p, o) => ((p.public !== false) === o.visible ? (o.visible ? 'public' : 'hidden') : undefined),
  blocked: (p) => (p.archived ? 'it is archived' : undefined),
  send: (api, o) => eachSender(api, planOps.setPlanVisibility, (item) => ({ id: item.id, visible: o.visible })),
  title: 'Changing visibility',
  done: 'changed the visibility of',
});
