/**
 * How `sitectl undo` takes back the changes of `sitectl bookings` (commands/shared/inverses.ts): a booking
 * created is cancelled through the writes table; a reschedule moved back to the former slot (if still free), the
 * participants and the namespace data set back; confirm, decline and cancel have no way back on the platform.
 */
import type { EntityView } from '../../shared/entity-view.js';
import { done, type NounUndo, type UndoRequest, type Inverse, valueInverse } from '../../shared/inverses.js';
import type { MoveTarget, SlotOf } from './moves.js';
import { FIELDS_VERB } from './values.js';
import { BOOKING_WRITES } from './writes.js';

/**
 * The undo of `bookings reschedule` and `bookings participants`: each booking moved back to its former slot, or
 * its former number of participants set back (the before-image), if it still has the revision the change left;
 * one changed since is skipped, and so is a move back into a slot that has no room now ("slot taken").
 */
async function bookingBack({ api, state, action }: UndoRequest): Promise<Inverse> {
  const [{ BOOKING_VIEW }, moves] = await Promise.all([import('./view.js'), import('./moves.js')]);
  const view = BOOKING_VIEW as EntityView<unknown>;
  const back = done(state, [action === 'reschedule' ? 'rescheduled' : 'updated']).filter((d) => d.planned?.before !== undefined);
  const ids = back.map((d) => d.result.id);
  if (action === 'reschedule') {
    const moved: Record<string, MoveTarget<SlotOf>> = Object.fromEntries(back.map((d) => [d.result.id, { to: d.planned!.before as SlotOf, expect: d.result.revision }]));
    const ignorePolicy = (state.header.args.options as { ignorePolicy?: boolean } | undefined)?.ignorePolicy;
    const run = moves.rescheduleRun(api, { ids, options: { moves: moved, undo: true, ...(ignorePolicy ? { ignorePolicy } : {}) } });
    return { view, port: run.port, action: run.action, ids, skippedWhy: 'were changed since, or their former slot is taken now' };
  }
  const counts: Record<string, MoveTarget<number>> = Object.fromEntries(back.map((d) => [d.result.id, { to: (d.planned!.before as { totalParticipants: number }).totalParticipants, expect: d.result.revision }]));
  const run = moves.participantsRun(api, { ids, options: { counts, undo: true } });
  return { view, port: run.port, action: run.action, ids };
}

const PAST: Record<string, string> = { cancel: 'canceled', decline: 'declined', 'confirm-or-decline': 'confirmed or declined' };

export const UNDO: NounUndo = {
  bookings: {
    writes: async () => BOOKING_WRITES,
    actions: { reschedule: { inverse: bookingBack }, participants: { inverse: bookingBack }, fields: valueInverse(FIELDS_VERB) },
    otherwise: (action) => `a booking ${PAST[action] ?? `${action}ed`} cannot be taken back on the platform`,
  },
};
