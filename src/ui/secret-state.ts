/**
 * State of the hidden-entry prompt (an API key typed or pasted on a terminal) as a pure reducer, like the
 * confirm prompt: Enter submits, Backspace removes the last character, Esc and Ctrl-C cancel; what is typed is
 * never drawn (the view shows one `*` per character, so the user sees the paste landed).
 */

export interface SecretState {
  value: string;
  status: 'pending' | 'submitted' | 'cancelled';
}

export type SecretAction = { type: 'type'; text: string } | { type: 'erase' } | { type: 'submit' } | { type: 'cancel' };

export const initialSecretState: SecretState = { value: '', status: 'pending' };

/** Applies one action; after submit or cancel the state no longer changes. */
export function secretReducer(state: SecretState, action: SecretAction): SecretState {
  if (state.status !== 'pending') return state;
  switch (action.type) {
    case 'type':
      return { ...state, value: state.value + action.text };
    case 'erase':
      return { ...state, value: state.value.slice(0, -1) };
    case 'submit':
      return { ...state, status: 'submitted' };
    case 'cancel':
      return { ...state, status: 'cancelled' };
  }
}

/** The keys the prompt understands, in the shape of Ink's `useInput` arguments. */
export interface SecretKeyInfo {
  return?: boolean;
  escape?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
}

/**
 * Maps a key press (or a whole paste, which Ink delivers as one input) to an action. A paste that ends with a
 * newline types the text and submits. Control characters other than those keys are dropped.
 */
export function secretKeyActions(input: string, key: SecretKeyInfo): SecretAction[] {
  if (key.ctrl && input === 'c') return [{ type: 'cancel' }];
  if (key.escape) return [{ type: 'cancel' }];
  if (key.return) return [{ type: 'submit' }];
  if (key.backspace || key.delete) return [{ type: 'erase' }];
  if (key.ctrl || key.meta) return [];
  const lineEnd = /[\r\n]/.exec(input);
  // eslint-disable-next-line no-control-regex
  const text = (lineEnd ? input.slice(0, lineEnd.index) : input).replace(/[\u0000-\u001f\u007f]/g, '');
  const actions: SecretAction[] = text ? [{ type: 'type', text }] : [];
  if (lineEnd) actions.push({ type: 'submit' });
  return actions;
}
