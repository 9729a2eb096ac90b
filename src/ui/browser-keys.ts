/**
 * The browser's key map, pure: a key press (in the shape of Ink's `useInput` arguments) and the mode it comes in
 * -> reducer actions of browser-state.ts, or what only the component can do (quit, answer a question, run a
 * pane's action, jump to another noun). k9s keeps its bindings as data in the same way: the list's own keys are
 * declared once ({@link LIST_KEYS}), and the key map, the help overlay and the collision test all read them.
 */
import type { BrowserAction, BrowserState } from './browser-state.js';
import { editLine, lineKeys } from './line-edit.js';

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

/**
 * What a key press means besides reducer actions: leave (q or Ctrl-C), run the pane action bound to a key, answer
 * the open question, or open the list of the noun typed on the `:` line.
 */
export type KeyOutcome =
  | { kind: 'actions'; actions: BrowserAction[] }
  | { kind: 'quit'; interrupted: boolean }
  | { kind: 'run'; key: string }
  | { kind: 'answer'; yes: boolean }
  | { kind: 'jump'; word: string }
  /** `y`: copy the selected row's full id to the terminal's clipboard (OSC 52). */
  | { kind: 'copy' }
  | { kind: 'none' };

/** What the view binds besides its own keys: they change with the active pane and the command. */
export interface ViewKeys {
  /** The single-key actions of the active pane (c, d, x, a, b, p, u, m), from the nouns' declarations. */
  actions: readonly string[];
  /** Per column of the active pane, the Shift-letter that sorts by it ({@link sortKeys}); undefined: none. */
  sorts?: ReadonlyArray<string | undefined>;
  /** The words `:` takes and completes (the browsable nouns and their aliases); absent: the view has no `:`. */
  words?: readonly string[];
}

/** When a declared key is bound (and listed): always, with pane actions, with several panes, with a `:` jump. */
export type KeyScope = 'always' | 'actions' | 'panes' | 'jump';

/** One of the list's own keys as declared: its name and text in help, and what each character typing it does. */
export interface ListKey {
  /** How help names it: `s S`, `↑ ↓ j k`, `tab shift-tab`. */
  name: string;
  help: string;
  scope: KeyScope;
  /**
   * The characters that type it, each with what it does. Keys read from Ink's flags only (arrows, page keys,
   * tab, enter, esc) are handled before these and have no character here.
   */
  chars: Readonly<Record<string, (state: BrowserState) => KeyOutcome>>;
  /** The column sort keys ({@link sortKeys}, bound per pane): help lists each letter and its column after the text. */
  columns?: true;
}

const acts = (...actions: BrowserAction[]): KeyOutcome => ({ kind: 'actions', actions });

/**
 * The list's own keys, in help's order. The column sort keys (Shift and a letter of the header, {@link sortKeys})
 * and the pane's actions come on top of these.
 */
export const LIST_KEYS: readonly ListKey[] = [
  { name: '↑ ↓ j k', help: 'move; pgup pgdn a page', scope: 'always', chars: { k: () => acts({ type: 'move', delta: -1 }), j: () => acts({ type: 'move', delta: 1 }) } },
  { name: 'g G home end', help: 'first, last row', scope: 'always', chars: { g: () => acts({ type: 'home' }), G: () => acts({ type: 'end' }) } },
  { name: 'space', help: 'mark / unmark a row; esc clears the marks', scope: 'actions', chars: { ' ': () => acts({ type: 'select' }) } },
  { name: 'enter', help: 'details (↑ ↓ pgup pgdn scroll them); esc back', scope: 'always', chars: {} },
  {
    name: '/',
    help: "filter: field=value (as --where) and the list's own flags (--status A,B) ask the server; the whole filter is on the line: ctrl-u clears, ctrl-w erases a word, ← → ctrl-a ctrl-e move",
    scope: 'always',
    chars: { '/': () => acts({ type: 'filter-start' }) },
  },
  { name: ':', help: "another noun's list (:members, :plan): tab completes, enter opens it here, esc cancels", scope: 'jump', chars: { ':': () => acts({ type: 'command-start' }) } },
  {
    name: 's S',
    help: 'sort by the next column, reverse: by the server when it can, else the loaded rows (the title says so)',
    scope: 'always',
    chars: { s: () => acts({ type: 'sort-next' }), S: () => acts({ type: 'sort-flip' }) },
  },
  { name: 'shift-letter', help: 'sort by that column, again reverses:', scope: 'always', chars: {}, columns: true },
  {
    name: 'y',
    help: "copy the row's full id to the clipboard (OSC 52)",
    scope: 'always',
    chars: { y: () => ({ kind: 'copy' }) },
  },
  { name: 'o →', help: 'show the columns that do not fit (› in the header says some are hidden) instead of the optional ones; again to go back', scope: 'always', chars: { o: () => acts({ type: 'reveal' }) } },
  { name: 'tab shift-tab', help: 'next, previous pane', scope: 'panes', chars: {} },
  // On a linked view r also looks the source's address up again; the panes are read once it answers.
  { name: 'r', help: 'refresh (retry now while disconnected)', scope: 'always', chars: { r: (s) => acts(s.linked ? { type: 'relink' } : { type: 'refresh' }) } },
  { name: '?', help: 'this help (↑ ↓ scroll it)', scope: 'always', chars: { '?': () => acts({ type: 'help', open: true }) } },
  { name: 'q ctrl-c', help: 'quit', scope: 'always', chars: { q: () => ({ kind: 'quit', interrupted: false }) } },
];

/** Whether a declared key is bound in a view with `panes` panes and these keys. */
export function inScope(key: ListKey, view: ViewKeys, panes: number): boolean {
  switch (key.scope) {
    case 'always':
      return true;
    case 'actions':
      return view.actions.length > 0;
    case 'panes':
      return panes > 1;
    case 'jump':
      return view.words !== undefined;
  }
}

/** Every character the list's own keys are typed as, whatever the view (what the column sort keys must avoid). */
export const OWN_CHARS: readonly string[] = LIST_KEYS.flatMap((k) => Object.keys(k.chars));

/**
 * The Shift-letter sort key of each column, k9s style: the first letter of its header (as an upper-case letter)
 * that no key of the view takes, neither the list's own (G, S), nor a pane action's, nor an earlier column's;
 * undefined for a header with no such letter. Read over every column, shown or not, so a column keeps its key
 * whatever the width.
 */
export function sortKeys(columns: readonly string[], actions: readonly string[] = []): Array<string | undefined> {
  const taken = new Set([...OWN_CHARS, ...actions]);
  return columns.map((header) => {
    for (const ch of header.toUpperCase()) {
      if (ch < 'A' || ch > 'Z' || taken.has(ch)) continue;
      taken.add(ch);
      return ch;
    }
    return undefined;
  });
}

/**
 * Every character key bound in the list of a view with `panes` panes, one entry per binding (a key bound twice is
 * there twice): the list's own keys in scope, the column sort keys and the pane's actions.
 */
export function boundKeys(view: ViewKeys, panes: number): string[] {
  const own = LIST_KEYS.filter((k) => inScope(k, view, panes)).flatMap((k) => Object.keys(k.chars));
  return [...own, ...(view.sorts ?? []).filter((k): k is string => k !== undefined), ...view.actions];
}

/** Maps a key press to what it does in the current mode, for a view with these pane actions, sort keys and words. */
export function browserKey(state: BrowserState, input: string, key: BrowserKey, view: ViewKeys): KeyOutcome {
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
    case 'command': {
      // The `:` line: the same editor, Tab completing from the view's words; Enter opens what it names.
      if (key.tab || input === '\t') return acts({ type: 'command-complete', words: view.words ?? [] });
      const actions: BrowserAction[] = [];
      let line = state.input;
      for (const edit of lineKeys(input, key)) {
        if (edit.type === 'cancel') return acts(...actions, { type: 'command-cancel' });
        // The component closes the line and opens the list (or says why not); an empty line just closes.
        if (edit.type === 'submit') return line.text.trim() ? { kind: 'jump', word: line.text.trim() } : acts({ type: 'command-cancel' });
        actions.push({ type: 'command-edit', key: edit });
        line = editLine(line, edit);
      }
      return actions.length ? acts(...actions) : { kind: 'none' };
    }
    case 'help':
      if (input === 'q' || input === '?' || key.escape || key.return) return acts({ type: 'help', open: false });
      return scroll(state, input, key) ?? { kind: 'none' };
    case 'detail':
      if (input === 'q' || key.escape || key.return || key.leftArrow) return acts({ type: 'detail', open: false });
      if (view.actions.includes(input)) return { kind: 'run', key: input };
      return scroll(state, input, key) ?? { kind: 'none' };
    case 'list':
      break;
  }
  if (key.upArrow) return acts({ type: 'move', delta: -1 });
  if (key.downArrow) return acts({ type: 'move', delta: 1 });
  if (key.pageUp) return acts({ type: 'page', delta: -1 });
  if (key.pageDown) return acts({ type: 'page', delta: 1 });
  if (key.home) return acts({ type: 'home' });
  if (key.end) return acts({ type: 'end' });
  if (key.tab) return acts({ type: 'pane', delta: key.shift ? -1 : 1 });
  if (key.return) return acts({ type: 'detail', open: true });
  if (key.escape) return acts({ type: 'clear-selection' });
  if (key.rightArrow) return acts({ type: 'reveal' });
  const panes = state.panes.length;
  for (const k of LIST_KEYS) {
    const does = k.chars[input];
    if (does && inScope(k, view, panes)) return does(state);
  }
  const col = input.length === 1 ? (view.sorts ?? []).indexOf(input) : -1;
  if (col >= 0) return acts({ type: 'sort-by', col });
  if (view.actions.includes(input)) return { kind: 'run', key: input };
  return { kind: 'none' };
}

/** The scroll keys of an overlay (details, help): ↑ ↓ j k, page keys, g G home end. */
function scroll(state: BrowserState, input: string, key: BrowserKey): KeyOutcome | undefined {
  if (key.upArrow || input === 'k') return acts({ type: 'detail-scroll', delta: -1 });
  if (key.downArrow || input === 'j') return acts({ type: 'detail-scroll', delta: 1 });
  if (key.pageUp) return acts({ type: 'detail-scroll', delta: -state.height });
  if (key.pageDown) return acts({ type: 'detail-scroll', delta: state.height });
  if (key.home || input === 'g') return acts({ type: 'detail-scroll', delta: -Infinity });
  if (key.end || input === 'G') return acts({ type: 'detail-scroll', delta: Infinity });
  return undefined;
}

/**
 * The OSC 52 sequence that puts `text` on the terminal's clipboard (`ESC ] 52 ; c ; BASE64 BEL`): xterm, iTerm2,
 * kitty, Windows Terminal and others take it, over SSH too; tmux passes it on with `set-clipboard on`.
 */
export function osc52(text: string): string {
  return `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
}
