/**
 * Column layout of a table, pure: widths fitted to the terminal, cells cut with an ellipsis. The Ink view only
 * draws what this computes.
 */

export interface TableColumn {
  /** Key of the row object. */
  key: string;
  /** Header text; defaults to the key. */
  header?: string;
  /** Narrowest width before the cell is cut (default 4). */
  minWidth?: number;
}

export type TableRow = Record<string, unknown>;

/** A cell as text: strings as they are, other values as compact JSON, absent as an empty cell. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.replace(/\s*\n\s*/g, ' ');
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** Cuts `text` to `width` characters, ending with `…` when cut. */
export function truncate(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return text.slice(0, width);
  return `${text.slice(0, width - 1)}…`;
}

/**
 * Column widths that fit `maxWidth` (two spaces between columns): each column wants its widest cell; when the
 * total is too wide, the widest columns give up space first, down to their `minWidth`.
 */
export function columnWidths(columns: readonly TableColumn[], rows: readonly TableRow[], maxWidth: number): number[] {
  const widths = columns.map((c) => {
    let w = (c.header ?? c.key).length;
    for (const row of rows) w = Math.max(w, cellText(row[c.key]).length);
    return w;
  });
  const gap = 2 * Math.max(0, columns.length - 1);
  let over = widths.reduce((a, b) => a + b, 0) + gap - maxWidth;
  while (over > 0) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      const min = Math.max(columns[i].minWidth ?? 4, 1);
      if (widths[i] > min && (widest < 0 || widths[i] > widths[widest])) widest = i;
    }
    if (widest < 0) break;
    widths[widest] -= 1;
    over -= 1;
  }
  return widths;
}

/** The header and body lines of a table as padded cells (one string per cell). */
export function layoutTable(
  columns: readonly TableColumn[],
  rows: readonly TableRow[],
  maxWidth: number,
): { widths: number[]; header: string[]; body: string[][] } {
  const widths = columnWidths(columns, rows, maxWidth);
  const pad = (text: string, i: number) => truncate(text, widths[i]).padEnd(widths[i]);
  return {
    widths,
    header: columns.map((c, i) => pad(c.header ?? c.key, i)),
    body: rows.map((row) => columns.map((c, i) => pad(cellText(row[c.key]), i))),
  };
}
