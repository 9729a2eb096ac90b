/**
 * How `sitectl undo` takes back the changes of `sitectl members` (commands/shared/inverses.ts): creates and
 * updates through the writes table; block and approve by each other, only where that brings the member back
 * (never from PENDING, which the platform has no way back to); mute and unmute; the slug by its before-image.
 */
import type { NounUndo } from '../../shared/inverses.js';
import { oppositeInverse, valueInverse } from '../../shared/inverses.js';
import { memberTransition } from './transitions.js';
import { MEMBER_SLUG_VERB } from './values.js';
import { MEMBER_WRITES } from './writes.js';

const opposite = (verb: Parameters<typeof memberTransition>[0]) => async () => memberTransition(verb).spec;

export const UNDO: NounUndo = {
  members: {
    writes: async () => MEMBER_WRITES,
    actions: {
      block: oppositeInverse(opposite('approve'), {
        left: (b) => (b?.status === 'PENDING' ? 'it was PENDING before the block, and the platform has no way back to PENDING (approving it would let it in)' : undefined),
      }),
      approve: oppositeInverse(opposite('block'), {
        left: (b) => (b?.status === 'PENDING' ? 'it was PENDING before the approval, and the platform has no way back to PENDING (blocking it would lock it out)' : undefined),
      }),
      mute: oppositeInverse(opposite('unmute')),
      unmute: oppositeInverse(opposite('mute')),
      slug: valueInverse(MEMBER_SLUG_VERB),
      'clear-contact': { cannot: "sitectl does not set a member's cleared contact lists back (the journal keeps them)" },
      delete: { cannot: "a member's delete loses data the platform does not give back" },
      disconnect: { cannot: "a member's disconnect loses data the platform does not give back" },
    },
  },
};
