/**
 * How `sitectl undo` takes back the changes of `sitectl staff` (commands/shared/inverses.ts): creates and
 * updates through the writes table; a delete by restoring the staff member from the trash bin (same id, hours
 * and services); a restore by deleting it again; connect by disconnect; hours set back to the days' former hours.
 */
import { done, type NounUndo } from '../../shared/inverses.js';
import { STAFF_WRITES } from './writes.js';

export const UNDO: NounUndo = {
  'staff members': {
    writes: async () => STAFF_WRITES,
    actions: {
      delete: {
        // Back from the trash bin, unless restored or removed for good since (then not in the plan: named as such).
        async inverse({ api, state }) {
          const { restoreRun } = await import('./trash.js');
          const ids = done(state, ['deleted']).map((d) => d.result.id);
          const run = restoreRun(api, { ids });
          return { view: { noun: run.port.noun }, port: run.port, action: run.action, ids, skippedWhy: 'they are no longer in the trash bin (restored or removed for good since)' };
        },
      },
      restore: {
        // Deleted again (to the trash bin), if unchanged since the restore.
        async inverse({ api, state }) {
          const [{ deleteRun }, { STAFF_DELETE }] = await Promise.all([import('../../shared/delete.js'), import('./writes.js')]);
          const ids = done(state, ['restored']).map((d) => d.result.id);
          const run = deleteRun(STAFF_DELETE, api, { ids });
          return { view: { noun: run.port.noun }, port: run.port, action: run.action, ids, destructive: true };
        },
      },
      connect: {
        async inverse({ api, state }) {
          const { staffRun } = await import('./connect.js');
          const ids = done(state, ['connected']).map((d) => d.result.id);
          const run = staffRun('disconnect', api, { ids, options: {} });
          return { view: { noun: run.port.noun }, port: run.port, action: run.action, ids };
        },
      },
      hours: {
        // The days' former hours set back (a single form's change: one staff member), unless changed since.
        async inverse({ api, state, now }) {
          const { hoursRun } = await import('../hours.js');
          const back = done(state, ['set']).filter((d) => d.planned?.before);
          const ids = back.map((d) => d.result.id).slice(0, 1);
          const before = back[0]?.planned?.before as { week?: Record<string, unknown> } | undefined;
          const run = hoursRun(api, { ids, options: { week: before?.week ?? {}, expect: (state.header.args.options as { week?: unknown } | undefined)?.week ?? {} } }, now);
          return { view: { noun: run.port.noun }, port: run.port, action: run.action, ids };
        },
      },
      disconnect: { cannot: "connecting it again needs the user's e-mail, which the platform does not give back" },
    },
  },
};
