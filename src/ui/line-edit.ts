/**
 * The line editor of every text input of the UI (the browser's `/` filter line, the hidden-entry prompt), pure:
 * a key press in the shape of Ink's `useInput` arguments -> edit operations, and the operations applied to a
 * line with a cursor, readline's keys: Backspace, Ctrl-U (erase to the start), Ctrl-W (erase the word before
 * the cursor), Ctrl-A / Home, Ctrl-E / End, ← / → (Ctrl-B / Ctrl-F), Enter, Esc.
 *
 * Ink hands a chunk of input that arrived in one read (a paste, key repeat over SSH, a slow link) to `useInput`
 * as one string, and recognises a key only when the chunk is that key alone: two Backspaces in one chunk come
 * as `"\x7f\x7f"` with no key flag. {@link lineKeys} reads such a chunk character by character, so each key in
 * it counts. (Neither `@inkjs/ui`'s TextInput 2.0 nor `ink-text-input` 6.0 does: both insert or drop the
 * chunk, and neither has Ctrl-U or Ctrl-W.)
 */

/** A line being edited: its text and the cursor (a UTF-16 index, always on a code point boundary). */
export interface LineState {
  text: string;
  cursor: number;
}

/** One edit of a line, or the end of the entry. */
export type LineKey =
  | { type: 'insert'; text: string }
  | { type: 'erase' }
  | { type: 'erase-start' }
  | { type: 'erase-word' }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'submit' }
  | { type: 'cancel' };

/** The key flags the editor reads, in the shape of Ink's `useInput` arguments. */
export interface LineKeyInfo {
  leftArrow?: boolean;
  rightArrow?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  tab?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
}

/** A line holding `text` with the cursor at its end. */
export function lineOf(text: string): LineState {
  return { text, cursor: text.length };
}

const CTRL: Record<string, LineKey['type']> = { u: 'erase-start', w: 'erase-word', a: 'home', e: 'end', b: 'left', f: 'right', h: 'erase' };
const RAW: Record<string, LineKey['type']> = { '\x7f': 'erase', '\b': 'erase', '\x15': 'erase-start', '\x17': 'erase-word', '\x01': 'home', '\x05': 'end', '\x02': 'left', '\x06': 'right', '\r': 'submit', '\n': 'submit' };

/**
 * The edits one Ink key press stands for, in order. A recognised key is one edit; a chunk of several
 * characters is read one character at a time (printable runs become one insert; Backspace, Ctrl-U, Ctrl-W,
 * Ctrl-A, Ctrl-E and Enter inside it each count); other control characters are dropped.
 */
export function lineKeys(input: string, key: LineKeyInfo): LineKey[] {
  if (key.escape) return [{ type: 'cancel' }];
  if (key.return) return [{ type: 'submit' }];
  if (key.backspace || key.delete) return [{ type: 'erase' }];
  if (key.leftArrow) return [{ type: 'left' }];
  if (key.rightArrow) return [{ type: 'right' }];
  if (key.home) return [{ type: 'home' }];
  if (key.end) return [{ type: 'end' }];
  if (key.ctrl) {
    const type = CTRL[input];
    return type ? [{ type } as LineKey] : [];
  }
  if (key.meta || key.tab) return [];
  const out: LineKey[] = [];
  let text = '';
  for (const ch of input) {
    const type = RAW[ch];
    // eslint-disable-next-line no-control-regex
    if (!type && !/[\u0000-\u001f\u007f-\u009f]/.test(ch)) {
      text += ch;
      continue;
    }
    if (text) out.push({ type: 'insert', text });
    text = '';
    if (type) out.push({ type } as LineKey);
  }
  if (text) out.push({ type: 'insert', text });
  return out;
}

/** The index of the code point boundary before `i` in `text`. */
function before(text: string, i: number): number {
  if (i <= 0) return 0;
  const low = text.charCodeAt(i - 1);
  return i >= 2 && low >= 0xdc00 && low <= 0xdfff ? i - 2 : i - 1;
}

/** The index of the code point boundary after `i` in `text`. */
function after(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const cp = text.codePointAt(i)!;
  return i + (cp > 0xffff ? 2 : 1);
}

/** Applies one edit (submit and cancel leave the line as it is: the caller acts on them). */
export function editLine(line: LineState, key: LineKey): LineState {
  const { text, cursor } = line;
  switch (key.type) {
    case 'insert':
      return { text: text.slice(0, cursor) + key.text + text.slice(cursor), cursor: cursor + key.text.length };
    case 'erase': {
      const from = before(text, cursor);
      return { text: text.slice(0, from) + text.slice(cursor), cursor: from };
    }
    case 'erase-start':
      return { text: text.slice(cursor), cursor: 0 };
    case 'erase-word': {
      // readline's unix-word-rubout: the spaces before the cursor, then the word before them.
      let from = cursor;
      while (from > 0 && text[from - 1] === ' ') from--;
      while (from > 0 && text[from - 1] !== ' ') from--;
      return { text: text.slice(0, from) + text.slice(cursor), cursor: from };
    }
    case 'home':
      return { text, cursor: 0 };
    case 'end':
      return { text, cursor: text.length };
    case 'left':
      return { text, cursor: before(text, cursor) };
    case 'right':
      return { text, cursor: after(text, cursor) };
    case 'submit':
    case 'cancel':
      return line;
  }
}

/**
 * The words of `words` that start with `text` (any case), in the list's order: what Tab may complete it to.
 */
export function completions(words: readonly string[], text: string): string[] {
  const t = text.trim().toLowerCase();
  return words.filter((w) => w.toLowerCase().startsWith(t));
}

/**
 * `text` completed from `words` (Tab on the `:` line): to the longest prefix the words it starts have in common
 * (`p` -> `plan`); when that adds nothing, to the next word it starts (`plan` -> `plans`, `s` -> `services`).
 * Unchanged when no word starts so.
 */
export function completeWord(words: readonly string[], text: string): string {
  const t = text.trim().toLowerCase();
  const found = completions(words, t);
  if (found.length === 0) return text;
  let common = found[0]!.toLowerCase();
  for (const w of found) while (!w.toLowerCase().startsWith(common)) common = common.slice(0, -1);
  if (common.length > t.length) return common;
  const at = found.findIndex((w) => w.toLowerCase() === t);
  return found[(at + 1) % found.length]!;
}
