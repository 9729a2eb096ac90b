/** `sitectl plans archive PLAN`: archive a plan for good (it can no longer be bought; its orders go on). */
import { planOps } from '../../api/plans.js';
import { eachSender } from '../../bulk/actions.js';
import { planAction } from './shared/action.js';

export const { register, run } = planAction({
  verb: 'archive',
  description: 'Archive a plan: it can no longer be bought, changed or made primary (its orders go on)',
  examples: ['sitectl plans archive "Annual Classic" --yes', 'sitectl plans archive 3f2a --yes'],
  options: () => ({}),
  destructive: true,
  reached: (p) => (p.archived ? 'archived' : undefined),
  confirm: (p) => `Archive plan "${p.name ?? p.id}"? It can no longer be bought or changed; this cannot be undone.`,
  send: (api) => eachSender(api, planOps.archivePlan, (item) => ({ id: item.id })),
  title: 'Archiving',
  done: 'archived',
});
