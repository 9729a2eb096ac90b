/**
 * How `sitectl undo` takes back the changes of `sitectl services` (commands/shared/inverses.ts): services,
 * booking policies and categories through the writes table, the value verbs (a category's move too) by their
 * before-images. `services
 * apply` and `clone --to-site` are undone site by site (commands/undo, services/shared/apply-undo.ts).
 */
import type { NounUndo } from '../../shared/inverses.js';
import { valueInverse } from '../../shared/inverses.js';
import { CATEGORY_WRITES, MOVE_VERB } from './category-writes.js';
import { POLICY_WRITES } from './policy-writes.js';
import { ADD_ON_GROUPS_VERB } from './add-on-values.js';
import { DEFAULT_POLICY_VERB, LOCATIONS_VERB, PLANS_VERB, SLUG_VERB } from './values.js';
import { SERVICE_WRITES } from './writes.js';

export const UNDO: NounUndo = {
  services: {
    writes: async () => SERVICE_WRITES,
    actions: { slug: valueInverse(SLUG_VERB), locations: valueInverse(LOCATIONS_VERB), 'pricing-plans': valueInverse(PLANS_VERB), 'add-on-groups': valueInverse(ADD_ON_GROUPS_VERB) },
  },
  'booking policies': { writes: async () => POLICY_WRITES, actions: { 'set-default': valueInverse(DEFAULT_POLICY_VERB) } },
  categories: { writes: async () => CATEGORY_WRITES, actions: { move: valueInverse(MOVE_VERB) } },
};
