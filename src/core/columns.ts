/**
 * The one column engine of every terminal table (the printed `list` table, the interactive browser, the
 * dashboard, the bulk previews): which columns fit a width and how wide each is.
 *
 * Each column declares how it narrows. A `whole` column (ids, times, statuses, amounts) is never cut: times come
 * already in their short form from the time rule (core/when.ts), so a time is `Thu 22:00` or `11-26 22:00`,
 * never `Thu 11-26 2…`. A `cut` column (free text: names, e-mails, titles) gives up width first, the widest
 * first, down to its minimum, and is cut with `…`. Columns with a priority above 0 are dropped when even that
 * does not fit, the highest number first; the header then ends with `›` to say columns are hidden.
 *
 * Widths are display widths (string-width: CJK and emoji take two cells, combining marks none), not `.length`,
 * so `瑜伽 Yoga 🧘 Flow` does not shift the columns after it.
 */
import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';

/** How one column of a terminal table behaves on a narrow terminal. */
export interface ColumnShape {
  /** The header text (upper case by convention). */
  header: string;
  /** `cut`: free text, cut with `…` down to `min`; `whole`: never cut (ids, times, statuses, amounts). */
  fit?: 'cut' | 'whole';
  /** Narrowest display width a `cut` column is cut to (default 10, or less when every cell is narrower). */
  min?: number;
  /** Dropped when the table does not fit, the highest number first; 0 (the default) is never dropped. */
  priority?: number;
  align?: 'left' | 'right';
  /** Widest a `cut` column is drawn (default 60): a column whose end matters (a label ending in a time) asks for more. */
  widest?: number;
  /**
   * Display width a `cut` column asks for before any column dropped ahead of it (a higher priority number) may
   * stay (default: its text up to 40 for a key column, a readable 20 for a droppable one). Once those are gone it
   * narrows like any other, down to `min`: a command line wants its whole length on a wide terminal and still
   * shows, shorter, on a narrow one.
   */
  want?: number;
  /**
   * Which end of a cell a `cut` column gives up: `end` (the default: `Deep Tissue Mas…`) or `start`, for text
   * whose end matters most (a command line: `…members approve --status PENDING`), whole leading words first.
   */
  cutFrom?: 'end' | 'start';
}

/** Which columns a table shows and how wide each is. */
export interface ColumnPlan {
  /** Indexes of the shown columns, in order. */
  kept: number[];
  /** Display width of each shown column (same order as `kept`). */
  widths: number[];
  /** How many columns were dropped (the header then ends with {@link HIDDEN_MARK}). */
  hidden: number;
}

/** The mark at the end of a header line when columns are hidden. */
export const HIDDEN_MARK = '›';

/** A cut column's width before it has to give way to dropped columns (a name this wide is still readable). */
const COMFORTABLE = 20;
/** A key column (never dropped) keeps this much of its text before droppable columns may stay. */
const KEY_WIDEST = 40;
/** No column is drawn wider than this, whatever its widest cell. */
const WIDEST = 60;
const DEFAULT_MIN = 10;

/** Display width of `text` in terminal cells (East Asian wide characters and emoji count two). */
export function displayWidth(text: string): number {
  // Most cells are plain ASCII: counting them directly keeps a 10,000-row table fast.
  return /^[\x20-\x7e]*$/.test(text) ? text.length : stringWidth(text);
}

/** `text` cut to `width` display cells, ending with `…` when cut (a wide character is never split). */
export function cutText(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  return cliTruncate(text, width, { truncationCharacter: '…' });
}

/**
 * `text` cut from its start to `width` display cells, beginning with `…` when cut. Whole leading words go first,
 * so the cell starts at a word (`…members approve --status PENDING`), unless that leaves more than a third of the
 * width empty: then the text is cut inside a word (a wide character is never split).
 */
export function cutStart(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  const cut = cliTruncate(text, width, { position: 'start', truncationCharacter: '…' });
  for (let at = text.indexOf(' '); at !== -1; at = text.indexOf(' ', at + 1)) {
    const rest = text.slice(at + 1);
    const w = displayWidth(rest) + 1;
    if (w > width) continue;
    return width - w <= Math.floor(width / 3) && rest ? `…${rest}` : cut;
  }
  return cut;
}

/** `text` cut to `width` (from its end, or with `from: 'start'` from its start) and padded with spaces to exactly `width` display cells. */
export function fitText(text: string, width: number, align: 'left' | 'right' = 'left', from: 'end' | 'start' = 'end'): string {
  const cut = from === 'start' ? cutStart(text, width) : cutText(text, width);
  const pad = ' '.repeat(Math.max(0, width - displayWidth(cut)));
  return align === 'right' ? pad + cut : cut + pad;
}

/**
 * The columns that fit `width` display cells with `gap` between columns, given the cells of (a sample of) the
 * rows, each row's cells in the order of `shapes`.
 *
 * Order of giving way: columns are dropped (highest priority number first) while the kept ones do not fit with
 * every key column (priority 0) whole (up to 40 cells) and the others at a readable width (or, while columns
 * dropped before it are kept, at its `want`); then cut columns narrow, the widest first, down to their minimum; when they all are at
 * their minimum and it still does not fit, the next droppable column goes. Whole columns are never narrowed; a
 * table of only whole columns wider than `width` is cut at the edge by the caller. With a column hidden, the
 * plan leaves two cells for the {@link HIDDEN_MARK}.
 */
export function planColumns(shapes: readonly ColumnShape[], rows: ReadonlyArray<readonly string[]>, width: number, gap = 2): ColumnPlan {
  const natural = shapes.map((s, i) => {
    let w = displayWidth(s.header);
    for (const row of rows) w = Math.max(w, displayWidth(row[i] ?? ''));
    return s.fit === 'whole' ? w : Math.min(w, s.widest ?? WIDEST);
  });
  const least = shapes.map((s, i) => (s.fit === 'whole' ? natural[i]! : Math.min(natural[i]!, s.min ?? DEFAULT_MIN)));
  // What a column asks for before a droppable one may stay: a column that is never dropped (a key column)
  // its whole text, up to KEY_WIDEST; a droppable cut column a readable width.
  const comfortable = shapes.map((s, i) => (s.fit === 'whole' ? natural[i]! : (s.priority ?? 0) > 0 ? Math.min(natural[i]!, Math.max(least[i]!, COMFORTABLE)) : Math.min(natural[i]!, KEY_WIDEST)));
  // A column's `want`, asked of the columns that are dropped before it: its own comfortable width once none is left.
  const wanted = shapes.map((s, i) => (s.fit === 'whole' || s.want === undefined ? comfortable[i]! : Math.min(natural[i]!, Math.max(comfortable[i]!, s.want))));

  const plan = (avail: number): ColumnPlan => {
    const kept = shapes.map((_, i) => i);
    const total = (w: (i: number) => number) => kept.reduce((sum, i) => sum + w(i), 0) + gap * Math.max(0, kept.length - 1);
    const dropOne = (): boolean => {
      let drop = -1;
      for (const i of kept) if ((shapes[i]!.priority ?? 0) > 0 && (drop < 0 || shapes[i]!.priority! >= shapes[drop]!.priority!)) drop = i;
      if (drop < 0) return false;
      kept.splice(kept.indexOf(drop), 1);
      return true;
    };
    const rank = (i: number) => shapes[i]!.priority ?? 0;
    const asks = (i: number) => (wanted[i] !== comfortable[i] && kept.some((k) => rank(k) > rank(i)) ? wanted[i]! : comfortable[i]!);
    while (total(asks) > avail && dropOne());
    const widths = new Map(kept.map((i) => [i, natural[i]!]));
    for (;;) {
      let over = total((i) => widths.get(i)!) - avail;
      while (over > 0) {
        let widest = -1;
        for (const i of kept) if (widths.get(i)! > least[i]! && (widest < 0 || widths.get(i)! > widths.get(widest)!)) widest = i;
        if (widest < 0) break;
        widths.set(widest, widths.get(widest)! - 1);
        over -= 1;
      }
      if (over <= 0 || !dropOne()) break;
      for (const i of kept) widths.set(i, natural[i]!);
    }
    return { kept, widths: kept.map((i) => widths.get(i)!), hidden: shapes.length - kept.length };
  };

  const first = plan(width);
  return first.hidden ? plan(width - 2) : first;
}

/** One line of a table: the kept cells fitted to the plan's widths, `gap` spaces between, trailing spaces trimmed. */
export function planLine(plan: ColumnPlan, shapes: readonly ColumnShape[], cells: readonly string[], gap = 2): string {
  return plan.kept
    .map((i, k) => fitText(cells[i] ?? '', plan.widths[k]!, shapes[i]!.align, shapes[i]!.cutFrom))
    .join(' '.repeat(gap))
    .trimEnd();
}

/** The header line of a table: the kept headers, with {@link HIDDEN_MARK} at the end when columns are hidden. */
export function planHeader(plan: ColumnPlan, shapes: readonly ColumnShape[], gap = 2, headers: readonly string[] = shapes.map((s) => s.header)): string {
  const line = plan.kept.map((i, k) => fitText(headers[i] ?? '', plan.widths[k]!, shapes[i]!.align)).join(' '.repeat(gap));
  return plan.hidden ? `${line} ${HIDDEN_MARK}` : line.trimEnd();
}

/**
 * Words of `text` wrapped to `width` display cells; continuation lines start with `indent` spaces. A word wider
 * than the line is cut, or with `whole` broken over as many lines as it takes (nothing of the text is lost).
 */
export function wrapText(text: string, width: number, indent = 0, opts: { whole?: boolean } = {}): string[] {
  const lines: string[] = [];
  let line = '';
  // A piece of a broken word ends its line: the next piece is not joined to it by a space.
  let full = false;
  for (const word of text.split(/ +/)) {
    const pieces = opts.whole ? breakWord(word, Math.max(1, width - indent)) : [word];
    for (const [k, piece] of pieces.entries()) {
      const candidate = line ? `${line} ${piece}` : `${lines.length ? ' '.repeat(indent) : ''}${piece}`;
      if (!full && (displayWidth(candidate) <= width || !line)) {
        line = displayWidth(candidate) <= width ? candidate : cutText(candidate, width);
      } else {
        lines.push(line);
        line = cutText(`${' '.repeat(indent)}${piece}`, width);
      }
      full = k < pieces.length - 1;
    }
  }
  lines.push(line);
  return lines;
}

/** `word` in pieces of at most `width` display cells (one piece when it fits; a wide character is never split). */
function breakWord(word: string, width: number): string[] {
  if (displayWidth(word) <= width) return [word];
  const pieces: string[] = [];
  let piece = '';
  for (const ch of word) {
    if (piece && displayWidth(piece + ch) > width) {
      pieces.push(piece);
      piece = '';
    }
    piece += ch;
  }
  if (piece) pieces.push(piece);
  return pieces;
}
