/**
 * State of the hidden-entry prompt (an API key, a password or an e-mail code typed or pasted on a terminal) as a
 * pure reducer, like the confirm prompt: a line editor (line-edit.ts: Backspace, Ctrl-U, Ctrl-W, Ctrl-A/E,
 * ← →, each key of a chunk counted), Enter submits, Esc and Ctrl-C cancel; what is typed is never drawn (the
 * view shows one `*` per character, so the user sees the paste landed).
 */
import { editLine, type LineKey, type LineKeyInfo, lineKeys, lineOf, type LineState } from './line-edit.js';

export interface SecretState {
  line: LineState;
  status: 'pending' | 'submitted' | 'cancelled';
}

export type SecretAction = { type: 'edit'; key: LineKey } | { type: 'submit' } | { type: 'cancel' };

export const initialSecretState: SecretState = { line: lineOf(''), status: 'pending' };

/** Applies one action; after submit or cancel the state no longer changes. */
export function secretReducer(state: SecretState, action: SecretAction): SecretState {
  if (state.status !== 'pending') return state;
  switch (action.type) {
    case 'edit':
      return { ...state, line: editLine(state.line, action.key) };
    case 'submit':
      return { ...state, status: 'submitted' };
    case 'cancel':
      return { ...state, status: 'cancelled' };
  }
}

/**
 * Maps a key press (or a whole chunk: a paste, several keys in one read) to actions, key by key. A paste that
 * ends with a newline types the text and submits; nothing after the submit counts.
 */
export function secretKeyActions(input: string, key: LineKeyInfo): SecretAction[] {
  if (key.ctrl && input === 'c') return [{ type: 'cancel' }];
  const actions: SecretAction[] = [];
  for (const edit of lineKeys(input, key)) {
    if (edit.type === 'submit' || edit.type === 'cancel') return [...actions, { type: edit.type }];
    actions.push({ type: 'edit', key: edit });
  }
  return actions;
}
