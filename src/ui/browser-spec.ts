/**
 * What a command hands the interactive browser (types only): its panes, each with a reader of pages of rows, the
 * entity detail and single-key actions. Plain data and callbacks: the browser never calls the API itself.
 */
import type { ColumnShape } from '../core/columns.js';
import type { UiRow } from './browser-state.js';

/** One page of rows from the command's reader. */
export interface UiPage {
  rows: UiRow[];
  /** No page follows. */
  done: boolean;
  /** How many rows the platform says the query matches over every page (its count, not the rows read). */
  total?: number;
  /**
   * The rows are the pane's whole list so far, not one more page: they replace the rows shown (the cursor kept on
   * its row), and while not `done` the next is read at once, not when the cursor comes near the end (a work list
   * read whole, shown from its first page on).
   */
  whole?: boolean;
}

/** Reads a pane's rows page by page; `open` starts again from the first page. */
export interface PageReader {
  next(): Promise<UiPage>;
}

/** What an action may ask of the UI while it runs: a yes/no question with preview lines, and progress. */
export interface ActionIO {
  confirm(question: string, lines?: string[]): Promise<boolean>;
  progress(title: string, done: number, total: number, failed: number): void;
}

/** A single-key action of a pane (`c` confirm). `run` gets the marked ids (or the row's) and says what happened. */
export interface UiAction {
  key: string;
  label: string;
  /** Confirmed before anything is sent, even for one row. */
  destructive?: boolean;
  run(ids: string[], io: ActionIO): Promise<string>;
}

/** A sort by a column of the pane: its index and direction. */
export interface ColumnSort {
  col: number;
  desc: boolean;
}

/** A pane as the command describes it. */
export interface PaneSpec {
  id: string;
  title: string;
  columns: string[];
  /**
   * Per column, how it narrows on a narrow terminal (core/columns.ts): never cut (`fit: 'whole'`: ids, times),
   * its minimum, and its drop priority (highest number dropped first; 0, the default, always shown).
   */
  shapes?: ReadonlyArray<Omit<ColumnShape, 'header'>>;
  /**
   * The server filter the pane opens with, in `--where` syntax (the command's `--where`/`--status`): shown in
   * the header and in the filter line, where it is edited as a whole with the rest of the filter.
   */
  server?: string;
  /**
   * Per column: `open` can have the server sort by it, so `s` reads the pane again in that order (right over
   * every page); other columns sort the loaded rows only.
   */
  sortable?: readonly boolean[];
  /** The server order `open` reads when given no sort (the command's `--sort`), when it is a sortable column. */
  sort?: ColumnSort;
  /**
   * What the pane's query searches free text in (members: `name, nickname, e-mail`): the text typed after `/`
   * (besides its `field=value` terms) is then handed to `open` and searched on the server, over every page.
   * Without it the text filters the loaded rows only, and the pane says so.
   */
  search?: string;
  /**
   * The only free text {@link search} can search (bookings: a whole e-mail address, which the platform matches
   * exactly); other text filters the loaded rows, and the pane says so. Undefined: any text.
   */
  searchWhen?: RegExp;
  /**
   * A reader of the pane's rows for a server filter in `--where` syntax ('' for none), in the server order of
   * `sort` (a {@link sortable} column; undefined: the command's own order), and, for a pane with {@link search},
   * the free text to search ('' for none).
   * @throws Error with a one-line message when the filter is refused (shown in the pane)
   */
  open(server: string, sort?: ColumnSort, text?: string): PageReader;
  /** The readable key/value lines of one row's entity (the `get` view). */
  detail?(id: string): Promise<Array<[string, string]>>;
  actions?: UiAction[];
  /** What the pane says while it has no rows and no filter (default `nothing here`). */
  empty?: string;
}

/**
 * How a view learns that its source stopped answering and gets it back (browser-link.ts): the command's
 * callbacks, called by the browser; the browser never calls the API itself.
 */
export interface SourceLink {
  /**
   * One short read of the source (it gives up within 2 s). Resolves when the source answered, whatever it
   * answered; rejects, with a one-line reason, when it did not (refused, unreachable, timed out).
   */
  probe(signal: AbortSignal): Promise<void>;
  /** Looks the source's address up again before a retry (the local emulator started again on another port). */
  relink(): Promise<void>;
}

/** A view `:` opens in place of the current one: its title, its panes and the zone its times are in. */
export interface JumpView {
  title: string;
  panes: PaneSpec[];
  zone?: string;
}

/**
 * What `:` jumps to (k9s's `:pods`), from the command: the words it takes, and the view each opens. The browser
 * knows no nouns: it completes from `words`, refuses a word not among them and asks `open` for the view.
 */
export interface ViewJump {
  /** The words `:` takes and Tab completes from (each browsable noun's name and aliases), in the nouns' order. */
  words: readonly string[];
  /**
   * The view a word of `words` opens: the noun's list, as `sitectl browse NOUN` shows it.
   * @throws Error with a one-line message when it cannot be opened (shown in the flash line; the view stays)
   */
  open(word: string): Promise<JumpView>;
}

export interface BrowserProps {
  title: string;
  panes: PaneSpec[];
  /** Draw with colour and inverse (false for NO_COLOR and TERM=dumb: markers only). */
  color: boolean;
  /** Read every pane again this often (ms); 0 = never. */
  intervalMs?: number;
  /** Subscribes to changes made elsewhere: `notify(paneIds)` reloads those panes (all when omitted). */
  live?(notify: (paneIds?: string[]) => void): () => void;
  /** After an action, reload these panes (default: the pane acted on). */
  afterAction?: 'all' | 'pane';
  /** Called once when the user leaves: 0 for q, 130 for Ctrl-C. */
  onExit(code: number): void;
  /** The zone times are shown in (named in the header). */
  zone?: string;
  /**
   * A pane whose newest rows also show in a strip under the active one when the terminal is tall enough
   * (the dashboard's events: what happens stays in view while you work in another pane).
   */
  strip?: string;
  /**
   * The source's liveness: checked every half second; while it does not answer the view says "disconnected —
   * retrying (Ns)", its rows are marked stale, actions are refused at once, and each retry looks the address up
   * again (`r` retries now). Without it, read failures show as they are.
   */
  link?: SourceLink;
  /**
   * `:NOUN` opens another noun's list in place of this view (the interval, live notices and strip of this view do
   * not carry over); without it `:` does nothing.
   */
  jump?: ViewJump;
}
