/**
 * How `sitectl undo` takes back `sitectl attendance mark` (commands/shared/inverses.ts): each booking's former
 * attendance set back, or the attendance the mark made deleted where there was none.
 */
import { type NounUndo, valueInverse } from '../../shared/inverses.js';
import { MARK_VALUE_VERB } from './mark.js';

export const UNDO: NounUndo = {
  attendance: { actions: { mark: valueInverse(MARK_VALUE_VERB) } },
};
