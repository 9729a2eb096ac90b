/**
 * State of the yes/no confirm prompt as a pure reducer (ink-ui's widget pattern: reducer + input hook + view),
 * so the behaviour is tested without a terminal.
 */

export interface ConfirmState {
  /** The highlighted answer; Enter submits it. Starts at the prompt's default. */
  value: boolean;
  /** `pending` until the user answers (Esc is a no); `cancelled` on Ctrl-C. */
  status: 'pending' | 'answered' | 'cancelled';
}

export type ConfirmAction =
  | { type: 'yes' }
  | { type: 'no' }
  | { type: 'toggle' }
  | { type: 'submit' }
  | { type: 'cancel' };

/** The state a prompt starts in. */
export function initialConfirmState(defaultValue: boolean): ConfirmState {
  return { value: defaultValue, status: 'pending' };
}

/** Applies one action. Once answered or cancelled the state no longer changes (a late key press is ignored). */
export function confirmReducer(state: ConfirmState, action: ConfirmAction): ConfirmState {
  if (state.status !== 'pending') return state;
  switch (action.type) {
    case 'yes':
      return { value: true, status: 'answered' };
    case 'no':
      return { value: false, status: 'answered' };
    case 'toggle':
      return { ...state, value: !state.value };
    case 'submit':
      return { ...state, status: 'answered' };
    case 'cancel':
      return { ...state, status: 'cancelled' };
  }
}

/** The keys the prompt understands, in the shape of Ink's `useInput` arguments. */
export interface KeyInfo {
  return?: boolean;
  escape?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  tab?: boolean;
  ctrl?: boolean;
}

/**
 * Maps a key press to an action: y/n answer at once, arrows and Tab move the highlight, Enter submits it,
 * Esc answers no, Ctrl-C cancels. Anything else is ignored (undefined).
 */
export function confirmKeyAction(input: string, key: KeyInfo): ConfirmAction | undefined {
  if (key.ctrl && input === 'c') return { type: 'cancel' };
  // Esc leaves the question as a "no": "canceled: nothing was changed" (docs/architecture.md "The confirmation rule"), not an interrupt.
  if (key.escape) return { type: 'no' };
  if (key.return) return { type: 'submit' };
  if (key.leftArrow || key.rightArrow || key.tab) return { type: 'toggle' };
  if (input === 'y' || input === 'Y') return { type: 'yes' };
  if (input === 'n' || input === 'N') return { type: 'no' };
  return undefined;
}
