/** How `sitectl undo` takes back the changes of `sitectl plans` (commands/shared/inverses.ts). */
import type { NounUndo } from '../../shared/inverses.js';
import { PLAN_WRITES } from './writes.js';

export const UNDO: NounUndo = {
  plans: {
    writes: async () => PLAN_WRITES,
    actions: { 'clear-primary': { cannot: "a plan's primary mark has no way back but making a plan primary again ('plans primary')" } },
  },
};
