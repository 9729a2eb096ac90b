/**
 * The browser's key map, pure: a key press (in the shape of Ink's `useInput` arguments) and the mode it comes in
 * -> reducer actions of browser-state.ts, or what only the component can do (quit, answer a question, run a
 * pane's action). k9s keeps its bindings as data in the same way, so the help overlay and tests read them.
 */
import type { BrowserAction, BrowserState } from './browser-state.js';
import { lineKeys } from './line-edit.js';

/** The keys of a key press, in the shape of Ink's `useInput` arguments. */
export interface BrowserKey {
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  tab?: boolean;
  shift?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
}

/** What a key press means besides reducer actions: leave (q or Ctrl-C) or run the pane action bound to a key. */
export type KeyOutcome = { kind: 'actions'; actions: BrowserAction[] } | { kind: 'quit'; interrupted: boolean } | { kind: 'run'; key: string } | { kind: 'answer'; yes: boolean } | { kind: 'none' };

/**
 * Maps a key press to what it does in the current mode. `actionKeys` are the single-key actions of the active
 * pane (c, d, x, a, b, p, u, m), run by the component because they call back into the command.
 */
export function browserKey(state: BrowserState, input: string, key: BrowserKey, actionKeys: readonly string[]): KeyOutcome {
  const acts = (...actions: BrowserAction[]): KeyOutcome => ({ kind: 'actions', actions });
  if (key.ctrl && input === 'c') return { kind: 'quit', interrupted: true };
  switch (state.mode) {
    case 'busy':
      return { kind: 'none' };
    case 'confirm':
      if (input === 'y' || input === 'Y') return { kind: 'answer', yes: true };
      if (input === 'n' || input === 'N' || key.escape) return { kind: 'answer', yes: false };
      return { kind: 'none' };
    case 'filter': {
      // The filter line is a line editor: each key of a chunk (a paste, two Backspaces in one read) counts.
      const actions: BrowserAction[] = [];
      for (const edit of lineKeys(input, key)) {
        if (edit.type === 'cancel') return acts(...actions, { type: 'filter-cancel' });
        if (edit.type === 'submit') return acts(...actions, { type: 'filter-submit' });
        actions.push({ type: 'filter-edit', key: edit });
      }
      return actions.length ? acts(...actions) : { kind: 'none' };
    }
    case 'help':
      return input === 'q' || input === '?' || key.escape || key.return ? acts({ type: 'help', open: false }) : { kind: 'none' };
    case 'detail':
      if (input === 'q' || key.escape || key.return || key.leftArrow) return acts({ type: 'detail', open: false });
      if (key.upArrow || input === 'k') return acts({ type: 'detail-scroll', delta: -1 });
      if (key.downArrow || input === 'j') return acts({ type: 'detail-scroll', delta: 1 });
      if (key.pageUp) return acts({ type: 'detail-scroll', delta: -state.height });
      if (key.pageDown) return acts({ type: 'detail-scroll', delta: state.height });
      if (key.home || input === 'g') return acts({ type: 'detail-scroll', delta: -Infinity });
      if (key.end || input === 'G') return acts({ type: 'detail-scroll', delta: Infinity });
      if (actionKeys.includes(input)) return { kind: 'run', key: input };
      return { kind: 'none' };
    case 'list':
      break;
  }
  if (key.upArrow || input === 'k') return acts({ type: 'move', delta: -1 });
  if (key.downArrow || input === 'j') return acts({ type: 'move', delta: 1 });
  if (key.pageUp) return acts({ type: 'page', delta: -1 });
  if (key.pageDown) return acts({ type: 'page', delta: 1 });
  if (key.home || input === 'g') return acts({ type: 'home' });
  if (key.end || input === 'G') return acts({ type: 'end' });
  if (key.tab) return acts({ type: 'pane', delta: key.shift ? -1 : 1 });
  if (key.return) return acts({ type: 'detail', open: true });
  if (key.escape) return acts({ type: 'clear-selection' });
  if (input === ' ') return acts({ type: 'select' });
  if (input === '/') return acts({ type: 'filter-start' });
  if (input === '?') return acts({ type: 'help', open: true });
  // On a linked view r also looks the source's address up again; the panes are read once it answers.
  if (input === 'r') return acts(state.linked ? { type: 'relink' } : { type: 'refresh' });
  if (input === 's') return acts({ type: 'sort-next' });
  if (input === 'o' || key.rightArrow) return acts({ type: 'reveal' });
  if (input === 'S') return acts({ type: 'sort-flip' });
  if (input === 'q') return { kind: 'quit', interrupted: false };
  if (actionKeys.includes(input)) return { kind: 'run', key: input };
  return { kind: 'none' };
}
