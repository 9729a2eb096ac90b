/**
 * The browser's action flow, as a hook: a pane's single-key action runs on the marked rows (else the row under
 * the cursor); while it runs the browser is busy, a question it asks waits for y/n in the UI, its progress and
 * result (or failure) show in the flash line, and the panes it touched are read again. The browser keeps running
 * whatever the action throws.
 */
import { type Dispatch, useCallback, useRef } from 'react';
import { actionTargets, type BrowserAction, type BrowserState } from './browser-state.js';
import type { ActionIO, BrowserProps, PaneSpec } from './browser-spec.js';
import { errorText } from './browser-layout.js';

export interface ActionFlow {
  /** Runs the active pane's action bound to `key` against `snapshot` (the state the key press was read in). */
  run(key: string, snapshot: BrowserState): Promise<void>;
  /** Answers the open question (false too when the user quits while it is open). */
  answer(yes: boolean): void;
}

export function useActionFlow(dispatch: Dispatch<BrowserAction>, specOf: (id: string) => PaneSpec, afterAction: BrowserProps['afterAction']): ActionFlow {
  const pending = useRef<((yes: boolean) => void) | undefined>(undefined);

  const run = useCallback(
    async (key: string, snapshot: BrowserState) => {
      const pane = snapshot.panes[snapshot.active]!;
      const action = specOf(pane.id).actions?.find((a) => a.key === key);
      if (!action) return;
      // Nothing is sent while the source does not answer: the action fails at once and says why.
      if (!snapshot.link.up) {
        const when = snapshot.link.retryIn ? `retrying in ${snapshot.link.retryIn}s` : 'retrying now';
        dispatch({ type: 'flash', text: `${action.label.toLowerCase()}: not sent, disconnected (${when}; r retries now)`, error: true, down: true });
        return;
      }
      const ids = actionTargets(snapshot);
      if (ids.length === 0) {
        dispatch({ type: 'flash', text: `nothing to ${action.label.toLowerCase()}`, error: true });
        return;
      }
      // Marks stay when the question is answered no, so the same rows can be acted on otherwise.
      let declined = false;
      const io: ActionIO = {
        confirm: (question, lines = []) =>
          new Promise<boolean>((resolve) => {
            pending.current = (yes) => {
              declined ||= !yes;
              resolve(yes);
            };
            dispatch({ type: 'confirm', question, lines });
          }),
        progress: (title, done, total, failed) => {
          dispatch(done === 0 ? { type: 'busy', title, total } : { type: 'progress', done, total, failed });
        },
      };
      dispatch({ type: 'busy', title: `${action.label}…`, total: 0 });
      try {
        const text = await action.run(ids, io);
        dispatch({ type: 'idle' });
        // A question answered no changed nothing: said as it is ("canceled: ..."), without the done mark.
        dispatch({ type: 'flash', text, ...(declined ? { plain: true } : {}) });
        if (pane.selected.length && !declined) dispatch({ type: 'clear-selection' });
      } catch (err) {
        dispatch({ type: 'idle' });
        dispatch({ type: 'flash', text: errorText(err), error: true });
      }
      dispatch(afterAction === 'all' ? { type: 'refresh' } : { type: 'refresh', pane: pane.id });
    },
    [specOf, dispatch, afterAction],
  );

  const answer = useCallback(
    (yes: boolean) => {
      const resolve = pending.current;
      pending.current = undefined;
      dispatch({ type: 'confirm-done' });
      resolve?.(yes);
    },
    [dispatch],
  );

  return { run, answer };
}
