/** The line editor of every text input (ui/line-edit.ts) and the hidden prompt built on it. */
import { describe, expect, it } from 'vitest';
import { editLine, lineKeys, lineOf, type LineState } from '../../../src/ui/line-edit.js';
import { initialSecretState, secretKeyActions, secretReducer } from '../../../src/ui/secret-state.js';

function type(line: LineState, input: string, key = {}): LineState {
  return lineKeys(input, key).reduce(editLine, line);
}

describe('line editor', () => {
  it('applies each key of a chunk: two Backspaces in one read erase two characters', () => {
    expect(type(lineOf('status=BLOCKEDxx'), '\x7f\x7f')).toEqual({ text: 'status=BLOCKED', cursor: 14 });
    expect(type(lineOf('abc'), 'de\x7ff')).toEqual({ text: 'abcdf', cursor: 5 });
  });
  it('erases to the start (Ctrl-U) and the word before the cursor (Ctrl-W), as a key or inside a chunk', () => {
    expect(type(lineOf('status=PENDING name=x'), 'w', { ctrl: true })).toEqual({ text: 'status=PENDING ', cursor: 15 });
    expect(type(lineOf('status=PENDING'), 'u', { ctrl: true })).toEqual({ text: '', cursor: 0 });
    expect(type(lineOf('status=PENDING'), '\x15status=BLOCKED')).toEqual({ text: 'status=BLOCKED', cursor: 14 });
  });
  it('moves with ← → Ctrl-A Ctrl-E and inserts at the cursor, a wide character as one', () => {
    let line = type(lineOf('yoga'), 'a', { ctrl: true });
    expect(line.cursor).toBe(0);
    line = type(line, '', { rightArrow: true });
    line = type(line, 'X');
    expect(line).toEqual({ text: 'yXoga', cursor: 2 });
    line = type(line, 'e', { ctrl: true });
    line = type(type(line, '🧘'), '', { leftArrow: true });
    expect(line.cursor).toBe(5);
    expect(type(type(line, 'e', { ctrl: true }), '', { backspace: true }).text).toBe('yXoga');
  });
  it('ends the entry on Enter (also at the end of a paste) and Esc', () => {
    expect(lineKeys('abc\r', {})).toEqual([{ type: 'insert', text: 'abc' }, { type: 'submit' }]);
    expect(lineKeys('', { escape: true })).toEqual([{ type: 'cancel' }]);
    expect(lineKeys('\x1b', { ctrl: true })).toEqual([]);
  });
  it('drives the hidden prompt: a pasted key with a typo fixed by Backspace', () => {
    const state = [...secretKeyActions('sk_live_x', {}), ...secretKeyActions('\x7f\x7f', {}), ...secretKeyActions('12\r', {})].reduce(secretReducer, initialSecretState);
    expect(state).toMatchObject({ status: 'submitted', line: { text: 'sk_live12' } });
  });
});
