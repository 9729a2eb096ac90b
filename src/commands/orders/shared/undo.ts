/**
 * How `sitectl undo` takes back the changes of `sitectl orders` and `sitectl checkout` (commands/shared/inverses.ts):
 * pause and resume by each other; an order bought, cancelled, marked paid or postponed has no way back.
 */
import type { NounUndo } from '../../shared/inverses.js';
import { oppositeInverse } from '../../shared/inverses.js';
import { orderTransition } from './transitions.js';

const opposite = (verb: Parameters<typeof orderTransition>[0]) => async () => orderTransition(verb).spec;
const noWayBack = (action: string) => ({ cannot: `an order's ${action} has no way back on the platform` });

export const UNDO: NounUndo = {
  orders: {
    actions: {
      pause: oppositeInverse(opposite('resume'), { note: 'a resumed order ends later by the time it was paused, as every pause on the platform makes it' }),
      resume: oppositeInverse(opposite('pause')),
      create: { cannot: "an order bought has no way back on the platform ('orders cancel' ends it; that is not undone either)" },
      cancel: noWayBack('cancel'),
      'mark-paid': noWayBack('mark-paid'),
      markAsPaid: noWayBack('markAsPaid'),
      postpone: noWayBack('postpone'),
    },
  },
};
