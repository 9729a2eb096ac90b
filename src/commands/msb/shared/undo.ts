/**
 * How `sitectl undo` takes back the changes of `sitectl msb` (commands/shared/inverses.ts): a group created is
 * cancelled through the writes table; add and remove by each other; the rest has no way back.
 */
import { done, type NounUndo, type UndoRule } from '../../shared/inverses.js';
import { GROUP_VERBS, GROUP_WRITES, groupRun } from './engine.js';

/** The opposite verb over the same bookings (the same port and calls as `msb remove ID BOOKING...`). */
function opposite(verb: 'add' | 'remove', inverse: 'add' | 'remove'): UndoRule {
  return {
    async inverse({ api, state }) {
      const ids = done(state, [GROUP_VERBS[verb].done]).map((d) => d.result.id);
      const run = groupRun(GROUP_VERBS[inverse], api, { ids, options: state.header.args.options ?? {} });
      return { view: { noun: run.port.noun }, port: run.port, action: run.action, ids };
    },
  };
}

const PAST: Record<string, string> = { pending: 'marked pending', cancel: 'canceled', decline: 'declined' };

export const UNDO: NounUndo = {
  'multi-service bookings': {
    writes: async () => GROUP_WRITES,
    actions: {
      add: opposite('add', 'remove'),
      remove: opposite('remove', 'add'),
      reschedule: { cannot: 'sitectl does not move a group back: move it again with msb reschedule' },
    },
    otherwise: (action) => `a multi-service booking ${PAST[action] ?? `${action}ed`} cannot be taken back on the platform`,
  },
};
